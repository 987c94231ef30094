import { transaction, type Db, type Executor } from '../../storage/db.js';
import { getObjects, nodeStore } from '../../storage/repos/objects.js';
import { findRevision } from '../../storage/repos/spaces.js';
import { lockSpace } from '../../storage/repos/change-requests.js';
import * as repo from '../../storage/repos/search.js';
import { searchDialect } from '../../storage/dialects/search.js';
import { Trie, type NodeStore, type TrieNode } from '../content/tree.js';
import {
  REUSABLE,
  ROOT,
  isPageKey,
  type DocumentObject,
  type PageEntry,
  type PageVersion,
  type ReusableContent,
  type RootEntry,
} from '../content/model.js';
import { expandWithIncludes, type IncludeSource } from '../content/reusable.js';
import { slugify } from '../content/edit.js';
import { blocksToMarkdown, type Block } from '../content/blocks.js';
import { LruCache } from '../../lib/lru-cache.js';
import { workers } from '../../workers/pool.js';
import { TimeSlices } from '../../lib/yield.js';
import { cleanText, SECTION_SEPARATOR, type Section } from './extract.js';

/**
 * Keeps the search index in step with each space's current revision, in the transaction that changes it.
 *
 * - Incremental: the page trie of the indexed revision is compared with the new one (Trie.diff skips every equal
 *   subtree), and only pages whose version changed are written again; a page that only moved keeps its row (paths
 *   are read from the revision when results are shown, not stored).
 * - Extraction (markdown → sections) is a pure function of a document, which is immutable and addressed by its
 *   hash: results are cached by that hash, and big bodies are parsed in the worker pool. A merge computes its
 *   update before its transaction (computeSearchUpdate on the prepared revision, see mergeAhead), so the
 *   transaction only writes rows; if the space or the index moved meanwhile, the transaction computes it again.
 * - `search_spaces` says which revision a space's rows describe, so an update always starts from what the index
 *   holds, and a space the index missed (created before migration 010, or by code that does not call here) is
 *   caught up at the next change, at start (ensureSearchIndex) or by `npm run search:rebuild`.
 */
export interface SearchUpdate {
  spaceId: string;
  /** The indexed revision this update starts from (null: from nothing, every row of the space replaced). */
  from: string | null;
  /** The pages root it leads to. */
  pagesRoot: string | null;
  /** Pages whose rows go (deleted, no longer documents, or replaced by `rows`). */
  deletes: string[];
  rows: repo.SearchRow[];
  /** The reusable contents the pages of `rows` include (see migration 026). */
  includes: repo.IncludeRow[];
}

/**
 * Extracted sections by the hash of the document they come from, up to 32 MiB of text, in front of
 * `search_sections` (migration 021), where they are stored once extracted. Content edits and imports, which parse
 * each body anyway, store them with the documents they write (storeDocumentSections): a merge of those pages
 * neither extracts nor reads their documents, whichever process merges it.
 */
const sectionsCache = new LruCache<Section[]>(20_000, 32 * 1024 * 1024, (sections) =>
  sections.reduce((n, s) => n + s.text.length + s.heading.length + s.anchor.length + 16, 0),
);

/** Part of every stored key: raise it when extractSections gives other sections for the same markdown. */
const SECTIONS_VERSION = 4;

const sectionsKey = (documentHash: string) => `${SECTIONS_VERSION}:${documentHash}`;

const encodeSections = (sections: Section[]) =>
  JSON.stringify(
    sections.map((s) => (s.includes ? [s.anchor, s.heading, s.text, s.includes] : [s.anchor, s.heading, s.text])),
  );
const decodeSections = (data: string): Section[] =>
  (JSON.parse(data) as Array<[string, string, string, string[]?]>).map(([anchor, heading, text, includes]) =>
    includes ? { anchor, heading, text, includes } : { anchor, heading, text },
  );

/** Forgets the sections held in memory (as a process that never saw them, for tests); stored ones stay. */
export function forgetCachedSections(): void {
  sectionsCache.clear();
}

/**
 * Stores the sections of documents about to be written (through `db`, the transaction writing them), found by
 * their bodies among `extracted` (body → sections, from the parse the edit made anyway). A document whose body is
 * not there is left for the index to extract.
 */
export async function storeDocumentSections(
  db: Executor,
  documents: Iterable<[string, DocumentObject]>,
  extracted: ReadonlyMap<string, Section[]>,
): Promise<void> {
  const slices = new TimeSlices();
  const found = new Map<string, Section[]>();
  for (const [hash, document] of documents) {
    const body = blocksToMarkdown(document.blocks);
    const sections = body ? extracted.get(body) : EMPTY;
    if (sections) found.set(hash, sections);
    const pause = slices.pause();
    if (pause) await pause;
  }
  await keepSections(db, found, slices);
}

/** Documents' sections, by document hash, kept in memory and stored (through `db`). */
async function keepSections(db: Executor, sections: Map<string, Section[]>, slices: TimeSlices): Promise<void> {
  const rows = new Map<string, string>();
  for (const [hash, list] of sections) {
    sectionsCache.set(sectionsKey(hash), list);
    rows.set(sectionsKey(hash), encodeSections(list));
    const pause = slices.pause();
    if (pause) await pause;
  }
  await repo.insertSections(db, rows);
}

/** Objects read in one go before other work may run (a merge of an import reads thousands). */
const READ_BATCH = 500;

/** Extraction tasks given to the worker pool at once (it queues those beyond its threads). */
const EXTRACT_CONCURRENCY = 4;
/** Characters of markdown in one extraction task, at most (a page bigger than that is a task of its own). */
const BATCH_CHARS = 256 * 1024;

/** Objects of a revision not stored yet (a prepared merge), looked up before the database. */
type Overlay = ReadonlyMap<string, unknown>;

function overlayStore(db: Executor, overlay: Overlay): NodeStore {
  const base = nodeStore(db);
  return {
    get: async (hash) => (overlay.get(hash) as TrieNode | undefined) ?? base.get(hash),
    getMany: async (hashes) => {
      const out = new Map<string, TrieNode>();
      const missing: string[] = [];
      for (const h of hashes) {
        const hit = overlay.get(h) as TrieNode | undefined;
        if (hit) out.set(h, hit);
        else missing.push(h);
      }
      for (const [h, node] of await base.getMany(missing)) out.set(h, node);
      return out;
    },
    putMany: () => Promise.reject(new Error('The search index never writes content')),
  };
}

/** Objects by hash, from the overlay or the database, letting other work run between batches of reads. */
async function objectsOf<T>(
  db: Executor,
  overlay: Overlay,
  hashes: Iterable<string>,
  slices = new TimeSlices(),
): Promise<Map<string, T>> {
  const out = new Map<string, T>();
  const missing: string[] = [];
  for (const h of hashes) {
    await slices.pause();
    if (out.has(h)) continue;
    const hit = overlay.get(h) as T | undefined;
    if (hit) out.set(h, hit);
    else missing.push(h);
  }
  for (let i = 0; i < missing.length; i += READ_BATCH) {
    await slices.due();
    for (const [h, value] of await getObjects<T>(db, missing.slice(i, i + READ_BATCH))) out.set(h, value);
  }
  for (const h of missing) if (!out.has(h)) throw new Error(`Missing content object ${h}`);
  return out;
}

const EMPTY: Section[] = [{ anchor: '', heading: '', text: '' }];

/**
 * The sections of documents by hash: from the cache, else stored (`search_sections`), else extracted from the
 * documents (read then) and stored, through `db`. Extraction goes in batches of about BATCH_CHARS characters of
 * markdown, each batch one task of the worker pool (run inline when it is small), so many small pages cost a few
 * worker tasks rather than seconds of the event loop.
 */
async function sectionsOfDocuments(
  db: Executor,
  overlay: Overlay,
  hashes: Iterable<string>,
  slices: TimeSlices,
): Promise<Map<string, Section[]>> {
  const out = new Map<string, Section[]>();
  const wanted: string[] = [];
  for (const hash of hashes) {
    await slices.pause();
    const hit = sectionsCache.get(sectionsKey(hash));
    if (hit) out.set(hash, hit);
    else wanted.push(hash);
  }
  if (!wanted.length) return out;
  const stored = await repo.findSections(db, wanted.map(sectionsKey));
  const missing: string[] = [];
  for (const hash of wanted) {
    await slices.pause();
    const data = stored.get(sectionsKey(hash));
    if (data === undefined) {
      missing.push(hash);
      continue;
    }
    const sections = decodeSections(data);
    sectionsCache.set(sectionsKey(hash), sections);
    out.set(hash, sections);
  }
  if (!missing.length) return out;
  const bodies = new Map<string, string>();
  for (const [hash, document] of await objectsOf<DocumentObject>(db, overlay, missing, slices)) {
    await slices.pause();
    bodies.set(hash, blocksToMarkdown(document.blocks));
  }
  const extracted = await extractBodies(bodies.values());
  const found = new Map<string, Section[]>();
  for (const [hash, body] of bodies) {
    const sections = body ? extracted.get(body)! : EMPTY;
    found.set(hash, sections);
    out.set(hash, sections);
    await slices.pause();
  }
  await keepSections(db, found, slices);
  return out;
}

/** Sections extracted from page bodies (each a document's blocksToMarkdown, none empty), by body. */
async function extractBodies(bodies: Iterable<string>): Promise<Map<string, Section[]>> {
  const out = new Map<string, Section[]>();
  const batches: Array<{ markdowns: string[]; size: number }> = [];
  let batch = { markdowns: [] as string[], size: 0 };
  const slices = new TimeSlices();
  for (const markdown of new Set(bodies)) {
    await slices.pause();
    if (!markdown) continue;
    if (batch.size && batch.size + markdown.length > BATCH_CHARS) {
      batches.push(batch);
      batch = { markdowns: [], size: 0 };
    }
    batch.markdowns.push(markdown);
    batch.size += markdown.length;
  }
  if (batch.size) batches.push(batch);
  for (let i = 0; i < batches.length; i += EXTRACT_CONCURRENCY) {
    await Promise.all(
      batches.slice(i, i + EXTRACT_CONCURRENCY).map(async (b) => {
        const result = await workers.run('extractSections', b.markdowns, b.size);
        b.markdowns.forEach((markdown, k) => out.set(markdown, result[k]!));
      }),
    );
  }
  return out;
}

function rowOf(spaceId: string, pageId: string, versionHash: string, version: PageVersion, sections: Section[]) {
  const list = sections.length ? [...sections] : [...EMPTY];
  // The description reads as the start of the page's text.
  if (version.description) list[0] = { ...list[0]!, text: cleanText(`${version.description} ${list[0]!.text}`) };
  return {
    space_id: spaceId,
    page_id: pageId,
    version: versionHash,
    title: cleanText(version.title),
    anchors: list.map((s) => s.anchor).join(SECTION_SEPARATOR),
    headings: list.map((s) => s.heading).join(SECTION_SEPARATOR),
    body: list.map((s) => s.text).join(SECTION_SEPARATOR),
  };
}

/**
 * What the index needs to go from revision `from` (what it holds for the space; null for nothing) to the page trie
 * `to`, whose objects are in the database or in `to.objects` (a merge prepared but not written). Reads only.
 */
export async function computeSearchUpdate(
  db: Executor,
  spaceId: string,
  from: { id: string; pages_root: string | null } | null,
  to: { pages_root: string | null; objects?: Overlay },
): Promise<SearchUpdate> {
  const overlay = to.objects ?? new Map<string, unknown>();
  const trie = new Trie(overlayStore(db, overlay));
  // Every step pauses once the event loop has been held for a slice: a merge of 100,000 pages goes through each
  // loop below 100,000 times (it held the loop 125 ms at once).
  const slices = new TimeSlices();
  const changes = await trie.diff(from?.pages_root ?? null, to.pages_root, slices);
  const deletes: string[] = [];
  const changed: Array<{ pageId: string; entry: PageEntry }> = [];
  const contents: Array<PageEntry | undefined> = [];
  const contentNames = new Set<string>();
  for (const { key, before, after } of changes) {
    await slices.pause();
    // Reusable contents are searched where pages include them, not as pages of their own.
    if (key !== ROOT && key !== REUSABLE && !isPageKey(key)) {
      contentNames.add(key.slice(REUSABLE.length));
      contents.push(before as PageEntry | undefined, after as PageEntry | undefined);
    }
    if (key === ROOT || !isPageKey(key)) continue;
    const was = before as PageEntry | undefined;
    const is = after as PageEntry | undefined;
    if (is && was && is.v === was.v) continue; // moved, or its subpages changed: its row stays as it is
    if (was) deletes.push(key);
    if (is) changed.push({ pageId: key, entry: is });
  }
  // Pages that include a reusable content that changed (by its id or its slug, before or after) read differently
  // though they did not change: they are indexed again.
  if (from && contentNames.size) {
    const hashes = contents.filter((e): e is PageEntry => !!e).map((e) => e.v);
    for (const version of (await objectsOf<PageVersion>(db, overlay, hashes, slices)).values()) {
      contentNames.add(version.slug);
    }
    const handled = new Set([...deletes, ...changed.map((c) => c.pageId)]);
    const including = (await repo.pagesIncluding(db, spaceId, [...contentNames])).filter((id) => !handled.has(id));
    const entries = await trie.getMany(to.pages_root, including);
    for (const pageId of including) {
      deletes.push(pageId);
      const entry = entries.get(pageId) as PageEntry | undefined;
      if (entry) changed.push({ pageId, entry });
    }
  }
  const versions = await objectsOf<PageVersion>(
    db,
    overlay,
    changed.map((c) => c.entry.v),
    slices,
  );
  const documents: Array<{ pageId: string; entry: PageEntry; version: PageVersion }> = [];
  const docHashes = new Set<string>();
  for (const { pageId, entry } of changed) {
    await slices.pause();
    const version = versions.get(entry.v)!;
    if (version.type !== 'document') continue;
    documents.push({ pageId, entry, version });
    if (version.document) docHashes.add(version.document);
  }
  const sections = await sectionsOfDocuments(db, overlay, docHashes, slices);
  const included = await withIncluded(db, overlay, trie, to.pages_root, documents, sections, slices);
  const rows: repo.SearchRow[] = [];
  const includes: repo.IncludeRow[] = [];
  for (const { pageId, entry, version } of documents) {
    const hash = version.document;
    const expanded = included.get(pageId);
    rows.push(rowOf(spaceId, pageId, entry.v, version, expanded?.sections ?? (hash ? sections.get(hash)! : EMPTY)));
    for (const name of expanded?.names ?? []) includes.push({ space_id: spaceId, page_id: pageId, name });
    await slices.pause();
  }
  return { spaceId, from: from?.id ?? null, pagesRoot: to.pages_root, deletes, rows, includes };
}

/**
 * The sections of the pages among `documents` whose bodies include reusable content, read with the contents in
 * place (as the published page shows them, shared/gitbook-blocks.ts expandIncludes), from the revision whose pages'
 * root is `root`; and the names each looked for (an id or slug as written, and its slug), by page id.
 */
async function withIncluded(
  db: Executor,
  overlay: Overlay,
  trie: Trie,
  root: string | null,
  documents: Array<{ pageId: string; version: PageVersion }>,
  sections: Map<string, Section[]>,
  slices: TimeSlices,
): Promise<Map<string, { sections: Section[]; names: string[] }>> {
  const out = new Map<string, { sections: Section[]; names: string[] }>();
  const including = documents.filter((d) => d.version.document && sections.get(d.version.document)?.[0]?.includes);
  if (!including.length) return out;
  let contents: Promise<ReusableContent[]> | undefined;
  const read = new Map<string, Block[]>();
  const source: IncludeSource = {
    reusableContents: () =>
      (contents ??= (async () => {
        const list = (await trie.get(root, REUSABLE)) as RootEntry | undefined;
        const keys = list?.c ?? [];
        const entries = (await trie.getMany(root, keys)) as unknown as Map<string, PageEntry>;
        const versions = await objectsOf<PageVersion>(
          db,
          overlay,
          [...entries.values()].map((e) => e.v),
          slices,
        );
        return keys.flatMap((key) => {
          const entry = entries.get(key);
          return entry ? [{ id: key.slice(REUSABLE.length), version: versions.get(entry.v)! }] : [];
        });
      })()),
    // Read once each, however many pages include them.
    document: async (version) => {
      const hash = version.document;
      if (!hash) return [];
      let blocks = read.get(hash);
      if (!blocks) {
        blocks = (await objectsOf<DocumentObject>(db, overlay, [hash], slices)).get(hash)!.blocks;
        read.set(hash, blocks);
      }
      return blocks;
    },
  };
  const expanded = new Map<string, { markdown: string; names: string[] }>();
  for (const { pageId, version } of including) {
    // The page's own body, not kept (the contents' are, in `read`).
    const own = (await objectsOf<DocumentObject>(db, overlay, [version.document!], slices)).get(version.document!)!;
    const body = blocksToMarkdown(own.blocks);
    const { markdown, names } = await expandWithIncludes(source, body);
    // Each as written and as a slug (how an include finds its content); a name longer than a column holds names no
    // content (ids and slugs are short) and is left out.
    const all = new Set(names.flatMap((name) => [name, slugify(name)]).filter((name) => name && name.length <= 255));
    expanded.set(pageId, { markdown, names: [...all] });
  }
  const extracted = await extractBodies([...expanded.values()].map((e) => e.markdown));
  for (const [pageId, { markdown, names }] of expanded) {
    out.set(pageId, { sections: markdown ? extracted.get(markdown)! : EMPTY, names });
  }
  return out;
}

async function write(tx: Executor, update: SearchUpdate, revisionId: string): Promise<void> {
  if (update.from === null) await repo.deleteSpacePages(tx, update.spaceId);
  else await repo.deletePages(tx, update.spaceId, update.deletes);
  await repo.insertPages(tx, update.rows);
  await repo.insertIncludes(tx, update.includes);
  await repo.setIndexedRevision(tx, update.spaceId, revisionId);
}

/** The update from what the index holds for the space to `revision`, read through `db`. */
async function updateTo(db: Executor, spaceId: string, revision: { pages_root: string | null }) {
  const indexed = await repo.indexedRevision(db, spaceId);
  const from = indexed ? await findRevision(db, indexed) : undefined;
  return computeSearchUpdate(db, spaceId, from ?? null, revision);
}

/**
 * Brings the space's rows to `revision`, its new current revision, inside the transaction `tx` that makes it
 * current. `ahead` (computed before the transaction) is used when it starts from what the index holds and leads to
 * this revision's pages; otherwise the update is computed here.
 */
export async function applySearchUpdate(
  tx: Executor,
  spaceId: string,
  revision: { id: string; pages_root: string | null },
  ahead?: SearchUpdate,
): Promise<void> {
  const indexed = (await repo.indexedRevision(tx, spaceId)) ?? null;
  const fits = ahead && ahead.spaceId === spaceId && ahead.from === indexed && ahead.pagesRoot === revision.pages_root;
  const update = fits ? ahead : await updateTo(tx, spaceId, revision);
  await write(tx, update, revision.id);
}

/**
 * The update a merge will need, computed before its transaction from the revision the index holds for the space
 * to the merge's prepared pages (`objects` not written yet). Undefined when it cannot be computed now; the
 * transaction then computes it.
 */
export async function prepareSearchUpdate(
  db: Executor,
  spaceId: string,
  to: { pages_root: string | null; objects: Overlay },
): Promise<SearchUpdate | undefined> {
  try {
    const indexed = await repo.indexedRevision(db, spaceId);
    const from = indexed ? await findRevision(db, indexed) : undefined;
    return await computeSearchUpdate(db, spaceId, from ?? null, to);
  } catch {
    return undefined;
  }
}

/**
 * A new space's rows, in the transaction that creates it: none for an empty space; a duplicate's are copied from
 * its source when those describe the revision it shares, else computed.
 */
export async function indexNewSpace(
  tx: Executor,
  spaceId: string,
  revision: { id: string; pages_root: string | null },
  source?: { spaceId: string; revisionId: string },
): Promise<void> {
  if (revision.pages_root === null) {
    await repo.setIndexedRevision(tx, spaceId, revision.id);
    return;
  }
  if (source && (await repo.indexedRevision(tx, source.spaceId)) === source.revisionId) {
    await repo.copySpacePages(tx, source.spaceId, spaceId);
    await repo.setIndexedRevision(tx, spaceId, revision.id);
    return;
  }
  await applySearchUpdate(tx, spaceId, revision);
}

/**
 * Brings one space's rows to its current revision (from scratch with `full`). The work is done before the
 * transaction; inside, under the space's row lock, it is used if the space and the index did not move meanwhile.
 */
export async function reindexSpace(db: Db, spaceId: string, options: { full?: boolean } = {}): Promise<void> {
  const ahead = await (async () => {
    const space = await db.selectFrom('spaces').select('revision_id').where('id', '=', spaceId).executeTakeFirst();
    const revision = space && (await findRevision(db, space.revision_id));
    if (!revision) return undefined;
    const indexed = options.full ? undefined : await repo.indexedRevision(db, spaceId);
    const from = indexed ? await findRevision(db, indexed) : undefined;
    return { revisionId: revision.id, update: await computeSearchUpdate(db, spaceId, from ?? null, revision) };
  })();
  if (!ahead) return;
  await transaction(db, async (tx) => {
    await lockSpace(tx, spaceId);
    const space = await tx.selectFrom('spaces').select('revision_id').where('id', '=', spaceId).executeTakeFirst();
    if (!space) return;
    const revision = (await findRevision(tx, space.revision_id))!;
    const indexed = (await repo.indexedRevision(tx, spaceId)) ?? null;
    const { update } = ahead;
    const fits = ahead.revisionId === revision.id && (update.from === null || update.from === indexed);
    await write(tx, fits ? update : await updateTo(tx, spaceId, revision), revision.id);
  });
}

export interface IndexLog {
  info(message: string): void;
}

/**
 * At start (before listening): the index in the configured language, and every space whose rows do not describe
 * its current revision brought up to date (all of them after migration 010). Throws when the database cannot
 * search in `language`.
 */
export async function ensureSearchIndex(db: Db, language: string, log: IndexLog): Promise<void> {
  const dialect = searchDialect(db);
  const problem = await dialect.checkLanguage(db, language);
  if (problem) throw new Error(`SEARCH_LANGUAGE: ${problem}`);
  if ((await repo.storedLanguage(db)) !== language) {
    log.info(`search: re-indexing every page for the language ${language}…`);
    await transaction(db, async (tx) => {
      await repo.setStoredLanguage(tx, language);
      await dialect.retokenize(tx, language);
    });
  }
  const stale = await repo.staleSpaces(db);
  if (!stale.length) return;
  log.info(`search: indexing ${stale.length} space(s)…`);
  const started = Date.now();
  for (const space of stale) await reindexSpace(db, space.id);
  log.info(`search: indexed ${stale.length} space(s) in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

/** `npm run search:rebuild`: every space's rows made again from its current revision. */
export async function rebuildSearchIndex(db: Db, language: string, log: IndexLog): Promise<number> {
  await ensureSearchIndex(db, language, { info: () => undefined });
  const spaces = await repo.allSpaces(db);
  const started = Date.now();
  let done = 0;
  for (const space of spaces) {
    await reindexSpace(db, space.id, { full: true });
    done++;
    if (done % 100 === 0) log.info(`search: ${done} of ${spaces.length} spaces`);
  }
  log.info(`search: rebuilt ${spaces.length} space(s) in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return spaces.length;
}
