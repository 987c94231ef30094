import { sql } from 'kysely';
import type { Executor } from '../db.js';

/** Collections and spaces share one order within their parent (a collection, or the organization root). */
export interface Sibling {
  type: 'collection' | 'space';
  id: string;
  position: string;
}

export async function siblings(db: Executor, organizationId: string, parentId: string | null): Promise<Sibling[]> {
  const parent = parentId === null ? sql`parent_id is null` : sql`parent_id = ${parentId}`;
  const result = await sql<Sibling>`
    select 'collection' as type, id, position from collections where organization_id = ${organizationId} and ${parent}
    union all
    select 'space' as type, id, position from spaces
      where organization_id = ${organizationId} and ${parent} and deleted_at is null
    order by position, id`.execute(db);
  return result.rows;
}

export async function lastPosition(db: Executor, organizationId: string, parentId: string | null) {
  const parent = parentId === null ? sql`parent_id is null` : sql`parent_id = ${parentId}`;
  const result = await sql<{ position: string | null }>`
    select max(position) as position from (
      select position from collections where organization_id = ${organizationId} and ${parent}
      union all
      select position from spaces where organization_id = ${organizationId} and ${parent} and deleted_at is null
    ) s`.execute(db);
  return result.rows[0]?.position ?? null;
}

export async function setPosition(db: Executor, type: 'collection' | 'space', id: string, position: string) {
  if (type === 'collection') await db.updateTable('collections').set({ position }).where('id', '=', id).execute();
  else await db.updateTable('spaces').set({ position }).where('id', '=', id).execute();
}
