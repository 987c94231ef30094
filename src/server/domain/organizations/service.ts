import type { Executor } from '../../storage/db.js';
import { transaction, transactionRetryingDeadlocks } from '../../storage/db.js';
import type { ServiceContext } from '../context.js';
import { newId } from '../../lib/ids.js';
import { newSecret } from '../../lib/secrets.js';
import { nowIso } from '../../lib/time.js';
import * as orgs from '../../storage/repos/organizations.js';
import * as members from '../../storage/repos/members.js';
import * as users from '../../storage/repos/users.js';
import * as invitations from '../../storage/repos/invitations.js';
import { keysetPage } from '../../storage/pagination.js';
import { requireOrgAccess, requireOrgRole } from '../permissions/resolver.js';
import { asRole, atLeast } from '../permissions/roles.js';
import { ConflictError, InvalidError, NotFoundError, ForbiddenError } from '../errors.js';
import { setDomains } from './domains.js';
import type { UpdateOrganizationBody } from '../../../shared/contract/organizations.js';
import type { RoleOrGuest } from '../../../shared/contract/common.js';
import { organizationPolicy } from './policy.js';

export async function createOrganization(db: Executor, userId: string, title: string) {
  const now = nowIso();
  const row = orgs.newOrganizationRow(newId(), title, now);
  await orgs.insertOrganization(db, row);
  await members.insertMembership(db, {
    organization_id: row.id,
    user_id: userId,
    role: 'admin',
    disabled: 0,
    joined_at: now,
    last_seen_at: null,
  });
  return row;
}

/** A new organization whose only member, its admin, is the caller. */
export function createOrganizationForCaller(ctx: ServiceContext, title: string) {
  return transaction(ctx.db, (tx) => createOrganization(tx, ctx.actor.userId, title));
}

export function listOrganizations(ctx: ServiceContext, page: string | undefined, limit: number) {
  return keysetPage({
    page,
    limit,
    arity: 1,
    rows: (after, take) => orgs.listUserOrganizations(ctx.db, ctx.actor.userId, after, take),
    count: () => orgs.countUserOrganizations(ctx.db, ctx.actor.userId),
    key: (row) => [row.id],
  });
}

export async function getOrganization(ctx: ServiceContext, organizationId: string) {
  const access = await requireOrgAccess(ctx.db, ctx.actor, organizationId);
  const row = await orgs.findOrganization(ctx.db, organizationId);
  if (!row) throw new NotFoundError('Organization not found');
  return { row, role: access.role };
}

export async function updateOrganization(ctx: ServiceContext, organizationId: string, body: UpdateOrganizationBody) {
  return transaction(ctx.db, async (tx) => {
    const access = await requireOrgAccess(tx, ctx.actor, organizationId);
    requireOrgRole(access, organizationPolicy.needs('admin'), 'change organization settings');
    if (body.hostname !== undefined) {
      const taken = await orgs.findOrganizationByHostname(tx, body.hostname);
      if (taken && taken.id !== organizationId)
        throw new InvalidError('hostname', 'is already used by another organization');
    }
    if (body.defaultContent) {
      // Sites arrive with the docs-sites work; until then no site id can be valid.
      throw new InvalidError('defaultContent.site', 'no such site in this organization');
    }
    const patch: Partial<orgs.OrganizationRow> = { updated_at: nowIso() };
    if (body.title !== undefined) patch.title = body.title;
    if (body.emailDomains !== undefined) await setDomains(tx, organizationId, body.emailDomains);
    if (body.hostname !== undefined) patch.hostname = body.hostname;
    if (body.defaultRole !== undefined) patch.default_role = body.defaultRole;
    if (body.defaultContent === null) patch.default_content_site = null;
    if (body.logo !== undefined) patch.logo = body.logo;
    if (body.sso !== undefined) patch.sso = body.sso ? 1 : 0;
    if (body.ai !== undefined) patch.ai = body.ai ? 1 : 0;
    if (body.inviteLinks !== undefined) patch.invite_links = body.inviteLinks ? 1 : 0;
    await orgs.updateOrganization(tx, organizationId, patch);
    const row = await orgs.findOrganization(tx, organizationId);
    return { row: row!, role: access.role };
  });
}

/**
 * Deletes an organization for good (admins only; outsiders get 404 from the access check). Everything that belongs
 * to it goes with it in one transaction, under the organization's row lock; no other organization and no account
 * is changed. Refused with 409 while it publishes integrations other organizations installed: unpublishing them
 * is a decision about those organizations, to be taken on its own.
 */
export async function deleteOrganization(ctx: ServiceContext, organizationId: string) {
  // Its cascades lock many rows while jobs (integrations' events, their tokens) may write rows referencing them.
  await transactionRetryingDeadlocks(ctx.db, async (tx) => {
    const access = await requireOrgAccess(tx, ctx.actor, organizationId);
    requireOrgRole(access, organizationPolicy.needs('admin'), 'delete it');
    await orgs.lockOrganization(tx, organizationId);
    const elsewhere = await orgs.integrationsInstalledElsewhere(tx, organizationId);
    if (elsewhere.length > 0) {
      const names = elsewhere.map((i) => `"${i.title}" (${i.name})`).join(', ');
      throw new ConflictError(
        `This organization publishes integrations that other organizations installed: ${names}. Unpublish them first.`,
      );
    }
    await orgs.deleteOrganization(tx, organizationId);
  });
}

// Invite links: created and managed by admins; anyone signed in who holds the link id can join.

export async function listInviteLinks(
  ctx: ServiceContext,
  organizationId: string,
  page: string | undefined,
  limit: number,
) {
  const access = await requireOrgAccess(ctx.db, ctx.actor, organizationId);
  requireOrgRole(access, organizationPolicy.needs('admin'), 'see invite links');
  const result = await keysetPage({
    page,
    limit,
    arity: 1,
    rows: (after, take) => orgs.listInviteLinks(ctx.db, organizationId, after, take),
    count: () => orgs.countInviteLinks(ctx.db, organizationId),
    key: (row) => [row.id],
  });
  return { ...result, role: access.role };
}

export async function getInviteLink(ctx: ServiceContext, organizationId: string, inviteId: string) {
  const access = await requireOrgAccess(ctx.db, ctx.actor, organizationId);
  requireOrgRole(access, organizationPolicy.needs('admin'), 'see invite links');
  const row = await orgs.findInviteLink(ctx.db, organizationId, inviteId);
  if (!row) throw new NotFoundError('Invite not found');
  return { row, role: access.role };
}

export async function createInviteLink(ctx: ServiceContext, organizationId: string, role: RoleOrGuest) {
  const access = await requireOrgAccess(ctx.db, ctx.actor, organizationId);
  requireOrgRole(access, organizationPolicy.needs('admin'), 'create invite links');
  const org = await orgs.findOrganization(ctx.db, organizationId);
  if (!org?.invite_links) throw new ForbiddenError('Invite links are turned off for this organization');
  // The id is the secret part of the link: unguessable.
  const row: orgs.InviteLinkRow = {
    id: newSecret().slice(0, 32),
    organization_id: organizationId,
    role,
    created_by: ctx.actor.userId,
    created_at: nowIso(),
  };
  await orgs.insertInviteLink(ctx.db, row);
  return { row, role: access.role };
}

export async function updateInviteLink(
  ctx: ServiceContext,
  organizationId: string,
  inviteId: string,
  role: RoleOrGuest,
) {
  const access = await requireOrgAccess(ctx.db, ctx.actor, organizationId);
  requireOrgRole(access, organizationPolicy.needs('admin'), 'change invite links');
  if (!(await orgs.findInviteLink(ctx.db, organizationId, inviteId))) throw new NotFoundError('Invite not found');
  await orgs.updateInviteLinkRole(ctx.db, organizationId, inviteId, role);
  const row = await orgs.findInviteLink(ctx.db, organizationId, inviteId);
  return { row: row!, role: access.role };
}

/** True when the link existed and was deleted, false when it did not exist. */
export async function deleteInviteLink(ctx: ServiceContext, organizationId: string, inviteId: string) {
  const access = await requireOrgAccess(ctx.db, ctx.actor, organizationId);
  requireOrgRole(access, organizationPolicy.needs('admin'), 'delete invite links');
  return orgs.deleteInviteLink(ctx.db, organizationId, inviteId);
}

/**
 * What an invite link offers: the organization's title and the role, for whoever holds the link (signed in or not;
 * the link id is the secret that lets them join anyway). Unknown links, and links of an organization that turned
 * invite links off, answer 404 as joining does.
 */
export async function previewInvite(ctx: { db: Executor; userId?: string }, organizationId: string, inviteId: string) {
  const invite = await orgs.findInviteLink(ctx.db, organizationId, inviteId);
  const org = await orgs.findOrganization(ctx.db, organizationId);
  if (!invite || !org || !org.invite_links) throw new NotFoundError('Invite not found');
  const existing = ctx.userId ? await members.findMembership(ctx.db, organizationId, ctx.userId) : undefined;
  return {
    organization: { id: org.id, title: org.title },
    role: asRole(invite.role),
    ...(existing && !existing.disabled ? { membership: { role: asRole(existing.role) } } : {}),
  };
}

/**
 * Joins with an invite link. The caller need not be a member yet, so an unknown organization or invite both
 * answer 404 with the same message. A member already in keeps the higher of their role and the invite's.
 */
export async function joinWithInvite(ctx: ServiceContext, organizationId: string, inviteId: string) {
  return transaction(ctx.db, async (tx) => {
    const invite = await orgs.findInviteLink(tx, organizationId, inviteId);
    const org = await orgs.findOrganization(tx, organizationId);
    if (!invite || !org || !org.invite_links) throw new NotFoundError('Invite not found');
    const existing = await members.findMembership(tx, organizationId, ctx.actor.userId);
    const role = asRole(invite.role);
    // A pending invitation of this address to this organization is answered by joining.
    const user = await users.findUserById(tx, ctx.actor.userId);
    if (user) await invitations.deleteInvitationOf(tx, organizationId, user.email);
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
  });
}

/**
 * Organizations of the caller that accept people of an e-mail domain. Callers may ask about their own
 * e-mail's domain only, once their address is verified, and see only organizations they belong to: the list
 * cannot be a way to discover other organizations.
 */
export async function organizationsForEmailDomain(ctx: ServiceContext, domain: string) {
  const user = await users.findUserById(ctx.db, ctx.actor.userId);
  const own = user?.email.split('@')[1]?.toLowerCase();
  if (own !== domain.toLowerCase()) {
    throw new ForbiddenError('You can only look up the organizations of your own e-mail domain');
  }
  // An address nobody verified proves nothing about the domain.
  if (!user?.email_verified_at) return [];
  const rows = await orgs.organizationsWithEmailDomain(ctx.db, own, ctx.actor.userId);
  return rows.filter((row) => (JSON.parse(row.email_domains) as string[]).includes(own));
}
