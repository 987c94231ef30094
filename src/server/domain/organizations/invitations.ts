import type { ServiceContext } from '../context.js';
import { transaction } from '../../storage/db.js';
import { newId } from '../../lib/ids.js';
import { nowIso } from '../../lib/time.js';
import * as orgs from '../../storage/repos/organizations.js';
import * as members from '../../storage/repos/members.js';
import * as users from '../../storage/repos/users.js';
import * as invitations from '../../storage/repos/invitations.js';
import { keysetPage } from '../../storage/pagination.js';
import { requireOrgAccess, requireOrgRole } from '../permissions/resolver.js';
import { asRole, atLeast } from '../permissions/roles.js';
import { NotFoundError } from '../errors.js';
import type { InviteUsersBody } from '../../../shared/contract/organizations.js';
import { organizationPolicy } from './policy.js';

/**
 * Invitations by e-mail. An organization gains no power over an account without its owner's consent: inviting
 * an existing account creates a pending invitation, which the person sees (`GET /v1/user/invitations`) and
 * accepts or declines. Until they accept, the organization cannot mark them SSO, enforce SSO on them or see
 * them among its members; its admins see only that the address is invited.
 */

/**
 * Invites the accounts with these e-mails (with the entry's role, else `role`, else the organization's default
 * role). Addresses with no account are returned in `unknownEmails`: there is no e-mail delivery to verify an
 * address, so nothing is reserved for them (share an invite link instead). Members already in, and accounts
 * already invited, are left as they are.
 */
export async function inviteUsers(ctx: ServiceContext, organizationId: string, body: InviteUsersBody) {
  return transaction(ctx.db, async (tx) => {
    const access = await requireOrgAccess(tx, ctx.actor, organizationId);
    requireOrgRole(access, organizationPolicy.needs('admin'), 'invite members');
    const org = (await orgs.findOrganization(tx, organizationId))!;
    const unknownEmails: string[] = [];
    let invited = 0;
    const now = nowIso();
    for (const entry of body.emails) {
      const email = (typeof entry === 'string' ? entry : entry.email).toLowerCase();
      const role = typeof entry === 'string' ? (body.role !== undefined ? body.role : org.default_role) : entry.role;
      const user = await users.findUserByEmail(tx, email);
      if (!user) {
        unknownEmails.push(email);
        continue;
      }
      if (await members.findMembership(tx, organizationId, user.id)) continue;
      const created = await invitations.insertInvitation(tx, {
        id: newId(),
        organization_id: organizationId,
        user_id: user.id,
        email,
        role,
        invited_by: ctx.actor.userId,
        created_at: now,
      });
      if (created) invited += 1;
    }
    // Nobody joins here: `users` (the accounts added) stays empty until people accept.
    return { users: [] as string[], invited, unknownEmails };
  });
}

/** The organization's pending invitations (admins only): the address and role, nothing of the account. */
export async function listOrgInvitations(
  ctx: ServiceContext,
  organizationId: string,
  page: string | undefined,
  limit: number,
) {
  const access = await requireOrgAccess(ctx.db, ctx.actor, organizationId);
  requireOrgRole(access, organizationPolicy.needs('admin'), 'see invitations');
  return keysetPage({
    page,
    limit,
    arity: 1,
    rows: (after, take) => invitations.listOrgInvitations(ctx.db, organizationId, after, take),
    count: () => invitations.countOrgInvitations(ctx.db, organizationId),
    key: (row) => [row.id],
  });
}

/** Revokes a pending invitation (admins only). False when there was none. */
export async function revokeInvitation(ctx: ServiceContext, organizationId: string, invitationId: string) {
  const access = await requireOrgAccess(ctx.db, ctx.actor, organizationId);
  requireOrgRole(access, organizationPolicy.needs('admin'), 'revoke invitations');
  const row = await invitations.findInvitation(ctx.db, invitationId);
  if (!row || row.organization_id !== organizationId) return false;
  return invitations.deleteInvitation(ctx.db, invitationId);
}

/** The caller's pending invitations. */
export function listMyInvitations(ctx: ServiceContext, page: string | undefined, limit: number) {
  return keysetPage({
    page,
    limit,
    arity: 1,
    rows: (after, take) => invitations.listUserInvitations(ctx.db, ctx.actor.userId, after, take),
    count: () => invitations.countUserInvitations(ctx.db, ctx.actor.userId),
    key: (row) => [row.id],
  });
}

async function myInvitation(
  ctx: ServiceContext,
  executor: Parameters<typeof invitations.findInvitation>[0],
  id: string,
) {
  const row = await invitations.findInvitation(executor, id);
  // Another person's invitation is as unknown as a missing one.
  if (!row || row.user_id !== ctx.actor.userId) throw new NotFoundError('Invitation not found');
  return row;
}

/**
 * Accepts an invitation: the caller becomes a member with its role (a member already in keeps the higher of
 * the two roles). Returns the organization's id.
 */
export async function acceptInvitation(ctx: ServiceContext, invitationId: string) {
  return transaction(ctx.db, async (tx) => {
    const invitation = await myInvitation(ctx, tx, invitationId);
    if (!(await invitations.deleteInvitation(tx, invitation.id))) throw new NotFoundError('Invitation not found');
    const organizationId = invitation.organization_id;
    const existing = await members.findMembership(tx, organizationId, ctx.actor.userId);
    const role = asRole(invitation.role);
    if (!existing) {
      await members.insertMembership(tx, {
        organization_id: organizationId,
        user_id: ctx.actor.userId,
        role,
        disabled: 0,
        joined_at: nowIso(),
        last_seen_at: null,
      });
    } else if (role && !atLeast(asRole(existing.role), role)) {
      await members.updateMemberRole(tx, organizationId, ctx.actor.userId, role);
    }
    return organizationId;
  });
}

/** Declines an invitation: it is gone, and nothing else changes. */
export async function declineInvitation(ctx: ServiceContext, invitationId: string) {
  const invitation = await myInvitation(ctx, ctx.db, invitationId);
  await invitations.deleteInvitation(ctx.db, invitation.id);
}
