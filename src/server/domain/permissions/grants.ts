import type { ServiceContext } from '../context.js';
import { transaction, type Executor } from '../../storage/db.js';
import * as grants from '../../storage/repos/grants.js';
import * as members from '../../storage/repos/members.js';
import * as teams from '../../storage/repos/teams.js';
import { keysetPage } from '../../storage/pagination.js';
import { newId } from '../../lib/ids.js';
import { nowIso } from '../../lib/time.js';
import { loadSpace } from '../spaces/service.js';
import { loadCollection } from '../collections/service.js';
import type { SpaceAction } from '../spaces/policy.js';
import type { CollectionAction } from '../collections/policy.js';
import { InvalidError, NotFoundError } from '../errors.js';
import type { RoleOrGuest } from '../../../shared/contract/common.js';
import type { InviteToContentBody } from '../../../shared/contract/permissions.js';

/**
 * Explicit grants on a space or a collection: a role given to a user or to a team of the organization. Anyone
 * who sees the item sees who was granted what; the item's admin level is needed to change it. How grants
 * combine with default levels is the resolver's business (resolver.ts, rule 6).
 */
export type Target = grants.GrantTarget;

/** `may` is asked of the space policy or of the collection policy, as the target is. */
async function loadTarget(
  db: Executor,
  ctx: ServiceContext,
  target: Target,
  may: SpaceAction & CollectionAction,
  action: string,
) {
  const { row, access } =
    target.kind === 'space'
      ? await loadSpace(db, ctx, target.id, may, action)
      : await loadCollection(db, ctx, target.id, may, action);
  return { organizationId: row.organization_id, role: access.role };
}

async function setGrant(
  tx: Executor,
  organizationId: string,
  target: Target,
  who: { userId: string } | { teamId: string },
  role: RoleOrGuest,
): Promise<void> {
  if (role === null) {
    await grants.deleteGrant(tx, target, who);
    return;
  }
  await grants.upsertGrant(
    tx,
    target,
    {
      id: newId(),
      organization_id: organizationId,
      user_id: 'userId' in who ? who.userId : null,
      team_id: 'teamId' in who ? who.teamId : null,
      role,
    },
    nowIso(),
  );
}

/** Gives `role` (or, with null, takes grants away) to members and teams of the organization. All or nothing. */
export async function invite(ctx: ServiceContext, target: Target, body: InviteToContentBody): Promise<void> {
  await transaction(ctx.db, async (tx) => {
    const { organizationId } = await loadTarget(tx, ctx, target, 'admin', 'change who can access it');
    for (const [index, userId] of (body.users ?? []).entries()) {
      if (!(await members.findMembership(tx, organizationId, userId))) {
        throw new InvalidError(`users.${index}`, 'is not a member of this organization');
      }
      await setGrant(tx, organizationId, target, { userId }, body.role);
    }
    for (const [index, teamId] of (body.teams ?? []).entries()) {
      if (!(await teams.findTeam(tx, organizationId, teamId))) {
        throw new InvalidError(`teams.${index}`, 'no such team in this organization');
      }
      await setGrant(tx, organizationId, target, { teamId }, body.role);
    }
  });
}

export async function setTeamGrant(ctx: ServiceContext, target: Target, teamId: string, role: RoleOrGuest) {
  await transaction(ctx.db, async (tx) => {
    const { organizationId } = await loadTarget(tx, ctx, target, 'admin', 'change who can access it');
    if (!(await teams.findTeam(tx, organizationId, teamId))) throw new NotFoundError('Team not found');
    await setGrant(tx, organizationId, target, { teamId }, role);
  });
}

export async function setUserGrant(ctx: ServiceContext, target: Target, userId: string, role: RoleOrGuest) {
  await transaction(ctx.db, async (tx) => {
    const { organizationId } = await loadTarget(tx, ctx, target, 'admin', 'change who can access it');
    if (!(await members.findMembership(tx, organizationId, userId))) throw new NotFoundError('Member not found');
    await setGrant(tx, organizationId, target, { userId }, role);
  });
}

/** False when there was no such grant (the route answers 204). */
export async function removeGrant(
  ctx: ServiceContext,
  target: Target,
  who: { userId: string } | { teamId: string },
): Promise<boolean> {
  return transaction(ctx.db, async (tx) => {
    await loadTarget(tx, ctx, target, 'admin', 'change who can access it');
    return grants.deleteGrant(tx, target, who);
  });
}

/** Teams granted a role on the target; `role` is the caller's organization role (for the teams' permissions). */
export async function listTeamGrants(ctx: ServiceContext, target: Target, page: string | undefined, limit: number) {
  const { role } = await loadTarget(ctx.db, ctx, target, 'view', 'view it');
  const result = await keysetPage({
    page,
    limit,
    arity: 1,
    rows: (after, take) => grants.listTeamGrants(ctx.db, target, ctx.actor.userId, after, take),
    count: () => grants.countTeamGrants(ctx.db, target),
    key: (row) => [row.id],
  });
  return { ...result, role };
}

export async function listUserGrants(ctx: ServiceContext, target: Target, page: string | undefined, limit: number) {
  await loadTarget(ctx.db, ctx, target, 'view', 'view it');
  return keysetPage({
    page,
    limit,
    arity: 1,
    rows: (after, take) => grants.listUserGrants(ctx.db, target, after, take),
    count: () => grants.countUserGrants(ctx.db, target),
    key: (row) => [row.id],
  });
}
