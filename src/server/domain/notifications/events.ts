import { afterCommit, type Executor } from '../../storage/db.js';
import { enqueueJob } from '../../storage/repos/jobs.js';
import * as repo from '../../storage/repos/notifications.js';
import { newId } from '../../lib/ids.js';
import { nowIso } from '../../lib/time.js';
import { wakeJobQueues } from '../../jobs/queue.js';

/**
 * Recording what happened (README, "Notifications"). Each place where something worth telling happens calls
 * `recordEvent` inside its own transaction: two inserts (the event and its `notify` job) whatever the number of
 * people concerned, so the request that caused it does not wait for them; the job fans it out (fanout.ts). An
 * event exists exactly when the change it tells of was committed.
 */

export const NOTIFY_JOB = 'notify';

export type EventKind =
  | 'review-requested'
  | 'review-submitted'
  | 'comment'
  | 'reply'
  | 'change-request-merged'
  | 'change-request-conflict'
  | 'invitation-accepted'
  | 'import-failed'
  | 'git-sync-failed';

export interface EventInput {
  kind: EventKind;
  organizationId: string;
  spaceId?: string | null;
  changeRequestId?: string | null;
  pageId?: string | null;
  commentId?: string | null;
  replyId?: string | null;
  actorId?: string | null;
  /** What the kind needs besides: requested reviewers, mentioned people, a review's status, an error. */
  data?: EventData;
}

export interface EventData {
  /** review-requested: who was asked. */
  reviewers?: string[];
  /** review-submitted: approved | changes-requested. */
  status?: string;
  /** comment, reply: people mentioned (teams already expanded), beyond those already told by an earlier version. */
  mentions?: string[];
  /** An edited post: only the people it newly mentions are told. */
  mentionsOnly?: boolean;
  /** invitation-accepted: who sent it. */
  inviter?: string;
  /** import-failed, git-sync-failed: who started it, and what went wrong. */
  starter?: string;
  error?: string;
  /** A title to show (an import's space, a page). */
  title?: string;
}

export async function recordEvent(tx: Executor, e: EventInput): Promise<string> {
  const id = newId();
  const now = nowIso();
  await repo.insertEvent(tx, {
    id,
    kind: e.kind,
    organization_id: e.organizationId,
    space_id: e.spaceId ?? null,
    change_request_id: e.changeRequestId ?? null,
    page_id: e.pageId ?? null,
    comment_id: e.commentId ?? null,
    reply_id: e.replyId ?? null,
    actor_id: e.actorId ?? null,
    data: JSON.stringify(e.data ?? {}),
    created_at: now,
  });
  await enqueueJob(
    tx,
    { id: newId(), kind: NOTIFY_JOB, key: id, payload: JSON.stringify({ id }), group_key: null },
    now,
  );
  afterCommit(tx, wakeJobQueues);
  return id;
}

/** What people may follow: a change request, or a page of a space (its comments). */
export interface WatchTarget {
  kind: 'change-request' | 'page';
  id: string;
}

export const changeRequestTarget = (changeRequestId: string): WatchTarget => ({
  kind: 'change-request',
  id: changeRequestId,
});
/** A page is followed within its space: the same page id may exist in a copy of the space. */
export const pageTarget = (spaceId: string, pageId: string): WatchTarget => ({
  kind: 'page',
  id: `${spaceId}:${pageId}`,
});

/**
 * People who follow a change request (its author, reviewers, people who took part or were mentioned) or a page (who
 * created it, who commented on it) from now on. Someone who stopped following stays so (the row is kept as it is).
 */
export async function watch(
  tx: Executor,
  target: WatchTarget,
  userIds: Iterable<string>,
  reason: string,
): Promise<void> {
  const now = nowIso();
  const rows = [...new Set(userIds)].map((user_id) => ({
    target_kind: target.kind,
    target_id: target.id,
    user_id,
    reason,
    muted: 0,
    created_at: now,
  }));
  await repo.addWatchers(tx, rows);
}
