import type { Kysely } from 'kysely';

/**
 * The redirects of a synced repository's `.gitbook.yaml` (`redirects: { old/path: page.md }`): an old path of the
 * published space that leads to a page of it. Written by each import from the repository; gone with the sync.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('git_sync_redirects')
    .addColumn('space_id', 'varchar(64)', (c) => c.notNull().references('git_syncs.space_id').onDelete('cascade'))
    .addColumn('source', 'varchar(512)', (c) => c.notNull())
    .addColumn('page_id', 'varchar(64)', (c) => c.notNull())
    .addPrimaryKeyConstraint('git_sync_redirects_pk', ['space_id', 'source'])
    .execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('git_sync_redirects').ifExists().execute();
}
