import type { Executor } from '../db.js';
import { slicedParts } from '../../lib/yield.js';
import { findByHash, insertByHash } from './by-hash.js';
import type { SearchIncludesTable, SearchPagesTable } from '../schema.js';

/**
 * Rows of the search index, the same on both databases: the full-text side (FTS5 table, tsvector) is kept in step
 * by the database's triggers (migration 010). Ranking and highlighting differ: see dialects/search.ts.
 */
export type SearchRow = SearchPagesTable;

const DELETE_BATCH = 500;
const INSERT_BATCH = 100;

/** The revision of the space that its rows describe, or undefined when it was never indexed. */
export async function indexedRevision(db: Executor, spaceId: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('search_spaces')
    .select('revision_id')
    .where('space_id', '=', spaceId)
    .executeTakeFirst();
  return row?.revision_id;
}

export async function setIndexedRevision(db: Executor, spaceId: string, revisionId: string): Promise<void> {
  await db
    .insertInto('search_spaces')
    .values({ space_id: spaceId, revision_id: revisionId })
    .onConflict((oc) => oc.column('space_id').doUpdateSet({ revision_id: revisionId }))
    .execute();
}

export async function deletePages(db: Executor, spaceId: string, pageIds: string[]): Promise<void> {
  for (let i = 0; i < pageIds.length; i += DELETE_BATCH) {
    await db
      .deleteFrom('search_pages')
      .where('space_id', '=', spaceId)
      .where('page_id', 'in', pageIds.slice(i, i + DELETE_BATCH))
      .execute();
    await db
      .deleteFrom('search_includes')
      .where('space_id', '=', spaceId)
      .where('page_id', 'in', pageIds.slice(i, i + DELETE_BATCH))
      .execute();
  }
}

export async function deleteSpacePages(db: Executor, spaceId: string): Promise<void> {
  await db.deleteFrom('search_pages').where('space_id', '=', spaceId).execute();
  await db.deleteFrom('search_includes').where('space_id', '=', spaceId).execute();
}

/** Names of reusable contents as indexed pages include them (see insertIncludes). */
export type IncludeRow = SearchIncludesTable;

/** The pages of a space whose indexed body includes one of these reusable content names. */
export async function pagesIncluding(db: Executor, spaceId: string, names: string[]): Promise<string[]> {
  const out = new Set<string>();
  for (let i = 0; i < names.length; i += DELETE_BATCH) {
    const rows = await db
      .selectFrom('search_includes')
      .select('page_id')
      .where('space_id', '=', spaceId)
      .where('name', 'in', names.slice(i, i + DELETE_BATCH))
      .execute();
    for (const row of rows) out.add(row.page_id);
  }
  return [...out];
}

export async function insertIncludes(db: Executor, rows: IncludeRow[]): Promise<void> {
  for await (const part of slicedParts(rows, INSERT_BATCH * 4))
    await db.insertInto('search_includes').values(part).execute();
}

export async function insertPages(db: Executor, rows: SearchRow[]): Promise<void> {
  for await (const part of slicedParts(rows, INSERT_BATCH)) await db.insertInto('search_pages').values(part).execute();
}

/** Stored sections (JSON) of the documents with these keys, by key; those never stored are absent. */
export const findSections = (db: Executor, keys: string[]) => findByHash(db, 'search_sections', keys);

/** Stores documents' sections (an existing key is left alone). */
export const insertSections = (db: Executor, sections: Map<string, string>) =>
  insertByHash(db, 'search_sections', sections);

/** The rows of one space copied to another (a duplicated space shares its content). */
export async function copySpacePages(db: Executor, fromSpaceId: string, toSpaceId: string): Promise<void> {
  await db
    .insertInto('search_pages')
    .columns(['space_id', 'page_id', 'version', 'title', 'anchors', 'headings', 'body'])
    .expression((eb) =>
      eb
        .selectFrom('search_pages')
        .select((s) => [s.val(toSpaceId).as('space_id'), 'page_id', 'version', 'title', 'anchors', 'headings', 'body'])
        .where('space_id', '=', fromSpaceId),
    )
    .execute();
  await db
    .insertInto('search_includes')
    .columns(['space_id', 'page_id', 'name'])
    .expression((eb) =>
      eb
        .selectFrom('search_includes')
        .select((s) => [s.val(toSpaceId).as('space_id'), 'page_id', 'name'])
        .where('space_id', '=', fromSpaceId),
    )
    .execute();
}

/** Spaces whose rows do not describe their current revision (never indexed, or behind). */
export async function staleSpaces(db: Executor): Promise<Array<{ id: string; revision_id: string }>> {
  return db
    .selectFrom('spaces')
    .leftJoin('search_spaces', 'search_spaces.space_id', 'spaces.id')
    .select(['spaces.id', 'spaces.revision_id'])
    .where((eb) =>
      eb.or([
        eb('search_spaces.revision_id', 'is', null),
        eb('search_spaces.revision_id', '!=', eb.ref('spaces.revision_id')),
      ]),
    )
    .orderBy('spaces.id')
    .execute();
}

export async function allSpaces(db: Executor): Promise<Array<{ id: string; revision_id: string }>> {
  return db.selectFrom('spaces').select(['id', 'revision_id']).orderBy('id').execute();
}

export async function storedLanguage(db: Executor): Promise<string> {
  const row = await db.selectFrom('search_state').select('language').where('id', '=', 1).executeTakeFirst();
  return row?.language ?? 'english';
}

export async function setStoredLanguage(db: Executor, language: string): Promise<void> {
  await db.updateTable('search_state').set({ language }).where('id', '=', 1).execute();
}
