import type { RevisionPage } from '../../shared/contract';

// Walks of a page tree (a space's, a revision's, a change request's), for screens and for route loaders alike.

/** The page and its ancestors' ids, from the top; empty when absent. */
export function pagePath(pages: RevisionPage[], id: string): RevisionPage[] {
  for (const page of pages) {
    if (page.id === id) return [page];
    const below = pagePath(page.pages ?? [], id);
    if (below.length > 0) return [page, ...below];
  }
  return [];
}

export function findPage(pages: RevisionPage[], id: string): RevisionPage | undefined {
  return pagePath(pages, id).at(-1);
}

/** The first document page in reading order, if any. */
export function firstDocument(pages: RevisionPage[]): RevisionPage | undefined {
  for (const page of pages) {
    if (page.type === 'document') return page;
    const inside = firstDocument(page.pages ?? []);
    if (inside) return inside;
  }
  return undefined;
}

/** Every page in reading order, with its depth. */
export function flattenPages(pages: RevisionPage[], depth = 0): Array<{ page: RevisionPage; depth: number }> {
  return pages.flatMap((page) => [{ page, depth }, ...flattenPages(page.pages ?? [], depth + 1)]);
}

export function countPages(pages: RevisionPage[]): number {
  return pages.reduce((total, page) => total + 1 + countPages(page.pages ?? []), 0);
}
