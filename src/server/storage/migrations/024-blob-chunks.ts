import { sql, type Kysely } from 'kysely';
import { isPostgres } from './dialect.js';

/**
 * Files of up to 100 MiB (retina screenshots, videos, PDFs): a blob past one chunk is stored as chunks of 1 MiB
 * (`blob_chunks`, in order by `n`), written and read one chunk at a time, never held whole; `blobs.chunks` says how
 * many (0: the bytes are in `blobs.data`, as every blob was before). Chunks of an upload under way are written under
 * a temporary blob id (`tmp-…`) and renamed to the blob's SHA-256 once it is known, at the end.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('blobs')
    .addColumn('chunks', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .createTable('blob_chunks')
    .addColumn('blob_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('n', 'integer', (c) => c.notNull())
    .addColumn('data', isPostgres(db) ? sql`bytea` : sql`blob`, (c) => c.notNull())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addPrimaryKeyConstraint('blob_chunks_pk', ['blob_id', 'n'])
    .execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('blob_chunks').execute();
  await db.schema.alterTable('blobs').dropColumn('chunks').execute();
}
