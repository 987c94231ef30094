import type { ServiceContext } from '../context.js';
import { transaction, type Executor, type Tx } from '../../storage/db.js';
import { newId } from '../../lib/ids.js';
import { nowIso } from '../../lib/time.js';
import { recordEvent } from '../notifications/events.js';
import * as crs from '../../storage/repos/change-requests.js';
import { loadSpace } from '../spaces/service.js';
import { exportAfterMerge } from '../git-sync/queue.js';
import { wakeJobQueues } from '../../jobs/queue.js';
import { ConflictError, ForbiddenError, InvalidError, MERGE_CONFLICTS, NotFoundError } from '../errors.js';
import { findRevision, insertRevision, updateSpace } from '../../storage/repos/spaces.js';
import type { SpaceRow } from '../../storage/repos/spaces.js';
import {
  mergeRevisions,
  splitResolutions,
  type Conflict,
  type MergeOutcome,
  type Resolution,
} from '../content/merge-revisions.js';
import { revisionOfSpace, type PreparedRevision } from '../content/model.js';
import * as links from '../links/hooks.js';
import { applySearchUpdate, prepareSearchUpdate, type SearchUpdate } from '../search/indexer.js';
import { changeRequestBase, loadChangeRequest } from './service.js';
import { isMerged, type ChangeRequestAction } from './policy.js';
import { queueSpaceEvent } from '../integrations/delivery.js';

/**
 * Merging, three ways: a change request into its space (mergeChangeRequest), and the space's current content into
 * the change request (updateFromSpace), whose conflicts are kept on it (PendingUpdate) until each is resolved
 * (resolveConflict). Both hold the space's and the change request's row locks, and both are computed ahead of
 * their transaction when they can be (mergeAhead, updateAhead), reading only, so that a large merge does not hold
 * the locks while it is computed.
 */

/** An update from the space that found conflicts, kept on the change request until they are resolved. */
export interface PendingUpdate {
  base: string;
  ours: string;
  theirs: string;
  conflicts: Conflict[];
}

export function pendingUpdate(cr: { pending_update: string | null }): PendingUpdate | null {
  return cr.pending_update ? (JSON.parse(cr.pending_update) as PendingUpdate) : null;
}

async function writeRevision(
  tx: Executor,
  spaceId: string,
  outcome: MergeOutcome | PreparedRevision,
  meta: { type: 'update' | 'merge'; parents: string[]; userId: string; changeRequestId: string; variables: string },
): Promise<string> {
  const roots = 'writer' in outcome ? await outcome.writer.commit() : await outcome.write(tx);
  const id = newId();
  await insertRevision(tx, {
    id,
    space_id: spaceId,
    parents: JSON.stringify(meta.parents),
    type: meta.type,
    created_by: meta.userId,
    created_at: nowIso(),
    pages_root: roots.pages_root,
    files_root: roots.files_root,
    variables: meta.variables,
    change_request_id: meta.changeRequestId,
  });
  return id;
}

/** Loads the change request and its space for a merge or an update, holding both row locks. */
async function lockForMerge(
  tx: Executor,
  ctx: ServiceContext,
  spaceId: string,
  idOrNumber: string,
  may: ChangeRequestAction,
  action: string,
) {
  const found = await loadChangeRequest(tx, ctx, spaceId, idOrNumber, may, action);
  await crs.lockSpace(tx, spaceId);
  await crs.updateChangeRequest(tx, found.cr.id, { id: found.cr.id });
  const { row: space, level } = await loadSpace(tx, ctx, spaceId, may, action);
  const cr = (await crs.findChangeRequest(tx, spaceId, found.cr.id))!;
  if (space.edit_mode === 'locked')
    throw new ForbiddenError('The space is locked: change requests cannot be merged or updated');
  if (space.deleted_at) throw new ConflictError('The space is in the trash: restore it first');
  if (isMerged(cr)) throw new ConflictError('The change request is already merged');
  return { space, level, cr };
}

/**
 * Brings the space's current content into the change request (`update`). Clean: a new revision of type update
 * and `result: update`. Conflicting: nothing changes but the conflicts are stored (`result: conflicts`); once
 * each has a resolution (resolveConflict), the update applies.
 */
export async function updateFromSpace(ctx: ServiceContext, spaceId: string, idOrNumber: string) {
  const early = await updateAhead(ctx, spaceId, idOrNumber);
  return transaction(ctx.db, async (tx) => {
    const { space, level, cr } = await lockForMerge(tx, ctx, spaceId, idOrNumber, 'edit', 'update it');
    const result = await runUpdate(tx, ctx, space, cr, early);
    return { space, level, cr: (await crs.findChangeRequest(tx, spaceId, cr.id))!, ...result };
  });
}

/** Resolutions given for this same update (the space and the change request unchanged); a different one starts afresh. */
function keptResolutions(cr: { pending_update: string | null }, oursId: string, theirsId: string) {
  const previous = pendingUpdate(cr);
  const resolutions = new Map<string, Resolution>();
  if (previous && previous.ours === oursId && previous.theirs === theirsId) {
    for (const c of previous.conflicts) if (c.resolution) resolutions.set(c.id, c.resolution);
  }
  return resolutions;
}

async function runUpdate(
  tx: Executor,
  ctx: ServiceContext,
  space: SpaceRow,
  cr: crs.ChangeRequestView,
  early?: MergeAhead,
) {
  const baseId = changeRequestBase(cr);
  if (baseId === space.revision_id) return { result: 'update' as const, revision: cr.revision_id };
  const [base, ours, theirs] = await Promise.all([
    revisionOfSpace(tx, space.id, baseId),
    revisionOfSpace(tx, space.id, space.revision_id),
    revisionOfSpace(tx, space.id, cr.revision_id),
  ]);
  const resolutions = keptResolutions(cr, ours.id, theirs.id);
  // The update computed ahead stands if it was of these very revisions and resolutions; else it is made here.
  const ahead = early && early.key === mergeKey(base.id, ours.id, theirs.id, resolutions) ? early : undefined;
  const outcome = ahead ?? (await mergeRevisions(tx, base, ours, theirs, resolutions));
  if (outcome.conflicts.some((c) => !c.resolution)) {
    const pending: PendingUpdate = { base: base.id, ours: ours.id, theirs: theirs.id, conflicts: outcome.conflicts };
    const before = pendingUpdate(cr);
    await crs.updateChangeRequest(tx, cr.id, { pending_update: JSON.stringify(pending), updated_at: nowIso() });
    // Told once per set of conflicts, not at every look at the same ones.
    if (!before || before.ours !== ours.id || before.theirs !== theirs.id) {
      await recordEvent(tx, {
        kind: 'change-request-conflict',
        organizationId: space.organization_id,
        spaceId: space.id,
        changeRequestId: cr.id,
        actorId: ctx.actor.userId,
      });
    }
    return { result: 'conflicts' as const, revision: cr.revision_id };
  }
  const revision = await writeRevision(tx, space.id, ahead ? ahead.prepared : (outcome as MergeOutcome), {
    type: 'update',
    parents: [theirs.id, ours.id],
    userId: ctx.actor.userId,
    changeRequestId: cr.id,
    variables: theirs.variables,
  });
  await crs.updateChangeRequest(tx, cr.id, {
    revision_id: revision,
    revision_merged_ancestor: ours.id,
    pending_update: null,
    updated_at: nowIso(),
  });
  await links.changeRequestRevisionChanged(tx, cr, theirs, (await findRevision(tx, revision))!, ctx.urls.base);
  return { result: 'update' as const, revision };
}

/**
 * Resolves one conflict of the pending update: keep the space's version, the change request's, or new text.
 * When it was the last one, the update applies at once.
 */
export async function resolveConflict(
  ctx: ServiceContext,
  spaceId: string,
  idOrNumber: string,
  conflictId: string,
  resolution: Resolution,
) {
  const early = await updateAhead(ctx, spaceId, idOrNumber, { conflictId, resolution });
  return transaction(ctx.db, async (tx) => {
    const { space, level, cr } = await lockForMerge(tx, ctx, spaceId, idOrNumber, 'edit', 'resolve its conflicts');
    const pending = pendingUpdate(cr);
    const target = pending?.conflicts.find((c) => c.id === conflictId);
    if (!pending || !target) throw new NotFoundError('Conflict not found');
    if ('markdown' in resolution && target.kind !== 'block' && target.kind !== 'page-field') {
      throw new InvalidError('markdown', 'only block and page-field conflicts take new text');
    }
    if (pending.ours !== space.revision_id || pending.theirs !== cr.revision_id) {
      throw new ConflictError('The space or the change request changed since the update: run the update again');
    }
    target.resolution = resolution;
    await crs.updateChangeRequest(tx, cr.id, { pending_update: JSON.stringify(pending) });
    const refreshed = (await crs.findChangeRequest(tx, spaceId, cr.id))!;
    const result = pending.conflicts.every((c) => c.resolution)
      ? await runUpdate(tx, ctx, space, refreshed, early)
      : { result: 'conflicts' as const, revision: cr.revision_id };
    return { space, level, cr: (await crs.findChangeRequest(tx, spaceId, cr.id))!, ...result };
  });
}

/**
 * Merges the change request into the space. Needs the review level, an unlocked space and no unresolved
 * conflicts (409, nothing changes). When the space moved on since the change request's base, the merge is
 * three-way; any conflict then is a 409 asking for an update first. Two merges on one space queue on the
 * space's row lock, so the second merges against the first's result and neither is lost.
 */
export async function mergeChangeRequest(
  ctx: ServiceContext,
  spaceId: string,
  idOrNumber: string,
  inTx?: Tx,
  /** `fromGit`: the merge of a Git import, which pushes nothing back to the repository it came from. */
  options: { fromGit?: boolean } = {},
) {
  // Inside a caller's transaction, nothing is computed ahead: what the transaction wrote is not visible outside it.
  const early = inTx ? undefined : await mergeAhead(ctx, spaceId, idOrNumber);
  const run = async (tx: Tx) => {
    const { space, level, cr } = await lockForMerge(tx, ctx, spaceId, idOrNumber, 'merge', 'merge it');
    if (cr.status === 'archived') throw new ConflictError('The change request is archived: reopen it first');
    const pending = pendingUpdate(cr);
    if (pending?.conflicts.some((c) => !c.resolution)) {
      throw new ConflictError(
        'The change request has unresolved conflicts: resolve them before merging',
        MERGE_CONFLICTS,
      );
    }
    const [base, ours, theirs] = await Promise.all([
      revisionOfSpace(tx, spaceId, changeRequestBase(cr)),
      revisionOfSpace(tx, spaceId, space.revision_id),
      revisionOfSpace(tx, spaceId, cr.revision_id),
    ]);
    // The merge computed ahead stands if it was of these very three revisions; else it is made again here.
    const ahead = early && early.key === mergeKey(base.id, ours.id, theirs.id) ? early : undefined;
    const fresh = ahead ? undefined : await mergeRevisions(tx, base, ours, theirs);
    const conflicts = ahead ? ahead.conflicts : fresh!.conflicts;
    if (conflicts.length) {
      throw new ConflictError(
        `The space changed since this change request was last updated, and ${conflicts.length} change(s) conflict: update the change request and resolve them first`,
        MERGE_CONFLICTS,
      );
    }
    const revision = await writeRevision(tx, spaceId, ahead ? ahead.prepared : fresh!, {
      type: 'merge',
      parents: [ours.id, theirs.id],
      userId: ctx.actor.userId,
      changeRequestId: cr.id,
      variables: theirs.variables,
    });
    const now = nowIso();
    await updateSpace(tx, spaceId, { revision_id: revision, updated_at: now });
    // The space's links follow its content in this same transaction; the change request's are the space's now.
    await links.spaceRevisionChanged(tx, spaceId, ours, (await findRevision(tx, revision))!, ctx.urls.base);
    await links.changeRequestClosed(tx, cr.id);
    // The search index follows the space's content in this same transaction (rows only, when computed ahead).
    await applySearchUpdate(tx, spaceId, await revisionOfSpace(tx, spaceId, revision), early?.search);
    await crs.updateChangeRequest(tx, cr.id, {
      status: 'merged',
      revision_merged: revision,
      merged_by: ctx.actor.userId,
      merged_at: now,
      pending_update: null,
      updated_at: now,
    });
    await crs.refreshSpaceCounters(tx, spaceId);
    await recordEvent(tx, {
      kind: 'change-request-merged',
      organizationId: space.organization_id,
      spaceId,
      changeRequestId: cr.id,
      actorId: ctx.actor.userId,
    });
    // The integrations installed on the space hear that its content changed (delivered once this commits).
    await queueSpaceEvent(tx, space, { type: 'space_content_updated', revisionId: revision });
    // A space synced both ways with Git pushes what was merged (git-sync/queue.ts), queued in this transaction.
    if (!options.fromGit && (await exportAfterMerge(tx, spaceId, cr, ctx.actor.userId))) queuedExport = true;
    const merged = { ...space, revision_id: revision };
    return {
      space: merged,
      level,
      cr: (await crs.findChangeRequest(tx, spaceId, cr.id))!,
      result: 'merge' as const,
      revision,
    };
  };
  let queuedExport = false;
  if (inTx) return run(inTx);
  const result = await transaction(ctx.db, run);
  if (queuedExport) wakeJobQueues();
  return result;
}

/** What a merge depends on: its three revisions and the resolutions of its conflicts. */
const mergeKey = (base: string, ours: string, theirs: string, resolutions = new Map<string, Resolution>()) =>
  JSON.stringify([base, ours, theirs, [...resolutions].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))]);

/** A merge computed before its transaction (see mergeAhead). */
interface MergeAhead {
  key: string;
  conflicts: Conflict[];
  prepared: PreparedRevision;
  /** The search index's update for a merge (see search/indexer.ts). */
  search?: SearchUpdate;
}

async function computeAhead(
  ctx: ServiceContext,
  spaceId: string,
  ids: { base: string; ours: string; theirs: string },
  resolutions = new Map<string, Resolution>(),
): Promise<MergeAhead> {
  const [base, ours, theirs] = await Promise.all([
    revisionOfSpace(ctx.db, spaceId, ids.base),
    revisionOfSpace(ctx.db, spaceId, ids.ours),
    revisionOfSpace(ctx.db, spaceId, ids.theirs),
  ]);
  const split = await splitResolutions(resolutions);
  const outcome = await mergeRevisions(ctx.db, base, ours, theirs, resolutions, split);
  const prepared = await outcome.writer.prepare();
  if (!outcome.conflicts.length) await prepared.storeAhead(ctx.db);
  return { key: mergeKey(base.id, ours.id, theirs.id, resolutions), conflicts: outcome.conflicts, prepared };
}

/**
 * The update of a change request from its space (with `resolved`, once that conflict is resolved too) computed
 * before its transaction, like mergeAhead; undefined when there is nothing to compute ahead, or it cannot go
 * ahead (the transaction then says why).
 */
async function updateAhead(
  ctx: ServiceContext,
  spaceId: string,
  idOrNumber: string,
  resolved?: { conflictId: string; resolution: Resolution },
): Promise<MergeAhead | undefined> {
  try {
    const { space, cr } = await loadChangeRequest(ctx.db, ctx, spaceId, idOrNumber, 'edit', 'update it');
    const base = changeRequestBase(cr);
    if (cr.status === 'merged' || space.edit_mode === 'locked' || space.deleted_at || base === space.revision_id) {
      return undefined;
    }
    const resolutions = keptResolutions(cr, space.revision_id, cr.revision_id);
    if (resolved) {
      const pending = pendingUpdate(cr);
      if (!pending?.conflicts.some((c) => c.id === resolved.conflictId)) return undefined;
      resolutions.set(resolved.conflictId, resolved.resolution);
      if (!pending.conflicts.every((c) => resolutions.has(c.id))) return undefined;
    }
    return await computeAhead(ctx, spaceId, { base, ours: space.revision_id, theirs: cr.revision_id }, resolutions);
  } catch {
    return undefined; // the transaction finds the same failure, and reports it
  }
}

/**
 * The merge of a change request computed before its transaction, reading only (revisions and content objects
 * never change once written). A large merge (an import of thousands of pages) takes a while to compute; inside
 * the transaction it would hold the space's lock and, on SQLite, the one connection every request needs. The
 * transaction uses the result only if the three revisions are still the same; undefined when the merge cannot
 * go ahead (the transaction then says why).
 */
async function mergeAhead(ctx: ServiceContext, spaceId: string, idOrNumber: string) {
  try {
    const { space, cr } = await loadChangeRequest(ctx.db, ctx, spaceId, idOrNumber, 'merge', 'merge it');
    if (cr.status === 'merged' || cr.status === 'archived' || space.edit_mode === 'locked' || space.deleted_at) {
      return undefined;
    }
    const ahead = await computeAhead(ctx, spaceId, {
      base: changeRequestBase(cr),
      ours: space.revision_id,
      theirs: cr.revision_id,
    });
    if (!ahead.conflicts.length) ahead.search = await prepareSearchUpdate(ctx.db, spaceId, ahead.prepared);
    return ahead;
  } catch {
    return undefined; // the transaction finds the same failure, and reports it
  }
}
