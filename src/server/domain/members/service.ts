import type { ServiceContext } from '../context.js';
import { transaction } from '../../storage/db.js';
import * as members from '../../storage/repos/members.js';
import { lockOrganization } from '../../storage/repos/organizations.js';
import * as teams from '../../storage/repos/teams.js';
import * as grants from '../../storage/repos/grants.js';
import * as users from '../../storage/repos/users.js';
import * as saml from '../../storage/repos/saml.js';
import * as collections from '../../storage/repos/collections.js';
import { requireOrgAccess, requireOrgRole, loadOrgLevels, type OrgAccess } from '../permissions/resolver.js';
import { asRole } from '../permissions/roles.js';
import { ConflictError, ForbiddenError, InvalidError, NotFoundError } from '../errors.js';
import { keysetPage } from '../../storage/pagination.js';
import { nowIso } from '../../lib/time.js';
import { signServiceVisitorClaims } from '../auth/visitor-claims.js';
import type { Role, RoleOrGuest } from '../../../shared/contract/common.js';
import type { ListMembersQuery } from '../../../shared/contract/members.js';
import { organizationPolicy } from '../organizations/policy.js';

const LAST_ADMIN = 'An organization needs at least one admin: make another member admin first';

/** One member, for members; guests may only read themselves (they do not list members either). */
export async function getMember(ctx: ServiceContext, organizationId: string, userId: string) {
  const access = await requireOrgAccess(ctx.db, ctx.actor, organizationId);
  if (access.role === null && userId !== ctx.actor.userId) {
    throw new ForbiddenError('Guests can only see their own membership, not other members');
  }
  const row = await members.findMemberWithUser(ctx.db, organizationId, userId);
  if (!row) throw new NotFoundError('Member not found');
  return row;
}

/** Changes a member's role (admins only). The last admin cannot be demoted. */
export async function updateMemberRole(ctx: ServiceContext, organizationId: string, userId: string, role: RoleOrGuest) {
  return transaction(ctx.db, async (tx) => {
    const access = await requireOrgAccess(tx, ctx.actor, organizationId);
    requireOrgRole(access, organizationPolicy.needs('admin'), 'change member roles');
    await lockOrganization(tx, organizationId);
    const target = await members.findMembership(tx, organizationId, userId);
    if (!target) throw new NotFoundError('Member not found');
    if (target.role === 'admin' && role !== 'admin' && (await members.countAdmins(tx, organizationId)) <= 1) {
      throw new ConflictError(LAST_ADMIN);
    }
    await members.updateMemberRole(tx, organizationId, userId, role);
    return (await members.findMemberWithUser(tx, organizationId, userId))!;
  });
}

/**
 * Removes a member (admins remove anyone; a member may leave). False when they were not a member.
 * The last admin cannot be removed.
 */
export async function removeMember(ctx: ServiceContext, organizationId: string, userId: string): Promise<boolean> {
  return transaction(ctx.db, async (tx) => {
    const access = await requireOrgAccess(tx, ctx.actor, organizationId);
    if (userId !== ctx.actor.userId) requireOrgRole(access, organizationPolicy.needs('admin'), 'remove members');
    await lockOrganization(tx, organizationId);
    const target = await members.findMembership(tx, organizationId, userId);
    if (!target) return false;
    if (target.role === 'admin' && (await members.countAdmins(tx, organizationId)) <= 1) {
      throw new ConflictError(LAST_ADMIN);
    }
    // Nothing of theirs stays behind in the organization: team places and grants go with the membership. Every
    // request checks the membership, so their tokens and sessions stop reaching the organization at once.
    await teams.removeFromAllTeams(tx, organizationId, userId);
    await grants.removeUserGrants(tx, organizationId, userId);
    // The organization's providers lose what the person linked to them: a later sign-in through them is refused.
    await saml.deleteLinkedIdentitiesInOrg(tx, organizationId, userId);
    return members.deleteMembership(tx, organizationId, userId);
  });
}

/** Members of an organization, for its members (guests do not list members). */
export async function listMembers(
  ctx: ServiceContext,
  organizationId: string,
  query: Omit<ListMembersQuery, 'page' | 'limit'>,
  page: string | undefined,
  limit: number,
) {
  const access = await requireOrgAccess(ctx.db, ctx.actor, organizationId);
  if (!organizationPolicy.can(access.role, 'listMembers')) {
    throw new ForbiddenError('Guests cannot list the members of an organization');
  }
  const filter: members.MemberListFilter = {
    organizationId,
    role: query.role,
    search: query.search,
    seenOnly: query.sort === 'lastSeenAt',
  };
  // The cursor carries the sort it was made for, so a cursor of one sort is refused by the other.
  const result = await keysetPage({
    page,
    limit,
    arity: 3,
    rows: (after, take) => {
      if (after && after[0] !== query.sort) {
        throw new InvalidError('page', `is a cursor of the list sorted by ${after[0]}, not by ${query.sort}`);
      }
      return members.listMembers(ctx.db, filter, query.sort, query.order, after?.slice(1), take);
    },
    count: () => members.countMembers(ctx.db, filter),
    key: (row) => [query.sort, (query.sort === 'lastSeenAt' ? row.last_seen_at : row.joined_at) ?? '', row.user_id],
  });
  return result;
}

/** Records that the caller is active in the organization, and signs their visitor claims. */
export async function ping(ctx: ServiceContext, organizationId: string): Promise<string> {
  const access = await requireOrgAccess(ctx.db, ctx.actor, organizationId);
  await members.touchLastSeen(ctx.db, organizationId, ctx.actor.userId, nowIso());
  const [user, teamList] = await Promise.all([
    users.findUserById(ctx.db, ctx.actor.userId),
    teams.listTeams(ctx.db, { organizationId, memberId: ctx.actor.userId }, ctx.actor.userId, undefined, 1000),
  ]);
  if (!user) throw new NotFoundError('User not found');
  return signServiceVisitorClaims(
    ctx.db,
    {
      userId: user.id,
      organization: organizationId,
      role: access.role,
      email: user.email,
      displayName: user.display_name,
      teams: teamList.map((t) => t.id),
      sso: access.membership.sso === 1,
    },
    ctx.actor.ssoProviderId ?? null,
  );
}

/**
 * Marks a member as an SSO member (admins only): from then on they reach this organization only through its
 * identity provider (enforced SSO for one member). It gives the provider no power over the account: a
 * provider signs in only the accounts it created or that their owner linked to it. Only members can be marked,
 * and membership needs the person's consent (an accepted invitation, an invite link they followed).
 */
export async function markSsoMember(ctx: ServiceContext, organizationId: string, userId: string) {
  return transaction(ctx.db, async (tx) => {
    const access = await requireOrgAccess(tx, ctx.actor, organizationId);
    requireOrgRole(access, organizationPolicy.needs('admin'), 'mark members as SSO members');
    if (!(await members.findMembership(tx, organizationId, userId))) throw new NotFoundError('Member not found');
    await members.setMemberSso(tx, organizationId, userId);
    return (await members.findMemberWithUser(tx, organizationId, userId))!;
  });
}

/** Loads a member for one of the member's own lists: admins see anyone's, other members their own. */
async function memberForOwnList(ctx: ServiceContext, organizationId: string, userId: string, what: string) {
  const access = await requireOrgAccess(ctx.db, ctx.actor, organizationId);
  const target = await members.findMembership(ctx.db, organizationId, userId);
  if (!target) throw new NotFoundError('Member not found');
  if (userId !== ctx.actor.userId)
    requireOrgRole(access, organizationPolicy.needs('admin'), `see the ${what} of other members`);
  return { access, target };
}

/**
 * Spaces granted to a member, directly or through a team, with the level the member holds on each (computed
 * by the resolver for that member, so it can be higher than the grant).
 */
export async function listMemberSpaces(
  ctx: ServiceContext,
  organizationId: string,
  userId: string,
  order: 'asc' | 'desc',
  page: string | undefined,
  limit: number,
) {
  const { target } = await memberForOwnList(ctx, organizationId, userId, 'spaces');
  const memberAccess: OrgAccess = { organizationId, membership: target, role: asRole(target.role) };
  const levels = await loadOrgLevels(ctx.db, memberAccess, { userId }, () =>
    collections.allOrgCollections(ctx.db, organizationId),
  );
  const result = await keysetPage({
    page,
    limit,
    arity: 1,
    rows: (after, take) => grants.listGrantedSpaces(ctx.db, organizationId, userId, order, after, take),
    count: () => grants.countGrantedSpaces(ctx.db, organizationId, userId),
    key: (row) => [row.id],
  });
  return {
    ...result,
    items: result.items.map((row) => ({ row, permission: (levels.space(row) ?? 'read') as Role })),
  };
}

/** Teams of a member with their role in each; `title` filters by a case-insensitive part of the title. */
export async function listMemberTeams(
  ctx: ServiceContext,
  organizationId: string,
  userId: string,
  title: string | undefined,
  page: string | undefined,
  limit: number,
) {
  const access = await requireOrgAccess(ctx.db, ctx.actor, organizationId);
  if (access.role === null && userId !== ctx.actor.userId) {
    throw new ForbiddenError('Guests can only list their own teams');
  }
  if (!(await members.findMembership(ctx.db, organizationId, userId))) throw new NotFoundError('Member not found');
  const filter: teams.TeamListFilter = { organizationId, memberId: userId, titleContains: title };
  const result = await keysetPage({
    page,
    limit,
    arity: 1,
    rows: (after, take) => teams.listTeams(ctx.db, filter, ctx.actor.userId, after, take),
    count: () => teams.countTeams(ctx.db, filter),
    key: (row) => [row.id],
  });
  const roles = new Map(
    (
      await teams.teamRolesOf(
        ctx.db,
        userId,
        result.items.map((t) => t.id),
      )
    ).map((r) => [r.team_id, r.role]),
  );
  return {
    ...result,
    callerRole: access.role,
    items: result.items.map((team) => ({ team, role: roles.get(team.id) ?? 'member' })),
  };
}
