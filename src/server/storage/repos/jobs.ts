import type { Executor } from '../db.js';
import type { JobsTable } from '../schema.js';

export type JobRow = JobsTable;

/**
 * Queues a job, or when one of this kind and key is still queued (not started), gives it the new payload: two
 * edits in a row are processed once, with the later one.
 */
export async function enqueueJob(
  db: Executor,
  job: Pick<JobRow, 'id' | 'kind' | 'key' | 'payload' | 'group_key'>,
  now: string,
  /** When it may run (a scheduled job); now by default. */
  runAfter = now,
): Promise<void> {
  const updated = await db
    .updateTable('jobs')
    .set({ payload: job.payload, run_after: runAfter, updated_at: now })
    .where('kind', '=', job.kind)
    .where('key', '=', job.key)
    .where('state', '=', 'queued')
    .executeTakeFirst();
  if (Number(updated.numUpdatedRows) > 0) return;
  await db
    .insertInto('jobs')
    .values({
      ...job,
      state: 'queued',
      attempts: 0,
      run_after: runAfter,
      locked_until: null,
      locked_by: null,
      last_error: null,
      created_at: now,
      updated_at: now,
    })
    .execute();
}

/**
 * Claims the oldest job ready to run: queued and due, or running with its lease run out (its process died). The
 * claim is one UPDATE whose condition is checked again on the row it changes, so of several processes claiming at
 * once exactly one gets each job.
 */
export async function claimJob(
  db: Executor,
  kinds: readonly string[],
  worker: string,
  now: string,
  lockedUntil: string,
): Promise<JobRow | undefined> {
  const candidate = await db
    .selectFrom('jobs')
    .select(['id'])
    .where('kind', 'in', kinds)
    .where((eb) =>
      eb.or([
        eb.and([eb('state', '=', 'queued'), eb('run_after', '<=', now)]),
        eb.and([eb('state', '=', 'running'), eb('locked_until', '<', now)]),
      ]),
    )
    // Not while another job of its group runs (leased by a live process).
    .where((eb) =>
      eb.or([
        eb('group_key', 'is', null),
        eb.not(
          eb.exists(
            eb
              .selectFrom('jobs as other')
              .select('other.id')
              .whereRef('other.group_key', '=', 'jobs.group_key')
              .whereRef('other.id', '!=', 'jobs.id')
              .where('other.state', '=', 'running')
              .where('other.locked_until', '>=', now),
          ),
        ),
      ]),
    )
    .orderBy('run_after')
    .orderBy('id')
    .limit(1)
    .executeTakeFirst();
  if (!candidate) return undefined;
  return db
    .updateTable('jobs')
    .set((eb) => ({
      state: 'running',
      locked_by: worker,
      locked_until: lockedUntil,
      attempts: eb('attempts', '+', 1),
      updated_at: now,
    }))
    .where('id', '=', candidate.id)
    .where((eb) =>
      eb.or([
        eb.and([eb('state', '=', 'queued'), eb('run_after', '<=', now)]),
        eb.and([eb('state', '=', 'running'), eb('locked_until', '<', now)]),
      ]),
    )
    .returningAll()
    .executeTakeFirst();
}

/** Extends the lease of a job this worker still holds; false when it no longer does. */
export async function extendJobLease(db: Executor, id: string, worker: string, lockedUntil: string): Promise<boolean> {
  const r = await db
    .updateTable('jobs')
    .set({ locked_until: lockedUntil })
    .where('id', '=', id)
    .where('state', '=', 'running')
    .where('locked_by', '=', worker)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

/** Ends a job this worker holds: done, failed for good, or back in the queue to be tried again later. */
export async function finishJob(
  db: Executor,
  id: string,
  worker: string,
  outcome: { state: 'done' | 'failed' } | { state: 'queued'; runAfter: string },
  error: string | null,
  now: string,
): Promise<void> {
  await db
    .updateTable('jobs')
    .set({
      state: outcome.state,
      run_after: outcome.state === 'queued' ? outcome.runAfter : now,
      locked_by: null,
      locked_until: null,
      last_error: error,
      updated_at: now,
    })
    .where('id', '=', id)
    .where('locked_by', '=', worker)
    .execute();
}

/** Removes finished jobs older than `before`. */
export async function deleteFinishedJobsBefore(db: Executor, before: string): Promise<number> {
  const r = await db
    .deleteFrom('jobs')
    .where('state', 'in', ['done', 'failed'])
    .where('updated_at', '<', before)
    .executeTakeFirst();
  return Number(r.numDeletedRows);
}

export function findJob(db: Executor, id: string) {
  return db.selectFrom('jobs').selectAll().where('id', '=', id).executeTakeFirst();
}

export function jobsOfKey(db: Executor, kind: string, key: string) {
  return db.selectFrom('jobs').selectAll().where('kind', '=', kind).where('key', '=', key).orderBy('id').execute();
}

/** The newest job of each of `keys` (of one kind): its state, for those that have one. */
export async function jobStates(db: Executor, kind: string, keys: string[]): Promise<Map<string, string>> {
  if (!keys.length) return new Map();
  const rows = await db
    .selectFrom('jobs')
    .select(['key', 'state', 'created_at'])
    .where('kind', '=', kind)
    .where('key', 'in', keys)
    .orderBy('created_at')
    .execute();
  return new Map(rows.map((r) => [r.key, r.state]));
}
