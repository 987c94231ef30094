import type { ServiceContext } from '../context.js';
import { transaction, type Executor } from '../../storage/db.js';
import * as teams from '../../storage/repos/teams.js';
import * as members from '../../storage/repos/members.js';
import { keysetPage } from '../../storage/pagination.js';
import { newId } from '../../lib/ids.js';
import { nowIso } from '../../lib/time.js';
import { requireOrgAccess, requireOrgRole, type OrgAccess } from '../permissions/resolver.js';
import { ForbiddenError, InvalidError, NotFoundError } from '../errors.js';
import type { CreateTeamBody, TeamMemberRole, UpdateTeamMembersBody } from '../../../shared/contract/teams.js';
import { organizationPolicy } from '../organizations/policy.js';
import { teamPermissions } from './policy.js';

/**
 * Teams of an organization. Organization admins manage every team; a team's owners manage that team (rename,
 * delete, members and their roles) without being admins. Members who are not guests see every team; a guest
 * sees the teams they are in.
 */

async function loadTeam(db: Executor, ctx: ServiceContext, access: OrgAccess, teamId: string) {
  const team = await teams.findTeamView(db, access.organizationId, teamId, ctx.actor.userId);
  if (!team || !teamPermissions(access.role, team.viewer_role).view) throw new NotFoundError('Team not found');
  return team;
}

function requireTeamAdmin(access: OrgAccess, team: teams.TeamView, action: string): void {
  if (!teamPermissions(access.role, team.viewer_role).admin) {
    throw new ForbiddenError(`You need to be an organization admin or an owner of this team to ${action}`);
  }
}

export async function listTeams(
  ctx: ServiceContext,
  organizationId: string,
  query: { owner?: string; title?: string },
  page: string | undefined,
  limit: number,
) {
  const access = await requireOrgAccess(ctx.db, ctx.actor, organizationId);
  const filter: teams.TeamListFilter = { organizationId, titleContains: query.title };
  // Without `listTeams` (guests), the list holds only the teams the caller is in.
  if (!organizationPolicy.can(access.role, 'listTeams')) filter.memberId = ctx.actor.userId;
  if (query.owner !== undefined) {
    const owner = await members.findMembership(ctx.db, organizationId, query.owner);
    if (!owner) throw new InvalidError('owner', 'no such member in this organization');
    // Admins can manage every team; others the teams they own.
    if (owner.role !== 'admin') filter.ownedBy = query.owner;
  }
  const result = await keysetPage({
    page,
    limit,
    arity: 1,
    rows: (after, take) => teams.listTeams(ctx.db, filter, ctx.actor.userId, after, take),
    count: () => teams.countTeams(ctx.db, filter),
    key: (row) => [row.id],
  });
  return { ...result, role: access.role };
}

/** Resolves user ids or e-mails to members of the organization; `field` names the list in errors. */
async function resolveMembers(db: Executor, organizationId: string, refs: string[], field: string, strict: boolean) {
  const found = await teams.membersByRefs(db, organizationId, refs);
  const byRef = new Map<string, string>();
  for (const row of found) {
    byRef.set(row.user_id, row.user_id);
    byRef.set(row.email.toLowerCase(), row.user_id);
  }
  const ids: string[] = [];
  refs.forEach((ref, index) => {
    const id = byRef.get(ref) ?? byRef.get(ref.toLowerCase());
    if (id) ids.push(id);
    else if (strict) throw new InvalidError(`${field}.${index}`, `${ref} is not a member of this organization`);
  });
  return ids;
}

export async function createTeam(ctx: ServiceContext, organizationId: string, body: CreateTeamBody) {
  return transaction(ctx.db, async (tx) => {
    const access = await requireOrgAccess(tx, ctx.actor, organizationId);
    requireOrgRole(access, organizationPolicy.needs('admin'), 'create teams');
    const ids = await resolveMembers(tx, organizationId, body.members ?? [], 'members', true);
    const now = nowIso();
    const team: teams.TeamRow = {
      id: newId(),
      organization_id: organizationId,
      title: body.title,
      created_at: now,
      updated_at: now,
    };
    await teams.insertTeam(tx, team);
    for (const userId of new Set(ids)) {
      await teams.addTeamMemberIfAbsent(tx, {
        team_id: team.id,
        organization_id: organizationId,
        user_id: userId,
        role: 'member',
        added_at: now,
      });
    }
    return { row: (await teams.findTeamView(tx, organizationId, team.id, ctx.actor.userId))!, role: access.role };
  });
}

export async function getTeam(ctx: ServiceContext, organizationId: string, teamId: string) {
  const access = await requireOrgAccess(ctx.db, ctx.actor, organizationId);
  return { row: await loadTeam(ctx.db, ctx, access, teamId), role: access.role };
}

export async function renameTeam(ctx: ServiceContext, organizationId: string, teamId: string, title: string) {
  return transaction(ctx.db, async (tx) => {
    const access = await requireOrgAccess(tx, ctx.actor, organizationId);
    requireTeamAdmin(access, await loadTeam(tx, ctx, access, teamId), 'rename it');
    await teams.renameTeam(tx, teamId, title, nowIso());
    return { row: await loadTeam(tx, ctx, access, teamId), role: access.role };
  });
}

/** False when there was no such team (the route answers 204). Its grants and memberships go with it. */
export async function deleteTeam(ctx: ServiceContext, organizationId: string, teamId: string): Promise<boolean> {
  return transaction(ctx.db, async (tx) => {
    const access = await requireOrgAccess(tx, ctx.actor, organizationId);
    const team = await teams.findTeamView(tx, organizationId, teamId, ctx.actor.userId);
    if (!team) return false;
    requireTeamAdmin(access, team, 'delete it');
    return teams.deleteTeam(tx, organizationId, teamId);
  });
}

export async function listTeamMembers(
  ctx: ServiceContext,
  organizationId: string,
  teamId: string,
  page: string | undefined,
  limit: number,
) {
  const access = await requireOrgAccess(ctx.db, ctx.actor, organizationId);
  await loadTeam(ctx.db, ctx, access, teamId);
  return keysetPage({
    page,
    limit,
    arity: 1,
    rows: (after, take) => teams.listTeamMembers(ctx.db, teamId, after, take),
    count: () => teams.countTeamMembers(ctx.db, teamId),
    key: (row) => [row.user_id],
  });
}

/**
 * Bulk change: `add` (ids or e-mails of members) join as members, `memberships` set roles (adding those not
 * in yet), then `remove` takes people out, so a user in both `add` and `remove` ends up removed. All or nothing.
 */
export async function updateTeamMembers(
  ctx: ServiceContext,
  organizationId: string,
  teamId: string,
  body: UpdateTeamMembersBody,
): Promise<void> {
  await transaction(ctx.db, async (tx) => {
    const access = await requireOrgAccess(tx, ctx.actor, organizationId);
    requireTeamAdmin(access, await loadTeam(tx, ctx, access, teamId), 'change its members');
    await teams.lockTeam(tx, teamId);
    const now = nowIso();
    const row = (userId: string, role: TeamMemberRole) => ({
      team_id: teamId,
      organization_id: organizationId,
      user_id: userId,
      role,
      added_at: now,
    });
    for (const userId of await resolveMembers(tx, organizationId, body.add ?? [], 'add', true)) {
      await teams.addTeamMemberIfAbsent(tx, row(userId, 'member'));
    }
    const entries = Object.entries(body.memberships ?? {});
    const known = new Set(
      await resolveMembers(
        tx,
        organizationId,
        entries.map(([userId]) => userId),
        'memberships',
        false,
      ),
    );
    for (const [userId, { role }] of entries) {
      if (!known.has(userId)) throw new InvalidError(`memberships.${userId}`, 'is not a member of this organization');
      await teams.upsertTeamMember(tx, row(userId, role));
    }
    for (const userId of await resolveMembers(tx, organizationId, body.remove ?? [], 'remove', false)) {
      await teams.removeTeamMember(tx, teamId, userId);
    }
  });
}

/** Adds a member of the organization to the team with `role`, or changes their role. */
export async function putTeamMember(
  ctx: ServiceContext,
  organizationId: string,
  teamId: string,
  userId: string,
  role: TeamMemberRole,
): Promise<void> {
  await transaction(ctx.db, async (tx) => {
    const access = await requireOrgAccess(tx, ctx.actor, organizationId);
    requireTeamAdmin(access, await loadTeam(tx, ctx, access, teamId), 'change its members');
    if (!(await members.findMembership(tx, organizationId, userId))) throw new NotFoundError('Member not found');
    await teams.upsertTeamMember(tx, {
      team_id: teamId,
      organization_id: organizationId,
      user_id: userId,
      role,
      added_at: nowIso(),
    });
  });
}

/** Takes a user out of the team (its admins, or the user leaving). False when they were not in it. */
export async function removeTeamMember(
  ctx: ServiceContext,
  organizationId: string,
  teamId: string,
  userId: string,
): Promise<boolean> {
  return transaction(ctx.db, async (tx) => {
    const access = await requireOrgAccess(tx, ctx.actor, organizationId);
    const team = await loadTeam(tx, ctx, access, teamId);
    if (userId !== ctx.actor.userId) requireTeamAdmin(access, team, 'remove its members');
    return teams.removeTeamMember(tx, teamId, userId);
  });
}
