import type { RevisionPage, SiteSpace, SiteStructure } from '../../../../shared/contract';

/** Where a redirect may lead: the site's sections and site spaces, named as readers find them. */
export interface RedirectPlace {
  kind: 'site-section' | 'site-space';
  id: string;
  label: string;
  /** Site spaces: the space whose pages a redirect may name. */
  siteSpace?: SiteSpace;
}

export function redirectPlaces(structure: SiteStructure): RedirectPlace[] {
  const spaces = (list: SiteSpace[], prefix: string) =>
    list.map((ss) => ({ kind: 'site-space' as const, id: ss.id, label: `${prefix}${ss.title}`, siteSpace: ss }));
  if (structure.type === 'siteSpaces') return spaces(structure.structure, '');
  return structure.structure.flatMap((item) =>
    (item.object === 'site-section-group' ? item.sections : [item]).flatMap((section) => [
      { kind: 'site-section' as const, id: section.id, label: `${section.title} (section)` },
      ...spaces(section.siteSpaces, `${section.title} › `),
    ]),
  );
}

/** The pages of a tree, in reading order, with their depth (groups included: they have a URL too). */
export function flatPages(pages: RevisionPage[], depth = 0): Array<{ page: RevisionPage; depth: number }> {
  return pages.flatMap((page) =>
    page.type === 'link' ? [] : [{ page, depth }, ...flatPages(page.pages ?? [], depth + 1)],
  );
}
