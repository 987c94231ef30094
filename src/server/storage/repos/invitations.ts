import type { Executor } from '../db.js';
import type { OrgInvitationsTable } from '../schema.js';

export type InvitationRow = OrgInvitationsTable;

/** False when the address already has an invitation to this organization. */
export async function insertInvitation(db: Executor, row: InvitationRow): Promise<boolean> {
  const r = await db
    .insertInto('org_invitations')
    .values(row)
    .onConflict((oc) => oc.columns(['organization_id', 'email']).doNothing())
    .executeTakeFirst();
  return Number(r.numInsertedOrUpdatedRows ?? 0) > 0;
}

export function findInvitation(db: Executor, id: string) {
  return db.selectFrom('org_invitations').selectAll().where('id', '=', id).executeTakeFirst();
}

export function findInvitationOf(db: Executor, organizationId: string, email: string) {
  return db
    .selectFrom('org_invitations')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .where('email', '=', email)
    .executeTakeFirst();
}

/** A new link: its secret's hash, a new expiry, one more send. */
export async function recordInvitationSend(
  db: Executor,
  id: string,
  set: { token_hash: string; expires_at: string; last_sent_at: string; role?: string | null },
): Promise<void> {
  await db
    .updateTable('org_invitations')
    .set((eb) => ({ ...set, sends: eb('sends', '+', 1) }))
    .where('id', '=', id)
    .execute();
}

export async function deleteInvitation(db: Executor, id: string): Promise<boolean> {
  const r = await db.deleteFrom('org_invitations').where('id', '=', id).executeTakeFirst();
  return Number(r.numDeletedRows) > 0;
}

/** The invitation of this address to this organization, answered by joining another way. */
export async function deleteInvitationOf(db: Executor, organizationId: string, email: string): Promise<void> {
  await db
    .deleteFrom('org_invitations')
    .where('organization_id', '=', organizationId)
    .where('email', '=', email.toLowerCase())
    .execute();
}

/** An organization's invitations, by id (expired ones too: admins resend or revoke them). */
export function listOrgInvitations(db: Executor, organizationId: string, after: string[] | undefined, take: number) {
  let q = db
    .selectFrom('org_invitations')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .orderBy('id')
    .limit(take);
  if (after) q = q.where('id', '>', after[0]!);
  return q.execute();
}

export async function countOrgInvitations(db: Executor, organizationId: string): Promise<number> {
  const r = await db
    .selectFrom('org_invitations')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('organization_id', '=', organizationId)
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

/** The invitations to an address still open, with the inviting organization's title and the inviter's name. */
export function listInvitationsTo(db: Executor, email: string, now: string, after: string[] | undefined, take: number) {
  let q = db
    .selectFrom('org_invitations')
    .innerJoin('organizations', 'organizations.id', 'org_invitations.organization_id')
    .leftJoin('users as inviter', 'inviter.id', 'org_invitations.invited_by')
    .selectAll('org_invitations')
    .select(['organizations.title as organization_title', 'inviter.display_name as inviter_name'])
    .where('org_invitations.email', '=', email)
    .where('org_invitations.expires_at', '>', now)
    .orderBy('org_invitations.id')
    .limit(take);
  if (after) q = q.where('org_invitations.id', '>', after[0]!);
  return q.execute();
}

export async function countInvitationsTo(db: Executor, email: string, now: string): Promise<number> {
  const r = await db
    .selectFrom('org_invitations')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('email', '=', email)
    .where('expires_at', '>', now)
    .executeTakeFirstOrThrow();
  return Number(r.n);
}
