import type { Kysely } from 'kysely';

/**
 * A page's old heading ids (PageVersion.anchors, content/anchors.ts) count as its anchors in the links report:
 * `link_pages.anchors` keeps them (a JSON array, null when none) beside the page's document.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('link_pages').addColumn('anchors', 'text').execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('link_pages').dropColumn('anchors').execute();
}
