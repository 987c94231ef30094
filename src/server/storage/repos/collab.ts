import type { Executor } from '../db.js';
import type { CollabDocumentsTable } from '../schema.js';

/** The shared documents of pages edited together, and their Yjs updates (see migration 029). */

export function findCollabDocument(db: Executor, name: string) {
  return db.selectFrom('collab_documents').selectAll().where('name', '=', name).executeTakeFirst();
}

/** Creates the document unless it exists; answers whether this call created it (the first writer wins). */
export async function insertCollabDocumentIfAbsent(db: Executor, row: CollabDocumentsTable): Promise<boolean> {
  const result = await db
    .insertInto('collab_documents')
    .values(row)
    .onConflict((oc) => oc.column('name').doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}

/** Forgets a document and its updates (it starts anew from its page when next opened). */
export async function deleteCollabDocument(db: Executor, name: string): Promise<void> {
  await db.deleteFrom('collab_updates').where('name', '=', name).execute();
  await db.deleteFrom('collab_documents').where('name', '=', name).execute();
}

/** Sets the markdown the document is in step with, if it still is `from`; answers whether it did. */
export async function moveCollabMarkdown(
  db: Executor,
  name: string,
  from: string,
  to: string,
  now: string,
): Promise<boolean> {
  const result = await db
    .updateTable('collab_documents')
    .set({ markdown: to, updated_at: now })
    .where('name', '=', name)
    .where('markdown', '=', from)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export async function insertCollabUpdate(
  db: Executor,
  row: { id: string; name: string; data: Uint8Array; created_at: string },
) {
  await db.insertInto('collab_updates').values(row).execute();
}

/** Every update of a document, oldest first. */
export function collabUpdates(db: Executor, name: string) {
  return db.selectFrom('collab_updates').select(['id', 'data']).where('name', '=', name).orderBy('id').execute();
}

export async function countCollabUpdates(db: Executor, name: string): Promise<number> {
  const row = await db
    .selectFrom('collab_updates')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('name', '=', name)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export function collabUpdate(db: Executor, id: string) {
  return db.selectFrom('collab_updates').select(['id', 'name', 'data']).where('id', '=', id).executeTakeFirst();
}

/** Replaces these updates of a document by one (their merge). */
export async function replaceCollabUpdates(
  db: Executor,
  name: string,
  ids: string[],
  merged: { id: string; data: Uint8Array; created_at: string },
): Promise<void> {
  for (let i = 0; i < ids.length; i += 500) {
    await db
      .deleteFrom('collab_updates')
      .where('name', '=', name)
      .where('id', 'in', ids.slice(i, i + 500))
      .execute();
  }
  await db
    .insertInto('collab_updates')
    .values({ name, ...merged })
    .execute();
}

/** The current revision of these change requests, by id. */
export async function changeRequestRevisions(db: Executor, ids: string[]): Promise<Map<string, string>> {
  if (!ids.length) return new Map();
  const rows = await db.selectFrom('change_requests').select(['id', 'revision_id']).where('id', 'in', ids).execute();
  return new Map(rows.map((r) => [r.id, r.revision_id]));
}

/**
 * Forgets the shared documents of merged and archived change requests not written since `before` (their pages hold
 * what was typed: a document is written when its last editor leaves); answers how many.
 */
export async function purgeCollabDocuments(db: Executor, before: string): Promise<number> {
  const stale = db
    .selectFrom('collab_documents')
    .innerJoin('change_requests', 'change_requests.id', 'collab_documents.change_request_id')
    .select('collab_documents.name')
    .where('change_requests.status', 'in', ['merged', 'archived'])
    .where('collab_documents.updated_at', '<', before);
  await db.deleteFrom('collab_updates').where('name', 'in', stale).execute();
  const result = await db.deleteFrom('collab_documents').where('name', 'in', stale).executeTakeFirst();
  return Number(result.numDeletedRows);
}
