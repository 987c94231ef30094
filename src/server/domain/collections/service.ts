import type { ServiceContext } from '../context.js';
import { transaction, type Executor } from '../../storage/db.js';
import { newId } from '../../lib/ids.js';
import { nowIso } from '../../lib/time.js';
import * as collections from '../../storage/repos/collections.js';
import * as spaces from '../../storage/repos/spaces.js';
import { keysetPage } from '../../storage/pagination.js';
import {
  collectionLevel,
  requireLevel,
  requireOrgAccess,
  requireOrgRole,
  orgAccess,
  loadOrgLevels,
  requireCreateIn,
  requireLevelOnContents,
  type ContainedItem,
  type OrgAccess,
} from '../permissions/resolver.js';
import { organizationPolicy } from '../organizations/policy.js';
import { collectionPolicy, type CollectionAction } from './policy.js';
import { lockOrganization } from '../../storage/repos/organizations.js';
import { removeGrantsOn } from '../../storage/repos/grants.js';
import { endPosition, movedPosition } from '../content/positions.js';
import { ConflictError, InvalidError, NotFoundError } from '../errors.js';
import type { CreateCollectionBody, UpdateCollectionBody, MoveBody } from '../../../shared/contract/collections.js';
import type { Role } from '../../../shared/contract/common.js';
import { spacePolicy } from '../spaces/policy.js';

export interface CollectionView {
  row: collections.CollectionRow;
  level: Role | null;
}

/** Loads a collection the caller can see (404 otherwise) and checks the collection policy lets them do `may`. */
export async function loadCollection(
  db: Executor,
  ctx: ServiceContext,
  id: string,
  may: CollectionAction,
  action: string,
) {
  const row = await collections.findCollection(db, id);
  if (!row) throw new NotFoundError('Collection not found');
  const { level, access } = await collectionLevel(db, ctx.actor, row);
  requireLevel(level, collectionPolicy.needs(may), 'Collection', action);
  return { row, level, access: access! };
}

/**
 * Like loadCollection, but first takes the organization's lock (see lockOrganization) and reads the row after
 * it: structural changes of one organization (create, move, delete, transfer) run one at a time, so they
 * cannot interleave into cycles, orphans or equal positions.
 */
export async function loadCollectionLocked(
  db: Executor,
  ctx: ServiceContext,
  id: string,
  may: CollectionAction,
  action: string,
) {
  const found = await collections.findCollection(db, id);
  if (found) await lockOrganization(db, found.organization_id);
  return loadCollection(db, ctx, id, may, action);
}

/** What the collection holds: itself and its nested collections (by depth), and every space in them. */
interface Contents {
  ids: string[];
  tree: collections.NestedCollection[];
  spaces: Array<Awaited<ReturnType<typeof spaces.spacesInCollections>>[number]>;
}

async function contentsOf(db: Executor, id: string): Promise<Contents> {
  const tree = await collections.collectionSubtree(db, id);
  const ids = tree.map((c) => c.id);
  return { ids, tree, spaces: await spaces.spacesInCollections(db, ids) };
}

/** Every collection and space inside the collection, at any depth (not the collection itself). */
function everythingInside(id: string, contents: Contents): ContainedItem[] {
  return [
    ...contents.tree.filter((c) => c.id !== id).map((c): ContainedItem => ({ type: 'collection', ...c })),
    ...contents.spaces.map((s): ContainedItem => ({ type: 'space', ...s })),
  ];
}

/**
 * The items whose level comes from the collection's default level: `inherit` collections and spaces reached from
 * it through `inherit` collections only (an item with a level of its own stops the inheritance below it).
 */
function inheritingFrom(id: string, contents: Contents): ContainedItem[] {
  const through = new Set([id]);
  const out: ContainedItem[] = [];
  // The tree is ordered by depth, so a collection's parent is met before it.
  for (const c of contents.tree) {
    if (c.id === id || c.default_level !== 'inherit' || !c.parent_id || !through.has(c.parent_id)) continue;
    through.add(c.id);
    out.push({ type: 'collection', ...c });
  }
  for (const s of contents.spaces) {
    if (s.default_level === 'inherit' && s.parent_id && through.has(s.parent_id)) out.push({ type: 'space', ...s });
  }
  return out;
}

/**
 * Rule 7 of the resolver: an operation that moves, re-levels or deletes content inside the collection needs
 * `admin` on every item it affects. The levels of all of them come from one read of the organization's collections
 * and the caller's grants.
 */
async function requireAdminInside(
  db: Executor,
  ctx: ServiceContext,
  access: OrgAccess,
  items: ContainedItem[],
  action: string,
): Promise<void> {
  if (!items.length || access.role === 'admin') return;
  const levels = await loadOrgLevels(db, access, ctx.actor, () =>
    collections.allOrgCollections(db, access.organizationId),
  );
  requireLevelOnContents(levels, items, collectionPolicy.needs('admin'), action);
}

export async function createCollection(ctx: ServiceContext, organizationId: string, body: CreateCollectionBody) {
  return transaction(ctx.db, async (tx) => {
    const access = await requireOrgAccess(tx, ctx.actor, organizationId);
    await lockOrganization(tx, organizationId);
    const parentId = body.parent ?? null;
    await requireCreateIn(tx, ctx.actor, access, parentId, 'parent');
    const now = nowIso();
    const row: collections.CollectionRow = {
      id: newId(),
      organization_id: organizationId,
      parent_id: parentId,
      title: body.title ?? 'Untitled collection',
      description: null,
      default_level: 'inherit',
      position: await endPosition(tx, organizationId, parentId),
      created_by: ctx.actor.userId,
      created_at: now,
      updated_at: now,
    };
    await collections.insertCollection(tx, row);
    const { level } = await collectionLevel(tx, ctx.actor, row, access);
    return { row, level };
  });
}

export async function getCollection(ctx: ServiceContext, id: string): Promise<CollectionView> {
  const { row, level } = await loadCollection(ctx.db, ctx, id, 'view', 'view it');
  return { row, level };
}

export async function updateCollection(ctx: ServiceContext, id: string, body: UpdateCollectionBody) {
  return transaction(ctx.db, async (tx) => {
    const relevel = body.defaultLevel !== undefined;
    // A new default level is a structural change: under the lock, nothing moves in while the contents are checked.
    const { row: current, access } = relevel
      ? await loadCollectionLocked(tx, ctx, id, 'admin', 'change it')
      : await loadCollection(tx, ctx, id, 'admin', 'change it');
    if (relevel && body.defaultLevel !== current.default_level) {
      const affected = inheritingFrom(id, await contentsOf(tx, id));
      await requireAdminInside(tx, ctx, access, affected, 'change its default level');
    }
    const patch: Partial<collections.CollectionRow> = { updated_at: nowIso() };
    if (body.title !== undefined) patch.title = body.title;
    if (body.description !== undefined) patch.description = body.description;
    if (body.defaultLevel !== undefined) patch.default_level = body.defaultLevel;
    await collections.updateCollection(tx, id, patch);
    const row = (await collections.findCollection(tx, id))!;
    const { level } = await collectionLevel(tx, ctx.actor, row);
    return { row, level };
  });
}

/** Deletes the collection and its nested collections; every space inside goes to the trash, restorable. */
export async function deleteCollection(ctx: ServiceContext, id: string): Promise<void> {
  await transaction(ctx.db, async (tx) => {
    const { row, access } = await loadCollectionLocked(tx, ctx, id, 'admin', 'delete it');
    const contents = await contentsOf(tx, id);
    await requireAdminInside(tx, ctx, access, everythingInside(id, contents), 'delete it');
    const { ids } = contents;
    // The spaces leave their collections: what they inherited from them becomes their own default level, so
    // nobody gains (or loses) access to a space by its collection being deleted.
    const all = new Map((await collections.allOrgCollections(tx, row.organization_id)).map((c) => [c.id, c]));
    for (const collectionId of ids) {
      const inherited = inheritedDefault(all, collectionId);
      if (inherited !== 'inherit') await spaces.freezeInheritedLevel(tx, collectionId, inherited);
    }
    await spaces.trashSpacesIn(tx, ids, nowIso());
    await collections.deleteCollection(tx, id);
  });
}

/** The first default level that is not `inherit`, from the collection up; `inherit` when there is none. */
function inheritedDefault(
  all: Map<string, { parent_id: string | null; default_level: string | null }>,
  id: string,
): string | null {
  let current = all.get(id);
  for (let depth = 0; current && depth < 100; depth++) {
    if (current.default_level !== 'inherit') return current.default_level;
    current = current.parent_id ? all.get(current.parent_id) : undefined;
  }
  return 'inherit';
}

export async function listCollections(
  ctx: ServiceContext,
  organizationId: string,
  nested: boolean,
  page: string | undefined,
  limit: number,
) {
  const access = await requireOrgAccess(ctx.db, ctx.actor, organizationId);
  const levels = await loadOrgLevels(ctx.db, access, ctx.actor, () =>
    collections.allOrgCollections(ctx.db, organizationId),
  );
  const filter: collections.CollectionListFilter = {
    organizationId,
    topLevelOnly: !nested,
    visibleIds: access.role === 'admin' ? undefined : levels.visibleCollections(),
  };
  const result = await keysetPage({
    page,
    limit,
    arity: 2,
    rows: (after, take) => collections.listCollections(ctx.db, filter, after, take),
    count: () => collections.countCollections(ctx.db, filter),
    key: (row) => [row.position, row.id],
  });
  return { ...result, items: result.items.map((row) => ({ row, level: levels.collection(row.id) })) };
}

export async function listCollectionSpaces(ctx: ServiceContext, id: string, page: string | undefined, limit: number) {
  const { row, access } = await loadCollection(ctx.db, ctx, id, 'view', 'view it');
  const levels = await loadOrgLevels(ctx.db, access, ctx.actor, () =>
    collections.allOrgCollections(ctx.db, row.organization_id),
  );
  const filter: spaces.SpaceListFilter = {
    parentId: id,
    deleted: false,
    visibility:
      access.role === 'admin'
        ? undefined
        : {
            memberDefaults: access.role !== null,
            orgRoleVisible: false,
            visibleInheritParents: spacePolicy.can(levels.inherited(id), 'view') ? [id] : [],
            createdBy: organizationPolicy.can(access.role, 'createContent') ? ctx.actor.userId : undefined,
            grantedTo: { userId: ctx.actor.userId, organizationId: row.organization_id },
            grantedParents: levels.grantedParents().includes(id) ? [id] : [],
          },
  };
  const result = await keysetPage({
    page,
    limit,
    arity: 2,
    rows: (after, take) => spaces.listSpaces(ctx.db, filter, after, take),
    count: () => spaces.countSpaces(ctx.db, filter),
    key: (r) => [r.position, r.id],
  });
  return { ...result, items: result.items.map((r) => ({ row: r, level: levels.space(r) })) };
}

export async function moveCollection(ctx: ServiceContext, id: string, body: MoveBody) {
  return transaction(ctx.db, async (tx) => {
    const { row, access } = await loadCollectionLocked(tx, ctx, id, 'admin', 'move it');
    const parentId = body.parent === undefined ? row.parent_id : body.parent;
    if (parentId !== row.parent_id) {
      // Another parent changes what everything inside inherits: reordering among siblings does not.
      const contents = await contentsOf(tx, id);
      if (parentId !== null && contents.ids.includes(parentId)) {
        throw new InvalidError('parent', 'cannot move a collection into itself or a collection nested in it');
      }
      await requireCreateIn(tx, ctx.actor, access, parentId, 'parent');
      await requireAdminInside(tx, ctx, access, everythingInside(id, contents), 'move it');
    }
    const position = await movedPosition(
      tx,
      row.organization_id,
      { type: 'collection', id, parentId: row.parent_id },
      parentId,
      body.position,
    );
    await collections.updateCollection(tx, id, { parent_id: parentId, position, updated_at: nowIso() });
    const updated = (await collections.findCollection(tx, id))!;
    const { level } = await collectionLevel(tx, ctx.actor, updated, access);
    return { row: updated, level };
  });
}

/** Moves the collection, its nested collections and their spaces to another organization the caller administers. */
export async function transferCollection(ctx: ServiceContext, id: string, organizationId: string) {
  return transaction(ctx.db, async (tx) => {
    const { row, access } = await loadCollectionLocked(tx, ctx, id, 'admin', 'transfer it');
    await lockOrganization(tx, organizationId);
    const target = await orgAccess(tx, ctx.actor, organizationId);
    if (!target) throw new InvalidError('organization', 'no such organization');
    if (organizationId === row.organization_id)
      throw new ConflictError('The collection is already in this organization');
    requireOrgRole(target, organizationPolicy.needs('admin'), 'transfer content into the target organization');
    const contents = await contentsOf(tx, id);
    await requireAdminInside(tx, ctx, access, everythingInside(id, contents), 'transfer it');
    const { ids } = contents;
    // Grants name users and teams of the organization the content leaves.
    await removeGrantsOn(tx, 'collection', ids);
    await collections.moveCollectionSubtreeToOrganization(tx, ids, organizationId);
    await collections.updateCollection(tx, id, {
      parent_id: null,
      position: await endPosition(tx, organizationId, null),
      updated_at: nowIso(),
    });
    const updated = (await collections.findCollection(tx, id))!;
    const { level } = await collectionLevel(tx, ctx.actor, updated, target);
    return { row: updated, level };
  });
}
