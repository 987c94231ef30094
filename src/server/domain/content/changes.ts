import type { SemanticChange } from '../../../shared/contract/change-requests.js';
import type { BlockChange } from './merge.js';
import { workers } from '../../workers/pool.js';
import { blocksToMarkdown } from './blocks.js';
import {
  ROOT,
  REUSABLE,
  isPageKey,
  type FileEntry,
  type PageEntry,
  type RevisionReader,
  pageCoverOf,
  pageLayoutOf,
} from './model.js';
import { jsonEqual, type Json } from './tree.js';

const FIELDS = ['title', 'slug', 'emoji', 'description', 'href'] as const;

/**
 * What changed from `before` to `after`: pages created, edited, moved, deleted; files created, edited, deleted.
 * `fileUrl` gives a file's download URL in a revision.
 */
export async function semanticChanges(
  before: RevisionReader,
  after: RevisionReader,
  fileUrl: (revisionId: string, fileId: string) => string,
): Promise<SemanticChange[]> {
  const changedPage = async (reader: RevisionReader, id: string | null) => {
    const entry = id ? await reader.entry(id) : undefined;
    if (!id || !entry) return undefined;
    const version = await reader.version(entry.v);
    return { id, type: version.type, title: version.title, path: await reader.path(id, entry) };
  };
  const out: SemanticChange[] = [];
  const pageDiff = await before.trie.diff(before.revision.pages_root, after.revision.pages_root);
  for (const { key, before: b, after: a } of pageDiff) {
    if (key === ROOT || key === REUSABLE) continue;
    const was = b as PageEntry | undefined;
    const is = a as PageEntry | undefined;
    if (!isPageKey(key)) {
      // A reusable content: created, deleted, or its title or body edited.
      const [old, now] = await Promise.all([
        was ? before.version(was.v) : undefined,
        is ? after.version(is.v) : undefined,
      ]);
      const current = (now ?? old)!;
      const reusableContent = {
        id: key.slice(REUSABLE.length),
        title: current.title,
        ...(current.document ? { document: current.document } : {}),
      };
      if (!old) out.push({ type: 'reusable_content_created', reusableContent });
      else if (!now) out.push({ type: 'reusable_content_deleted', reusableContent });
      else if (old.title !== now.title || old.document !== now.document) {
        const attributes: Record<string, { before?: string; after?: string }> = {};
        for (const f of ['title', 'document'] as const) {
          if ((old[f] ?? null) === (now[f] ?? null)) continue;
          attributes[f] = {
            ...(old[f] !== undefined ? { before: old[f] } : {}),
            ...(now[f] !== undefined ? { after: now[f] } : {}),
          };
        }
        out.push({ type: 'reusable_content_edited', reusableContent, attributes });
      }
      continue;
    }
    const reader = is ? after : before;
    const entry = (is ?? was)!;
    const version = await reader.version(entry.v);
    const page = { id: key, type: version.type, title: version.title, path: await reader.path(key, entry) };
    if (!was) out.push({ type: 'page_created', page });
    else if (!is) out.push({ type: 'page_deleted', page });
    else {
      if (was.v !== is.v) {
        const old = await before.version(was.v);
        const attributes: Record<string, { before?: unknown; after?: unknown }> = {};
        for (const f of [...FIELDS, 'document' as const]) {
          if ((old[f] ?? null) === (version[f] ?? null)) continue;
          attributes[f] = {
            ...(old[f] !== undefined ? { before: old[f] } : {}),
            ...(version[f] !== undefined ? { after: version[f] } : {}),
          };
        }
        if (!jsonEqual((old.layout ?? null) as Json, (version.layout ?? null) as Json)) {
          attributes.layout = { before: pageLayoutOf(old), after: pageLayoutOf(version) };
        }
        if (!jsonEqual((old.cover ?? null) as Json, (version.cover ?? null) as Json)) {
          attributes.cover = {
            ...(old.cover ? { before: pageCoverOf(old) } : {}),
            ...(version.cover ? { after: pageCoverOf(version) } : {}),
          };
        }
        if (Object.keys(attributes).length) out.push({ type: 'page_edited', page, attributes });
      }
      if (was.p !== is.p) {
        const [from, to] = await Promise.all([changedPage(before, was.p), changedPage(after, is.p)]);
        out.push({
          type: 'page_moved',
          page,
          parent: { ...(from ? { before: from } : {}), ...(to ? { after: to } : {}) },
        });
      }
    }
  }
  const fileDiff = await before.trie.diff(before.revision.files_root, after.revision.files_root);
  for (const { key, before: b, after: a } of fileDiff) {
    const entry = (a ?? b) as unknown as FileEntry;
    const revisionId = (a ? after : before).revision.id;
    const file = { id: key, name: entry.name, contentType: entry.contentType, downloadURL: fileUrl(revisionId, key) };
    out.push({ type: !b ? 'file_created' : !a ? 'file_deleted' : 'file_edited', file });
  }
  return out;
}

/** The block diff of one page between two revisions; undefined when the page is in neither. */
export async function pageDiff(
  before: RevisionReader,
  after: RevisionReader,
  pageId: string,
  /** Its entry in a revision (a reusable content's is read by its key). */
  entryOf: (reader: RevisionReader) => Promise<PageEntry | undefined> = (reader) => reader.entry(pageId),
) {
  const [was, is] = await Promise.all([entryOf(before), entryOf(after)]);
  if (!was && !is) return undefined;
  const side = async (reader: RevisionReader, entry: PageEntry | undefined) => {
    if (!entry) return { meta: null, blocks: [] };
    const version = await reader.version(entry.v);
    const blocks = await reader.document(version);
    return { meta: { title: version.title, markdown: blocksToMarkdown(blocks) }, blocks };
  };
  const [b, a] = await Promise.all([side(before, was), side(after, is)]);
  // Word diffs of a big page cost seconds: done in the worker pool.
  const size = [...b.blocks, ...a.blocks].reduce((sum, block) => sum + block.markdown.length, 0);
  const blocks: BlockChange[] = await workers.run('diffBlocks', { before: b.blocks, after: a.blocks }, size);
  return { page: { id: pageId, title: (a.meta ?? b.meta)!.title }, before: b.meta, after: a.meta, blocks };
}
