import type { Executor } from '../db.js';
import type { MemberInvitationsTable } from '../schema.js';

export type InvitationRow = MemberInvitationsTable;

/** False when the account already has a pending invitation to this organization. */
export async function insertInvitation(db: Executor, row: InvitationRow): Promise<boolean> {
  const r = await db
    .insertInto('member_invitations')
    .values(row)
    .onConflict((oc) => oc.columns(['organization_id', 'user_id']).doNothing())
    .executeTakeFirst();
  return Number(r.numInsertedOrUpdatedRows ?? 0) > 0;
}

export function findInvitation(db: Executor, id: string) {
  return db.selectFrom('member_invitations').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function deleteInvitation(db: Executor, id: string): Promise<boolean> {
  const r = await db.deleteFrom('member_invitations').where('id', '=', id).executeTakeFirst();
  return Number(r.numDeletedRows) > 0;
}

export async function deleteInvitationOf(db: Executor, organizationId: string, userId: string): Promise<void> {
  await db
    .deleteFrom('member_invitations')
    .where('organization_id', '=', organizationId)
    .where('user_id', '=', userId)
    .execute();
}

/** An organization's pending invitations, by id. */
export function listOrgInvitations(db: Executor, organizationId: string, after: string[] | undefined, take: number) {
  let q = db
    .selectFrom('member_invitations')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .orderBy('id')
    .limit(take);
  if (after) q = q.where('id', '>', after[0]!);
  return q.execute();
}

export async function countOrgInvitations(db: Executor, organizationId: string): Promise<number> {
  const r = await db
    .selectFrom('member_invitations')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('organization_id', '=', organizationId)
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

/** A user's pending invitations with the inviting organization's title and the inviter's name. */
export function listUserInvitations(db: Executor, userId: string, after: string[] | undefined, take: number) {
  let q = db
    .selectFrom('member_invitations')
    .innerJoin('organizations', 'organizations.id', 'member_invitations.organization_id')
    .leftJoin('users as inviter', 'inviter.id', 'member_invitations.invited_by')
    .selectAll('member_invitations')
    .select(['organizations.title as organization_title', 'inviter.display_name as inviter_name'])
    .where('member_invitations.user_id', '=', userId)
    .orderBy('member_invitations.id')
    .limit(take);
  if (after) q = q.where('member_invitations.id', '>', after[0]!);
  return q.execute();
}

export async function countUserInvitations(db: Executor, userId: string): Promise<number> {
  const r = await db
    .selectFrom('member_invitations')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('user_id', '=', userId)
    .executeTakeFirstOrThrow();
  return Number(r.n);
}
