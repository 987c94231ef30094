import type { Executor } from '../db.js';
import type { CommentsTable, CommentRepliesTable } from '../schema.js';
import { MEMBER_COLUMNS, MEMBER_COUNTERS } from './members.js';

/** Where a thread lives: a change request of a space, or the space itself (`changeRequestId` null). */
export interface CommentScope {
  spaceId: string;
  changeRequestId: string | null;
}

/**
 * The columns of a comment that the API shows: its space and change request are those of the query. Its author and
 * resolver are read apart (usersByIds), once per user rather than once per comment: a list of comments read each
 * column of every row, and reading them was most of the cost of polling a review screen.
 */
const COMMENT_COLUMNS = [
  'c.id',
  'c.author_id',
  'c.page_id',
  'c.node_id',
  'c.node_preview',
  'c.revision_id',
  'c.body',
  'c.replies',
  'c.posted_at',
  'c.edited_at',
  'c.resolved_at',
  'c.resolved_by',
] as const;
export type CommentRow = Omit<CommentsTable, 'space_id' | 'change_request_id'>;

/** The comments of a scope (with an author, as every comment has). */
function threads(db: Executor, scope: CommentScope) {
  const q = db
    .selectFrom('comments as c')
    .innerJoin('users as author', 'author.id', 'c.author_id')
    .where('c.space_id', '=', scope.spaceId);
  return scope.changeRequestId === null
    ? q.where('c.change_request_id', 'is', null)
    : q.where('c.change_request_id', '=', scope.changeRequestId);
}

export function findComment(db: Executor, scope: CommentScope, id: string): Promise<CommentRow | undefined> {
  return threads(db, scope).select(COMMENT_COLUMNS).where('c.id', '=', id).executeTakeFirst();
}

/** Takes the comment's row lock (PostgreSQL) so read-then-write changes to one thread happen one at a time. */
export async function lockComment(db: Executor, id: string): Promise<void> {
  await db.updateTable('comments').set({ id }).where('id', '=', id).execute();
}

export async function insertComment(db: Executor, row: CommentsTable): Promise<void> {
  await db.insertInto('comments').values(row).execute();
}

export async function updateComment(
  db: Executor,
  id: string,
  set: Partial<Pick<CommentsTable, 'body' | 'edited_at'>>,
): Promise<void> {
  await db.updateTable('comments').set(set).where('id', '=', id).execute();
}

/** Marks the comment resolved or open; true when its status changed (a no-op answers false). */
export async function setResolved(
  db: Executor,
  id: string,
  resolved: { at: string; by: string } | null,
): Promise<boolean> {
  const r = resolved
    ? await db
        .updateTable('comments')
        .set({ resolved_at: resolved.at, resolved_by: resolved.by })
        .where('id', '=', id)
        .where('resolved_at', 'is', null)
        .executeTakeFirst()
    : await db
        .updateTable('comments')
        .set({ resolved_at: null, resolved_by: null })
        .where('id', '=', id)
        .where('resolved_at', 'is not', null)
        .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

/** Deletes the comment (its replies and reactions go with it); answers whether it was open, or undefined if absent. */
export async function deleteComment(db: Executor, id: string): Promise<{ wasOpen: boolean } | undefined> {
  const row = await db.selectFrom('comments').select('resolved_at').where('id', '=', id).executeTakeFirst();
  if (!row) return undefined;
  const r = await db.deleteFrom('comments').where('id', '=', id).executeTakeFirst();
  return Number(r.numDeletedRows) > 0 ? { wasOpen: row.resolved_at === null } : undefined;
}

export async function adjustReplies(db: Executor, id: string, delta: number): Promise<void> {
  await db
    .updateTable('comments')
    .set((eb) => ({ replies: eb('replies', '+', delta) }))
    .where('id', '=', id)
    .execute();
}

/**
 * Records a write to the threads of the change request, or of the space: raises their version, which polls name in
 * their ETag. Every write to a comment, a reply or a reaction calls it first in its transaction; on PostgreSQL it
 * takes the row lock of the change request (or space) before any comment's, so writes to one scope's threads are
 * ordered and always lock in the same order.
 */
export async function touchThreads(db: Executor, scope: CommentScope): Promise<void> {
  if (scope.changeRequestId === null) {
    await db
      .updateTable('spaces')
      .set((eb) => ({ threads_version: eb('threads_version', '+', 1) }))
      .where('id', '=', scope.spaceId)
      .execute();
  } else {
    await db
      .updateTable('change_requests')
      .set((eb) => ({ threads_version: eb('threads_version', '+', 1) }))
      .where('id', '=', scope.changeRequestId)
      .execute();
  }
}

/** Keeps the `comments` counter (open threads) of the change request, or of the space, in step. */
export async function adjustOpenCount(db: Executor, scope: CommentScope, delta: number): Promise<void> {
  if (delta === 0) return;
  if (scope.changeRequestId === null) {
    await db
      .updateTable('spaces')
      .set((eb) => ({ comments: eb('comments', '+', delta) }))
      .where('id', '=', scope.spaceId)
      .execute();
  } else {
    await db
      .updateTable('change_requests')
      .set((eb) => ({ comments: eb('comments', '+', delta) }))
      .where('id', '=', scope.changeRequestId)
      .execute();
  }
}

export interface CommentFilter {
  status: 'all' | 'open' | 'resolved';
  pageId?: string;
  authors?: string[];
}

function filtered(db: Executor, scope: CommentScope, f: CommentFilter) {
  let q = threads(db, scope);
  if (f.status === 'open') q = q.where('c.resolved_at', 'is', null);
  if (f.status === 'resolved') q = q.where('c.resolved_at', 'is not', null);
  if (f.pageId !== undefined) q = q.where('c.page_id', '=', f.pageId);
  if (f.authors !== undefined) q = q.where('c.author_id', 'in', f.authors.length ? f.authors : ['']);
  return q;
}

export function listComments(
  db: Executor,
  scope: CommentScope,
  f: CommentFilter,
  order: 'asc' | 'desc',
  after: string[] | undefined,
  take: number,
): Promise<CommentRow[]> {
  let q = filtered(db, scope, f)
    .select(COMMENT_COLUMNS)
    .orderBy('c.posted_at', order)
    .orderBy('c.id', order)
    .limit(take);
  if (after) {
    q = q.where((eb) =>
      eb(eb.refTuple('c.posted_at', 'c.id'), order === 'asc' ? '>' : '<', eb.tuple(after[0]!, after[1]!)),
    );
  }
  return q.execute();
}

export async function countComments(db: Executor, scope: CommentScope, f: CommentFilter): Promise<number> {
  const r = await filtered(db, scope, f)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

// Replies

function repliesWithUsers(db: Executor) {
  return db
    .selectFrom('comment_replies as r')
    .innerJoin('users as author', 'author.id', 'r.author_id')
    .selectAll('r')
    .select(['author.display_name as author_name', 'author.email as author_email', 'author.photo_url as author_photo']);
}
export type ReplyView = NonNullable<Awaited<ReturnType<typeof findReply>>>;

export function findReply(db: Executor, commentId: string, id: string) {
  return repliesWithUsers(db).where('r.comment_id', '=', commentId).where('r.id', '=', id).executeTakeFirst();
}

export async function insertReply(db: Executor, row: CommentRepliesTable): Promise<void> {
  await db.insertInto('comment_replies').values(row).execute();
}

export async function updateReply(
  db: Executor,
  id: string,
  set: Pick<CommentRepliesTable, 'body' | 'edited_at'>,
): Promise<void> {
  await db.updateTable('comment_replies').set(set).where('id', '=', id).execute();
}

export async function deleteReply(db: Executor, commentId: string, id: string): Promise<boolean> {
  await db.deleteFrom('comment_reactions').where('target_id', '=', id).execute();
  const r = await db
    .deleteFrom('comment_replies')
    .where('comment_id', '=', commentId)
    .where('id', '=', id)
    .executeTakeFirst();
  return Number(r.numDeletedRows) > 0;
}

export function listReplies(db: Executor, commentId: string, after: string[] | undefined, take: number) {
  let q = repliesWithUsers(db).where('r.comment_id', '=', commentId).orderBy('r.posted_at').orderBy('r.id').limit(take);
  if (after) q = q.where((eb) => eb(eb.refTuple('r.posted_at', 'r.id'), '>', eb.tuple(after[0]!, after[1]!)));
  return q.execute();
}

/** The distinct users who replied to each comment, with the time of their first reply (users: usersByIds). */
export function repliersOf(db: Executor, commentIds: string[]) {
  if (commentIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('comment_replies as r')
    .innerJoin('users as u', 'u.id', 'r.author_id')
    .select((eb) => ['r.comment_id', 'r.author_id', eb.fn.min('r.posted_at').as('first_at')])
    .where('r.comment_id', 'in', commentIds)
    .groupBy(['r.comment_id', 'r.author_id'])
    .execute();
}

// Reactions

/** Reactions to comments or replies, oldest first (users: usersByIds). */
export function reactionsOf(db: Executor, targetIds: string[]) {
  if (targetIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('comment_reactions as x')
    .innerJoin('users as u', 'u.id', 'x.user_id')
    .select(['x.target_id', 'x.emoji', 'x.reacted_at', 'x.user_id'])
    .where('x.target_id', 'in', targetIds)
    .orderBy('x.reacted_at')
    .orderBy('x.emoji')
    .orderBy('x.user_id')
    .execute();
}
export type ReactionRow = Awaited<ReturnType<typeof reactionsOf>>[number];

export async function addReaction(
  db: Executor,
  row: { comment_id: string; target_id: string; user_id: string; emoji: string; reacted_at: string },
): Promise<void> {
  await db
    .insertInto('comment_reactions')
    .values(row)
    .onConflict((oc) => oc.columns(['target_id', 'emoji', 'user_id']).doNothing())
    .execute();
}

export async function removeReaction(db: Executor, targetId: string, userId: string, emoji: string): Promise<void> {
  await db
    .deleteFrom('comment_reactions')
    .where('target_id', '=', targetId)
    .where('user_id', '=', userId)
    .where('emoji', '=', emoji)
    .execute();
}

// Commenters

/** Members of the organization who posted a comment or a reply in the scope, by user id. */
export function listCommenters(
  db: Executor,
  organizationId: string,
  scope: CommentScope,
  after: string[] | undefined,
  take: number,
) {
  let q = commentersQuery(db, organizationId, scope)
    .select(MEMBER_COLUMNS)
    .select(MEMBER_COUNTERS)
    .orderBy('members.user_id')
    .limit(take);
  if (after) q = q.where('members.user_id', '>', after[0]!);
  return q.execute();
}

export async function countCommenters(db: Executor, organizationId: string, scope: CommentScope): Promise<number> {
  const r = await commentersQuery(db, organizationId, scope)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

function commentersQuery(db: Executor, organizationId: string, scope: CommentScope) {
  const threads = (eb: Executor) => {
    const q = eb.selectFrom('comments').select('id').where('space_id', '=', scope.spaceId);
    return scope.changeRequestId === null
      ? q.where('change_request_id', 'is', null)
      : q.where('change_request_id', '=', scope.changeRequestId);
  };
  const authors = threads(db)
    .clearSelect()
    .select('author_id')
    .union(db.selectFrom('comment_replies').select('author_id').where('comment_id', 'in', threads(db)));
  return db
    .selectFrom('members')
    .innerJoin('users', 'users.id', 'members.user_id')
    .where('members.organization_id', '=', organizationId)
    .where('members.user_id', 'in', authors);
}
