import type { Executor } from '../db.js';
import type {
  GitSyncCommitsTable,
  GitSyncPathsTable,
  GitSyncRedirectsTable,
  GitSyncRunsTable,
  GitSyncsTable,
} from '../schema.js';

export type GitSyncRow = GitSyncsTable;
export type GitSyncPathRow = GitSyncPathsTable;
export type GitSyncRunRow = GitSyncRunsTable;
export type GitSyncCommitRow = GitSyncCommitsTable;
export type GitSyncRedirectRow = GitSyncRedirectsTable;

const INSERT_BATCH = 200;
const IN_BATCH = 500;

export function findGitSync(db: Executor, spaceId: string) {
  return db.selectFrom('git_syncs').selectAll().where('space_id', '=', spaceId).executeTakeFirst();
}

/**
 * The space's sync, its row locked until the transaction ends: a no-op write takes the row lock on PostgreSQL
 * and SQLite's one writer lock alike (as change-requests' lockSpace does).
 */
export async function lockGitSync(db: Executor, spaceId: string) {
  await db.updateTable('git_syncs').set({ space_id: spaceId }).where('space_id', '=', spaceId).execute();
  return findGitSync(db, spaceId);
}

export async function insertGitSync(db: Executor, row: GitSyncRow): Promise<void> {
  await db.insertInto('git_syncs').values(row).execute();
}

export async function updateGitSync(
  db: Executor,
  spaceId: string,
  patch: Partial<Omit<GitSyncRow, 'space_id'>>,
): Promise<void> {
  await db.updateTable('git_syncs').set(patch).where('space_id', '=', spaceId).execute();
}

/** Removes the space's sync and its path map (its runs and commits stay: they are its history). */
export async function deleteGitSync(db: Executor, spaceId: string): Promise<void> {
  await db.deleteFrom('git_sync_paths').where('space_id', '=', spaceId).execute();
  await db.deleteFrom('git_syncs').where('space_id', '=', spaceId).execute();
}

/** Syncs that look at their branch every so often, whose last look is older than their interval. */
export function listDuePolls(db: Executor, limit: number) {
  return db
    .selectFrom('git_syncs')
    .select(['space_id', 'poll_minutes', 'polled_at'])
    .where('poll_minutes', '>', 0)
    .orderBy('polled_at')
    .limit(limit)
    .execute();
}

/** Takes the sync's next look at its branch: true when `polled_at` was still `seen` (no other process took it). */
export async function claimGitSyncPoll(
  db: Executor,
  spaceId: string,
  seen: string | null,
  now: string,
): Promise<boolean> {
  let q = db.updateTable('git_syncs').set({ polled_at: now }).where('space_id', '=', spaceId);
  q = seen === null ? q.where('polled_at', 'is', null) : q.where('polled_at', '=', seen);
  const result = await q.executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export async function findGitSyncPath(db: Executor, spaceId: string, kind: GitSyncPathRow['kind'], objectId: string) {
  const row = await db
    .selectFrom('git_sync_paths')
    .select('path')
    .where('space_id', '=', spaceId)
    .where('object_id', '=', objectId)
    .where('kind', '=', kind)
    .executeTakeFirst();
  return row?.path;
}

export function listGitSyncPaths(db: Executor, spaceId: string) {
  return db.selectFrom('git_sync_paths').selectAll().where('space_id', '=', spaceId).execute();
}

/** The redirects of the space's `.gitbook.yaml` made `rows` (the few that changed are written). */
export async function replaceGitSyncRedirects(db: Executor, spaceId: string, rows: GitSyncRedirectRow[]) {
  const current = new Map(
    (await db.selectFrom('git_sync_redirects').selectAll().where('space_id', '=', spaceId).execute()).map((r) => [
      r.source,
      r.page_id,
    ]),
  );
  const next = new Map(rows.map((r) => [r.source, r.page_id]));
  const stale = [...current].filter(([source, page]) => next.get(source) !== page).map(([source]) => source);
  for (let i = 0; i < stale.length; i += IN_BATCH) {
    await db
      .deleteFrom('git_sync_redirects')
      .where('space_id', '=', spaceId)
      .where('source', 'in', stale.slice(i, i + IN_BATCH))
      .execute();
  }
  const added = rows.filter((r) => current.get(r.source) !== r.page_id);
  for (let i = 0; i < added.length; i += IN_BATCH) {
    await db
      .insertInto('git_sync_redirects')
      .values(added.slice(i, i + IN_BATCH))
      .execute();
  }
}

export async function findGitSyncRedirect(db: Executor, spaceId: string, source: string) {
  const row = await db
    .selectFrom('git_sync_redirects')
    .select('page_id')
    .where('space_id', '=', spaceId)
    .where('source', '=', source)
    .executeTakeFirst();
  return row?.page_id;
}

/** The path map's rows of the objects named. */
export async function listGitSyncPathsOf(db: Executor, spaceId: string, objectIds: string[]) {
  const rows: GitSyncPathRow[] = [];
  for (let i = 0; i < objectIds.length; i += IN_BATCH) {
    rows.push(
      ...(await db
        .selectFrom('git_sync_paths')
        .selectAll()
        .where('space_id', '=', spaceId)
        .where('object_id', 'in', objectIds.slice(i, i + IN_BATCH))
        .execute()),
    );
  }
  return rows;
}

/**
 * The path map of the space made `rows`: only the paths that differ are written (a one-file sync writes one row,
 * whatever the repository's size).
 */
export async function replaceGitSyncPaths(db: Executor, spaceId: string, rows: GitSyncPathRow[]): Promise<void> {
  const current = new Map((await listGitSyncPaths(db, spaceId)).map((r) => [r.path, r]));
  const next = new Map(rows.map((r) => [r.path, r]));
  const gone = [...current.keys()].filter((path) => !next.has(path));
  const changed = rows.filter((r) => {
    const was = current.get(r.path);
    return !was || was.kind !== r.kind || was.object_id !== r.object_id || was.blob_oid !== r.blob_oid;
  });
  const stale = [...gone, ...changed.filter((r) => current.has(r.path)).map((r) => r.path)];
  for (let i = 0; i < stale.length; i += IN_BATCH) {
    await db
      .deleteFrom('git_sync_paths')
      .where('space_id', '=', spaceId)
      .where('path', 'in', stale.slice(i, i + IN_BATCH))
      .execute();
  }
  for (let i = 0; i < changed.length; i += INSERT_BATCH) {
    await db
      .insertInto('git_sync_paths')
      .values(changed.slice(i, i + INSERT_BATCH).map((r) => ({ ...r, space_id: spaceId })))
      .execute();
  }
}

export async function upsertGitSyncCommit(db: Executor, row: GitSyncCommitRow): Promise<void> {
  await db
    .insertInto('git_sync_commits')
    .values(row)
    .onConflict((oc) =>
      oc.columns(['space_id', 'revision_id']).doUpdateSet({
        oid: row.oid,
        message: row.message,
        ref: row.ref,
        url: row.url,
        created_by_gitbook: row.created_by_gitbook,
      }),
    )
    .execute();
}

/** The commits behind these revisions of the space. */
export async function findGitSyncCommits(db: Executor, spaceId: string, revisionIds: string[]) {
  const found: GitSyncCommitRow[] = [];
  for (let i = 0; i < revisionIds.length; i += IN_BATCH) {
    const batch = revisionIds.slice(i, i + IN_BATCH);
    if (!batch.length) continue;
    found.push(
      ...(await db
        .selectFrom('git_sync_commits')
        .selectAll()
        .where('space_id', '=', spaceId)
        .where('revision_id', 'in', batch)
        .execute()),
    );
  }
  return found;
}

/** Whether the space has a commit we pushed with this id (a webhook about our own push changes nothing). */
export async function isOwnCommit(db: Executor, spaceId: string, oid: string): Promise<boolean> {
  const row = await db
    .selectFrom('git_sync_commits')
    .select('oid')
    .where('space_id', '=', spaceId)
    .where('oid', '=', oid)
    .where('created_by_gitbook', '=', 1)
    .executeTakeFirst();
  return row !== undefined;
}

export async function insertGitSyncRun(db: Executor, row: GitSyncRunRow): Promise<void> {
  await db.insertInto('git_sync_runs').values(row).execute();
}

export async function updateGitSyncRun(
  db: Executor,
  id: string,
  patch: Partial<Omit<GitSyncRunRow, 'id' | 'space_id'>>,
): Promise<void> {
  await db.updateTable('git_sync_runs').set(patch).where('id', '=', id).execute();
}

export function findGitSyncRun(db: Executor, spaceId: string, id: string) {
  return db
    .selectFrom('git_sync_runs')
    .selectAll()
    .where('space_id', '=', spaceId)
    .where('id', '=', id)
    .executeTakeFirst();
}

/** A run of this direction not started yet: a second trigger joins it instead of queuing another. */
export function findQueuedGitSyncRun(db: Executor, spaceId: string, direction: GitSyncRunRow['direction']) {
  return db
    .selectFrom('git_sync_runs')
    .selectAll()
    .where('space_id', '=', spaceId)
    .where('direction', '=', direction)
    .where('status', '=', 'queued')
    .executeTakeFirst();
}

/** Newest first, keyset-paginated on (created_at, id). */
export function listGitSyncRuns(db: Executor, spaceId: string, after: string[] | undefined, take: number) {
  let q = db
    .selectFrom('git_sync_runs')
    .selectAll()
    .where('space_id', '=', spaceId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(take);
  if (after) q = q.where((eb) => eb(eb.refTuple('created_at', 'id'), '<', eb.tuple(after[0]!, after[1]!)));
  return q.execute();
}

export async function countGitSyncRuns(db: Executor, spaceId: string): Promise<number> {
  const row = await db
    .selectFrom('git_sync_runs')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('space_id', '=', spaceId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export function findGitSyncRunById(db: Executor, id: string) {
  return db.selectFrom('git_sync_runs').selectAll().where('id', '=', id).executeTakeFirst();
}
