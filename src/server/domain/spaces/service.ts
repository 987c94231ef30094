import type { ServiceContext } from '../context.js';
import { transaction, type Executor } from '../../storage/db.js';
import { newId } from '../../lib/ids.js';
import { nowIso, isoMinus, DAY_MS } from '../../lib/time.js';
import * as spaces from '../../storage/repos/spaces.js';
import * as collections from '../../storage/repos/collections.js';
import { keysetPage } from '../../storage/pagination.js';
import {
  enforceSso,
  spaceLevel,
  requireLevel,
  requireOrgAccess,
  requireOrgRole,
  orgAccess,
  loadOrgLevels,
  type OrgAccess,
  requireCreateIn,
} from '../permissions/resolver.js';
import { asRole } from '../permissions/roles.js';
import { organizationPolicy } from '../organizations/policy.js';
import { spacePolicy, type SpaceAction } from './policy.js';
import { endPosition, movedPosition } from '../content/positions.js';
import { ConflictError, GoneError, InvalidError, NotFoundError, PreconditionFailedError } from '../errors.js';
import type { CreateSpaceBody, UpdateSpaceBody } from '../../../shared/contract/spaces.js';
import { SPACE_TITLE_MAX, SPACE_TRASH_DAYS } from '../../../shared/contract/spaces.js';
import { lockOrganization } from '../../storage/repos/organizations.js';
import { removeGrantsOn } from '../../storage/repos/grants.js';
import type { MoveBody } from '../../../shared/contract/collections.js';
import type { Role } from '../../../shared/contract/common.js';
import { indexNewSpace } from '../search/indexer.js';
import { spaceDuplicated } from '../links/hooks.js';

export interface SpaceView {
  row: spaces.SpaceRow;
  level: Role | null;
}

const TRASH_MS = SPACE_TRASH_DAYS * DAY_MS;

/**
 * The space the request's authentication read (see PrefetchedSpace), once, and only outside a transaction: a
 * transaction reads the space itself, from its own snapshot and under its own locks.
 */
function takePrefetched(db: Executor, ctx: ServiceContext, id: string) {
  const prefetched = ctx.prefetched;
  if (!prefetched || prefetched.taken || db !== ctx.db || prefetched.spaceId !== id) return null;
  prefetched.taken = true;
  return prefetched;
}

/** Loads a space the caller can see (404 otherwise) and checks the space policy lets them do `may`. */
export async function loadSpace(db: Executor, ctx: ServiceContext, id: string, may: SpaceAction, action: string) {
  const prefetched = takePrefetched(db, ctx, id);
  const found = prefetched ? prefetched.found : await spaces.findSpaceForUser(db, id, ctx.actor.userId);
  if (!found) throw new NotFoundError('Space not found');
  const { row, membership } = found;
  const access: OrgAccess | null =
    membership && !membership.disabled
      ? { organizationId: row.organization_id, role: asRole(membership.role), membership }
      : null;
  // The same enforced-SSO rule as orgAccess: this lookup builds the caller's access itself, in one query.
  if (access) await enforceSso(db, ctx.actor, row.organization_id, access.role, found.orgSso || !!membership!.sso);
  const { level } = await spaceLevel(db, ctx.actor, row, access);
  requireLevel(level, spacePolicy.needs(may), 'Space', action);
  return { row, level, access: access! };
}

/** Inserts a new space with its first revision: empty, or holding the same content as `from` (shared). */
/** Like loadSpace, after taking the organization's lock (see loadCollectionLocked). */
async function loadSpaceLocked(db: Executor, ctx: ServiceContext, id: string, may: SpaceAction, action: string) {
  const found = await spaces.findSpace(db, id);
  if (found) await lockOrganization(db, found.organization_id);
  return loadSpace(db, ctx, id, may, action);
}

async function insertSpaceWithRevision(
  db: Executor,
  row: spaces.SpaceRow,
  userId: string,
  from?: { id: string; space_id: string; pages_root: string | null; files_root: string | null; variables: string },
) {
  row.revision_id = newId();
  await spaces.insertSpace(db, row);
  await spaces.insertRevision(db, {
    id: row.revision_id,
    space_id: row.id,
    parents: JSON.stringify(from ? [from.id] : []),
    type: 'edits',
    created_by: userId,
    created_at: row.created_at,
    pages_root: from?.pages_root ?? null,
    files_root: from?.files_root ?? null,
    variables: from?.variables ?? '{}',
    change_request_id: null,
  });
  // Searchable at once: a duplicate's rows are copied from its source's.
  await indexNewSpace(
    db,
    row.id,
    { id: row.revision_id, pages_root: from?.pages_root ?? null },
    from && { spaceId: from.space_id, revisionId: from.id },
  );
}

export async function createSpace(ctx: ServiceContext, organizationId: string, body: CreateSpaceBody) {
  return transaction(ctx.db, async (tx) => {
    const access = await requireOrgAccess(tx, ctx.actor, organizationId);
    await lockOrganization(tx, organizationId);
    const parentId = body.parent ?? null;
    await requireCreateIn(tx, ctx.actor, access, parentId, 'parent');
    const now = nowIso();
    const id = newId();
    const row: spaces.SpaceRow = {
      id,
      organization_id: organizationId,
      parent_id: parentId,
      title: body.title ?? 'Untitled',
      emoji: body.emoji ?? '',
      visibility: 'private',
      edit_mode: body.editMode ?? 'live',
      default_level: 'inherit',
      position: await endPosition(tx, organizationId, parentId),
      revision_id: '',
      comments: 0,
      change_requests: 0,
      change_requests_open: 0,
      change_requests_draft: 0,
      created_by: ctx.actor.userId,
      created_at: now,
      updated_at: now,
      deleted_at: null,
    };
    await insertSpaceWithRevision(tx, row, ctx.actor.userId);
    const { level } = await spaceLevel(tx, ctx.actor, row, access);
    return { row, level };
  });
}

export async function getSpace(ctx: ServiceContext, id: string): Promise<SpaceView> {
  const { row, level } = await loadSpace(ctx.db, ctx, id, 'view', 'view it');
  return { row, level };
}

export async function updateSpace(ctx: ServiceContext, id: string, body: UpdateSpaceBody) {
  return transaction(ctx.db, async (tx) => {
    const { row, level, access } = await loadSpace(tx, ctx, id, 'edit', 'change it');
    if (row.deleted_at) throw new ConflictError('The space is in the trash: restore it first');
    const settings = body.visibility !== undefined || body.editMode !== undefined || body.defaultLevel !== undefined;
    if (settings)
      requireLevel(level, spacePolicy.needs('admin'), 'Space', 'change its visibility, edit mode or default level');
    if (body.visibility === 'in-collection' && !row.parent_id) {
      throw new InvalidError('visibility', 'in-collection is only for spaces inside a collection');
    }
    const patch: Partial<spaces.SpaceRow> = { updated_at: nowIso() };
    if (body.title !== undefined) patch.title = body.title;
    if (body.emoji !== undefined) patch.emoji = body.emoji ?? '';
    if (body.visibility !== undefined) patch.visibility = body.visibility;
    if (body.editMode !== undefined) patch.edit_mode = body.editMode;
    if (body.defaultLevel !== undefined) patch.default_level = body.defaultLevel;
    await spaces.updateSpace(tx, id, patch);
    const updated = (await spaces.findSpace(tx, id))!;
    return { row: updated, level: (await spaceLevel(tx, ctx.actor, updated, access)).level };
  });
}

/** Moves the space to the trash. False when it was already there (the route answers 204 then). */
export async function deleteSpace(ctx: ServiceContext, id: string): Promise<boolean> {
  return transaction(ctx.db, async (tx) => {
    const { row } = await loadSpace(tx, ctx, id, 'admin', 'delete it');
    if (row.deleted_at) return false;
    const now = nowIso();
    await spaces.updateSpace(tx, id, { deleted_at: now, updated_at: now });
    return true;
  });
}

export async function restoreSpace(ctx: ServiceContext, id: string) {
  return transaction(ctx.db, async (tx) => {
    const { row, access } = await loadSpaceLocked(tx, ctx, id, 'admin', 'restore it');
    if (!row.deleted_at) throw new ConflictError('The space is not deleted');
    if (Date.parse(row.deleted_at) < Date.now() - TRASH_MS) {
      throw new GoneError(`The space was deleted more than ${SPACE_TRASH_DAYS} days ago and can no longer be restored`);
    }
    // Its collection may have been deleted meanwhile: then it comes back at the top of the organization.
    const parentId = row.parent_id && (await collections.findCollection(tx, row.parent_id)) ? row.parent_id : null;
    const now = nowIso();
    await spaces.updateSpace(tx, id, {
      deleted_at: null,
      parent_id: parentId,
      visibility: parentId === null && row.visibility === 'in-collection' ? 'private' : row.visibility,
      position: await endPosition(tx, row.organization_id, parentId),
      updated_at: now,
    });
    const updated = (await spaces.findSpace(tx, id))!;
    return { row: updated, level: (await spaceLevel(tx, ctx.actor, updated, access)).level };
  });
}

export async function duplicateSpace(ctx: ServiceContext, id: string) {
  return transaction(ctx.db, async (tx) => {
    const { row, access } = await loadSpaceLocked(tx, ctx, id, 'view', 'duplicate it');
    if (row.deleted_at) throw new ConflictError('The space is in the trash: restore it first');
    await requireCreateIn(tx, ctx.actor, access, row.parent_id, 'parent');
    const now = nowIso();
    const copyId = newId();
    const siblings = await endPosition(tx, row.organization_id, row.parent_id);
    const copy: spaces.SpaceRow = {
      ...row,
      id: copyId,
      title: `${row.title} (copy)`.slice(0, SPACE_TITLE_MAX),
      position: siblings,
      revision_id: '',
      comments: 0,
      change_requests: 0,
      change_requests_open: 0,
      change_requests_draft: 0,
      created_by: ctx.actor.userId,
      created_at: now,
      updated_at: now,
      deleted_at: null,
    };
    // The copy shares the original's content: revisions are immutable, so nothing needs copying.
    const source = await spaces.findRevision(tx, row.revision_id);
    await insertSpaceWithRevision(tx, copy, ctx.actor.userId, source);
    await spaceDuplicated(
      tx,
      { spaceId: row.id, revisionId: row.revision_id },
      { spaceId: copy.id, revision: (await spaces.findRevision(tx, copy.revision_id))! },
      ctx.urls.base,
    );
    return { row: copy, level: (await spaceLevel(tx, ctx.actor, copy, access)).level };
  });
}

export async function moveSpace(ctx: ServiceContext, id: string, body: MoveBody) {
  return transaction(ctx.db, async (tx) => {
    const { row, access } = await loadSpaceLocked(tx, ctx, id, 'admin', 'move it');
    if (row.deleted_at) throw new ConflictError('The space is in the trash: restore it first');
    const parentId = body.parent === undefined ? row.parent_id : body.parent;
    if (parentId !== row.parent_id) await requireCreateIn(tx, ctx.actor, access, parentId, 'parent');
    const position = await movedPosition(
      tx,
      row.organization_id,
      { type: 'space', id, parentId: row.parent_id },
      parentId,
      body.position,
    );
    const patch: Partial<spaces.SpaceRow> = { parent_id: parentId, position, updated_at: nowIso() };
    if (parentId === null && row.visibility === 'in-collection') patch.visibility = 'private';
    await spaces.updateSpace(tx, id, patch);
    const updated = (await spaces.findSpace(tx, id))!;
    return { row: updated, level: (await spaceLevel(tx, ctx.actor, updated, access)).level };
  });
}

export async function transferSpace(ctx: ServiceContext, id: string, organizationId: string) {
  return transaction(ctx.db, async (tx) => {
    const { row } = await loadSpaceLocked(tx, ctx, id, 'admin', 'transfer it');
    await lockOrganization(tx, organizationId);
    const target = await orgAccess(tx, ctx.actor, organizationId);
    if (!target) throw new InvalidError('organization', 'no such organization');
    if (organizationId === row.organization_id) throw new ConflictError('The space is already in this organization');
    if (row.deleted_at)
      throw new PreconditionFailedError('A space in the trash cannot be transferred: restore it first');
    requireOrgRole(target, organizationPolicy.needs('createContent'), 'transfer content into the target organization');
    // Grants name users and teams of the organization the space leaves.
    await removeGrantsOn(tx, 'space', [id]);
    await spaces.updateSpace(tx, id, {
      organization_id: organizationId,
      parent_id: null,
      position: await endPosition(tx, organizationId, null),
      visibility: row.visibility === 'in-collection' ? 'private' : row.visibility,
      updated_at: nowIso(),
    });
    const updated = (await spaces.findSpace(tx, id))!;
    return { row: updated, level: (await spaceLevel(tx, ctx.actor, updated, target)).level };
  });
}

/**
 * The filter that lists exactly the spaces of an organization the caller may see (404 for outsiders): in SQL, so
 * that lists and searches apply the resolver's rules in their own query.
 */
export async function readableSpaces(ctx: ServiceContext, organizationId: string, options: { deleted: boolean }) {
  const { deleted } = options;
  const access = await requireOrgAccess(ctx.db, ctx.actor, organizationId);
  const isAdmin = access.role === 'admin';
  const levels = await loadOrgLevels(ctx.db, access, ctx.actor, () =>
    collections.allOrgCollections(ctx.db, organizationId),
  );
  const filter: spaces.SpaceListFilter = {
    organizationId,
    deleted,
    deletedAfter: deleted ? isoMinus(TRASH_MS) : undefined,
    visibility: isAdmin
      ? undefined
      : {
          memberDefaults: access.role !== null,
          orgRoleVisible: spacePolicy.can(levels.inherited(null), 'view'),
          visibleInheritParents: levels.visibleInheritParents(),
          createdBy: organizationPolicy.can(access.role, 'createContent') ? ctx.actor.userId : undefined,
          grantedTo: { userId: ctx.actor.userId, organizationId },
          grantedParents: levels.grantedParents(),
        },
  };
  return { access, levels, filter };
}

/** Spaces of an organization the caller may see; with `deleted`, the trash (deleted within the window). */
export async function listSpaces(
  ctx: ServiceContext,
  organizationId: string,
  options: { deleted: boolean },
  page: string | undefined,
  limit: number,
) {
  const { levels, filter } = await readableSpaces(ctx, organizationId, options);
  const result = await keysetPage({
    page,
    limit,
    arity: 2,
    rows: (after, take) => spaces.listSpaces(ctx.db, filter, after, take),
    count: () => spaces.countSpaces(ctx.db, filter),
    key: (r) => [r.position, r.id],
  });
  return { ...result, items: result.items.map((row) => ({ row, level: levels.space(row) })) };
}
