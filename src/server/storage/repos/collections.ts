import { sql } from 'kysely';
import type { Executor } from '../db.js';
import type { CollectionsTable } from '../schema.js';

export type CollectionRow = CollectionsTable;

export function findCollection(db: Executor, id: string) {
  return db.selectFrom('collections').selectAll().where('id', '=', id).executeTakeFirst();
}

/** The collection and its ancestors, nearest first. */
export async function collectionChain(db: Executor, id: string): Promise<CollectionRow[]> {
  const result = await sql<CollectionRow & { depth: number }>`
    with recursive chain as (
      select c.*, 0 as depth from collections c where c.id = ${id}
      union all
      select p.*, chain.depth + 1 from collections p join chain on p.id = chain.parent_id where chain.depth < 100
    )
    select * from chain order by depth`.execute(db);
  return result.rows;
}

/** A collection nested in another, as far as levels need it. */
export type NestedCollection = Pick<CollectionRow, 'id' | 'title' | 'parent_id' | 'default_level' | 'created_by'>;

/** The collection and every collection nested in it, at any depth: the collection first, then by depth. */
export async function collectionSubtree(db: Executor, id: string): Promise<NestedCollection[]> {
  const result = await sql<NestedCollection & { depth: number }>`
    with recursive tree as (
      select id, title, parent_id, default_level, created_by, 0 as depth from collections where id = ${id}
      union all
      select c.id, c.title, c.parent_id, c.default_level, c.created_by, tree.depth + 1
      from collections c join tree on c.parent_id = tree.id where tree.depth < 100
    )
    select id, title, parent_id, default_level, created_by, depth from tree order by depth, id`.execute(db);
  return result.rows.map(({ depth: _depth, ...row }) => row);
}

/** Every collection of an organization, for computing levels of many items at once. */
export function allOrgCollections(db: Executor, organizationId: string) {
  return db
    .selectFrom('collections')
    .select(['id', 'parent_id', 'default_level', 'created_by'])
    .where('organization_id', '=', organizationId)
    .execute();
}

export async function insertCollection(db: Executor, row: CollectionRow): Promise<void> {
  await db.insertInto('collections').values(row).execute();
}

export async function updateCollection(db: Executor, id: string, patch: Partial<CollectionRow>): Promise<void> {
  await db.updateTable('collections').set(patch).where('id', '=', id).execute();
}

export async function deleteCollection(db: Executor, id: string): Promise<void> {
  await db.deleteFrom('collections').where('id', '=', id).execute();
}

export interface CollectionListFilter {
  organizationId: string;
  topLevelOnly: boolean;
  /** When set, only these ids (the ones the caller may see). */
  visibleIds?: string[];
}

function filtered(db: Executor, f: CollectionListFilter) {
  let q = db.selectFrom('collections').where('organization_id', '=', f.organizationId);
  if (f.topLevelOnly) q = q.where('parent_id', 'is', null);
  if (f.visibleIds) q = f.visibleIds.length ? q.where('id', 'in', f.visibleIds) : q.where(sql<boolean>`1 = 0`);
  return q;
}

export function listCollections(db: Executor, f: CollectionListFilter, after: string[] | undefined, take: number) {
  let q = filtered(db, f).selectAll().orderBy('position').orderBy('id').limit(take);
  if (after) q = q.where((eb) => eb(eb.refTuple('position', 'id'), '>', eb.tuple(after[0]!, after[1]!)));
  return q.execute();
}

export async function countCollections(db: Executor, f: CollectionListFilter): Promise<number> {
  const r = await filtered(db, f)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

export async function moveCollectionSubtreeToOrganization(db: Executor, ids: string[], organizationId: string) {
  if (!ids.length) return;
  await db.updateTable('collections').set({ organization_id: organizationId }).where('id', 'in', ids).execute();
  await db.updateTable('spaces').set({ organization_id: organizationId }).where('parent_id', 'in', ids).execute();
}
