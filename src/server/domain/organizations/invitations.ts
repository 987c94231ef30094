import type { ServiceContext } from '../context.js';
import type { Db, Executor } from '../../storage/db.js';
import { transaction } from '../../storage/db.js';
import { newId } from '../../lib/ids.js';
import { nowIso } from '../../lib/time.js';
import { recordEvent } from '../notifications/events.js';
import { hashToken, newSecret } from '../../lib/secrets.js';
import * as orgs from '../../storage/repos/organizations.js';
import * as members from '../../storage/repos/members.js';
import * as users from '../../storage/repos/users.js';
import * as invitations from '../../storage/repos/invitations.js';
import type { InvitationRow } from '../../storage/repos/invitations.js';
import { keysetPage } from '../../storage/pagination.js';
import { wakeJobQueues } from '../../jobs/queue.js';
import { requireOrgAccess, requireOrgRole } from '../permissions/resolver.js';
import { asRole, atLeast } from '../permissions/roles.js';
import { NotFoundError, TooManyRequestsError } from '../errors.js';
import { queueEmail, takeRate, type MailSettings } from '../mail/outbox.js';
import { en } from '../mail/templates.js';
import type { InviteUsersBody } from '../../../shared/contract/organizations.js';
import { INVITATION_DAYS } from '../../../shared/contract/identity.js';
import { organizationPolicy } from './policy.js';

/**
 * Invitations by e-mail (README, "Invitations by e-mail"). An invitation is to an address, account or not, and is
 * mailed with a link whose secret proves the mailbox: following it, someone without an account signs up (the
 * address verified at once) and someone with one accepts. Without the link, an account sees and accepts the
 * invitations to its address only once that address is verified, so whoever registers someone else's address
 * first collects nothing. An organization gains no power over an account without its owner's consent: until
 * they accept, it cannot mark them SSO, enforce SSO on them or see them among its members.
 */

/** Invitations one admin may send per organization a day (resends included). */
export const INVITATIONS_PER_SENDER_DAY = 100;
/** One resend of an invitation per this many minutes. */
export const RESEND_EVERY_MINUTES = 10;
const DAY_MS = 24 * 3_600_000;
const GONE = 'This invitation is no longer valid: it was accepted, revoked or has expired';

function expiry(now: string): string {
  return new Date(Date.parse(now) + INVITATION_DAYS * DAY_MS).toISOString();
}

/** Counts `count` invitations against the sender's daily limit, in one statement (429 past it). */
async function chargeSender(tx: Executor, organizationId: string, userId: string, count: number) {
  if (count === 0) return;
  const key = `${organizationId}:${userId}`;
  if (!(await takeRate(tx, 'invite-sender', key, DAY_MS, INVITATIONS_PER_SENDER_DAY, { amount: count }))) {
    throw new TooManyRequestsError(
      `You can send ${INVITATIONS_PER_SENDER_DAY} invitations a day in this organization: try again tomorrow`,
      3600,
    );
  }
}

/** A new secret for the invitation, mailed to its address (in the caller's transaction). */
async function mailInvitation(
  tx: Executor,
  settings: MailSettings,
  invitation: InvitationRow,
  actorId: string,
  role: string | null,
): Promise<void> {
  const now = nowIso();
  const secret = newSecret('dsi_');
  await invitations.recordInvitationSend(tx, invitation.id, {
    token_hash: hashToken(secret),
    expires_at: expiry(now),
    last_sent_at: now,
    role,
  });
  const org = (await orgs.findOrganization(tx, invitation.organization_id))!;
  const inviter = await users.findUserById(tx, actorId);
  await queueEmail(tx, settings, {
    dedupeKey: `invite:${invitation.id}:${invitation.sends + 1}`,
    category: 'invitation',
    kind: 'invitation',
    to: invitation.email,
    senderUserId: actorId,
    organizationId: org.id,
    mail: en.invitation({
      organization: org.title,
      logo: org.logo ?? undefined,
      inviter: inviter?.display_name ?? 'An administrator',
      role: role ?? 'guest',
      url: `${settings.publicUrl}/invitations/${invitation.id}#${secret}`,
      days: INVITATION_DAYS,
      serverUrl: settings.publicUrl,
    }),
  });
}

/**
 * Invites these addresses (with the entry's role, else `role`, else the organization's default role) and mails each
 * its link. Members already in, and addresses with an open invitation, are left as they are (an expired one is
 * invited again, with the new role). `invited` counts the messages sent.
 */
export async function inviteUsers(
  ctx: ServiceContext,
  settings: MailSettings,
  organizationId: string,
  body: InviteUsersBody,
) {
  const result = await transaction(ctx.db, async (tx) => {
    const access = await requireOrgAccess(tx, ctx.actor, organizationId);
    requireOrgRole(access, organizationPolicy.needs('admin'), 'invite members');
    const org = (await orgs.findOrganization(tx, organizationId))!;
    const entries = new Map<string, string | null>();
    for (const entry of body.emails) {
      const email = (typeof entry === 'string' ? entry : entry.email).toLowerCase();
      const role = typeof entry === 'string' ? (body.role !== undefined ? body.role : org.default_role) : entry.role;
      entries.set(email, role);
    }
    let invited = 0;
    const now = nowIso();
    const toSend: Array<[InvitationRow, string | null]> = [];
    for (const [email, role] of entries) {
      const user = await users.findUserByEmail(tx, email);
      if (user && (await members.findMembership(tx, organizationId, user.id))) continue;
      const row: InvitationRow = {
        id: newId(),
        organization_id: organizationId,
        email,
        role,
        invited_by: ctx.actor.userId,
        created_at: now,
        token_hash: null,
        expires_at: expiry(now),
        last_sent_at: null,
        sends: 0,
      };
      if (await invitations.insertInvitation(tx, row)) {
        toSend.push([row, role]);
        continue;
      }
      // Invited already: left as it is while open (an admin resends it explicitly); renewed once expired.
      const existing = await invitations.findInvitationOf(tx, organizationId, email);
      if (existing && existing.expires_at <= now) toSend.push([existing, role]);
    }
    await chargeSender(tx, organizationId, ctx.actor.userId, toSend.length);
    for (const [row, role] of toSend) {
      await mailInvitation(tx, settings, row, ctx.actor.userId, role);
      invited += 1;
    }
    // Nobody joins here: `users` (the accounts added) stays empty until people accept; every address is invited.
    return { users: [] as string[], invited, unknownEmails: [] as string[] };
  });
  wakeJobQueues();
  return result;
}

/** Mails an invitation again (admins): a new link (the old one stops working) and a new expiry. */
export async function resendInvitation(
  ctx: ServiceContext,
  settings: MailSettings,
  organizationId: string,
  invitationId: string,
) {
  const row = await transaction(ctx.db, async (tx) => {
    const access = await requireOrgAccess(tx, ctx.actor, organizationId);
    requireOrgRole(access, organizationPolicy.needs('admin'), 'resend invitations');
    const invitation = await invitations.findInvitation(tx, invitationId);
    if (!invitation || invitation.organization_id !== organizationId) throw new NotFoundError('Invitation not found');
    const minutes = RESEND_EVERY_MINUTES;
    if (!(await takeRate(tx, 'invite-resend', invitation.id, minutes * 60_000, 1))) {
      throw new TooManyRequestsError(
        `This invitation was just sent: send it again in ${minutes} minutes`,
        minutes * 60,
      );
    }
    await chargeSender(tx, organizationId, ctx.actor.userId, 1);
    await mailInvitation(tx, settings, invitation, ctx.actor.userId, invitation.role);
    return (await invitations.findInvitation(tx, invitation.id))!;
  });
  wakeJobQueues();
  return row;
}

/** The organization's invitations (admins only): the address, role, expiry and sends, nothing of any account. */
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

/** Revokes an invitation (admins only): its link stops working. False when there was none. */
export async function revokeInvitation(ctx: ServiceContext, organizationId: string, invitationId: string) {
  const access = await requireOrgAccess(ctx.db, ctx.actor, organizationId);
  requireOrgRole(access, organizationPolicy.needs('admin'), 'revoke invitations');
  const row = await invitations.findInvitation(ctx.db, invitationId);
  if (!row || row.organization_id !== organizationId) return false;
  return invitations.deleteInvitation(ctx.db, invitationId);
}

/** The caller's open invitations: those to their address, once it is verified (none before). */
export async function listMyInvitations(ctx: ServiceContext, page: string | undefined, limit: number) {
  const user = await users.findUserById(ctx.db, ctx.actor.userId);
  const email = user?.email_verified_at ? user.email : null;
  const now = nowIso();
  return keysetPage({
    page,
    limit,
    arity: 1,
    rows: async (after, take) => (email ? invitations.listInvitationsTo(ctx.db, email, now, after, take) : []),
    count: async () => (email ? invitations.countInvitationsTo(ctx.db, email, now) : 0),
    key: (row) => [row.id],
  });
}

/**
 * An open invitation as the link's holder may see it: the secret must match the one last mailed. Anything else
 * (unknown, revoked, expired, an old link) is one 404, whatever the reason.
 */
async function invitationByLink(db: Executor, invitationId: string, token: string) {
  const row = await invitations.findInvitation(db, invitationId);
  if (!row || !row.token_hash || row.token_hash !== hashToken(token) || row.expires_at <= nowIso()) {
    throw new NotFoundError(GONE);
  }
  return row;
}

/** `POST /v1/invitations/{id}/check`: what the link's holder is invited to, and whether the address has an account. */
export async function checkInvitation(db: Db, invitationId: string, token: string) {
  const row = await invitationByLink(db, invitationId, token);
  const org = (await orgs.findOrganization(db, row.organization_id))!;
  const inviter = await users.findUserById(db, row.invited_by);
  const account = await users.findUserByEmail(db, row.email);
  return { row, org, inviterName: inviter?.display_name, hasAccount: account !== undefined };
}

/**
 * The invitation the caller may act on: to their address, open, and either their address is verified or they hold
 * the link (which proves the mailbox). Someone else's invitation, or one to an unverified address without its link,
 * is as unknown as a missing one.
 */
async function myInvitation(ctx: ServiceContext, tx: Executor, id: string, token: string | undefined) {
  const user = await users.findUserById(tx, ctx.actor.userId);
  const row = token !== undefined ? await invitationByLink(tx, id, token) : await invitations.findInvitation(tx, id);
  if (!row || !user || row.email !== user.email || row.expires_at <= nowIso()) throw new NotFoundError(GONE);
  if (token === undefined && !user.email_verified_at) throw new NotFoundError(GONE);
  return { row, user };
}

/** Makes the account a member with the invitation's role (a member already in keeps the higher of the two). */
export async function joinByInvitation(tx: Executor, invitation: InvitationRow, userId: string) {
  if (!(await invitations.deleteInvitation(tx, invitation.id))) throw new NotFoundError(GONE);
  const organizationId = invitation.organization_id;
  const existing = await members.findMembership(tx, organizationId, userId);
  const role = asRole(invitation.role);
  if (!existing) {
    await members.insertMembership(tx, {
      organization_id: organizationId,
      user_id: userId,
      role,
      disabled: 0,
      joined_at: nowIso(),
      last_seen_at: null,
    });
  } else if (role && !atLeast(asRole(existing.role), role)) {
    await members.updateMemberRole(tx, organizationId, userId, role);
  }
  await recordEvent(tx, {
    kind: 'invitation-accepted',
    organizationId,
    actorId: userId,
    data: { inviter: invitation.invited_by },
  });
  return organizationId;
}

/**
 * Accepts an invitation (from the account's list, or with the link's secret, which also verifies the address).
 * Returns the organization's id.
 */
export async function acceptInvitation(ctx: ServiceContext, invitationId: string, token?: string) {
  return transaction(ctx.db, async (tx) => {
    const { row, user } = await myInvitation(ctx, tx, invitationId, token);
    if (!user.email_verified_at) await users.updateUser(tx, user.id, { email_verified_at: nowIso() });
    return joinByInvitation(tx, row, user.id);
  });
}

/** Declines an invitation: it is gone, and nothing else changes. */
export async function declineInvitation(ctx: ServiceContext, invitationId: string, token?: string) {
  const { row } = await myInvitation(ctx, ctx.db, invitationId, token);
  await invitations.deleteInvitation(ctx.db, row.id);
}

/** For sign-up from an invitation's link: the open invitation, checked against the address signing up. */
export async function invitationForSignup(tx: Executor, invitationId: string, token: string, email: string) {
  const row = await invitationByLink(tx, invitationId, token);
  if (row.email !== email.toLowerCase()) throw new NotFoundError(GONE);
  return row;
}
