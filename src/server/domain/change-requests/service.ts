import type { ServiceContext } from '../context.js';
import { transaction, type Executor } from '../../storage/db.js';
import { newId } from '../../lib/ids.js';
import { nowIso } from '../../lib/time.js';
import * as crs from '../../storage/repos/change-requests.js';
import { keysetPage } from '../../storage/pagination.js';
import { loadSpace } from '../spaces/service.js';
import { ConflictError, ForbiddenError, NotFoundError } from '../errors.js';
import { insertRevision } from '../../storage/repos/spaces.js';
import { RevisionReader, RevisionWriter, revisionOfSpace } from '../content/model.js';
import { applyChanges } from '../content/edit.js';
import type { ContentChange } from '../../../shared/contract/content.js';
import type { Role } from '../../../shared/contract/common.js';
import type {
  CreateChangeRequestBody,
  UpdateChangeRequestBody,
  ChangeRequestStatus,
} from '../../../shared/contract/change-requests.js';
import type { SpaceRow } from '../../storage/repos/spaces.js';

/** The revision of the space a change request was last brought up to date with: its merge base. */
export function changeRequestBase(cr: { revision_merged_ancestor: string | null; revision_initial: string }): string {
  return cr.revision_merged_ancestor ?? cr.revision_initial;
}

export interface ChangeRequestContext {
  space: SpaceRow;
  level: Role | null;
  cr: crs.ChangeRequestView;
}

/** Loads a change request of a space the caller can see, checking they hold `needed` on the space. */
export async function loadChangeRequest(
  db: Executor,
  ctx: ServiceContext,
  spaceId: string,
  idOrNumber: string,
  needed: Role,
  action: string,
): Promise<ChangeRequestContext> {
  const { row: space, level } = await loadSpace(db, ctx, spaceId, needed, action);
  const cr = await crs.findChangeRequest(db, spaceId, idOrNumber);
  if (!cr) throw new NotFoundError('Change request not found');
  return { space, level, cr };
}

export async function createChangeRequest(ctx: ServiceContext, spaceId: string, body: CreateChangeRequestBody) {
  return transaction(ctx.db, async (tx) => {
    const { row: space, level } = await loadSpace(tx, ctx, spaceId, 'edit', 'create change requests');
    if (space.deleted_at) throw new ConflictError('The space is in the trash: restore it first');
    await crs.lockSpace(tx, spaceId);
    const now = nowIso();
    const id = newId();
    await crs.insertChangeRequest(tx, {
      id,
      space_id: spaceId,
      number: await crs.nextNumber(tx, spaceId),
      status: 'open',
      subject: body.subject ?? '',
      created_by: ctx.actor.userId,
      created_at: now,
      updated_at: now,
      // It starts as a working copy of the space's current content: the same revision, nothing copied.
      revision_id: space.revision_id,
      revision_initial: space.revision_id,
      revision_merged_ancestor: null,
      revision_merged: null,
      merged_by: null,
      merged_at: null,
      comments: 0,
      pending_update: null,
    });
    await crs.refreshSpaceCounters(tx, spaceId);
    return { space, level, cr: (await crs.findChangeRequest(tx, spaceId, id))! };
  });
}

export async function getChangeRequest(ctx: ServiceContext, spaceId: string, idOrNumber: string) {
  return loadChangeRequest(ctx.db, ctx, spaceId, idOrNumber, 'read', 'view it');
}

export async function listChangeRequests(
  ctx: ServiceContext,
  spaceId: string,
  query: { status: ChangeRequestStatus; contributor?: string; orderBy: 'updatedAt' | 'createdAt' },
  page: string | undefined,
  limit: number,
) {
  const { row: space, level } = await loadSpace(ctx.db, ctx, spaceId, 'read', 'view its change requests');
  const filter: crs.ChangeRequestFilter = { spaceId, status: query.status, contributor: query.contributor };
  const column = query.orderBy === 'createdAt' ? 'created_at' : 'updated_at';
  const result = await keysetPage({
    page,
    limit,
    arity: 2,
    rows: (after, take) => crs.listChangeRequests(ctx.db, filter, column, after, take),
    count: () => crs.countChangeRequests(ctx.db, filter),
    key: (row) => [row[column], row.id],
  });
  return { ...result, space, level };
}

/** Subject and status (draft, open, archived). Needs the edit level; a merged change request is final. */
export async function updateChangeRequest(
  ctx: ServiceContext,
  spaceId: string,
  idOrNumber: string,
  body: UpdateChangeRequestBody,
) {
  return transaction(ctx.db, async (tx) => {
    const { space, level, cr } = await loadChangeRequest(tx, ctx, spaceId, idOrNumber, 'edit', 'change it');
    if (cr.status === 'merged') throw new ConflictError('The change request is merged: it can no longer change');
    const patch: Partial<crs.ChangeRequestRow> = { updated_at: nowIso() };
    if (body.subject !== undefined) patch.subject = body.subject;
    if (body.status !== undefined) patch.status = body.status;
    await crs.updateChangeRequest(tx, cr.id, patch);
    if (body.status !== undefined) await crs.refreshSpaceCounters(tx, spaceId);
    return { space, level, cr: (await crs.findChangeRequest(tx, spaceId, cr.id))! };
  });
}

/**
 * Applies a batch of operations to the change request's content as one new revision. `ifMatch` (the revision
 * the client based its edit on) must still be the change request's current one, else 409 and nothing changes.
 * Concurrent batches on one change request queue on its row lock; each builds on the other's result.
 */
export async function updateContent(
  ctx: ServiceContext,
  spaceId: string,
  idOrNumber: string,
  changes: ContentChange[],
  ifMatch: string | undefined,
) {
  return transaction(ctx.db, async (tx) => {
    const found = await loadChangeRequest(tx, ctx, spaceId, idOrNumber, 'edit', 'edit its content');
    await crs.updateChangeRequest(tx, found.cr.id, { id: found.cr.id });
    const cr = (await crs.findChangeRequest(tx, spaceId, found.cr.id))!;
    const { space, level } = found;
    if (space.edit_mode === 'locked') throw new ForbiddenError('The space is locked: its content cannot be edited');
    if (space.deleted_at) throw new ConflictError('The space is in the trash: restore it first');
    if (cr.status === 'merged' || cr.status === 'archived') {
      throw new ConflictError(`The change request is ${cr.status}: its content can no longer change`);
    }
    if (ifMatch !== undefined && ifMatch !== cr.revision_id) {
      throw new ConflictError(
        `The change request has changed since revision ${ifMatch} (it is now at ${cr.revision_id}): reload and edit again`,
      );
    }
    const head = await revisionOfSpace(tx, spaceId, cr.revision_id);
    const writer = new RevisionWriter(new RevisionReader(tx, head));
    const result = await applyChanges(
      {
        db: tx,
        writer,
        revisionReader: async (revisionId) =>
          new RevisionReader(tx, await revisionOfSpace(tx, spaceId, revisionId ?? changeRequestBase(cr))),
      },
      changes,
    );
    const roots = await writer.commit();
    const now = nowIso();
    const revisionId = newId();
    await insertRevision(tx, {
      id: revisionId,
      space_id: spaceId,
      parents: JSON.stringify([head.id]),
      type: 'edits',
      created_by: ctx.actor.userId,
      created_at: now,
      pages_root: roots.pages_root,
      files_root: roots.files_root,
      variables: head.variables,
      change_request_id: cr.id,
    });
    await crs.updateChangeRequest(tx, cr.id, { revision_id: revisionId, updated_at: now });
    return { space, level, cr: (await crs.findChangeRequest(tx, spaceId, cr.id))!, ...result };
  });
}
