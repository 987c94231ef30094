import type { ServiceContext } from '../context.js';
import { transaction } from '../../storage/db.js';
import * as members from '../../storage/repos/members.js';
import { lockOrganization } from '../../storage/repos/organizations.js';
import { requireOrgAccess, requireOrgRole } from '../permissions/resolver.js';
import { ConflictError, ForbiddenError, NotFoundError } from '../errors.js';
import { keysetPage } from '../../storage/pagination.js';
import type { RoleOrGuest } from '../../../shared/contract/common.js';

const LAST_ADMIN = 'An organization needs at least one admin: make another member admin first';

export async function getMember(ctx: ServiceContext, organizationId: string, userId: string) {
  await requireOrgAccess(ctx.db, ctx.actor, organizationId);
  const row = await members.findMemberWithUser(ctx.db, organizationId, userId);
  if (!row) throw new NotFoundError('Member not found');
  return row;
}

/** Changes a member's role (admins only). The last admin cannot be demoted. */
export async function updateMemberRole(ctx: ServiceContext, organizationId: string, userId: string, role: RoleOrGuest) {
  return transaction(ctx.db, async (tx) => {
    const access = await requireOrgAccess(tx, ctx.actor, organizationId);
    requireOrgRole(access, 'admin', 'change member roles');
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
    if (userId !== ctx.actor.userId) requireOrgRole(access, 'admin', 'remove members');
    await lockOrganization(tx, organizationId);
    const target = await members.findMembership(tx, organizationId, userId);
    if (!target) return false;
    if (target.role === 'admin' && (await members.countAdmins(tx, organizationId)) <= 1) {
      throw new ConflictError(LAST_ADMIN);
    }
    return members.deleteMembership(tx, organizationId, userId);
  });
}

/** Members of an organization, for its members (guests do not list members). */
export async function listMembers(
  ctx: ServiceContext,
  organizationId: string,
  query: { role?: string; search?: string; order: 'asc' | 'desc' },
  page: string | undefined,
  limit: number,
) {
  const access = await requireOrgAccess(ctx.db, ctx.actor, organizationId);
  if (access.role === null) throw new ForbiddenError('Guests cannot list the members of an organization');
  const filter: members.MemberListFilter = { organizationId, role: query.role, search: query.search };
  return keysetPage({
    page,
    limit,
    arity: 2,
    rows: (after, take) => members.listMembers(ctx.db, filter, query.order, after, take),
    count: () => members.countMembers(ctx.db, filter),
    key: (row) => [row.joined_at, row.user_id],
  });
}
