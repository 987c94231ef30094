import type { Executor } from '../../storage/db.js';
import { findRevision } from '../../storage/repos/spaces.js';
import { getObject, getObjects, nodeStore } from '../../storage/repos/objects.js';
import * as repo from '../../storage/repos/links.js';
import type { LinkPageRow, LinkRow, LinkScopeRow, LinkTargetRow } from '../../storage/repos/links.js';
import type { LinkDepsTable, LinkFilesTable } from '../../storage/schema.js';
import { nowIso } from '../../lib/time.js';
import { TimeSlices } from '../../lib/yield.js';
import { Trie, hashOf } from '../content/tree.js';
import {
  REUSABLE,
  ROOT,
  isPageKey,
  RevisionReader,
  type FileEntry,
  type PageEntry,
  type PageVersion,
  type RevisionRow,
} from '../content/model.js';
import { documentLinks, type DocumentLinks, type LinksAhead } from './documents.js';
import { contentFinder } from '../content/reusable.js';
import { slugify } from '../content/edit.js';
import { INCLUDE_DEPTH_MAX } from '../../../shared/gitbook-blocks.js';
import type { BodyLink } from '../sites/render.js';
import {
  analyze,
  depsOf,
  fileKey,
  nameKey,
  pageKey,
  resolve,
  type Analysis,
  type LinkRelation,
  type PageInfo,
  type Resolved,
  type Revisionish,
} from './resolve.js';

/**
 * Keeps a scope's links (a space's current content, or a change request's) in step with its revision.
 *
 * A scope at revision A is brought to revision B from the diff of their page and file tries (`Trie.diff` skips
 * every equal subtree), so the work follows what changed, never the size of the space:
 * - pages added, removed, retitled, moved or renamed update the scope's page index (`link_pages`, by id and path);
 *   files added, removed or renamed its file index;
 * - the links of a page are read again (from its document's links, stored once per document hash) when its body
 *   changed, or its path did (relative links), as for every page under a page whose path changed;
 * - every link elsewhere whose status may change is found through what it depends on (`link_deps`: the page ids
 *   and paths, file ids and names it names): links naming a page id or path, file id or name that appeared,
 *   disappeared or moved are resolved again, and so are links naming an anchor of a page whose headings changed;
 * - the targets' link counts, and the scope's counters of targets, broken and in-app ones, follow.
 * A scope without rows is built the same way, from the empty revision.
 */

const EMPTY = { pages_root: null, files_root: null };
type Roots = { pages_root: string | null; files_root: string | null };

export interface ScopeTarget {
  /** The scope: the space id for the space's content, the change request id for a change request's. */
  id: string;
  spaceId: string;
  changeRequestId: string | null;
  revision: RevisionRow;
}

export interface SyncOptions {
  /** PUBLIC_URL (`in-app` links point under it). */
  appBase: string;
  /** Links of new bodies read before the transaction. */
  ahead?: LinksAhead;
}

/** Link targets from which a scope built from nothing is big enough to refresh the planner's statistics. */
export const LARGE_BUILD = 5_000;

/**
 * Brings the scope to `target.revision` (building it if it has no rows yet, or was computed for another
 * PUBLIC_URL), inside the caller's transaction, holding the scope's row lock. Returns the number of targets when
 * it built the scope from nothing, else 0.
 */
export async function syncScope(tx: Executor, target: ScopeTarget, opts: SyncOptions): Promise<number> {
  let scope = await repo.lockScope(tx, target.id);
  let from: Roots = EMPTY;
  if (scope && scope.app_base !== opts.appBase) {
    await repo.deleteScope(tx, target.id);
    scope = undefined;
  }
  if (scope) {
    if (scope.revision_id === target.revision.id) return 0;
    const previous = await findRevision(tx, scope.revision_id);
    if (previous) from = previous;
    else {
      await repo.deleteScope(tx, target.id);
      scope = undefined;
    }
  }
  if (!scope) {
    scope = {
      id: target.id,
      space_id: target.spaceId,
      change_request_id: target.changeRequestId,
      revision_id: '',
      app_base: opts.appBase,
      targets: 0,
      broken: 0,
      in_app: 0,
      updated_at: nowIso(),
    };
    await repo.insertScope(tx, scope);
  }
  const built = await advance(tx, scope, from, target.revision, opts);
  return scope.revision_id === '' ? built : 0;
}

/**
 * A new scope `to` holding the rows of scope `from` (same revision): a change request's links start as a copy of
 * its space's, then follow their own revision.
 */
export async function copyScope(
  tx: Executor,
  from: LinkScopeRow,
  to: { id: string; spaceId: string; changeRequestId: string | null },
): Promise<void> {
  await repo.insertScope(tx, {
    ...from,
    id: to.id,
    space_id: to.spaceId,
    change_request_id: to.changeRequestId,
    updated_at: nowIso(),
  });
  await repo.copyScopeRows(tx, from.id, to.id);
}

/**
 * Reads (and stores) the links of every body that is in `to` but not in `from`, outside any transaction: a
 * transaction that then brings a scope from `from` to `to` finds them all and only writes rows.
 */
export async function prefetchDocuments(db: Executor, from: Roots, to: Roots): Promise<void> {
  const trie = new Trie(nodeStore(db));
  const diff = await trie.diff(from.pages_root, to.pages_root);
  const hashes = new Set<string>();
  for (const d of diff)
    if (d.key !== ROOT && isPageKey(d.key) && d.after) hashes.add((d.after as unknown as PageEntry).v);
  const documents = new Set<string>();
  const slices = new TimeSlices();
  const list = [...hashes];
  for (let i = 0; i < list.length; i += 1000) {
    const versions = await getObjects<PageVersion>(db, list.slice(i, i + 1000), { remember: false });
    for (const v of versions.values()) if (v.type === 'document' && v.document) documents.add(v.document);
    await slices.due();
  }
  const all = [...documents];
  for (let i = 0; i < all.length; i += 1000) await documentLinks(db, all.slice(i, i + 1000));
}

/** Marks a link page's target in `link_pages.document`, so that a change of it is seen as a change of body. */
const hrefMark = (href: string) => `href:${hashOf(href)}`;

function infoOf(row: Pick<LinkPageRow, 'page_id' | 'type' | 'document' | 'title' | 'anchors'>): PageInfo {
  return {
    id: row.page_id,
    type: row.type,
    document: row.document,
    title: row.title,
    ...(row.anchors ? { aliases: JSON.parse(row.anchors) as string[] } : {}),
  };
}

/** What links are resolved against: the scope's page and file indexes (after this change), read as needed. */
class Lookup implements Revisionish {
  private readonly byId = new Map<string, PageInfo | null>();
  private readonly byPath = new Map<string, PageInfo | null>();
  private readonly files = new Map<string, boolean>();
  private readonly names = new Map<string, string | null>();
  private readonly anchorSets = new Map<string, Set<string>>();
  /** The links (and so the headings) of documents already read: the bodies this step reads, and those read here. */
  private readonly read: Array<Map<string, DocumentLinks>> = [];
  private complete = false;
  /** The links of the revision's reusable contents by name (contentFinder), once a body that includes one is met. */
  private contents: ((name: string) => DocumentLinks | undefined) | undefined;

  constructor(
    private readonly db: Executor,
    private readonly scope: string,
    private readonly revision: RevisionRow,
  ) {}

  /** For a scope built from nothing: every page and file is here, nothing else needs reading. */
  async fill(pages: LinkPageRow[], files: Array<{ id: string; name: string }>): Promise<void> {
    this.complete = true;
    const slices = new TimeSlices();
    for (const p of pages) {
      await slices.pause();
      this.byId.set(p.page_id, infoOf(p));
      if (p.type !== 'document') continue;
      const other = this.byPath.get(p.path);
      if (!other || p.page_id < other.id) this.byPath.set(p.path, infoOf(p));
    }
    for (const f of files) {
      this.files.set(f.id, true);
      const other = this.names.get(f.name);
      if (!other || f.id > other) this.names.set(f.name, f.id);
    }
  }

  /**
   * Reads what resolving these links needs, in a few batched queries. The headings of `bodies` (the documents this
   * step read already, among them those of the pages whose own `#anchor` links are read) are not read again: a merge
   * of 100,000 pages read them all a second time.
   */
  async prepare(analyses: Analysis[], bodies: Map<string, DocumentLinks>) {
    this.read.push(bodies);
    const slices = new TimeSlices();
    const refs = new Set<string>();
    const fileIds = new Set<string>();
    const names = new Set<string>();
    for (const a of analyses) {
      await slices.pause();
      if (a.kind !== 'internal') continue;
      for (const t of a.targets) {
        if (t.kind === 'page') refs.add(t.ref);
        else if (t.kind === 'file') fileIds.add(t.id);
        else names.add(t.name);
      }
    }
    if (!this.complete) {
      const ids = [...refs].filter((r) => !this.byId.has(r));
      for (const id of ids) {
        this.byId.set(id, null);
        await slices.pause();
      }
      for (const row of await repo.pagesByIds(this.db, this.scope, ids)) this.byId.set(row.page_id, infoOf(row));
      const paths = [...refs].filter((r) => this.byId.get(r) === null && !this.byPath.has(r));
      for (const path of paths) {
        this.byPath.set(path, null);
        await slices.pause();
      }
      const rows = await repo.documentsByPathKeys(this.db, this.scope, paths.map(pageKey));
      for (const row of rows) {
        if (!this.byPath.has(row.path)) continue; // another path with the same key: not asked for
        const other = this.byPath.get(row.path);
        if (!other || row.page_id < other.id) this.byPath.set(row.path, infoOf(row));
      }
      const wantedFiles = [...fileIds].filter((id) => !this.files.has(id));
      for (const id of wantedFiles) this.files.set(id, false);
      for (const row of await repo.filesByIds(this.db, this.scope, wantedFiles)) this.files.set(row.file_id, true);
      const wantedNames = [...names].filter((n) => !this.names.has(n));
      const byKey = new Map(wantedNames.map((n) => [nameKey(n), n]));
      for (const name of wantedNames) this.names.set(name, null);
      for (const row of await repo.filesByNameKeys(this.db, this.scope, [...byKey.keys()])) {
        const name = byKey.get(row.name_key)!;
        const other = this.names.get(name);
        if (!other || row.file_id > other) this.names.set(name, row.file_id);
      }
    }
    // Headings of the pages that anchored links name, when not among the bodies read.
    const documents = new Set<string>();
    const known = (d: string) => bodies.has(d) || d.startsWith('href:');
    for (const a of analyses) {
      await slices.pause();
      if (a.kind !== 'internal' || a.anchor === undefined) continue;
      for (const t of a.targets) {
        const document = t.kind === 'page' ? this.page(t.ref)?.document : undefined;
        if (document && !known(document)) documents.add(document);
      }
    }
    if (documents.size) this.read.push(await documentLinks(this.db, documents));
    // A page shows the headings of the reusable contents it includes: they are its anchors too.
    if (!this.contents && this.read.some((m) => [...m.values()].some((l) => l.includes?.length))) {
      this.contents = await includedLinksFinder(this.db, this.revision);
    }
  }

  private linksOf(document: string): DocumentLinks | undefined {
    return this.read.find((m) => m.has(document))?.get(document);
  }

  page(ref: string): PageInfo | undefined {
    // As the published site: a page with this id is the target whatever its type (only documents are linkable);
    // else the first document page with this path.
    const byId = this.byId.get(ref);
    if (byId) return byId.type === 'document' ? byId : undefined;
    return this.byPath.get(ref) ?? undefined;
  }

  fileExists(id: string): boolean {
    return this.files.get(id) === true;
  }

  fileNamed(name: string): string | undefined {
    return this.names.get(name) ?? undefined;
  }

  anchors(document: string | null): Set<string> {
    if (!document) return new Set();
    let set = this.anchorSets.get(document);
    if (!set) {
      const links = this.linksOf(document);
      if (!links) return new Set();
      const anchors = new Set(links.anchors);
      // And those of the contents it includes, nested too, as its published page shows them.
      if (this.contents) {
        walkIncludes(links.includes ?? [], this.contents, (found) => found.anchors.forEach((a) => anchors.add(a)));
      }
      this.anchorSets.set(document, (set = anchors));
    }
    return set;
  }
}

/** Changes of link counts per target, applied at the end of a step. */
class TargetDeltas {
  private readonly deltas = new Map<string, { n: number; row?: Omit<LinkTargetRow, 'usages'> }>();

  constructor(private readonly scope: string) {}

  add(resolved: Resolved, relation: LinkRelation): void {
    const d = this.deltas.get(resolved.key) ?? { n: 0 };
    d.n++;
    d.row ??= {
      scope_id: this.scope,
      target_key: resolved.key,
      status: resolved.status,
      relation,
      data: JSON.stringify(resolved.data),
    };
    this.deltas.set(resolved.key, d);
  }

  remove(key: string): void {
    const d = this.deltas.get(key) ?? { n: 0 };
    d.n--;
    this.deltas.set(key, d);
  }

  /** Writes the targets' counts; returns the change of the scope's counters. */
  async apply(tx: Executor): Promise<{ targets: number; broken: number; in_app: number }> {
    const counters = { targets: 0, broken: 0, in_app: 0 };
    const count = (status: string, by: number) => {
      counters.targets += by;
      if (status === 'broken') counters.broken += by;
      if (status === 'in-app') counters.in_app += by;
    };
    const touched = [...this.deltas].filter(([, d]) => d.n !== 0);
    if (!touched.length) return counters;
    const existing = new Map(
      (
        await repo.targetsByKeys(
          tx,
          this.scope,
          touched.map(([k]) => k),
        )
      ).map((t) => [t.target_key, t]),
    );
    const inserts: LinkTargetRow[] = [];
    const deletes: string[] = [];
    for (const [key, d] of touched) {
      const old = existing.get(key);
      const usages = (old?.usages ?? 0) + d.n;
      if (!old) {
        if (usages > 0 && d.row) {
          inserts.push({ ...d.row, usages });
          count(d.row.status, 1);
        }
      } else if (usages <= 0) {
        deletes.push(key);
        count(old.status, -1);
      } else await repo.setTargetUsages(tx, this.scope, key, usages);
    }
    await repo.deleteTargets(tx, this.scope, deletes);
    await repo.insertTargets(tx, inserts);
    return counters;
  }
}

/** A page whose own links are read (again): where it is, and what it holds. */
interface Source {
  id: string;
  path: string;
  version: PageVersion;
  info: PageInfo;
}

/** What a step changes, found in the diffs of pages and files, then written to the indexes and the links. */
interface Changes {
  /** Page ids and paths, file ids and names whose target changed. */
  keys: Set<string>;
  /** Pages whose headings changed. */
  anchorKeys: Set<string>;
  /** Pages no longer in the revision. */
  removed: string[];
  /** Rows of the page index to write: pages added or changed. */
  upserts: LinkPageRow[];
  /** Pages whose own links are read (again). */
  sources: Map<string, Source>;
  /** Pages whose path changed: the paths of the pages under them changed too. */
  movedRoots: string[];
  /** Documents whose body changed, with the body before (their headings may have changed). */
  bodyChanges: Array<{ row: LinkPageRow; before: string | null }>;
}

/** What Trie.diff lists: the keys whose value differs, with their values before and after. */
type TrieDiff = Awaited<ReturnType<Trie['diff']>>;

/** A link of a page body, to be resolved and written. */
type Planned = { source: Source; analysis: Analysis; relation: LinkRelation; href: string; position: number };

/** A link elsewhere to resolve again, with the page it is on. */
type Redo = { link: LinkRow; page: LinkPageRow; analysis: Analysis };

/** Brings `scope` (at `from`) to `to`; returns its number of targets. */
async function advance(
  tx: Executor,
  scope: LinkScopeRow,
  from: Roots,
  to: RevisionRow,
  opts: SyncOptions,
): Promise<number> {
  const scopeId = scope.id;
  const fresh = scope.revision_id === '';
  const slices = new TimeSlices();
  const trie = new Trie(nodeStore(tx));
  const pageDiff = await trie.diff(from.pages_root, to.pages_root);
  const fileDiff = await trie.diff(from.files_root, to.files_root);

  const { after, stored } = await pagesOfDiff(tx, scopeId, pageDiff, fresh, slices);
  const pages = await pagesAt(tx, scopeId, to, after);
  const changes: Changes = {
    keys: new Set(),
    anchorKeys: new Set(),
    removed: [],
    upserts: [],
    sources: new Map(),
    movedRoots: [],
    bodyChanges: [],
  };
  await comparePages(changes, after, stored, pages, fresh, slices);
  await comparePagesUnderMoved(tx, scopeId, changes, after, pages, slices);
  if (!fresh) await addIncludersOfChangedContents(tx, scopeId, changes, pageDiff, pages);
  const documents = await readLinksOfBodies(tx, changes, opts.ahead, slices);
  const included = await linksOfIncludes(tx, to, changes.sources, documents, slices);
  findChangedHeadings(changes, documents);
  const files = compareFiles(changes, scopeId, fileDiff);
  const rewritten = new Set<string>();
  for (const id of [changes.removed, changes.sources.keys()].flatMap((ids) => [...ids])) {
    rewritten.add(id);
    const pause = slices.pause();
    if (pause) await pause;
  }
  const dependents = fresh ? [] : await linksDependingOnChanges(tx, scopeId, changes, rewritten);
  await writeIndexes(tx, scopeId, changes, files, included);
  const targets = new TargetDeltas(scopeId);
  if (!fresh && rewritten.size) await removeLinksOfPages(tx, scopeId, rewritten, targets);
  const planned = await planLinks(changes.sources, documents, included, slices);
  const redo = await linksToResolveAgain(tx, scopeId, dependents);
  const lookup = await prepareLookup(tx, scopeId, to, fresh, changes, files.files, planned, redo, documents);
  await writeLinks(tx, scopeId, planned, lookup, targets, opts.appBase, slices);
  await resolveAgain(tx, scopeId, redo, lookup, targets, opts.appBase);
  return updateCounters(tx, scope, to, targets);
}

/** Pages: their entries after the change (null: removed), and where they were before (the scope's index). */
async function pagesOfDiff(tx: Executor, scopeId: string, pageDiff: TrieDiff, fresh: boolean, slices: TimeSlices) {
  const after = new Map<string, PageEntry | null>();
  for (const d of pageDiff) {
    if (d.key !== ROOT && isPageKey(d.key)) after.set(d.key, (d.after as unknown as PageEntry | undefined) ?? null);
    const pause = slices.pause();
    if (pause) await pause;
  }
  const stored = new Map<string, LinkPageRow>();
  if (!fresh) for (const row of await repo.pagesByIds(tx, scopeId, [...after.keys()])) stored.set(row.page_id, row);
  return { after, stored };
}

/**
 * The pages of revision `to` as the scope's page index holds them: their entries (those of the diff, `after`, or
 * read), versions and paths, each read once, and their rows.
 */
async function pagesAt(tx: Executor, scopeId: string, to: RevisionRow, after: Map<string, PageEntry | null>) {
  const reader = new RevisionReader(tx, to);
  const entries = new Map<string, PageEntry | undefined>();
  const entryOf = async (id: string): Promise<PageEntry | undefined> => {
    if (after.has(id)) return after.get(id) ?? undefined;
    if (!entries.has(id)) entries.set(id, await reader.entry(id));
    return entries.get(id);
  };
  const slices = new TimeSlices();
  const versionHashes: string[] = [];
  for (const e of after.values()) {
    if (e) versionHashes.push(e.v);
    const pause = slices.pause();
    if (pause) await pause;
  }
  const versions = await getObjects<PageVersion>(tx, versionHashes, { remember: versionHashes.length <= 10_000 });
  const versionOf = async (hash: string): Promise<PageVersion> => {
    let v = versions.get(hash);
    if (!v) versions.set(hash, (v = await getObject<PageVersion>(tx, hash)));
    return v;
  };
  const paths = new Map<string, string>();
  const pathOf = async (id: string, depth = 0): Promise<string> => {
    const known = paths.get(id);
    if (known !== undefined) return known;
    const entry = await entryOf(id);
    if (!entry) return '';
    const version = await versionOf(entry.v);
    // Groups give no segment to their pages' paths (as RevisionReader.path).
    const parent = entry.p && depth < 100 ? await pathOf(entry.p, depth + 1) : '';
    const path = version.type === 'group' ? parent : parent ? `${parent}/${version.slug}` : version.slug;
    paths.set(id, path);
    return path;
  };
  const rowOf = (id: string, version: PageVersion, path: string): LinkPageRow => ({
    scope_id: scopeId,
    page_id: id,
    type: version.type,
    title: version.title,
    path,
    path_key: pageKey(path),
    document:
      version.type === 'document'
        ? (version.document ?? null)
        : version.type === 'link' && version.href
          ? hrefMark(version.href)
          : null,
    anchors: version.type === 'document' && version.anchors ? JSON.stringify(Object.keys(version.anchors)) : null,
  });
  return { entryOf, versionOf, pathOf, rowOf };
}

type PagesAt = Awaited<ReturnType<typeof pagesAt>>;

function addSource(changes: Changes, row: LinkPageRow, version: PageVersion) {
  changes.sources.set(row.page_id, { id: row.page_id, path: row.path, version, info: infoOf(row) });
}

/** The pages of the diff: removed, added, or changed (moved, retyped, given another body, retitled). */
async function comparePages(
  changes: Changes,
  after: Map<string, PageEntry | null>,
  stored: Map<string, LinkPageRow>,
  pages: PagesAt,
  fresh: boolean,
  slices: TimeSlices,
): Promise<void> {
  const { keys, removed, upserts, movedRoots, bodyChanges } = changes;
  for (const [id, entry] of after) {
    // First in the step: the steps below end early with `continue` (every page of an import is new).
    const pause = slices.pause();
    if (pause) await pause;
    const old = stored.get(id);
    if (!entry) {
      if (old) {
        removed.push(id);
        keys.add(pageKey(id)).add(pageKey(old.path));
      }
      continue;
    }
    const version = await pages.versionOf(entry.v);
    const row = pages.rowOf(id, version, await pages.pathOf(id));
    if (!old) {
      upserts.push(row);
      addSource(changes, row, version);
      if (!fresh) keys.add(pageKey(id)).add(row.path_key);
      continue;
    }
    const moved = old.path !== row.path;
    const retyped = old.type !== row.type;
    const rebodied = old.document !== row.document;
    const realiased = (old.anchors ?? null) !== row.anchors;
    if (moved || retyped || rebodied || realiased || old.title !== row.title) upserts.push(row);
    // Its title's anchor and its old heading ids are among its anchors (resolve.ts): links to them may change status.
    if ((old.title !== row.title || realiased) && row.type === 'document') {
      changes.anchorKeys.add(pageKey(id)).add(row.path_key);
    }
    if (moved) {
      keys.add(old.path_key).add(row.path_key);
      movedRoots.push(id);
    }
    if (retyped) keys.add(pageKey(id)).add(old.path_key).add(row.path_key);
    if (moved || retyped || rebodied) addSource(changes, row, version);
    if (rebodied && !retyped && row.type === 'document') bodyChanges.push({ row, before: old.document });
  }
}

/** Pages under a page whose path changed: their paths changed too (their entries did not). */
async function comparePagesUnderMoved(
  tx: Executor,
  scopeId: string,
  changes: Changes,
  after: Map<string, PageEntry | null>,
  pages: PagesAt,
  slices: TimeSlices,
): Promise<void> {
  const { keys, upserts, movedRoots } = changes;
  const under: string[] = [];
  const seen = new Set<string>();
  const queue = [];
  for (const id of movedRoots) queue.push(...((await pages.entryOf(id))?.c ?? []));
  while (queue.length) {
    const pause = slices.pause();
    if (pause) await pause;
    const id = queue.pop()!;
    if (seen.has(id) || after.has(id)) continue;
    seen.add(id);
    const entry = await pages.entryOf(id);
    if (!entry) continue;
    under.push(id);
    queue.push(...entry.c);
  }
  for (const old of await repo.pagesByIds(tx, scopeId, under)) {
    const pause = slices.pause();
    if (pause) await pause;
    const entry = (await pages.entryOf(old.page_id))!;
    const version = await pages.versionOf(entry.v);
    const row = pages.rowOf(old.page_id, version, await pages.pathOf(old.page_id));
    if (row.path === old.path) continue;
    upserts.push(row);
    addSource(changes, row, version);
    keys.add(old.path_key).add(row.path_key);
  }
}

/**
 * The links of every body this step reads, in one go (stored by document: most were read ahead, when written;
 * one statement stores the others, so two steps storing the same bodies never wait for each other in a cycle).
 */
async function readLinksOfBodies(tx: Executor, changes: Changes, ahead: LinksAhead | undefined, slices: TimeSlices) {
  const { sources, bodyChanges } = changes;
  const bodies: string[] = [];
  for (const s of sources.values()) {
    await slices.pause();
    if (s.version.type === 'document' && s.version.document) bodies.push(s.version.document);
  }
  for (const c of bodyChanges) if (c.before) bodies.push(c.before);
  return documentLinks(tx, bodies, ahead);
}

type BodiesLinks = Awaited<ReturnType<typeof readLinksOfBodies>>;

/** Pages whose headings changed: links to their anchors may change status. */
function findChangedHeadings(changes: Changes, documents: BodiesLinks): void {
  const anchorsOf = (d: string | null) => (d ? (documents.get(d)?.anchors ?? []) : []).join('\n');
  for (const { row, before } of changes.bodyChanges) {
    if (anchorsOf(before) !== anchorsOf(row.document)) changes.anchorKeys.add(pageKey(row.page_id)).add(row.path_key);
  }
}

/** Files: the scope's file index to change, and the files of `to` that the diff names. */
function compareFiles(changes: Changes, scopeId: string, fileDiff: TrieDiff) {
  const { keys } = changes;
  const fileUpserts: LinkFilesTable[] = [];
  const fileDeletes: string[] = [];
  const files: Array<{ id: string; name: string }> = [];
  for (const { key, before, after: now } of fileDiff) {
    const was = before as unknown as FileEntry | undefined;
    const is = now as unknown as FileEntry | undefined;
    if (is) files.push({ id: key, name: is.name });
    if (!is) {
      fileDeletes.push(key);
      keys.add(fileKey(key)).add(nameKey(was!.name));
    } else if (!was || was.name !== is.name) {
      fileUpserts.push({ scope_id: scopeId, file_id: key, name_key: nameKey(is.name) });
      keys.add(fileKey(key)).add(nameKey(is.name));
      if (was) keys.add(nameKey(was.name));
    }
  }
  return { fileUpserts, fileDeletes, files };
}

/** Links elsewhere whose status may change (read before this step's own links are rewritten). */
async function linksDependingOnChanges(tx: Executor, scopeId: string, changes: Changes, rewritten: Set<string>) {
  return (await repo.dependentLinks(tx, scopeId, changes.keys, changes.anchorKeys)).filter(
    (d) => !rewritten.has(d.page_id),
  );
}

/** The indexes, as they are after the change. */
async function writeIndexes(
  tx: Executor,
  scopeId: string,
  changes: Changes,
  files: { fileUpserts: LinkFilesTable[]; fileDeletes: string[] },
  included: Included,
): Promise<void> {
  await repo.deletePages(tx, scopeId, changes.removed);
  await repo.upsertPages(tx, changes.upserts);
  await repo.deleteIncludesOfPages(tx, scopeId, [...changes.removed, ...changes.sources.keys()]);
  await repo.insertIncludes(
    tx,
    [...included].flatMap(([pageId, { names }]) => names.map((name) => ({ scope_id: scopeId, page_id: pageId, name }))),
  );
  await repo.deleteFiles(tx, scopeId, files.fileDeletes);
  await repo.upsertFiles(tx, files.fileUpserts);
}

/** The links of removed and re-read pages go. */
async function removeLinksOfPages(
  tx: Executor,
  scopeId: string,
  rewritten: Set<string>,
  targets: TargetDeltas,
): Promise<void> {
  for (const link of await repo.linksOfPages(tx, scopeId, [...rewritten])) targets.remove(link.target_key);
  await repo.deleteLinksOfPages(tx, scopeId, [...rewritten]);
}

/**
 * Pages whose body includes a reusable content that changed (by its id, or its slug before or after, as
 * `link_includes` holds them): their links are read again, as the contents' links are theirs.
 */
async function addIncludersOfChangedContents(
  tx: Executor,
  scopeId: string,
  changes: Changes,
  pageDiff: TrieDiff,
  pages: PagesAt,
): Promise<void> {
  const names = new Set<string>();
  const versions: string[] = [];
  for (const d of pageDiff) {
    if (d.key === ROOT || d.key === REUSABLE || isPageKey(d.key)) continue;
    names.add(d.key.slice(REUSABLE.length));
    for (const e of [d.before, d.after]) if (e) versions.push((e as unknown as PageEntry).v);
  }
  if (!names.size) return;
  for (const hash of versions) names.add((await pages.versionOf(hash)).slug);
  const ids = (await repo.pagesIncluding(tx, scopeId, [...names])).filter((id) => !changes.sources.has(id));
  const upserted = new Map(changes.upserts.map((row) => [row.page_id, row]));
  for (const old of await repo.pagesByIds(tx, scopeId, ids)) {
    const entry = await pages.entryOf(old.page_id);
    if (!entry) continue;
    const row = upserted.get(old.page_id) ?? old;
    addSource(changes, row, await pages.versionOf(entry.v));
    // The contents' headings are among its anchors: links to them elsewhere may change status.
    changes.anchorKeys.add(pageKey(row.page_id)).add(row.path_key);
  }
}

/** For each page read (again) whose body includes reusable content: the contents' links, and the names looked for. */
type Included = Map<string, { links: BodyLink[]; names: string[] }>;

/**
 * The links of the reusable contents the sources' bodies include, nested ones too (as the published page shows
 * them in place, shared/gitbook-blocks.ts expandIncludes), from revision `to`; and every name each page looked
 * for, as written and as a slug (the index `link_includes` keeps, to find the page when a content changes).
 */
async function linksOfIncludes(
  tx: Executor,
  to: RevisionRow,
  sources: Map<string, Source>,
  documents: BodiesLinks,
  slices: TimeSlices,
): Promise<Included> {
  const out: Included = new Map();
  const includesOf = (s: Source) =>
    s.version.type === 'document' && s.version.document ? documents.get(s.version.document)?.includes : undefined;
  const including = [...sources.values()].filter((s) => includesOf(s)?.length);
  if (!including.length) return out;
  const find = await includedLinksFinder(tx, to);
  for (const source of including) {
    await slices.pause();
    const links: BodyLink[] = [];
    const looked = walkIncludes(includesOf(source)!, find, (found) => links.push(...found.links));
    const names = new Set([...looked].flatMap((name) => [name, slugify(name)]));
    out.set(source.id, { links, names: [...names].filter((n) => n && n.length <= 255) });
  }
  return out;
}

/** The links of revision `to`'s reusable contents, found by the name an include gives (contentFinder). */
async function includedLinksFinder(db: Executor, to: RevisionRow) {
  const contents = await new RevisionReader(db, to).reusableContents();
  const linksOf = await documentLinks(
    db,
    contents.flatMap((c) => (c.version.document ? [c.version.document] : [])),
  );
  return contentFinder(contents, (c) => (c.version.document ? linksOf.get(c.version.document) : undefined));
}

/**
 * The contents `names` include, nested too (INCLUDE_DEPTH_MAX levels, each name once, as the published page
 * expands them): `visit` is given the links of each one found; answers every name looked for.
 */
function walkIncludes(
  names: string[],
  find: (name: string) => DocumentLinks | undefined,
  visit: (found: DocumentLinks) => void,
): Set<string> {
  const seen = new Set<string>();
  let wanted = names;
  for (let depth = 0; depth < INCLUDE_DEPTH_MAX && wanted.length; depth++) {
    const next: string[] = [];
    for (const name of wanted) {
      if (seen.has(name)) continue;
      seen.add(name);
      const found = find(name);
      if (!found) continue;
      visit(found);
      next.push(...(found.includes ?? []));
    }
    wanted = next;
  }
  return seen;
}

/** The links of the pages read (again), from their bodies, then from the reusable contents they include. */
async function planLinks(sources: Map<string, Source>, documents: BodiesLinks, included: Included, slices: TimeSlices) {
  const planned: Planned[] = [];
  for (const source of sources.values()) {
    await slices.pause();
    const own: DocumentLinks['links'] =
      source.version.type === 'document' && source.version.document
        ? (documents.get(source.version.document)?.links ?? [])
        : source.version.type === 'link' && source.version.href
          ? [{ href: source.version.href, image: false }]
          : [];
    // Each link once per page, as a body lists them (render.ts markdownLinks).
    const seen = new Set(own.map((l) => `${l.image ? 'i' : 'a'}${l.href}`));
    const body = [...own];
    for (const link of included.get(source.id)?.links ?? []) {
      const key = `${link.image ? 'i' : 'a'}${link.href}`;
      if (!seen.has(key)) body.push(link);
      seen.add(key);
    }
    body.forEach((link, position) =>
      planned.push({
        source,
        analysis: analyze(link.href, source.path),
        relation: link.image ? 'dependsOn' : 'reference',
        href: link.href,
        position,
      }),
    );
  }
  return planned;
}

/** Links to resolve again, with the pages they are on. */
async function linksToResolveAgain(
  tx: Executor,
  scopeId: string,
  dependents: Array<{ link_id: string; page_id: string }>,
): Promise<Redo[]> {
  const again = await repo.linksByIds(
    tx,
    scopeId,
    dependents.map((d) => d.link_id),
  );
  const onPages = new Map(
    (
      await repo.pagesByIds(
        tx,
        scopeId,
        again.map((l) => l.page_id),
      )
    ).map((p) => [p.page_id, p]),
  );
  return again.flatMap((link) => {
    const page = onPages.get(link.page_id);
    return page ? [{ link, page, analysis: analyze(link.href, page.path) }] : [];
  });
}

/** What the links are resolved against, read in a few queries (all there is, for a scope built from nothing). */
async function prepareLookup(
  tx: Executor,
  scopeId: string,
  to: RevisionRow,
  fresh: boolean,
  changes: Changes,
  files: Array<{ id: string; name: string }>,
  planned: Planned[],
  redo: Redo[],
  bodies: BodiesLinks,
): Promise<Lookup> {
  const lookup = new Lookup(tx, scopeId, to);
  if (fresh) await lookup.fill(changes.upserts, files);
  await lookup.prepare([...planned.map((p) => p.analysis), ...redo.map((r) => r.analysis)], bodies);
  return lookup;
}

/** The links of the pages read, resolved, with what they depend on, and counted at their targets. */
async function writeLinks(
  tx: Executor,
  scopeId: string,
  planned: Planned[],
  lookup: Lookup,
  targets: TargetDeltas,
  appBase: string,
  slices: TimeSlices,
): Promise<void> {
  const linkRows: LinkRow[] = [];
  const depRows: LinkDepsTable[] = [];
  for (const p of planned) {
    const resolved = resolve(p.analysis, p.relation, p.source.info, lookup, appBase);
    const id = hashOf([p.source.id, p.href, p.relation]);
    linkRows.push({
      scope_id: scopeId,
      id,
      page_id: p.source.id,
      position: p.position,
      href: p.href,
      relation: p.relation,
      status: resolved.status,
      target_key: resolved.key,
    });
    for (const dep of depsOf(p.analysis)) {
      depRows.push({
        scope_id: scopeId,
        dep_key: dep.key,
        link_id: id,
        page_id: p.source.id,
        anchor: dep.anchor ? 1 : 0,
      });
    }
    targets.add(resolved, p.relation);
    const pause = slices.pause();
    if (pause) await pause;
  }
  await repo.insertLinks(tx, linkRows);
  await repo.insertDeps(tx, depRows);
}

/** Links elsewhere resolved again: those whose target changed are rewritten and counted again. */
async function resolveAgain(
  tx: Executor,
  scopeId: string,
  redo: Redo[],
  lookup: Lookup,
  targets: TargetDeltas,
  appBase: string,
): Promise<void> {
  for (const { link, page, analysis } of redo) {
    const relation = link.relation as LinkRelation;
    const resolved = resolve(analysis, relation, infoOf(page), lookup, appBase);
    if (resolved.key === link.target_key) continue;
    await repo.setLinkTarget(tx, scopeId, link.id, { status: resolved.status, target_key: resolved.key });
    targets.remove(link.target_key);
    targets.add(resolved, relation);
  }
}

/** The targets' counts written, and the scope at `to` with its counters; returns its number of targets. */
async function updateCounters(
  tx: Executor,
  scope: LinkScopeRow,
  to: RevisionRow,
  targets: TargetDeltas,
): Promise<number> {
  const counted = await targets.apply(tx);
  const total = scope.targets + counted.targets;
  await repo.updateScope(tx, scope.id, {
    revision_id: to.id,
    targets: total,
    broken: scope.broken + counted.broken,
    in_app: scope.in_app + counted.in_app,
    updated_at: nowIso(),
  });
  return total;
}
