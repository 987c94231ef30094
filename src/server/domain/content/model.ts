import type { Executor } from '../../storage/db.js';
import { getObjects, getObject, nodeStore, putObjects } from '../../storage/repos/objects.js';
import type { RevisionsTable } from '../../storage/schema.js';
import { findRevision } from '../../storage/repos/spaces.js';
import { NotFoundError } from '../errors.js';
import { Trie, hashOf, type Json } from './tree.js';
import type { Block } from './blocks.js';
import { DEFAULT_PAGE_LAYOUT, type PageCover, type PageLayout } from '../../../shared/contract/content.js';
import { TimeSlices } from '../../lib/yield.js';

/**
 * The content of a revision:
 * - `pages_root`: a trie from page id to a PageEntry (its current version, its parent, its ordered children);
 *   the key ROOT holds the ordered top-level pages.
 * - page versions and documents: immutable objects addressed by the hash of their content, so a page that did
 *   not change between two revisions is the very same object in both.
 * - `files_root`: a trie from file id to a FileEntry (the bytes are a blob addressed by SHA-256).
 */
export const ROOT = '';

/**
 * Reusable content (GitBook's `reusableContents` of a revision, included in pages by `{% include %}`) lives in the
 * pages' trie beside the pages, so change requests edit it, merges merge it, and diffs see it as they do pages:
 * the entry `REUSABLE` lists the keys of its entries (as the root entry lists top-level pages), and each is a page
 * entry keyed `REUSABLE + id`, parented by `REUSABLE`, with a document version of its title, slug and body. No page
 * tree reaches them (walks start at ROOT); readers of every entry of the trie pass them over (`isPageKey`).
 */
export const REUSABLE = '~';
export const reusableKey = (id: string) => REUSABLE + id;
/** A key of the pages' trie that is a page's (not the reusable contents' list or one of them). */
export const isPageKey = (key: string) => !key.startsWith(REUSABLE);

/** A reusable content of a revision: its id (without the key's prefix) and its version. */
export interface ReusableContent {
  id: string;
  version: PageVersion;
}

export type PageType = 'document' | 'group' | 'link';

export interface PageEntry {
  /** Hash of the PageVersion. */
  v: string;
  /** Parent page id, or null at the top level. */
  p: string | null;
  /** Ordered child page ids. */
  c: string[];
}

export interface RootEntry {
  c: string[];
}

export interface PageVersion {
  type: PageType;
  title: string;
  slug: string;
  emoji?: string;
  /** An icon's name (GitBook's Font Awesome names). */
  icon?: string;
  description?: string;
  /** Left out of the published site's navigation (still reachable at its address). Never `false`: absent. */
  hidden?: true;
  /** Left out of the published site's search. */
  noIndex?: true;
  /** Search engines are asked not to index it (robots `noindex`, not in the sitemap). */
  noRobotsIndex?: true;
  /** How it is laid out when published: only what differs from DEFAULT_PAGE_LAYOUT (absent: the defaults). */
  layout?: Partial<PageLayout>;
  /** An image file of the revision shown above the page when published, and where it is cut. */
  cover?: PageCover;
  /** Link pages: where they point. */
  href?: string;
  /** Document pages: hash of their DocumentObject. */
  document?: string;
  /**
   * Ids the page's headings had before they were reworded (or renumbered), each to the block of the heading that
   * had it: links written to the old id still land on that heading (content/anchors.ts).
   */
  anchors?: Record<string, string>;
  createdAt: string;
  updatedAt: string;
}

/** A page's flags (each `true` or absent): set, cleared and merged alike. */
export const PAGE_FLAGS = ['hidden', 'noIndex', 'noRobotsIndex'] as const;

/** A page's whole layout: its options over the defaults. */
export function pageLayoutOf(version: PageVersion): PageLayout {
  return version.layout ? { ...DEFAULT_PAGE_LAYOUT, ...version.layout } : DEFAULT_PAGE_LAYOUT;
}

/** A page's cover as the contract gives it (`RevisionPageDocumentCover`), if it has one. */
export function pageCoverOf(version: PageVersion) {
  const cover = version.cover;
  return cover && { ref: { kind: 'file' as const, file: cover.file }, yPos: cover.yPos ?? 0 };
}

export interface DocumentObject {
  blocks: Block[];
}

export interface FileEntry {
  name: string;
  contentType: string;
  size: number;
  blob: string;
  width?: number;
  height?: number;
}

export type RevisionRow = RevisionsTable;

/** A revision of this space (a revision of another space answers as if it did not exist). */
export async function revisionOfSpace(db: Executor, spaceId: string, revisionId: string): Promise<RevisionRow> {
  const revision = await findRevision(db, revisionId);
  if (!revision || revision.space_id !== spaceId) throw new NotFoundError('Revision not found');
  return revision;
}

export interface PageNode {
  id: string;
  entry: PageEntry;
  version: PageVersion;
  path: string;
  pages: PageNode[];
}

/** One page met in a walk of the tree (see `walkTree`). */
export interface PageVisit {
  id: string;
  entry: PageEntry;
  version: PageVersion;
  path: string;
}

export interface TreeVisitor {
  /** A page, before its subpages; returns false to skip them. */
  enter(page: PageVisit): boolean;
  /** After the subpages of a page that `enter` did not skip. */
  leave(page: PageVisit): void;
}

/** The page entries of a revision as a walk of its tree read them (every entry, reachable or not). */
export interface TreeEntries {
  pagesRoot: string | null;
  all: ReadonlyMap<string, PageEntry>;
  rootIds: string[];
}

/**
 * What a walk of a revision's tree may start from instead of reading it all: the entries of another revision of
 * the space (its tree's walk read them), and the versions it already holds (a page's, when the page still has
 * that version: a version never changes).
 */
export interface TreeBase {
  entries: TreeEntries;
  version(pageId: string, hash: string): PageVersion | undefined;
}

/** Deeper pages are left out of the tree (a guard against a cycle in corrupt data). */
export const TREE_DEPTH_MAX = 100;
/** Page versions read per batch in a walk of the whole tree. */
const VERSIONS_BATCH = 1000;
/** A walk of a larger tree does not keep the page versions it reads in the objects cache (see getObjects). */
const WALK_CACHED_MAX = 10_000;

/** Reads one revision's content. Objects are cached by hash, so repeated reads cost little. */
export class RevisionReader {
  readonly trie: Trie;
  constructor(
    readonly db: Executor,
    readonly revision: RevisionRow,
  ) {
    this.trie = new Trie(nodeStore(db));
  }

  async rootIds(): Promise<string[]> {
    const root = (await this.trie.get(this.revision.pages_root, ROOT)) as RootEntry | undefined;
    return root?.c ?? [];
  }

  /** A page's entry (never the root's or a reusable content's: an id that names one is no page). */
  async entry(pageId: string): Promise<PageEntry | undefined> {
    if (pageId === ROOT || !isPageKey(pageId)) return undefined;
    return this.anyEntry(pageId);
  }

  /** The entry of any key of the pages' trie (a page, or the reusable contents' list or one of them). */
  async anyEntry(key: string): Promise<PageEntry | undefined> {
    if (key === ROOT) return undefined;
    return (await this.trie.get(this.revision.pages_root, key)) as PageEntry | undefined;
  }

  /** The entries of these pages that the revision has (read together, see Trie.getMany). */
  async entries(pageIds: string[]): Promise<Map<string, PageEntry>> {
    const ids = pageIds.filter((id) => id !== ROOT && isPageKey(id));
    return (await this.trie.getMany(this.revision.pages_root, ids)) as unknown as Map<string, PageEntry>;
  }

  version(hash: string): Promise<PageVersion> {
    return getObject<PageVersion>(this.db, hash);
  }

  async document(version: PageVersion): Promise<Block[]> {
    return version.document ? (await getObject<DocumentObject>(this.db, version.document)).blocks : [];
  }

  /** The revision's reusable contents, in the order they were made. */
  async reusableContents(): Promise<ReusableContent[]> {
    const list = (await this.trie.get(this.revision.pages_root, REUSABLE)) as RootEntry | undefined;
    const keys = list?.c ?? [];
    const entries = (await this.trie.getMany(this.revision.pages_root, keys)) as unknown as Map<string, PageEntry>;
    const out: ReusableContent[] = [];
    for (const key of keys) {
      const entry = entries.get(key);
      if (entry) out.push({ id: key.slice(REUSABLE.length), version: await this.version(entry.v) });
    }
    return out;
  }

  async reusableContent(id: string): Promise<ReusableContent | undefined> {
    const entry = (await this.trie.get(this.revision.pages_root, reusableKey(id))) as PageEntry | undefined;
    return entry ? { id, version: await this.version(entry.v) } : undefined;
  }

  /** The page's path: its ancestors' slugs and its own, joined by '/'. */
  async path(pageId: string, entry?: PageEntry): Promise<string> {
    const slugs: string[] = [];
    let current: PageEntry | undefined = entry ?? (await this.entry(pageId));
    let guard = 0;
    while (current && guard++ < 100) {
      const version = await this.version(current.v);
      // Groups are sections of the navigation: they give no segment to their pages' paths.
      if (version.type !== 'group') slugs.unshift(version.slug);
      current = current.p ? await this.entry(current.p) : undefined;
    }
    return slugs.join('/');
  }

  /** One page with its path and nested pages, or undefined. Reads only that page, its ancestors and its subtree. */
  async page(pageId: string): Promise<PageNode | undefined> {
    const entry = await this.entry(pageId);
    if (!entry) return undefined;
    const parentPath = entry.p ? await this.path(entry.p) : '';
    return this.subtree(pageId, entry, parentPath, 0);
  }

  /**
   * The page at `path` (its slugs from the top, as PageNode.path: a group gives no segment, its pages are at its
   * level), or undefined. Should two share a path (a page and a group's page of the same slug at one level), the
   * page outside the group is taken. Reads only the levels on the way, a batch each.
   */
  async pageByPath(path: string): Promise<PageNode | undefined> {
    const segments = path.split('/').filter(Boolean);
    if (!segments.length || segments.length > TREE_DEPTH_MAX) return undefined;
    let level = await this.rootIds();
    let found: string | undefined;
    for (const segment of segments) {
      found = undefined;
      let queue = level;
      // A group's pages are looked at where the group is, in order; groups hold no groups.
      for (let round = 0; round < 2 && queue.length && !found; round++) {
        const entries = await this.entries(queue);
        const versions = await getObjects<PageVersion>(
          this.db,
          [...entries.values()].map((e) => e.v),
        );
        const inGroups: string[] = [];
        for (const id of queue) {
          const entry = entries.get(id);
          const version = entry && versions.get(entry.v);
          if (!entry || !version) continue;
          if (version.type === 'group') inGroups.push(...entry.c);
          else if (version.slug === segment) {
            found = id;
            level = entry.c;
            break;
          }
        }
        queue = inGroups;
      }
      if (!found) return undefined;
    }
    return this.page(found!);
  }

  private async subtree(id: string, entry: PageEntry, parentPath: string, depth: number): Promise<PageNode> {
    const version = await this.version(entry.v);
    const path = version.type === 'group' ? parentPath : parentPath ? `${parentPath}/${version.slug}` : version.slug;
    const pages: PageNode[] = [];
    if (depth < 100) {
      for (const child of entry.c) {
        const childEntry = await this.entry(child);
        if (childEntry) pages.push(await this.subtree(child, childEntry, path, depth + 1));
      }
    }
    return { id, entry, version, path, pages };
  }

  /** The whole page tree, in order. */
  async tree(): Promise<PageNode[]> {
    return (await this.treeWithEntries()).roots;
  }

  /**
   * The whole page tree, in order (see walkTree for `base`), with the page entries it was made from. `added` is
   * told of each node as it joins the tree, after its parent and every node before it in reading order.
   */
  async treeWithEntries(
    base?: TreeBase,
    added?: (node: PageNode, parent: PageNode | undefined) => void,
    slices = new TimeSlices(),
  ): Promise<{ roots: PageNode[]; entries: TreeEntries }> {
    const roots: PageNode[] = [];
    const open: PageNode[] = [];
    const entries = await this.walkTree(
      {
        enter: (page) => {
          const node: PageNode = { ...page, pages: [] };
          const parent = open[open.length - 1];
          (parent ? parent.pages : roots).push(node);
          added?.(node, parent);
          open.push(node);
          return true;
        },
        leave: () => void open.pop(),
      },
      slices,
      base,
    );
    return { roots, entries };
  }

  /**
   * Walks the whole page tree in order (pages before their subpages, siblings in their order), without building
   * it: a 100,000-page tree need not be held as nodes to be written out. A page whose entry or version is missing
   * is left out with its subpages; so are pages deeper than TREE_DEPTH_MAX. Reads are batched, and the walk
   * pauses for the event loop between short time slices, so other requests are served meanwhile.
   */
  async walkTree(visitor: TreeVisitor, slices = new TimeSlices(), base?: TreeBase): Promise<TreeEntries> {
    const { all, rootIds } = base ? await this.entriesFrom(base, slices) : await this.allEntries(slices);
    type Level = { ids: string[]; next: number; path: string; depth: number; page?: PageVisit };
    // An explicit stack, not recursion: the walk can pause anywhere.
    const stack: Level[] = [{ ids: rootIds, next: 0, path: '', depth: 0 }];
    // Page versions are read a batch ahead of the walk, in its order, and dropped once written: a large tree's
    // versions are never all held at once, nor kept in the objects cache.
    const remember = all.size <= WALK_CACHED_MAX;
    let versions = new Map<string, PageVersion>();
    let asked = new Set<string>();
    const readAhead = async () => {
      asked = new Set();
      const ahead = stack.map((l) => ({ ids: l.ids, next: l.next, depth: l.depth }));
      // Versions the base holds are taken from it; only the others are read.
      const known = new Map<string, PageVersion>();
      while (ahead.length && asked.size < VERSIONS_BATCH) {
        const level = ahead[ahead.length - 1]!;
        if (level.next >= level.ids.length) {
          ahead.pop();
          continue;
        }
        const id = level.ids[level.next++]!;
        const entry = all.get(id);
        if (!entry || level.depth > TREE_DEPTH_MAX) continue;
        asked.add(entry.v);
        const version = base?.version(id, entry.v);
        if (version) known.set(entry.v, version);
        ahead.push({ ids: entry.c, next: 0, depth: level.depth + 1 });
      }
      const unknown = known.size ? [...asked].filter((hash) => !known.has(hash)) : [...asked];
      versions = unknown.length ? await getObjects<PageVersion>(this.db, unknown, { remember }) : new Map();
      for (const [hash, version] of known) versions.set(hash, version);
      await slices.due();
    };
    while (stack.length) {
      const level = stack[stack.length - 1]!;
      if (level.next >= level.ids.length) {
        stack.pop();
        if (level.page) visitor.leave(level.page);
        continue;
      }
      const entry = all.get(level.ids[level.next]!);
      if (entry && level.depth <= TREE_DEPTH_MAX && !asked.has(entry.v)) await readAhead();
      const id = level.ids[level.next++]!;
      const version = entry && versions.get(entry.v);
      if (!entry || !version || level.depth > TREE_DEPTH_MAX) continue;
      // Groups are sections of the navigation: they give no segment to their pages' paths.
      const path = version.type === 'group' ? level.path : level.path ? `${level.path}/${version.slug}` : version.slug;
      const page: PageVisit = { id, entry, version, path };
      if (visitor.enter(page)) stack.push({ ids: entry.c, next: 0, path, depth: level.depth + 1, page });
      const pause = slices.pause();
      if (pause) await pause;
    }
    return { pagesRoot: this.revision.pages_root, all, rootIds };
  }

  /** Every page entry of the revision, read from its trie. */
  private async allEntries(slices: TimeSlices): Promise<{ all: Map<string, PageEntry>; rootIds: string[] }> {
    const all = new Map<string, PageEntry>();
    let rootIds: string[] = [];
    for (const [key, value] of await this.trie.entries(this.revision.pages_root)) {
      if (key === ROOT) rootIds = (value as unknown as RootEntry).c;
      else if (isPageKey(key)) all.set(key, value as unknown as PageEntry);
      const pause = slices.pause();
      if (pause) await pause;
    }
    return { all, rootIds };
  }

  /**
   * Every page entry of the revision, from those of another revision and the diff of their tries: reads what
   * changed only (the diff skips every equal subtree), where reading them all takes seconds at 100,000 pages.
   */
  private async entriesFrom(base: TreeBase, slices: TimeSlices) {
    const changes = await this.trie.diff(base.entries.pagesRoot, this.revision.pages_root, slices);
    // Copied in slices: a copy of 100,000 entries at once holds the event loop for tens of milliseconds.
    const all = new Map<string, PageEntry>();
    for (const [key, entry] of base.entries.all) {
      all.set(key, entry);
      const pause = slices.pause();
      if (pause) await pause;
    }
    let rootIds = base.entries.rootIds;
    for (const { key, after } of changes) {
      if (key === ROOT) rootIds = (after as unknown as RootEntry | undefined)?.c ?? [];
      else if (!isPageKey(key)) continue;
      else if (after) all.set(key, after as unknown as PageEntry);
      else all.delete(key);
      const pause = slices.pause();
      if (pause) await pause;
    }
    return { all, rootIds };
  }

  async files(): Promise<Array<[string, FileEntry]>> {
    const entries = (await this.trie.entries(this.revision.files_root)) as unknown as Array<[string, FileEntry]>;
    return entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  }

  async file(fileId: string): Promise<FileEntry | undefined> {
    return (await this.trie.get(this.revision.files_root, fileId)) as FileEntry | undefined;
  }
}

export interface PreparedRevision {
  pages_root: string | null;
  files_root: string | null;
  /** Every object and trie node `write` stores (to read the new content before it is written). */
  objects: ReadonlyMap<string, unknown>;
  /**
   * Stores the objects and trie nodes ahead of the transaction that will use them, a slice of time at a time:
   * objects are named by their content and never deleted, so storing them early is harmless even if that
   * transaction never comes, and it leaves the transaction only its rows (a merge of 100,000 pages wrote hundreds of
   * thousands of objects inside it, holding SQLite's one connection and the event loop for seconds).
   */
  storeAhead(db: Executor): Promise<void>;
  /** Stores the objects and trie nodes of the new roots (unless stored ahead); returns the roots. */
  write(db: Executor): Promise<{ pages_root: string | null; files_root: string | null }>;
}

/** Accumulates changes to a revision's content, then writes the new roots. */
export class RevisionWriter {
  private readonly pageChanges = new Map<string, Json | null>();
  private readonly fileChanges = new Map<string, Json | null>();
  private readonly objects = new Map<string, unknown>();

  constructor(readonly reader: RevisionReader) {}

  /** No page changed yet: the writer's pages are those of its revision. */
  get pristine(): boolean {
    return this.pageChanges.size === 0;
  }

  /**
   * Current entry of a key of the pages' trie (a page's, or a reusable content's: callers with an id from outside
   * check `isPageKey`), including changes made in this writer.
   */
  async entry(pageId: string): Promise<PageEntry | undefined> {
    if (this.pageChanges.has(pageId)) return (this.pageChanges.get(pageId) ?? undefined) as PageEntry | undefined;
    return this.reader.anyEntry(pageId);
  }

  async children(parentId: string | null): Promise<string[]> {
    if (parentId === null) {
      const key = ROOT;
      if (this.pageChanges.has(key))
        return ((this.pageChanges.get(key) as unknown as RootEntry | null)?.c ?? []).slice();
      return (await this.reader.rootIds()).slice();
    }
    return ((await this.entry(parentId))?.c ?? []).slice();
  }

  async setChildren(parentId: string | null, children: string[]): Promise<void> {
    if (parentId === null) {
      this.pageChanges.set(ROOT, children.length ? ({ c: children } as unknown as Json) : null);
      return;
    }
    const entry = await this.entry(parentId);
    if (entry) this.setEntry(parentId, { ...entry, c: children });
  }

  setEntry(pageId: string, entry: PageEntry | null): void {
    this.pageChanges.set(pageId, entry as unknown as Json);
  }

  async version(hash: string): Promise<PageVersion> {
    const pending = this.objects.get(hash);
    return (pending as PageVersion | undefined) ?? this.reader.version(hash);
  }

  async document(version: PageVersion): Promise<Block[]> {
    if (!version.document) return [];
    const pending = this.objects.get(version.document) as DocumentObject | undefined;
    return pending ? pending.blocks : (await getObject<DocumentObject>(this.reader.db, version.document)).blocks;
  }

  /** The documents (page bodies) added by this writer, by hash. */
  *addedDocuments(): Generator<[string, DocumentObject]> {
    for (const [hash, value] of this.objects) if ('blocks' in (value as object)) yield [hash, value as DocumentObject];
  }

  /** Stores an object to be written with the revision; returns its hash. */
  addObject(value: PageVersion | DocumentObject): string {
    const hash = hashOf(value);
    this.objects.set(hash, value);
    return hash;
  }

  setFile(fileId: string, file: FileEntry | null): void {
    this.fileChanges.set(fileId, file as unknown as Json);
  }

  async file(fileId: string): Promise<FileEntry | undefined> {
    if (this.fileChanges.has(fileId)) return (this.fileChanges.get(fileId) ?? undefined) as FileEntry | undefined;
    return this.reader.file(fileId);
  }

  get changed(): boolean {
    return this.pageChanges.size > 0 || this.fileChanges.size > 0;
  }

  /** Writes the new objects and trie nodes; returns the new roots. */
  private readonly committed: Array<(roots: { pages_root: string | null }) => void> = [];

  /** `fn` is told the new roots once `commit` has written them (what was computed for them can be kept under them). */
  onCommit(fn: (roots: { pages_root: string | null }) => void): void {
    this.committed.push(fn);
  }

  async commit(): Promise<{ pages_root: string | null; files_root: string | null }> {
    const roots = await (await this.prepare()).write(this.reader.db);
    for (const fn of this.committed) fn(roots);
    return roots;
  }

  /**
   * Computes the new roots and everything to store for them, reading only: `write` then stores it all, on `db`
   * (a transaction begun later, say; the objects are immutable, so what was read stays true).
   */
  async prepare(): Promise<PreparedRevision> {
    const { revision, trie } = this.reader;
    const pages = await trie.prepare(revision.pages_root, this.pageChanges);
    const files = await trie.prepare(revision.files_root, this.fileChanges);
    const objects = new Map<string, unknown>([...this.objects, ...pages.nodes, ...files.nodes]);
    const roots = { pages_root: pages.root, files_root: files.root };
    let stored = false;
    return {
      ...roots,
      objects,
      storeAhead: async (db) => {
        await putObjects(db, objects, new TimeSlices());
        stored = true;
      },
      write: async (db) => {
        if (!stored) await putObjects(db, objects);
        return roots;
      },
    };
  }
}
