import crypto from 'node:crypto';
import { containsPattern } from '../like.js';
import type { Kysely } from 'kysely';
import { sql } from 'kysely';
import type { Executor } from '../db.js';
import type { Database } from '../schema.js';
import type { NodeStore, TrieNode } from '../trie-nodes.js';
import { TimeSlices, yieldToEventLoop } from '../../lib/yield.js';
import { FifoCache } from '../../lib/fifo-cache.js';
import { nowIso } from '../../lib/time.js';

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

/** The bytes of a blob held in one row (see openBlob for a blob of any size). */
export async function getBlob(db: Executor, id: string): Promise<Buffer | undefined> {
  const blob = await openBlob(db, id);
  if (!blob) return undefined;
  if (blob.inline) return blob.inline;
  const parts: Buffer[] = [];
  for await (const chunk of blob.chunks()) parts.push(chunk);
  return Buffer.concat(parts);
}

/** Bytes of a blob's start putBlobStream answers (every image format says its size there). */
export const BLOB_HEAD_BYTES = 64 * 1024;

/** Bytes of one chunk of a large blob (the last one may be shorter). */
export const BLOB_CHUNK_BYTES = 1024 * 1024;

export interface OpenBlob {
  size: number;
  /** The bytes, for a blob held in one row. */
  inline?: Buffer;
  /** The bytes in order, one chunk of at most BLOB_CHUNK_BYTES read at a time. */
  chunks(): AsyncGenerator<Buffer>;
}

/** A blob to read, without reading its bytes yet; undefined when there is none of this id. */
export async function openBlob(db: Executor, id: string): Promise<OpenBlob | undefined> {
  const row = await db.selectFrom('blobs').select(['size', 'chunks']).where('id', '=', id).executeTakeFirst();
  if (!row) return undefined;
  const count = Number(row.chunks ?? 0);
  if (count === 0) {
    const data = await db.selectFrom('blobs').select('data').where('id', '=', id).executeTakeFirst();
    const inline = Buffer.from(data!.data);
    return {
      size: Number(row.size),
      inline,
      chunks: async function* () {
        yield inline;
      },
    };
  }
  return {
    size: Number(row.size),
    chunks: async function* () {
      for (let n = 0; n < count; n++) {
        const chunk = await chunkAt(db, id, n);
        if (!chunk) throw new Error(`Blob ${id} is missing its chunk ${n}`);
        yield chunk;
      }
    },
  };
}

export class BlobTooLargeError extends Error {
  constructor(readonly maxBytes: number) {
    super(`larger than ${maxBytes} bytes`);
  }
}

/**
 * Stores the bytes `source` yields as a blob, one chunk of BLOB_CHUNK_BYTES at a time (never holding more), and
 * answers its id (SHA-256) and size. Past `maxBytes`, stops, keeps nothing, and throws BlobTooLargeError. A blob
 * of one chunk or less goes to one row, as putBlob stores it. Chunks are written under a temporary id and renamed
 * once the hash is known; what an interrupted write left is removed by purgeBlobUploads. `head` is the blob's first
 * BLOB_HEAD_BYTES.
 */
export async function putBlobStream(
  db: Executor,
  source: AsyncIterable<Buffer | Uint8Array>,
  maxBytes: number,
): Promise<{ id: string; size: number; head: Buffer }> {
  const hash = crypto.createHash('sha256');
  // The first bytes, kept as they go by: what a caller reads an image's size from, without reading the blob back.
  const headParts: Buffer[] = [];
  let headBytes = 0;
  const temp = `tmp-${crypto.randomUUID()}`;
  // A blob that fits one chunk stays in memory, to go to one row; past it, chunks go out as they fill.
  const writer = new ChunkWriter(db, temp, maxBytes);
  try {
    for await (const part of source) {
      const buffer = await writer.push(part);
      hash.update(buffer);
      if (headBytes < BLOB_HEAD_BYTES) {
        const part = Buffer.from(buffer.subarray(0, BLOB_HEAD_BYTES - headBytes));
        headParts.push(part);
        headBytes += part.length;
      }
    }
    const id = hash.digest('hex');
    const head = Buffer.concat(headParts);
    const size = writer.size;
    if (writer.written === 0) {
      await putBlob(db, writer.pending());
      return { id, size, head };
    }
    const chunks = await writer.end();
    // The blob's row and its chunks' new id together: whoever stores the same bytes at the same time finds the row
    // taken and drops its own chunks.
    const store = async (tx: Executor) => {
      const inserted = await tx
        .insertInto('blobs')
        .values({ id, size, data: Buffer.alloc(0), chunks })
        .onConflict((oc) => oc.column('id').doNothing())
        .executeTakeFirst();
      if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 0) {
        await tx.deleteFrom('blob_chunks').where('blob_id', '=', temp).execute();
      } else {
        await tx.updateTable('blob_chunks').set({ blob_id: id }).where('blob_id', '=', temp).execute();
      }
    };
    if (db.isTransaction) await store(db);
    else await (db as Kysely<Database>).transaction().execute(store);
    return { id, size, head };
  } catch (error) {
    await deleteChunks(db, temp);
    throw error;
  }
}

/**
 * Writes bytes as rows of `blob_chunks` under one id, BLOB_CHUNK_BYTES at a time (the last one may be shorter),
 * refusing more than `maxBytes` in all (BlobTooLargeError).
 */
class ChunkWriter {
  private parts: Buffer[] = [];
  private partsBytes = 0;
  size = 0;
  written = 0;

  constructor(
    private readonly db: Executor,
    private readonly blobId: string,
    private readonly maxBytes: number,
  ) {}

  /**
   * Takes `part`; writes every chunk filled past one (so that a blob of one chunk is never written as one).
   * Answers it as a Buffer.
   */
  async push(part: Buffer | Uint8Array): Promise<Buffer> {
    const buffer = Buffer.isBuffer(part) ? part : Buffer.from(part);
    if (this.size + buffer.length > this.maxBytes) throw new BlobTooLargeError(this.maxBytes);
    this.parts.push(buffer);
    this.partsBytes += buffer.length;
    this.size += buffer.length;
    if (this.partsBytes > BLOB_CHUNK_BYTES) await this.flush(false);
    return buffer;
  }

  /** The bytes not written yet. */
  pending(): Buffer {
    return Buffer.concat(this.parts);
  }

  /** Writes what is left; answers the number of chunks. */
  async end(): Promise<number> {
    await this.flush(true);
    return this.written;
  }

  private async flush(all: boolean): Promise<void> {
    while (this.partsBytes >= BLOB_CHUNK_BYTES || (all && this.partsBytes > 0)) {
      const joined = Buffer.concat(this.parts);
      const chunk = joined.subarray(0, BLOB_CHUNK_BYTES);
      const rest = joined.subarray(chunk.length);
      await this.db
        .insertInto('blob_chunks')
        .values({ blob_id: this.blobId, n: this.written++, data: Buffer.from(chunk), created_at: nowIso() })
        .execute();
      this.parts = rest.length ? [Buffer.from(rest)] : [];
      this.partsBytes = rest.length;
    }
  }
}

/**
 * Bytes kept for a while under a key of their own (an import's upload until its import is over): chunks with no
 * blob row, never shared, removed with deleteChunks (or by purgeBlobUploads once old). Past `maxBytes`, stops,
 * keeps nothing, and throws BlobTooLargeError. Answers the size.
 */
export async function putChunks(
  db: Executor,
  key: string,
  source: AsyncIterable<Buffer | Uint8Array>,
  maxBytes: number,
): Promise<number> {
  const writer = new ChunkWriter(db, key, maxBytes);
  try {
    for await (const part of source) await writer.push(part);
    await writer.end();
    return writer.size;
  } catch (error) {
    await deleteChunks(db, key);
    throw error;
  }
}

/** The bytes putChunks kept under `key`, one chunk at a time. */
export async function* readChunks(db: Executor, key: string): AsyncGenerator<Buffer> {
  for (let n = 0; ; n++) {
    const chunk = await chunkAt(db, key, n);
    if (!chunk) return;
    yield chunk;
  }
}

/** Chunk `n` of the bytes kept under `blobId`, read alone. */
async function chunkAt(db: Executor, blobId: string, n: number): Promise<Buffer | undefined> {
  const row = await db
    .selectFrom('blob_chunks')
    .select('data')
    .where('blob_id', '=', blobId)
    .where('n', '=', n)
    .executeTakeFirst();
  return row ? Buffer.from(row.data) : undefined;
}

export async function deleteChunks(db: Executor, key: string): Promise<void> {
  await db.deleteFrom('blob_chunks').where('blob_id', '=', key).execute();
}

/**
 * Removes the chunks of uploads that never finished (their process stopped), and of import sources left behind,
 * older than `before` (ISO time).
 */
export async function purgeBlobUploads(db: Executor, before: string): Promise<number> {
  const result = await db
    .deleteFrom('blob_chunks')
    .where((eb) => eb.or([eb('blob_id', 'like', 'tmp-%'), eb('blob_id', 'like', 'src-%')]))
    .where('created_at', '<', before)
    .executeTakeFirst();
  return Number(result.numDeletedRows ?? 0);
}

/** The objects among `ids` whose JSON contains `text` (compared by the database, not read into the process). */
export function objectsContaining(
  db: Executor,
  ids: string[],
  text: string,
): Promise<Array<{ id: string; data: string }>> {
  if (ids.length === 0) return Promise.resolve([]);
  const pattern = containsPattern(text);
  return db
    .selectFrom('objects')
    .select(['id', 'data'])
    .where('id', 'in', ids)
    .where(sql<boolean>`data like ${pattern} escape '\\'`)
    .execute();
}
