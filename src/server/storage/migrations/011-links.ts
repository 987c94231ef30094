import type { Kysely } from 'kysely';

/**
 * Links and backlinks of space content, kept up to date with each revision instead of being computed per request
 * (see src/server/domain/links).
 *
 * - `link_documents`: the links and heading anchors of one page body, by the hash of its document object. Objects
 *   are immutable, so a body is read once, whichever revisions and spaces share it.
 * - A scope is one set of links: a space's current content (scope id = the space id) or a change request's
 *   (scope id = the change request id), at `revision_id`. Per scope: its pages (`link_pages`: type, title, path,
 *   body), its files (`link_files`), one row per distinct link of a page (`links`), what each link's status
 *   depends on (`link_deps`: page ids or paths, file ids or names it may name), and the link targets with how many
 *   links point at them (`link_targets`, what the links list pages through); `link_scopes` counts the targets.
 *
 * Long keys (paths, names, targets) are indexed through short hashes (`*_key`): PostgreSQL limits the size of an
 * index entry. Rows for spaces that existed before this migration are built at start-up, and by the first read
 * of a space's links if that comes first.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('link_documents')
    .addColumn('hash', 'varchar(64)', (c) => c.primaryKey())
    /** JSON `{l: [[href, image 0|1], ...], a: [anchor, ...]}`. */
    .addColumn('data', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('link_scopes')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('space_id', 'varchar(64)', (c) => c.notNull().references('spaces.id').onDelete('cascade'))
    .addColumn('change_request_id', 'varchar(64)', (c) => c.references('change_requests.id').onDelete('cascade'))
    .addColumn('revision_id', 'varchar(64)', (c) => c.notNull())
    /** PUBLIC_URL when the statuses were computed: `in-app` depends on it. */
    .addColumn('app_base', 'text', (c) => c.notNull())
    .addColumn('targets', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('broken', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('in_app', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('link_scopes_space').on('link_scopes').column('space_id').execute();
  await db.schema.createIndex('link_scopes_change_request').on('link_scopes').column('change_request_id').execute();

  const scoped = 'link_scopes';
  await db.schema
    .createTable('link_pages')
    .addColumn('scope_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('page_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('type', 'varchar(16)', (c) => c.notNull())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('path', 'text', (c) => c.notNull())
    .addColumn('path_key', 'varchar(32)', (c) => c.notNull())
    /** Hash of the page's document object, or null. */
    .addColumn('document', 'varchar(64)')
    .addPrimaryKeyConstraint('link_pages_pk', ['scope_id', 'page_id'])
    .addForeignKeyConstraint('link_pages_scope', ['scope_id'], scoped, ['id'], (fk) => fk.onDelete('cascade'))
    .execute();
  await db.schema.createIndex('link_pages_path').on('link_pages').columns(['scope_id', 'path_key']).execute();

  await db.schema
    .createTable('link_files')
    .addColumn('scope_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('file_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('name_key', 'varchar(32)', (c) => c.notNull())
    .addPrimaryKeyConstraint('link_files_pk', ['scope_id', 'file_id'])
    .addForeignKeyConstraint('link_files_scope', ['scope_id'], scoped, ['id'], (fk) => fk.onDelete('cascade'))
    .execute();
  await db.schema.createIndex('link_files_name').on('link_files').columns(['scope_id', 'name_key']).execute();

  await db.schema
    .createTable('links')
    .addColumn('scope_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('id', 'varchar(32)', (c) => c.notNull())
    .addColumn('page_id', 'varchar(64)', (c) => c.notNull())
    /** Order of the link in its page. */
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('href', 'text', (c) => c.notNull())
    .addColumn('relation', 'varchar(16)', (c) => c.notNull())
    .addColumn('status', 'varchar(16)', (c) => c.notNull())
    .addColumn('target_key', 'varchar(32)', (c) => c.notNull())
    .addPrimaryKeyConstraint('links_pk', ['scope_id', 'id'])
    .addForeignKeyConstraint('links_scope', ['scope_id'], scoped, ['id'], (fk) => fk.onDelete('cascade'))
    .execute();
  await db.schema.createIndex('links_page').on('links').columns(['scope_id', 'page_id', 'position']).execute();
  await db.schema.createIndex('links_target').on('links').columns(['scope_id', 'target_key', 'page_id']).execute();

  await db.schema
    .createTable('link_deps')
    .addColumn('scope_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('dep_key', 'varchar(32)', (c) => c.notNull())
    .addColumn('link_id', 'varchar(32)', (c) => c.notNull())
    .addColumn('page_id', 'varchar(64)', (c) => c.notNull())
    /** 1 when the link names an anchor: the headings of the page it names matter too. */
    .addColumn('anchor', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('link_deps_pk', ['scope_id', 'dep_key', 'link_id'])
    .addForeignKeyConstraint('link_deps_scope', ['scope_id'], scoped, ['id'], (fk) => fk.onDelete('cascade'))
    .execute();
  await db.schema.createIndex('link_deps_page').on('link_deps').columns(['scope_id', 'page_id']).execute();

  await db.schema
    .createTable('link_targets')
    .addColumn('scope_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('target_key', 'varchar(32)', (c) => c.notNull())
    .addColumn('status', 'varchar(16)', (c) => c.notNull())
    .addColumn('relation', 'varchar(16)', (c) => c.notNull())
    /** JSON: what the links point at (a page id and anchor, a file id, a URL, or the reference that is missing). */
    .addColumn('data', 'text', (c) => c.notNull())
    /** Links of the scope pointing here. */
    .addColumn('usages', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('link_targets_pk', ['scope_id', 'target_key'])
    .addForeignKeyConstraint('link_targets_scope', ['scope_id'], scoped, ['id'], (fk) => fk.onDelete('cascade'))
    .execute();
  await db.schema
    .createIndex('link_targets_status')
    .on('link_targets')
    .columns(['scope_id', 'status', 'target_key'])
    .execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['link_targets', 'link_deps', 'links', 'link_files', 'link_pages', 'link_scopes']) {
    await db.schema.dropTable(table).ifExists().execute();
  }
  await db.schema.dropTable('link_documents').ifExists().execute();
}
