import crypto from 'node:crypto';
import type { Executor } from '../db.js';
import type { NodeStore, TrieNode } from '../trie-nodes.js';
import { TimeSlices, yieldToEventLoop } from '../../lib/yield.js';
import { FifoCache } from '../../lib/fifo-cache.js';

/**
 * Immutable JSON objects addressed by the hash of their content (trie nodes, page versions, documents).
 * Because an id always names the same content, a process may cache them without any invalidation: the cache
 * is correct with several server processes on one database.
 */
const CACHE_MAX = 50_000;
/**
 * Characters of JSON the cached objects were read from, at most: documents and large trie nodes weigh kilobytes
 * each, so a bound by count alone let five minutes of edits grow the server by 700 MB (every edit reads the
 * objects the previous one wrote), and the garbage collector's work with it.
 */
const CACHE_CHARS_MAX = 32 * 1024 * 1024;
const cache = new FifoCache<unknown>(CACHE_MAX, CACHE_CHARS_MAX);

function remember(id: string, value: unknown, chars: number) {
  cache.set(id, value, chars);
}

/**
 * The objects of these ids (those that exist). `remember: false` reads without keeping what was read in the
 * cache: for one pass over more objects than the cache holds, which would only flush it (and keep the garbage
 * collector busy moving objects nobody reads again).
 */
export async function getObjects<T>(
  db: Executor,
  ids: string[],
  opts: { remember?: boolean } = {},
): Promise<Map<string, T>> {
  const out = new Map<string, T>();
  const absent = new Set<string>();
  // 100,000 ids (the pages a merge adds) are looked up in slices of the event loop; one id (most calls) is not.
  const slices = ids.length > 256 ? new TimeSlices() : undefined;
  for (const id of ids) {
    if (!out.has(id) && !absent.has(id)) {
      const hit = cache.get(id);
      if (hit !== undefined) out.set(id, hit as T);
      else absent.add(id);
    }
    const pause = slices?.pause();
    if (pause) await pause;
  }
  const missing = [...absent];
  for (let i = 0; i < missing.length; i += 500) {
    // SQLite answers synchronously: without a pause between batches, reading 100,000 objects (a large page tree)
    // would hold the event loop for seconds.
    if (i > 0) await yieldToEventLoop();
    const rows = await db
      .selectFrom('objects')
      .select(['id', 'data'])
      .where('id', 'in', missing.slice(i, i + 500))
      .execute();
    for (const row of rows) {
      const value = JSON.parse(row.data) as T;
      if (opts.remember !== false) remember(row.id, value, row.data.length);
      out.set(row.id, value);
      // Parsed in slices too: 500 large trie nodes are megabytes of JSON (15 ms and more).
      const pause = slices?.pause();
      if (pause) await pause;
    }
  }
  return out;
}

export async function getObject<T>(db: Executor, id: string): Promise<T> {
  const value = (await getObjects<T>(db, [id])).get(id);
  if (value === undefined) throw new Error(`Missing content object ${id}`);
  return value;
}

/**
 * Stores objects by id; an id already stored is left alone (same id, same content). Written objects are not
 * cached here: the caller's transaction may still roll back, and the cache must only hold what is stored.
 */
export async function putObjects(
  db: Executor,
  objects: ReadonlyMap<string, unknown>,
  /** Lets other requests run between batches once a slice is spent (thousands of objects take seconds). */
  slices?: TimeSlices,
): Promise<void> {
  // Serialized a batch at a time: hundreds of thousands of objects (a merge of 100,000 pages) serialized at once
  // held the event loop for tens of milliseconds.
  const insert = (rows: Array<{ id: string; data: string }>) =>
    db
      .insertInto('objects')
      .values(rows)
      .onConflict((oc) => oc.column('id').doNothing())
      .execute();
  let rows: Array<{ id: string; data: string }> = [];
  for (const [id, value] of objects) {
    rows.push({ id, data: JSON.stringify(value) });
    if (rows.length < 200) continue;
    await insert(rows);
    rows = [];
    await slices?.due();
  }
  if (rows.length) await insert(rows);
}

/** The trie's node store over the objects table. */
export function nodeStore(db: Executor): NodeStore {
  return {
    get: (hash) => getObject<TrieNode>(db, hash),
    getMany: async (hashes) => {
      const nodes = await getObjects<TrieNode>(db, hashes);
      for (const hash of hashes) if (!nodes.has(hash)) throw new Error(`Missing content object ${hash}`);
      return nodes;
    },
    putMany: (nodes) => putObjects(db, nodes),
  };
}

// Blobs: file bytes by SHA-256.

export function blobId(data: Buffer): string {
  return crypto.createHash('sha256').update(data).digest('hex');
}

export async function putBlob(db: Executor, data: Buffer): Promise<string> {
  const id = blobId(data);
  await db
    .insertInto('blobs')
    .values({ id, size: data.length, data })
    .onConflict((oc) => oc.column('id').doNothing())
    .execute();
  return id;
}

export async function getBlob(db: Executor, id: string): Promise<Buffer | undefined> {
  const row = await db.selectFrom('blobs').select('data').where('id', '=', id).executeTakeFirst();
  return row ? Buffer.from(row.data) : undefined;
}
