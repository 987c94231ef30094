import type { Kysely } from 'kysely';

/**
 * Headings get GitHub's ids (shared/heading-ids.ts: `title-1` for a repeat where it was `title-2`, runs of `-` kept,
 * letters of every script kept), and anchors written in a page (`<a id>`, `<a name>`) count. What was read off
 * page bodies with the old ids is read again:
 * - the links and anchors of documents (`link_documents`), and every scope's links, rebuilt from nothing when next
 *   needed (a scope whose `app_base` is not the server's is rebuilt, see domain/links);
 * - the searchable sections of documents (`search_sections`), and the search index of every space, made again at
 *   start (a space without a `search_spaces` row is indexed whole, see search/indexer.ts).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.deleteFrom('link_documents').execute();
  await db.updateTable('link_scopes').set({ app_base: '' }).execute();
  await db.deleteFrom('search_sections').execute();
  await db.deleteFrom('search_spaces').execute();
}

/** Nothing to undo: what was cleared is read again from the documents. */
export async function down(): Promise<void> {}
