import { sql, type Kysely } from 'kysely';
import { isPostgres } from './dialect.js';

/**
 * Space content: immutable, content-addressed objects (trie nodes of the page and file maps, page versions,
 * documents), file bytes, the roots of each revision, and change requests.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('objects')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('data', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('blobs')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('size', 'integer', (c) => c.notNull())
    .addColumn('data', isPostgres(db) ? sql`bytea` : sql`blob`, (c) => c.notNull())
    .execute();

  await db.schema.alterTable('revisions').addColumn('pages_root', 'varchar(64)').execute();
  await db.schema.alterTable('revisions').addColumn('files_root', 'varchar(64)').execute();
  await db.schema
    .alterTable('revisions')
    .addColumn('variables', 'text', (c) => c.notNull().defaultTo('{}'))
    .execute();
  await db.schema.alterTable('revisions').addColumn('change_request_id', 'varchar(64)').execute();

  await db.schema
    .createTable('change_requests')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('space_id', 'varchar(64)', (c) => c.notNull().references('spaces.id').onDelete('cascade'))
    .addColumn('number', 'integer', (c) => c.notNull())
    .addColumn('status', 'varchar(16)', (c) => c.notNull())
    .addColumn('subject', 'varchar(100)', (c) => c.notNull())
    .addColumn('created_by', 'varchar(64)', (c) => c.notNull())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('revision_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('revision_initial', 'varchar(64)', (c) => c.notNull())
    .addColumn('revision_merged_ancestor', 'varchar(64)')
    .addColumn('revision_merged', 'varchar(64)')
    .addColumn('merged_by', 'varchar(64)')
    .addColumn('merged_at', 'varchar(32)')
    .addColumn('comments', 'integer', (c) => c.notNull().defaultTo(0))
    /** JSON: an update in progress whose conflicts still need resolving, or null. */
    .addColumn('pending_update', 'text')
    .addUniqueConstraint('change_requests_space_number', ['space_id', 'number'])
    .execute();
  await db.schema
    .createIndex('change_requests_space_status')
    .on('change_requests')
    .columns(['space_id', 'status', 'updated_at', 'id'])
    .execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('change_requests').ifExists().execute();
  for (const column of ['change_request_id', 'variables', 'files_root', 'pages_root']) {
    await db.schema.alterTable('revisions').dropColumn(column).execute();
  }
  await db.schema.dropTable('blobs').ifExists().execute();
  await db.schema.dropTable('objects').ifExists().execute();
}
