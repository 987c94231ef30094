import type { ServiceContext } from '../context.js';
import * as members from '../../storage/repos/members.js';
import { collectionChain } from '../../storage/repos/collections.js';
import { teamTitles } from '../../storage/repos/teams.js';
import { loadSpace } from '../spaces/service.js';
import { loadCollection } from '../collections/service.js';
import { spacePolicy } from '../spaces/policy.js';
import { collectionPolicy } from '../collections/policy.js';
import { ForbiddenError, NotFoundError } from '../errors.js';
import type { AccessItem, AccessReason } from '../../../shared/contract/permissions.js';
import type { Role } from '../../../shared/contract/common.js';
import { rank } from './roles.js';
import { collectionLevel, spaceLevel, type LevelReason } from './resolver.js';
import type { Target } from './grants.js';

/**
 * "Why can this member see this?": the level a member has on a space or a collection and the rules that give it.
 * The level and the rules come from the resolver the API checks every request with (spaceLevel, collectionLevel),
 * computed for that member; this only names what they point at and puts the deciding rule first.
 *
 * Who may ask: anyone who can see the item, about themselves; the item's admins, about any member of its
 * organization. Others get 403 (and those who cannot see the item 404, as everywhere).
 */
export async function explainAccess(ctx: ServiceContext, target: Target, userId: string) {
  // The member's own level, computed as their requests would be (their credential aside: enforced SSO is about
  // how they sign in, not about what the item gives them).
  const actor = { userId };
  let organizationId: string;
  let items: AccessItem[];
  let explained: () => Promise<{ level: Role | null; reasons: LevelReason[] }>;
  let callerLevel: Role | null;
  if (target.kind === 'space') {
    const { row: space, level } = await loadSpace(ctx.db, ctx, target.id, 'view', 'view it');
    organizationId = space.organization_id;
    callerLevel = level;
    explained = () => spaceLevel(ctx.db, actor, space);
    const parents = space.parent_id ? await collectionChain(ctx.db, space.parent_id) : [];
    items = [
      { object: 'space', id: space.id, title: space.title },
      ...parents.map((c) => ({ object: 'collection' as const, id: c.id, title: c.title })),
    ];
  } else {
    const { row: collection, level } = await loadCollection(ctx.db, ctx, target.id, 'view', 'view it');
    organizationId = collection.organization_id;
    callerLevel = level;
    explained = () => collectionLevel(ctx.db, actor, collection);
    items = (await collectionChain(ctx.db, collection.id)).map((c) => ({
      object: 'collection',
      id: c.id,
      title: c.title,
    }));
  }
  const mayAdmin =
    target.kind === 'space' ? spacePolicy.can(callerLevel, 'admin') : collectionPolicy.can(callerLevel, 'admin');
  if (userId !== ctx.actor.userId && !mayAdmin) {
    throw new ForbiddenError(`You need the admin level on this ${target.kind} to see why another member can access it`);
  }
  const member = await members.findMemberWithUser(ctx.db, organizationId, userId);
  if (!member) throw new NotFoundError('Member not found');
  const { level, reasons: found } = await explained();

  const teams = await teamTitles(
    ctx.db,
    organizationId,
    found.flatMap((r) => (r.rule === 'grant' && r.teamId ? [r.teamId] : [])),
  );
  const named = found.flatMap((reason): Array<{ reason: AccessReason; order: number }> => {
    const out = describe(reason, items, teams);
    return out ? [out] : [];
  });
  // Highest role first; between equal roles, the resolver's own rules before grants, and nearer items first.
  named.sort((a, b) => rank(b.reason.role) - rank(a.reason.role) || a.order - b.order);
  const reasons = named.map((n) => n.reason);
  return { member, level, reason: reasons[0]!, reasons };
}

function describe(
  reason: LevelReason,
  items: AccessItem[],
  teams: Map<string, string>,
): { reason: AccessReason; order: number } | null {
  switch (reason.rule) {
    case 'no-membership':
      // The member exists (checked above): the resolver finds no access because the membership is disabled.
      return { reason: { rule: 'disabled', role: null }, order: 0 };
    case 'organization-admin':
    case 'guest':
      return { reason: { rule: reason.rule, role: reason.role } as AccessReason, order: 0 };
    case 'creator':
      return { reason: { rule: 'creator', role: 'admin', item: items[0]! }, order: 1 };
    case 'organization-role':
      return { reason: { rule: 'organization-role', role: reason.role }, order: 2 };
    case 'default-level': {
      // The chain the resolver walked is the item then its collections, as `items` lists them.
      const item = items[reason.at];
      return item ? { reason: { rule: 'default-level', role: reason.role, item }, order: 2 } : null;
    }
    case 'grant': {
      const at = items.findIndex((i) => i.object === reason.on && i.id === reason.targetId);
      const item = items[at];
      if (!item) return null;
      const order = 10 + at * 2;
      if (reason.teamId === null) return { reason: { rule: 'user-grant', role: reason.role, item }, order };
      const title = teams.get(reason.teamId);
      if (title === undefined) return null;
      return {
        reason: { rule: 'team-grant', role: reason.role, item, team: { id: reason.teamId, title } },
        order: order + 1,
      };
    }
  }
}
