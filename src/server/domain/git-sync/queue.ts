import type { Executor } from '../../storage/db.js';
import * as repo from '../../storage/repos/git-sync.js';
import { enqueueJob } from '../../storage/repos/jobs.js';
import { newId } from '../../lib/ids.js';
import { nowIso } from '../../lib/time.js';

/** The queue's job kind of Git syncs: one run each, one at a time per space across every process. */
export const GIT_SYNC_JOB = 'git-sync';

/** What a run's job holds: the run; everything else is read from the sync when it runs. */
export interface GitSyncJobPayload {
  spaceId: string;
  runId: string;
  force?: boolean;
  standalone?: boolean;
}

/**
 * Queues a sync of the space: a run row and its job, in the caller's transaction. A trigger while a run of the
 * same direction is still queued joins it (a burst of pushes or merges is one sync).
 */
export async function queueGitSync(
  db: Executor,
  spaceId: string,
  options: {
    direction: 'import' | 'export';
    trigger: repo.GitSyncRunRow['trigger'];
    ref: string;
    userId: string;
    force?: boolean;
    standalone?: boolean;
    message?: string;
  },
): Promise<repo.GitSyncRunRow> {
  // A standalone import is a change request of its own: it joins nothing.
  const queued = options.standalone ? undefined : await repo.findQueuedGitSyncRun(db, spaceId, options.direction);
  if (queued) {
    // The latest merge names the commit.
    if (options.message) await repo.updateGitSyncRun(db, queued.id, { message: options.message, updated_at: nowIso() });
    return queued;
  }
  const now = nowIso();
  const run: repo.GitSyncRunRow = {
    id: newId(),
    space_id: spaceId,
    direction: options.direction,
    trigger: options.trigger,
    status: 'queued',
    ref: options.ref,
    commit_oid: null,
    revision_id: null,
    change_request_id: null,
    message: options.message ?? null,
    error: null,
    created_by: options.userId,
    created_at: now,
    updated_at: now,
  };
  await repo.insertGitSyncRun(db, run);
  const payload: GitSyncJobPayload = {
    spaceId,
    runId: run.id,
    ...(options.force ? { force: true } : {}),
    ...(options.standalone ? { standalone: true } : {}),
  };
  await enqueueJob(
    db,
    { id: newId(), kind: GIT_SYNC_JOB, key: run.id, payload: JSON.stringify(payload), group_key: `git:${spaceId}` },
    now,
  );
  return run;
}

/** GitBook's commit message of a merged change request: `GITBOOK-<number>: <subject>`. */
export function mergeCommitMessage(number: number, subject: string): string {
  return `GITBOOK-${number}: ${subject.trim() || 'No subject'}`;
}

/**
 * After a merge (in its transaction): a space synced both ways pushes the merged content, named after the
 * change request and written by whoever merged it. Merges made by a Git import itself push nothing.
 */
export async function exportAfterMerge(
  db: Executor,
  spaceId: string,
  cr: { id: string; number: number; subject: string },
  userId: string,
): Promise<boolean> {
  const sync = await repo.findGitSync(db, spaceId);
  if (!sync) return false;
  // The change request an import left with its conflicts, merged: the repository's side is in the space now.
  if (sync.conflict_change_request_id === cr.id) {
    await repo.updateGitSync(db, spaceId, { conflict_change_request_id: null, updated_at: nowIso() });
  }
  if (sync.direction !== 'two-way') return false;
  await queueGitSync(db, spaceId, {
    direction: 'export',
    trigger: 'merge',
    ref: `refs/heads/${sync.branch}`,
    userId,
    message: mergeCommitMessage(cr.number, cr.subject),
  });
  return true;
}
