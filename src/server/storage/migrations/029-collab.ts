import { sql, type Kysely } from 'kysely';
import { isPostgres } from './dialect.js';

/**
 * Live collaboration on a change request's page (domain/collab): the shared document of each page being edited
 * together, as the Yjs updates that made it, stored as they arrive so that nothing acknowledged to an editor is
 * lost. `schema_version` is the editor schema's the updates were made with (shared/editor: EDITOR_SCHEMA_VERSION).
 * `collab_documents.markdown` is the page's markdown the shared document was last in step with (what it
 * wrote to the change request, or read from it): a page whose markdown differs changed from elsewhere.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('collab_documents')
    .addColumn('name', 'varchar(256)', (c) => c.primaryKey())
    .addColumn('change_request_id', 'varchar(64)', (c) =>
      c.notNull().references('change_requests.id').onDelete('cascade'),
    )
    .addColumn('page_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('markdown', 'text', (c) => c.notNull())
    .addColumn('schema_version', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('collab_documents_change_request')
    .on('collab_documents')
    .column('change_request_id')
    .execute();
  await db.schema
    .createTable('collab_updates')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('name', 'varchar(256)', (c) => c.notNull().references('collab_documents.name').onDelete('cascade'))
    .addColumn('data', isPostgres(db) ? sql`bytea` : sql`blob`, (c) => c.notNull())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('collab_updates_name').on('collab_updates').columns(['name', 'id']).execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('collab_updates').ifExists().execute();
  await db.schema.dropTable('collab_documents').ifExists().execute();
}
