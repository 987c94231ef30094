import type { Kysely } from 'kysely';

/**
 * Import runs: one row per `POST …/content/import`, written as the import goes, so that any server process can
 * answer how far it got (`GET /v1/spaces/{spaceId}/imports/{importId}`). Ids are per space: the client may choose
 * one before it sends the import.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('import_runs')
    .addColumn('space_id', 'varchar(64)', (c) => c.notNull().references('spaces.id').onDelete('cascade'))
    .addColumn('id', 'varchar(64)', (c) => c.notNull())
    .addColumn('change_request_id', 'varchar(64)')
    .addColumn('source', 'varchar(16)', (c) => c.notNull())
    .addColumn('url', 'text')
    .addColumn('status', 'varchar(16)', (c) => c.notNull())
    .addColumn('stage', 'varchar(16)', (c) => c.notNull())
    .addColumn('imported_resources', 'integer', (c) => c.notNull())
    .addColumn('total_resources', 'integer', (c) => c.notNull())
    .addColumn('revision_id', 'varchar(64)')
    .addColumn('message', 'text')
    .addColumn('created_by', 'varchar(64)', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .addPrimaryKeyConstraint('import_runs_pk', ['space_id', 'id'])
    .execute();
  await db.schema
    .createIndex('import_runs_space_created')
    .on('import_runs')
    .columns(['space_id', 'created_at', 'id'])
    .execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('import_runs').ifExists().execute();
}
