import type { Kysely } from 'kysely';

/**
 * Site redirects (0.143.2 `SiteRedirect`): a path of a published site that leads elsewhere on it (a section, a
 * site space or a page), one per source path and site. `destination` is the contract's JSON.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('site_redirects')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('site_id', 'varchar(64)', (c) => c.notNull().references('sites.id').onDelete('cascade'))
    .addColumn('source', 'varchar(512)', (c) => c.notNull())
    .addColumn('destination', 'text', (c) => c.notNull())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .addUniqueConstraint('site_redirects_source', ['site_id', 'source'])
    .execute();
  await db.schema.createIndex('site_redirects_site').on('site_redirects').columns(['site_id', 'id']).execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('site_redirects').ifExists().execute();
}
