import type { Kysely } from 'kysely';

/**
 * Reusable content is searched as part of the pages that include it. `search_includes` lists, for each indexed page
 * of a space, the names (ids and slugs) of the reusable contents its body includes, nested ones too, as the index
 * last read them: when a content changes, the pages naming it are indexed again (search/indexer.ts). The search
 * index of every space is made again at start (a space without a `search_spaces` row is indexed whole), and the
 * stored sections of documents, which now say what a body includes, are read again from the documents.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('search_includes')
    .addColumn('space_id', 'varchar(64)', (c) => c.notNull().references('spaces.id').onDelete('cascade'))
    .addColumn('page_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('name', 'varchar(255)', (c) => c.notNull())
    .addPrimaryKeyConstraint('search_includes_pk', ['space_id', 'page_id', 'name'])
    .execute();
  await db.schema.createIndex('search_includes_name').on('search_includes').columns(['space_id', 'name']).execute();
  await db.deleteFrom('search_sections').execute();
  await db.deleteFrom('search_spaces').execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('search_includes').execute();
}
