import type { Executor } from '../../storage/db.js';
import { putBlob } from '../../storage/repos/objects.js';
import { newId } from '../../lib/ids.js';
import { nowIso } from '../../lib/time.js';
import { breathe } from '../../lib/yield.js';
import { LruCache } from '../../lib/lru-cache.js';
import { InvalidError } from '../errors.js';
import { identifyBlocks, type Block, type SplitBlock } from './blocks.js';
import { nextAnchorAliases } from './anchors.js';
import { PAGE_BLOCKS_MAX } from '../../../shared/markdown-limits.js';

const BLOCKS_MESSAGE = `More than ${PAGE_BLOCKS_MAX} top-level blocks in one page: split it into several pages`;
import type { RevisionReader } from './model.js';
import {
  PAGE_FLAGS,
  REUSABLE,
  isPageKey,
  reusableKey,
  type PageEntry,
  type PageVersion,
  type RevisionWriter,
} from './model.js';
import {
  FILE_MAX_BYTES,
  PAGE_SLUG_MAX,
  layoutOverrides,
  type ContentChange,
  type PageCover,
} from '../../../shared/contract/content.js';
import { imageSize } from 'image-size';

/**
 * Applies a batch of content operations to a change request's working revision. Every failure names the
 * operation (`changes.3.into`), and the caller's transaction then keeps nothing of the batch.
 */
export type AppliedChange =
  | { type: 'created_page' | 'updated_page' | 'deleted_page'; pageId: string; ref?: string }
  | {
      type: 'created_reusable_content' | 'updated_reusable_content' | 'deleted_reusable_content';
      reusableContentId: string;
      ref?: string;
    };

export type FetchedFile =
  | { data: Buffer; contentType?: string }
  | {
      /** A blob stored already: its id and size, and its first bytes or (for an image) the size they say. */
      stored: { id: string; size: number; head?: Buffer; width?: number; height?: number };
      contentType?: string;
    };

export interface EditContext {
  db: Executor;
  writer: RevisionWriter;
  /** Reads the revision a revert_page takes pages from (the change request's base by default). */
  revisionReader: (revisionId: string | undefined) => Promise<RevisionReader>;
  /**
   * Fetches the bytes of a file given by URL (refusing private addresses unless allowed), or names a blob already
   * stored (an upload streamed to storage: its id, size, and first bytes to read an image's size from).
   */
  fetchFile: (url: string) => Promise<FetchedFile>;
  /** The blocks of a page body (parsed ahead, in the worker pool, by the caller). */
  splitBlocks: (markdown: string) => SplitBlock[];
  /**
   * The id of the page or file inserted with this `ref`, when the caller chose it ahead (an import writes links to
   * its pages and files before they exist); a new id otherwise.
   */
  idFor?: (ref: string) => string | undefined;
}

export function slugify(title: string): string {
  return (
    title
      .normalize('NFKD')
      .replace(/[\u0300-\u036f]/g, '')
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, PAGE_SLUG_MAX)
      .replace(/-+$/, '') || 'page'
  );
}

const EXTENSION_TYPES: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  svg: 'image/svg+xml',
  pdf: 'application/pdf',
  txt: 'text/plain',
  md: 'text/markdown',
  csv: 'text/csv',
  json: 'application/json',
  zip: 'application/zip',
};

export function contentTypeOf(name: string): string {
  const ext = name.split('.').pop()?.toLowerCase() ?? '';
  return EXTENSION_TYPES[ext] ?? 'application/octet-stream';
}

interface ParentSlugs {
  slugOf: Map<string, string>;
  count: Map<string, number>;
}

/**
 * Slugs of the pages of large parents, by the pages root a batch of changes wrote and the parent: the next batch on
 * that content starts from them instead of reading every sibling (one page more beside 10,000 read all 10,000). A
 * pages root is the hash of its content, so what is kept under it is never stale. Bounded by the pages held.
 */
const KEPT_SLUGS = new LruCache<ParentSlugs>(64, 200_000, (s) => s.slugOf.size);
/** Parents with fewer pages are read again: cheaper than holding them. */
const KEPT_SLUGS_MIN = 200;
const keptKey = (pagesRoot: string, parent: string) => `${pagesRoot}\n${parent}`;

/**
 * The slugs of each parent's pages, read once per batch and kept up to date by its changes. Finding a free slug read
 * every sibling each time: a batch inserting k pages under a parent of n pages cost k × n reads (an import into one
 * folder, or 10,000 pages under one parent, grew with the square). A parent's entry is read when first needed;
 * inserts and updates keep it current; deletions and reverts drop the whole index (read again when needed). Large
 * parents' slugs outlive the batch (KEPT_SLUGS).
 */
class SlugIndex {
  private byParent = new Map<string, ParentSlugs>();
  /** The next suffix to try for a slug already taken (`guide-2`, `guide-3`…), so k equal titles cost k, not k². */
  private nextSuffix = new Map<string, number>();

  constructor(private readonly writer: RevisionWriter) {
    // What this batch knows of large parents is kept under the pages root it writes, where the next batch starts.
    writer.onCommit(({ pages_root }) => {
      if (!pages_root) return;
      for (const [parent, index] of this.byParent)
        if (index.slugOf.size >= KEPT_SLUGS_MIN) KEPT_SLUGS.set(keptKey(pages_root, parent), index);
    });
  }

  private async of(parentId: string | null) {
    const key = parentId ?? '';
    let index = this.byParent.get(key);
    if (!index) {
      const root = this.writer.reader.revision.pages_root;
      // Only before this batch changed any page: then the writer's pages are exactly those of its root.
      const kept = root && this.writer.pristine ? KEPT_SLUGS.get(keptKey(root, key)) : undefined;
      if (kept) index = { slugOf: new Map(kept.slugOf), count: new Map(kept.count) };
      else {
        index = { slugOf: new Map(), count: new Map() };
        for (const sibling of await this.writer.children(parentId)) {
          const entry = await this.writer.entry(sibling);
          if (entry) SlugIndex.put(index, sibling, (await this.writer.version(entry.v)).slug);
        }
      }
      this.byParent.set(key, index);
    }
    return index;
  }

  private static put(index: { slugOf: Map<string, string>; count: Map<string, number> }, id: string, slug: string) {
    SlugIndex.drop(index, id);
    index.slugOf.set(id, slug);
    index.count.set(slug, (index.count.get(slug) ?? 0) + 1);
  }

  private static drop(index: { slugOf: Map<string, string>; count: Map<string, number> }, id: string) {
    const slug = index.slugOf.get(id);
    if (slug === undefined) return;
    index.slugOf.delete(id);
    const left = (index.count.get(slug) ?? 1) - 1;
    if (left > 0) index.count.set(slug, left);
    else index.count.delete(slug);
  }

  /** `slug`, or `slug-2`, `slug-3`… if another page under `parentId` (not `selfId`) has it. */
  async unique(parentId: string | null, slug: string, selfId?: string): Promise<string> {
    const index = await this.of(parentId);
    const own = selfId === undefined ? undefined : index.slugOf.get(selfId);
    const taken = (candidate: string) => (index.count.get(candidate) ?? 0) - (own === candidate ? 1 : 0) > 0;
    if (!taken(slug)) return slug;
    // An insert starts after the suffixes this batch gave already; an update looks from 2, as it always did.
    let n = selfId === undefined ? (this.nextSuffix.get(slug) ?? 2) : 2;
    while (taken(`${slug}-${n}`)) n++;
    if (selfId === undefined) this.nextSuffix.set(slug, n + 1);
    return `${slug}-${n}`;
  }

  /** `pageId` is now under `parentId` with `slug` (and no longer under `from`, if it moved). */
  set(parentId: string | null, pageId: string, slug: string, from?: string | null): void {
    if (from !== undefined && from !== parentId) {
      const old = this.byParent.get(from ?? '');
      if (old) SlugIndex.drop(old, pageId);
    }
    const index = this.byParent.get(parentId ?? '');
    if (index) SlugIndex.put(index, pageId, slug);
  }

  /** Forgets everything (pages deleted or reverted, with their descendants). */
  forget(): void {
    this.byParent.clear();
    this.nextSuffix.clear();
  }
}

/** Removes a page and every page under it, and takes it out of its parent's list. */
async function removePage(writer: RevisionWriter, id: string, entry: PageEntry): Promise<void> {
  await writer.setChildren(
    entry.p,
    (await writer.children(entry.p)).filter((s) => s !== id),
  );
  const stack = [id];
  while (stack.length) {
    const current = stack.pop()!;
    const e = await writer.entry(current);
    if (e) stack.push(...e.c);
    writer.setEntry(current, null);
  }
}

export async function applyChanges(
  ctx: EditContext,
  changes: ContentChange[],
): Promise<{ applied: AppliedChange[]; insertedFiles: Array<{ id: string; ref?: string }> }> {
  const { writer } = ctx;
  const refs = new Map<string, string>();
  const applied: AppliedChange[] = [];
  const insertedFiles: Array<{ id: string; ref?: string }> = [];
  const now = nowIso();
  const resolveId = (id: string) => refs.get(id) ?? id;
  const slugs = new SlugIndex(writer);

  for (const [index, change] of changes.entries()) {
    // A batch of an import holds thousands of operations: let other requests in now and then.
    await breathe(index);
    const field = (name: string) => `changes.${index}.${name}`;
    const fail = (name: string, message: string): never => {
      throw new InvalidError(field(name), message);
    };

    const requirePage = async (name: string, id: string) => {
      const entry = isPageKey(resolveId(id)) ? await writer.entry(resolveId(id)) : undefined;
      if (!entry) fail(name, 'no such page in the change request');
      return { id: resolveId(id), entry: entry! };
    };

    /** A page's cover: an image file of the change request (by id, or by the ref a file of this batch has). */
    const coverOf = async (cover: PageCover): Promise<PageCover> => {
      const file = resolveId(cover.file);
      const entry = await writer.file(file);
      if (!entry) fail('cover.file', 'no such file in the change request');
      if (!entry!.contentType.startsWith('image/')) fail('cover.file', 'a cover is an image');
      return { file, ...(cover.yPos ? { yPos: cover.yPos } : {}) };
    };

    const requireReusable = async (id: string) => {
      const key = reusableKey(resolveId(id));
      const entry = await writer.entry(key);
      if (!entry) fail('reusableContent', 'no such reusable content in the change request');
      return { id: resolveId(id), key, entry: entry! };
    };

    /** The blocks of a body given to an operation (`document`), ids kept from `previous` where blocks stay. */
    const bodyBlocks = (document: { markdown?: string } | undefined, previous: Block[]) => {
      const blocks =
        document?.markdown !== undefined ? identifyBlocks(ctx.splitBlocks(document.markdown), previous, newId) : [];
      if (blocks.length > PAGE_BLOCKS_MAX) fail('document.markdown', BLOCKS_MESSAGE);
      return blocks;
    };

    /** Checks a parent for a page of `type`, and returns its id (null = top level). */
    const parentFor = async (into: string | null | undefined, type: PageVersion['type'], movingId?: string) => {
      if (into === undefined || into === null) return null;
      const parent = await requirePage('into', into);
      const version = await writer.version(parent.entry.v);
      if (version.type === 'link') fail('into', 'a link page cannot hold pages');
      if (type === 'group') fail('into', 'groups are only at the top level');
      if (movingId) {
        // Not into itself or one of its own pages.
        for (let p: string | null = parent.id; p; p = (await writer.entry(p))?.p ?? null) {
          if (p === movingId) fail('into', 'cannot move a page into itself or one of its pages');
        }
      }
      return parent.id;
    };

    const insertAt = (siblings: string[], at: number | undefined, id: string) => {
      if (at !== undefined && at > siblings.length) fail('at', `must be at most ${siblings.length} here`);
      siblings.splice(at ?? siblings.length, 0, id);
      return siblings;
    };

    const documentHash = (blocks: Block[]) => (blocks.length ? writer.addObject({ blocks }) : undefined);

    switch (change.operation) {
      case 'insert_page': {
        if (change.ref && refs.has(change.ref)) fail('ref', 'is already used in this batch');
        if (change.type === 'link' && !change.href) fail('href', 'a link page needs an href');
        if (change.type !== 'document' && change.document?.markdown !== undefined) {
          fail('document', `a ${change.type} page has no body`);
        }
        const id = (change.ref && ctx.idFor?.(change.ref)) || newId();
        const parentId = await parentFor(change.into, change.type);
        const title = change.title ?? 'Untitled';
        const blocks =
          change.document?.markdown !== undefined
            ? identifyBlocks(ctx.splitBlocks(change.document.markdown), [], newId)
            : [];
        if (blocks.length > PAGE_BLOCKS_MAX) fail('document.markdown', BLOCKS_MESSAGE);
        const layout = change.layout && layoutOverrides(change.layout);
        const version: PageVersion = {
          type: change.type,
          title,
          slug: await slugs.unique(parentId, change.slug || slugify(title)),
          ...(change.emoji ? { emoji: change.emoji } : {}),
          ...(change.icon ? { icon: change.icon } : {}),
          ...(change.description ? { description: change.description } : {}),
          ...(change.hidden ? { hidden: true as const } : {}),
          ...(change.noIndex ? { noIndex: true as const } : {}),
          ...(change.noRobotsIndex ? { noRobotsIndex: true as const } : {}),
          ...(layout ? { layout } : {}),
          ...(change.cover ? { cover: await coverOf(change.cover) } : {}),
          ...(change.type === 'link' ? { href: change.href } : {}),
          ...(documentHash(blocks) ? { document: documentHash(blocks) } : {}),
          createdAt: now,
          updatedAt: now,
        };
        writer.setEntry(id, { v: writer.addObject(version), p: parentId, c: [] });
        await writer.setChildren(parentId, insertAt(await writer.children(parentId), change.at, id));
        slugs.set(parentId, id, version.slug);
        if (change.ref) refs.set(change.ref, id);
        applied.push({ type: 'created_page', pageId: id, ...(change.ref ? { ref: change.ref } : {}) });
        break;
      }

      case 'update_page': {
        const { id, entry } = await requirePage('page', change.page);
        const before = await writer.version(entry.v);
        if (before.type !== 'document' && change.document?.markdown !== undefined) {
          fail('document', `a ${before.type} page has no body`);
        }
        if (before.type !== 'link' && change.href) fail('href', 'only link pages have an href');
        let parentId = entry.p;
        let next: PageEntry = entry;
        if (change.into !== undefined || change.at !== undefined) {
          const target = change.into === undefined ? entry.p : await parentFor(change.into, before.type, id);
          const oldSiblings = (await writer.children(entry.p)).filter((s) => s !== id);
          if (target === entry.p) {
            await writer.setChildren(entry.p, insertAt(oldSiblings, change.at, id));
          } else {
            await writer.setChildren(entry.p, oldSiblings);
            await writer.setChildren(target, insertAt(await writer.children(target), change.at, id));
          }
          parentId = target;
          // setChildren may have rewritten this very entry's parent; read it again.
          next = { ...((await writer.entry(id)) ?? entry), p: target };
        }
        let document = before.document;
        let anchors = before.anchors;
        if (change.document) {
          const previous = await writer.document(before);
          const blocks =
            change.document.markdown !== undefined
              ? identifyBlocks(ctx.splitBlocks(change.document.markdown), previous, newId)
              : [];
          if (blocks.length > PAGE_BLOCKS_MAX) fail('document.markdown', BLOCKS_MESSAGE);
          document = documentHash(blocks);
          // A reworded heading keeps its old id as an alias (content/anchors.ts).
          anchors = nextAnchorAliases(previous, blocks, before.anchors);
        }
        const wantsSlug =
          change.slug !== undefined ? change.slug || slugify(change.title ?? before.title) : before.slug;
        const version: PageVersion = {
          ...before,
          title: change.title ?? before.title,
          slug: await slugs.unique(parentId, wantsSlug, id),
          ...(change.href ? { href: change.href } : {}),
          updatedAt: now,
        };
        if (change.icon !== undefined) {
          if (change.icon) version.icon = change.icon;
          else delete version.icon;
        }
        if (change.emoji !== undefined) {
          if (change.emoji) version.emoji = change.emoji;
          else delete version.emoji;
        }
        if (change.description !== undefined) {
          if (change.description) version.description = change.description;
          else delete version.description;
        }
        for (const flag of PAGE_FLAGS) {
          if (change[flag] === undefined) continue;
          if (change[flag]) version[flag] = true;
          else delete version[flag];
        }
        if (change.cover !== undefined) {
          if (change.cover) version.cover = await coverOf(change.cover);
          else delete version.cover;
        }
        if (change.layout !== undefined) {
          const layout = layoutOverrides({ ...before.layout, ...change.layout });
          if (layout) version.layout = layout;
          else delete version.layout;
        }
        if (document) version.document = document;
        else delete version.document;
        if (anchors) version.anchors = anchors;
        else delete version.anchors;
        writer.setEntry(id, { ...next, v: writer.addObject(version) });
        slugs.set(parentId, id, version.slug, entry.p);
        applied.push({ type: 'updated_page', pageId: id });
        break;
      }

      case 'delete_page': {
        const { id, entry } = await requirePage('page', change.page);
        await removePage(writer, id, entry);
        slugs.forget();
        applied.push({ type: 'deleted_page', pageId: id });
        break;
      }

      case 'revert_page': {
        slugs.forget();
        const id = resolveId(change.page);
        const source = await ctx
          .revisionReader(change.revision)
          .catch(() => fail('revision', 'no such revision in this space'));
        const old = await source.entry(id);
        const current = await writer.entry(id);
        if (!old && !current) fail('page', 'no such page here nor in the revision');
        if (change.block) {
          if (!old || !current) fail('block', 'blocks can only be reverted on a page present on both sides');
          const oldVersion = await source.version(old!.v);
          const curVersion = await writer.version(current!.v);
          const oldBlocks = await source.document(oldVersion);
          const blocks = [...(await writer.document(curVersion))];
          for (const blockId of change.block) {
            const was = oldBlocks.findIndex((b) => b.id === blockId);
            const is = blocks.findIndex((b) => b.id === blockId);
            if (was < 0 && is < 0) fail('block', `no block ${blockId} on this page`);
            if (was < 0) blocks.splice(is, 1);
            else if (is >= 0) blocks[is] = oldBlocks[was]!;
            else {
              // Put it back after the block that preceded it, if that one is still here.
              const before = oldBlocks[was - 1];
              const at = before ? blocks.findIndex((b) => b.id === before.id) + 1 : 0;
              blocks.splice(at, 0, oldBlocks[was]!);
            }
          }
          const version: PageVersion = { ...curVersion, updatedAt: now };
          const doc = documentHash(blocks);
          if (doc) version.document = doc;
          else delete version.document;
          writer.setEntry(id, { ...current!, v: writer.addObject(version) });
          applied.push({ type: 'updated_page', pageId: id });
          break;
        }
        if (!old) {
          // The page did not exist then: reverting removes it, with its pages.
          await removePage(writer, id, current!);
          applied.push({ type: 'deleted_page', pageId: id });
          break;
        }
        const version = await source.version(old.v);
        if (version.document) writer.addObject({ blocks: await source.document(version) });
        writer.addObject(version);
        if (current) {
          writer.setEntry(id, { ...current, v: old.v });
          applied.push({ type: 'updated_page', pageId: id });
        } else {
          // Restored where it was, if its parent is still here; else at the top level. Its own pages stay gone.
          const parentId = old.p && (await writer.entry(old.p)) ? old.p : null;
          writer.setEntry(id, { v: old.v, p: parentId, c: [] });
          await writer.setChildren(parentId, [...(await writer.children(parentId)), id]);
          applied.push({ type: 'created_page', pageId: id });
        }
        break;
      }

      case 'insert_reusable_content': {
        if (change.ref && refs.has(change.ref)) fail('ref', 'is already used in this batch');
        const id = (change.ref && ctx.idFor?.(change.ref)) || newId();
        const key = reusableKey(id);
        const siblings = await writer.children(REUSABLE);
        const slug = await reusableSlug(writer, siblings, change.slug || slugify(change.title));
        const document = documentHash(bodyBlocks(change.document, []));
        const version: PageVersion = {
          type: 'document',
          title: change.title,
          slug,
          ...(document ? { document } : {}),
          createdAt: now,
          updatedAt: now,
        };
        writer.setEntry(key, { v: writer.addObject(version), p: REUSABLE, c: [] });
        writer.setEntry(REUSABLE, { c: [...siblings, key] } as unknown as PageEntry);
        if (change.ref) refs.set(change.ref, id);
        applied.push({
          type: 'created_reusable_content',
          reusableContentId: id,
          ...(change.ref ? { ref: change.ref } : {}),
        });
        break;
      }

      case 'update_reusable_content': {
        const { id, key, entry } = await requireReusable(change.reusableContent);
        const before = await writer.version(entry.v);
        const version: PageVersion = { ...before, title: change.title ?? before.title, updatedAt: now };
        if (change.slug !== undefined || change.title !== undefined) {
          const wanted = change.slug || (change.slug === undefined ? before.slug : slugify(version.title));
          version.slug = await reusableSlug(writer, await writer.children(REUSABLE), wanted, key);
        }
        if (change.document) {
          const document = documentHash(bodyBlocks(change.document, await writer.document(before)));
          if (document) version.document = document;
          else delete version.document;
        }
        writer.setEntry(key, { ...entry, v: writer.addObject(version) });
        applied.push({ type: 'updated_reusable_content', reusableContentId: id });
        break;
      }

      case 'delete_reusable_content': {
        const { id, key } = await requireReusable(change.reusableContent);
        const siblings = (await writer.children(REUSABLE)).filter((k) => k !== key);
        writer.setEntry(key, null);
        writer.setEntry(REUSABLE, siblings.length ? ({ c: siblings } as unknown as PageEntry) : null);
        applied.push({ type: 'deleted_reusable_content', reusableContentId: id });
        break;
      }

      case 'insert_files': {
        for (const [i, file] of change.files.entries()) {
          const at = (name: string) => `files.${i}.${name}`;
          if ((file.base64 === undefined) === (file.url === undefined))
            fail(at('base64'), 'give exactly one of base64 and url');
          let data: Buffer;
          let fetchedType: string | undefined;
          let stored: { id: string; size: number; width?: number; height?: number } | undefined;
          if (file.url !== undefined) {
            const fetched = await ctx
              .fetchFile(file.url)
              .catch((err: unknown) =>
                fail(at('url'), `could not be fetched: ${err instanceof Error ? err.message : String(err)}`),
              );
            if ('stored' in fetched) {
              stored = fetched.stored;
              data = fetched.stored.head ?? Buffer.alloc(0);
            } else data = fetched.data;
            fetchedType = fetched.contentType;
          } else {
            data = Buffer.from(file.base64!, 'base64');
            if (data.toString('base64').replace(/=+$/, '') !== file.base64!.replace(/\s/g, '').replace(/=+$/, '')) {
              fail(at('base64'), 'is not valid base64');
            }
            if (data.length > FILE_MAX_BYTES) fail(at('base64'), `files are limited to ${FILE_MAX_BYTES} bytes`);
          }
          if (file.ref && refs.has(file.ref)) fail(at('ref'), 'is already used in this batch');
          const id = (file.ref && ctx.idFor?.(file.ref)) || newId();
          const contentType = file.contentType ?? fetchedType ?? contentTypeOf(file.name);
          writer.setFile(id, {
            name: file.name,
            contentType,
            size: stored?.size ?? data.length,
            blob: stored?.id ?? (await putBlob(ctx.db, data)),
            // From the first bytes of a stored one: every image format this reads says its size at its start.
            ...(stored?.width && stored.height
              ? { width: stored.width, height: stored.height }
              : imageDimensions(contentType, data)),
          });
          if (file.ref) refs.set(file.ref, id);
          insertedFiles.push({ id, ...(file.ref ? { ref: file.ref } : {}) });
        }
        break;
      }
    }
  }
  return { applied, insertedFiles };
}

/**
 * Width and height of an image file, read from its header (image-size: PNG, JPEG, GIF, WebP, SVG, AVIF and more),
 * for the File's `dimensions` and the published pages' <img> (no jump while it loads). Nothing for other files, or
 * for bytes that are not the image they claim to be.
 */
export function imageDimensions(contentType: string, data: Buffer): { width?: number; height?: number } {
  if (!contentType.startsWith('image/')) return {};
  try {
    const { width, height } = imageSize(new Uint8Array(data.buffer, data.byteOffset, data.byteLength));
    return width > 0 && height > 0 ? { width, height } : {};
  } catch {
    return {};
  }
}

/**
 * A slug for a reusable content, unique among the space's (`{% include %}` names it): `wanted`, or `wanted-2`, … when
 * another (not `self`) has it.
 */
async function reusableSlug(writer: RevisionWriter, keys: string[], wanted: string, self?: string): Promise<string> {
  const taken = new Set<string>();
  for (const key of keys) {
    if (key === self) continue;
    const entry = await writer.entry(key);
    if (entry) taken.add((await writer.version(entry.v)).slug);
  }
  const base = wanted || 'untitled';
  let slug = base;
  for (let n = 2; taken.has(slug); n++) slug = `${base}-${n}`.slice(0, PAGE_SLUG_MAX);
  return slug;
}
