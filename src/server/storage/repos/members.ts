import type { Executor } from '../db.js';
import type { MembersTable } from '../schema.js';

export type MembershipRow = MembersTable;

export function findMembership(db: Executor, organizationId: string, userId: string) {
  return db
    .selectFrom('members')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
}

/** Adds the member, or raises their role when they are already in with a lower one. */
export async function insertMembership(db: Executor, row: MembershipRow): Promise<void> {
  await db
    .insertInto('members')
    .values(row)
    .onConflict((oc) => oc.columns(['organization_id', 'user_id']).doNothing())
    .execute();
}

export async function updateMemberRole(db: Executor, organizationId: string, userId: string, role: string | null) {
  await db
    .updateTable('members')
    .set({ role })
    .where('organization_id', '=', organizationId)
    .where('user_id', '=', userId)
    .execute();
}

export async function countAdmins(db: Executor, organizationId: string): Promise<number> {
  const r = await db
    .selectFrom('members')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('organization_id', '=', organizationId)
    .where('role', '=', 'admin')
    .where('disabled', '=', 0)
    .executeTakeFirstOrThrow();
  return Number(r.n);
}
