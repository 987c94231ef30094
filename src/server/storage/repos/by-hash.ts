import type { Executor } from '../db.js';
import { slicedParts } from '../../lib/yield.js';

/**
 * Tables of facts derived from an immutable input and kept by its hash (`hash` primary key, `data` text): the links
 * of a document (`link_documents`), the searchable sections of one (`search_sections`). A row never changes, so
 * any transaction may add one.
 */
export type ByHashTable = 'link_documents' | 'search_sections';

/** Hashes read per statement, and rows written per statement: under both databases' limits on parameters. */
const READ_BATCH = 500;
const WRITE_BATCH = 200;

/** The stored data of these hashes, by hash; those never stored are absent. */
export async function findByHash(db: Executor, table: ByHashTable, hashes: string[]): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for await (const part of slicedParts(hashes, READ_BATCH)) {
    const rows = await db.selectFrom(table).select(['hash', 'data']).where('hash', 'in', part).execute();
    for (const row of rows) out.set(row.hash, row.data);
  }
  return out;
}

/**
 * Stores data by hash (an existing hash is left alone), in hash order, so two transactions storing the same ones
 * never wait for each other in a cycle.
 */
export async function insertByHash(db: Executor, table: ByHashTable, data: Map<string, string>): Promise<void> {
  const rows = [...data].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([hash, d]) => ({ hash, data: d }));
  for await (const part of slicedParts(rows, WRITE_BATCH)) {
    await db
      .insertInto(table)
      .values(part)
      .onConflict((oc) => oc.column('hash').doNothing())
      .execute();
  }
}
