import type { Executor } from '../../storage/db.js';
import { RevisionReader, revisionOfSpace, type PageNode } from '../content/model.js';
import { slugify } from '../content/edit.js';
import { fitTitle, type ImportPlan, type PlannedFile } from './plan.js';
import type { PreparedPage } from './markdown.js';

/**
 * Importing into content that already has pages updates them, matched by path, instead of adding a second copy:
 * a page of the import whose path (its parents' slugs and its own, as the first import gave them) is a page's of
 * the content becomes an edit of that page, which keeps its id, comments and the links to it; a group matches a
 * group of the same title at the top. A file of the import whose bytes a file of the same name already has is that
 * file. Nothing the import does not bring is removed.
 */
export interface Matches {
  /** Import refs → the ids of the pages they update. */
  pages: Map<string, string>;
  /** Import refs → the ids of the files they are. */
  files: Map<string, string>;
  /** Import refs → the ids of the reusable contents (of the same slug) they update. */
  reusable: Map<string, string>;
}

/** The page each planned page updates, and the file each loaded file is, in the content at `revisionId`. */
export async function matchExisting(
  db: Executor,
  spaceId: string,
  revisionId: string,
  plan: ImportPlan,
  prepared: Map<string, PreparedPage>,
  files: Array<{ file: PlannedFile; stored: { id: string } }>,
): Promise<Matches> {
  const matches: Matches = { pages: new Map(), files: new Map(), reusable: new Map() };
  const reader = new RevisionReader(db, await revisionOfSpace(db, spaceId, revisionId));
  if (plan.pages.some((p) => p.type === 'reusable')) {
    const bySlug = new Map((await reader.reusableContents()).map((r) => [r.version.slug, r.id]));
    for (const page of plan.pages) {
      const id = page.type === 'reusable' && page.slug ? bySlug.get(page.slug) : undefined;
      if (id) matches.reusable.set(page.ref, id);
    }
  }
  if (!(await reader.rootIds()).length) return matches;
  const byKey = new Map<string, PageNode>();
  const visit = (nodes: PageNode[], top: boolean) => {
    for (const node of nodes) {
      const key =
        node.version.type === 'group' ? (top ? `group:${node.version.title}` : undefined) : `page:${node.path}`;
      if (key && !byKey.has(key)) byKey.set(key, node);
      visit(node.pages, false);
    }
  };
  visit(await reader.tree(), true);

  // Planned pages come parents first: each one's path is its parent's and its own slug, as inserting it gives.
  const pathOf = new Map<string, string>();
  for (const page of plan.pages) {
    if (page.type === 'reusable') continue;
    const parentPath = page.parent ? (pathOf.get(page.parent) ?? '') : '';
    const title = fitTitle(prepared.get(page.ref)?.title ?? page.title);
    const path =
      page.type === 'group' ? parentPath : [parentPath, page.slug || slugify(title)].filter(Boolean).join('/');
    pathOf.set(page.ref, path);
    const found = byKey.get(page.type === 'group' ? `group:${title}` : `page:${path}`);
    if (!found || (page.type === 'group' && page.parent)) continue;
    // A page matches one of its own kind.
    if (found.version.type === page.type) matches.pages.set(page.ref, found.id);
  }

  if (files.length) {
    const existing = new Map<string, string[]>();
    for (const [id, entry] of await reader.files()) existing.set(`${entry.name}\n${entry.blob}`, [id]);
    for (const { file, stored } of files) {
      const same = existing.get(`${file.name}\n${stored.id}`);
      if (same) matches.files.set(file.ref, same[0]!);
    }
  }
  return matches;
}

/**
 * The prepared pages with their links to imported pages and files that matched (`/pages/<new id>`, `/files/<new
 * id>`) naming the matched ones instead. Ids are ULIDs: one never appears inside another text by chance.
 */
export function relinkMatches(
  prepared: Map<string, PreparedPage>,
  plan: ImportPlan,
  ids: Map<string, string>,
  matches: Matches,
): void {
  const renames = new Map<string, string>();
  for (const [ref, id] of matches.pages) renames.set(`/pages/${ids.get(ref)}`, `/pages/${id}`);
  for (const [ref, id] of matches.files) renames.set(`/files/${ids.get(ref)}`, `/files/${id}`);
  for (const [ref, id] of matches.reusable) ids.set(ref, id);
  if (!renames.size) return;
  const rename = (text: string) =>
    text.replace(/\/(?:pages|files)\/[0-9a-z]{26}/g, (found) => renames.get(found) ?? found);
  for (const [ref, page] of prepared) {
    prepared.set(ref, {
      ...page,
      markdown: rename(page.markdown),
      blocks: page.blocks.map((b) => ({ ...b, markdown: rename(b.markdown) })),
      ...(page.cover ? { cover: { ...page.cover, target: rename(page.cover.target) } } : {}),
    });
  }
  for (const page of plan.pages) if (page.href) page.href = rename(page.href);
  for (const [ref, id] of matches.pages) ids.set(ref, id);
  for (const [ref, id] of matches.files) ids.set(ref, id);
}
