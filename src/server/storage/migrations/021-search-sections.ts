import type { Kysely } from 'kysely';

/**
 * `search_sections`: the searchable sections of one page body (search/extract.ts), by the hash of its document
 * object (with the extraction's version: `1:<hash>`). They are extracted where the body is parsed anyway (a change
 * request's edit, an import) and kept here, so a merge of those pages neither extracts them nor reads their
 * documents, whichever process merges it and however many pages it brings (an in-memory cache of 20,000 bodies
 * made a merge of 100,000 pages parse 80,000 of them again: 14 s of a worker's time). Documents are immutable, so
 * a row never changes.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('search_sections')
    .addColumn('hash', 'varchar(64)', (c) => c.primaryKey())
    /** JSON `[[anchor, heading, text], ...]`. */
    .addColumn('data', 'text', (c) => c.notNull())
    .execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('search_sections').ifExists().execute();
}
