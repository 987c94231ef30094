import type { Kysely } from 'kysely';

/**
 * The links report reads two more things of pages:
 * - their old heading ids (PageVersion.anchors, content/anchors.ts) count as their anchors: `link_pages.anchors`
 *   keeps them (a JSON array, null when none) beside the page's document;
 * - the links of the reusable contents a page includes are the page's links: `link_includes` lists, for each page
 *   of a scope, the names of the contents it includes (nested ones too), to find it when a content changes. The
 *   links read off documents (`link_documents`) now say what a body includes: they are read again, and every
 *   scope is built again when next needed (a scope whose `app_base` is not the server's is rebuilt).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('link_pages').addColumn('anchors', 'text').execute();
  await db.schema
    .createTable('link_includes')
    .addColumn('scope_id', 'varchar(64)', (c) => c.notNull().references('link_scopes.id').onDelete('cascade'))
    .addColumn('page_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('name', 'varchar(255)', (c) => c.notNull())
    .addPrimaryKeyConstraint('link_includes_pk', ['scope_id', 'page_id', 'name'])
    .execute();
  await db.schema.createIndex('link_includes_name').on('link_includes').columns(['scope_id', 'name']).execute();
  await db.deleteFrom('link_documents').execute();
  await db.updateTable('link_scopes').set({ app_base: '' }).execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('link_includes').execute();
  await db.schema.alterTable('link_pages').dropColumn('anchors').execute();
}
