import crypto from 'node:crypto';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { toString } from 'mdast-util-to-string';
import type { ServiceContext } from '../context.js';
import { transaction, type Executor } from '../../storage/db.js';
import { newId } from '../../lib/ids.js';
import { nowIso } from '../../lib/time.js';
import { changeRequestTarget, pageTarget as followedPage, recordEvent, watch } from '../notifications/events.js';
import { mentionedPeople } from '../notifications/mentions.js';
import * as comments from '../../storage/repos/comments.js';
import type { CommentScope, CommentRow, ReplyView } from '../../storage/repos/comments.js';
import { usersByIds, type UserSummary } from '../../storage/repos/users.js';
import type { SpaceRow } from '../../storage/repos/spaces.js';
import { keysetPage } from '../../storage/pagination.js';
import { loadSpace } from '../spaces/service.js';
import { loadChangeRequest } from '../change-requests/service.js';
import { RevisionReader, revisionOfSpace, type RevisionRow } from '../content/model.js';
import { canDeletePost, canEditPost, type CommentAction } from './policy.js';
import { noneMatchHits } from '../../lib/representations.js';
import { ConflictError, ForbiddenError, InvalidError, NotFoundError } from '../errors.js';
import type { Role } from '../../../shared/contract/common.js';
import type {
  ListCommentsQuery,
  PostCommentBody,
  UpdateCommentBody,
  UpdateReplyBody,
} from '../../../shared/contract/comments.js';

/**
 * Comment threads. One code path serves the threads of a change request and those of a space: `where` names the
 * space and, for a change request's threads, the change request (by id or number).
 */
export interface ThreadsOf {
  spaceId: string;
  changeRequest?: string;
}

/** The place of a thread, checked for the caller: the space, their level there, and the content commented on. */
export interface ThreadContext {
  space: SpaceRow;
  level: Role | null;
  scope: CommentScope;
  /** The current revision of what is commented on: the change request's, or the space's. */
  revisionId: string;
  /** Path of the threads in the API, e.g. `/spaces/{id}/change-requests/{id}`. */
  apiBase: string;
  /** The threads' version, raised by every write to them (`touchThreads`). */
  version: number;
}

async function loadThreads(
  db: Executor,
  ctx: ServiceContext,
  where: ThreadsOf,
  may: CommentAction,
  action: string,
): Promise<ThreadContext> {
  if (where.changeRequest !== undefined) {
    const { space, level, cr } = await loadChangeRequest(db, ctx, where.spaceId, where.changeRequest, may, action);
    return {
      space,
      level,
      scope: { spaceId: space.id, changeRequestId: cr.id },
      revisionId: cr.revision_id,
      apiBase: `/spaces/${space.id}/change-requests/${cr.id}`,
      version: cr.threads_version ?? 0,
    };
  }
  const { row: space, level } = await loadSpace(db, ctx, where.spaceId, may, action);
  return {
    space,
    level,
    scope: { spaceId: space.id, changeRequestId: null },
    revisionId: space.revision_id,
    apiBase: `/spaces/${space.id}`,
    version: space.threads_version ?? 0,
  };
}

/** What a conditional read is asked with: the URL as sent (the answer's ETag covers it) and `If-None-Match`. */
export interface Conditional {
  url: string;
  ifNoneMatch: string | undefined;
}

/**
 * A write to the threads, in one transaction: the place checked for the caller, then the threads' version raised
 * before anything else is locked or written, so that a poll sees the change and lock order is always the same.
 */
function writeThreads<T>(
  ctx: ServiceContext,
  where: ThreadsOf,
  may: CommentAction,
  action: string,
  write: (tx: Executor, t: ThreadContext) => Promise<T>,
): Promise<T> {
  return transaction(ctx.db, async (tx) => {
    const t = await loadThreads(tx, ctx, where, may, action);
    await comments.touchThreads(tx, t.scope);
    return write(tx, t);
  });
}

/**
 * The weak ETag of an answer about the threads: everything it depends on, hashed. The threads' version covers
 * comments, replies, reactions and resolutions; the current revision covers the pages and blocks they point at;
 * the caller and their level cover the `permissions` shown; `url` (path and query string as sent) covers the rest
 * of the request. Accounts are never renamed or deleted by the API, so authors' names need no version of their own.
 */
function threadsEtag(t: ThreadContext, userId: string, url: string): string {
  const key = [t.scope.spaceId, t.scope.changeRequestId ?? '', t.version, t.revisionId, userId, t.level ?? '', url];
  return `W/"${crypto.createHash('sha256').update(JSON.stringify(key)).digest('base64url').slice(0, 27)}"`;
}

function requireWritable(t: ThreadContext) {
  if (t.space.deleted_at) throw new ConflictError('The space is in the trash: restore it first');
}

const PREVIEW_MAX = 140;

/** The plain text of a block's markdown, cut to a preview. */
export function previewOf(markdown: string): string {
  const text = toString(fromMarkdown(markdown)).replace(/\s+/g, ' ').trim();
  return text.length > PREVIEW_MAX ? `${text.slice(0, PREVIEW_MAX - 1)}…` : text;
}

// Reading

/** What a comment is presented with, besides its row. */
export interface CommentBundle {
  row: CommentRow;
  author: UserSummary;
  /** Who resolved it, while resolved (and while that account exists). */
  resolver?: UserSummary;
  reactions: ReactionView[];
  repliers: UserSummary[];
  page?: { id: string; title: string; emoji: string; path: string; outdated: boolean };
  nodeOutdated: boolean;
}

export interface ReplyBundle {
  row: ReplyView;
  reactions: ReactionView[];
}

export interface ReactionView {
  emoji: string;
  reacted_at: string;
  user: UserSummary;
}

/** A page as its comments show it, in one revision's content. */
interface PageTarget {
  page: Omit<NonNullable<CommentBundle['page']>, 'outdated'>;
  /** Ids of the page's blocks. */
  blocks: Set<string>;
}

const TARGETS_MAX = 10_000;
/** Page targets by content root and page id (see pageTarget); null: no such page there. */
const targets = new Map<string, PageTarget | null>();

/**
 * The page `pageId` of a revision as comments show it: title, emoji, path and block ids. They depend only on the
 * revision's page tree, which is addressed by the hash of its content (`pages_root`) and never changes: the answer
 * is kept in the process by root and page, with no invalidation, and stays correct with several processes on one
 * database. Polling a review screen reads each commented page of the current content from here.
 */
async function pageTarget(db: Executor, revision: RevisionRow, pageId: string): Promise<PageTarget | undefined> {
  const key = revision.pages_root === null ? null : `${revision.pages_root}/${pageId}`;
  const known = key === null ? undefined : targets.get(key);
  if (known !== undefined) return known ?? undefined;
  const rd = new RevisionReader(db, revision);
  const entry = await rd.entry(pageId);
  let target: PageTarget | undefined;
  if (entry) {
    const version = await rd.version(entry.v);
    const [path, blocks] = await Promise.all([rd.path(pageId, entry), rd.document(version)]);
    target = {
      page: { id: pageId, title: version.title, emoji: version.emoji ?? '', path },
      blocks: new Set(blocks.map((b) => b.id)),
    };
  }
  if (key !== null) {
    if (targets.size >= TARGETS_MAX) targets.delete(targets.keys().next().value!);
    targets.set(key, target ?? null);
  }
  return target;
}

/** Items grouped by a key, each group in the items' order. */
function groupBy<T>(items: T[], key: (item: T) => string): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const item of items) {
    const k = key(item);
    const group = out.get(k);
    if (group) group.push(item);
    else out.set(k, [item]);
  }
  return out;
}

/** Reactions grouped by what they react to, each group oldest first; reactions of unknown users left out. */
function reactionsByTarget(
  rows: Awaited<ReturnType<typeof comments.reactionsOf>>,
  users: Map<string, UserSummary>,
): Map<string, ReactionView[]> {
  const out = new Map<string, ReactionView[]>();
  for (const x of rows) {
    const user = users.get(x.user_id);
    if (!user) continue;
    const view = { emoji: x.emoji, reacted_at: x.reacted_at, user };
    const group = out.get(x.target_id);
    if (group) group.push(view);
    else out.set(x.target_id, [view]);
  }
  return out;
}

/** Gathers authors, reactions, repliers and the state of each comment's target in the current content. */
async function bundle(db: Executor, t: ThreadContext, rows: CommentRow[]): Promise<CommentBundle[]> {
  const ids = rows.map((r) => r.id);
  const [reactions, repliers] = await Promise.all([comments.reactionsOf(db, ids), comments.repliersOf(db, ids)]);
  const users = await usersByIds(db, [
    ...rows.flatMap((r) => (r.resolved_by ? [r.author_id, r.resolved_by] : [r.author_id])),
    ...reactions.map((x) => x.user_id),
    ...repliers.map((x) => x.author_id),
  ]);
  const revisions = new Map<string, Promise<RevisionRow>>();
  const revision = (revisionId: string) => {
    let r = revisions.get(revisionId);
    if (!r) {
      r = revisionOfSpace(db, t.space.id, revisionId);
      revisions.set(revisionId, r);
    }
    return r;
  };
  const found = new Map<string, Promise<PageTarget | undefined>>();
  const targetIn = (revisionId: string, pageId: string) => {
    const key = `${revisionId}/${pageId}`;
    let target = found.get(key);
    if (!target) {
      target = revision(revisionId).then((rev) => pageTarget(db, rev, pageId));
      found.set(key, target);
    }
    return target;
  };
  const reactionsOf = reactionsByTarget(reactions, users);
  const repliersOf = groupBy(
    repliers.filter((x) => users.has(x.author_id)),
    (x) => x.comment_id,
  );
  const bundles = await Promise.all(
    rows.map(async (row): Promise<CommentBundle | undefined> => {
      const author = users.get(row.author_id);
      // Every comment has its author (a deleted account takes its comments along).
      if (!author) return undefined;
      let page: CommentBundle['page'];
      let nodeOutdated = false;
      if (row.page_id) {
        const now = await targetIn(t.revisionId, row.page_id);
        if (now) {
          nodeOutdated = row.node_id !== null && !now.blocks.has(row.node_id);
          page = { ...now.page, outdated: nodeOutdated };
        } else {
          // The page is gone from the current content: describe it as it was when the comment was posted.
          const then = await targetIn(row.revision_id, row.page_id);
          nodeOutdated = row.node_id !== null;
          page = then
            ? { ...then.page, outdated: true }
            : { id: row.page_id, title: 'Deleted page', emoji: '', path: '', outdated: true };
        }
      }
      const resolver = row.resolved_by ? users.get(row.resolved_by) : undefined;
      return {
        row,
        author,
        ...(resolver ? { resolver } : {}),
        reactions: reactionsOf.get(row.id) ?? [],
        repliers: (repliersOf.get(row.id) ?? [])
          .sort((a, b) => (String(a.first_at) < String(b.first_at) ? -1 : 1))
          .map((x) => users.get(x.author_id)!),
        page,
        nodeOutdated,
      };
    }),
  );
  return bundles.filter((b) => b !== undefined);
}

async function bundleReplies(db: Executor, rows: ReplyView[]): Promise<ReplyBundle[]> {
  const reactions = await comments.reactionsOf(
    db,
    rows.map((r) => r.id),
  );
  const byTarget = reactionsByTarget(
    reactions,
    await usersByIds(
      db,
      reactions.map((x) => x.user_id),
    ),
  );
  return rows.map((row) => ({ row, reactions: byTarget.get(row.id) ?? [] }));
}

async function oneComment(db: Executor, t: ThreadContext, id: string): Promise<CommentBundle> {
  const row = await comments.findComment(db, t.scope, id);
  if (!row) throw new NotFoundError('Comment not found');
  return (await bundle(db, t, [row]))[0]!;
}

/**
 * The threads, or `unchanged` when `ifNoneMatch` names the ETag of the answer (see threadsEtag): a review screen's
 * poll then costs the access check and nothing more.
 */
export async function listComments(
  ctx: ServiceContext,
  where: ThreadsOf,
  query: ListCommentsQuery,
  conditional: Conditional,
) {
  const t = await loadThreads(ctx.db, ctx, where, 'view', 'read its comments');
  const etag = threadsEtag(t, ctx.actor.userId, conditional.url);
  if (noneMatchHits(conditional.ifNoneMatch, etag)) return { t, etag, unchanged: true as const };
  const filter = { status: query.status, pageId: query.targetPage, authors: query.authors };
  const page = await keysetPage({
    page: query.page,
    limit: query.limit,
    arity: 2,
    rows: (after, take) => comments.listComments(ctx.db, t.scope, filter, query.order, after, take),
    count: () => comments.countComments(ctx.db, t.scope, filter),
    key: (r) => [r.posted_at, r.id],
  });
  const items = await bundle(ctx.db, t, page.items);
  return { t, etag, unchanged: false as const, items, next: page.next, count: page.count };
}

export async function getComment(ctx: ServiceContext, where: ThreadsOf, id: string) {
  const t = await loadThreads(ctx.db, ctx, where, 'view', 'read its comments');
  return { t, comment: await oneComment(ctx.db, t, id) };
}

// Writing comments

/**
 * Tells the people concerned of a post (notifications/events.ts): a new comment or reply, or the mentions an edit
 * added (`previous`: the post before). Whoever posts or is mentioned in a change request follows it from then on.
 */
async function notifyPost(
  tx: Executor,
  ctx: ServiceContext,
  t: ThreadContext,
  post: { kind: 'comment' | 'reply'; commentId: string; replyId?: string; pageId?: string | null; title?: string },
  markdown: string,
  previous?: string,
) {
  const mentions = await mentionedPeople(tx, t.space.organization_id, markdown, previous);
  if (previous !== undefined && !mentions.length) return;
  await recordEvent(tx, {
    kind: post.kind,
    organizationId: t.space.organization_id,
    spaceId: t.space.id,
    changeRequestId: t.scope.changeRequestId,
    pageId: post.pageId ?? null,
    commentId: post.commentId,
    replyId: post.replyId ?? null,
    actorId: ctx.actor.userId,
    data: {
      mentions,
      ...(previous !== undefined ? { mentionsOnly: true } : {}),
      ...(post.title !== undefined ? { title: post.title } : {}),
    },
  });
  // Those who write or are mentioned follow the conversation: the change request's, or a page's (a comment on the
  // space's own content).
  const target = t.scope.changeRequestId
    ? changeRequestTarget(t.scope.changeRequestId)
    : post.kind === 'comment' && post.pageId
      ? followedPage(t.space.id, post.pageId)
      : undefined;
  if (target) {
    await watch(tx, target, [ctx.actor.userId], 'participant');
    await watch(tx, target, mentions, 'mention');
  }
}

export async function postComment(ctx: ServiceContext, where: ThreadsOf, body: PostCommentBody) {
  return writeThreads(ctx, where, 'comment', 'comment on it', async (tx, t) => {
    requireWritable(t);
    if (body.node !== undefined && body.page === undefined) {
      throw new InvalidError('node', 'needs page: a block is anchored in a page');
    }
    let preview: string | null = null;
    let title: string | undefined;
    if (body.page !== undefined) {
      const reader = new RevisionReader(tx, await revisionOfSpace(tx, t.space.id, t.revisionId));
      const entry = await reader.entry(body.page);
      if (!entry) throw new InvalidError('page', 'is not a page of this content');
      const version = await reader.version(entry.v);
      title = version.title;
      if (body.node !== undefined) {
        const blocks = await reader.document(version);
        const block = blocks.find((b) => b.id === body.node);
        if (!block) throw new InvalidError('node', 'is not a block of this page');
        preview = previewOf(block.markdown);
      }
    }
    const id = newId();
    await comments.insertComment(tx, {
      id,
      space_id: t.space.id,
      change_request_id: t.scope.changeRequestId,
      author_id: ctx.actor.userId,
      page_id: body.page ?? null,
      node_id: body.node ?? null,
      node_preview: preview,
      revision_id: t.revisionId,
      body: body.body.markdown,
      replies: 0,
      posted_at: nowIso(),
      edited_at: null,
      resolved_at: null,
      resolved_by: null,
    });
    await comments.adjustOpenCount(tx, t.scope, 1);
    await notifyPost(
      tx,
      ctx,
      t,
      { kind: 'comment', commentId: id, pageId: body.page ?? null, ...(title !== undefined ? { title } : {}) },
      body.body.markdown,
    );
    return { t, comment: await oneComment(tx, t, id) };
  });
}

/** Adds, then removes, the caller's reactions to a comment or reply (an emoji in both lists ends up removed). */
async function applyReactions(
  db: Executor,
  ctx: ServiceContext,
  commentId: string,
  targetId: string,
  change: { addedReactions?: string[]; removedReactions?: string[] },
) {
  const now = nowIso();
  for (const emoji of new Set(change.addedReactions ?? [])) {
    await comments.addReaction(db, {
      comment_id: commentId,
      target_id: targetId,
      user_id: ctx.actor.userId,
      emoji,
      reacted_at: now,
    });
  }
  for (const emoji of new Set(change.removedReactions ?? [])) {
    await comments.removeReaction(db, targetId, ctx.actor.userId, emoji);
  }
}

function reacts(change: { addedReactions?: string[]; removedReactions?: string[] }) {
  return (change.addedReactions?.length ?? 0) + (change.removedReactions?.length ?? 0) > 0;
}

export async function updateComment(ctx: ServiceContext, where: ThreadsOf, id: string, body: UpdateCommentBody) {
  return writeThreads(ctx, where, 'comment', 'comment on it', async (tx, t) => {
    requireWritable(t);
    await comments.lockComment(tx, id);
    const row = await comments.findComment(tx, t.scope, id);
    if (!row) throw new NotFoundError('Comment not found');
    if (body.body !== undefined) {
      if (!canEditPost(t.level, row.author_id, ctx.actor.userId))
        throw new ForbiddenError('Only its author can edit a comment');
      if (body.body.markdown !== row.body) {
        await comments.updateComment(tx, id, { body: body.body.markdown, edited_at: nowIso() });
        const where = { kind: 'comment' as const, commentId: id, pageId: row.page_id };
        await notifyPost(tx, ctx, t, where, body.body.markdown, row.body);
      }
    }
    if (body.resolved !== undefined) {
      const changed = await comments.setResolved(tx, id, body.resolved ? { at: nowIso(), by: ctx.actor.userId } : null);
      if (changed) await comments.adjustOpenCount(tx, t.scope, body.resolved ? -1 : 1);
    }
    if (reacts(body)) await applyReactions(tx, ctx, id, id, body);
    return { t, comment: await oneComment(tx, t, id) };
  });
}

/** Deletes a comment with its replies; its author or an admin of the space may. False when there was none. */
export async function deleteComment(ctx: ServiceContext, where: ThreadsOf, id: string): Promise<boolean> {
  return writeThreads(ctx, where, 'view', 'read its comments', async (tx, t) => {
    await comments.lockComment(tx, id);
    const row = await comments.findComment(tx, t.scope, id);
    if (!row) return false;
    if (!canDeletePost(t.level, row.author_id, ctx.actor.userId)) {
      throw new ForbiddenError('Only its author or an admin of the space can delete a comment');
    }
    requireWritable(t);
    const deleted = await comments.deleteComment(tx, id);
    if (deleted?.wasOpen) await comments.adjustOpenCount(tx, t.scope, -1);
    return deleted !== undefined;
  });
}

// Replies

async function loadComment(db: Executor, t: ThreadContext, commentId: string) {
  const row = await comments.findComment(db, t.scope, commentId);
  if (!row) throw new NotFoundError('Comment not found');
  return row;
}

export async function listReplies(
  ctx: ServiceContext,
  where: ThreadsOf,
  commentId: string,
  page: string | undefined,
  limit: number,
  conditional: Conditional,
) {
  const t = await loadThreads(ctx.db, ctx, where, 'view', 'read its comments');
  const etag = threadsEtag(t, ctx.actor.userId, conditional.url);
  if (noneMatchHits(conditional.ifNoneMatch, etag)) return { t, etag, unchanged: true as const };
  const comment = await loadComment(ctx.db, t, commentId);
  const result = await keysetPage({
    page,
    limit,
    arity: 2,
    rows: (after, take) => comments.listReplies(ctx.db, commentId, after, take),
    count: () => Promise.resolve(comment.replies),
    key: (r) => [r.posted_at, r.id],
  });
  const items = await bundleReplies(ctx.db, result.items);
  return { t, etag, unchanged: false as const, items, next: result.next, count: result.count };
}

async function oneReply(db: Executor, commentId: string, id: string): Promise<ReplyBundle> {
  const row = await comments.findReply(db, commentId, id);
  if (!row) throw new NotFoundError('Reply not found');
  return (await bundleReplies(db, [row]))[0]!;
}

export async function getReply(ctx: ServiceContext, where: ThreadsOf, commentId: string, id: string) {
  const t = await loadThreads(ctx.db, ctx, where, 'view', 'read its comments');
  await loadComment(ctx.db, t, commentId);
  return { t, reply: await oneReply(ctx.db, commentId, id) };
}

export async function postReply(ctx: ServiceContext, where: ThreadsOf, commentId: string, markdown: string) {
  return writeThreads(ctx, where, 'comment', 'comment on it', async (tx, t) => {
    requireWritable(t);
    await comments.lockComment(tx, commentId);
    await loadComment(tx, t, commentId);
    const id = newId();
    await comments.insertReply(tx, {
      id,
      comment_id: commentId,
      author_id: ctx.actor.userId,
      body: markdown,
      posted_at: nowIso(),
      edited_at: null,
    });
    await comments.adjustReplies(tx, commentId, 1);
    await notifyPost(tx, ctx, t, { kind: 'reply', commentId, replyId: id }, markdown);
    return { t, reply: await oneReply(tx, commentId, id) };
  });
}

export async function updateReply(
  ctx: ServiceContext,
  where: ThreadsOf,
  commentId: string,
  id: string,
  body: UpdateReplyBody,
) {
  return writeThreads(ctx, where, 'comment', 'comment on it', async (tx, t) => {
    requireWritable(t);
    await loadComment(tx, t, commentId);
    const row = await comments.findReply(tx, commentId, id);
    if (!row) throw new NotFoundError('Reply not found');
    if (body.body !== undefined) {
      if (!canEditPost(t.level, row.author_id, ctx.actor.userId))
        throw new ForbiddenError('Only its author can edit a reply');
      if (body.body.markdown !== row.body) {
        await comments.updateReply(tx, id, { body: body.body.markdown, edited_at: nowIso() });
        const where = { kind: 'reply' as const, commentId, replyId: id };
        await notifyPost(tx, ctx, t, where, body.body.markdown, row.body);
      }
    }
    if (reacts(body)) await applyReactions(tx, ctx, commentId, id, body);
    return { t, reply: await oneReply(tx, commentId, id) };
  });
}

export async function deleteReply(ctx: ServiceContext, where: ThreadsOf, commentId: string, id: string) {
  return writeThreads(ctx, where, 'view', 'read its comments', async (tx, t) => {
    await comments.lockComment(tx, commentId);
    await loadComment(tx, t, commentId);
    const row = await comments.findReply(tx, commentId, id);
    if (!row) return false;
    if (!canDeletePost(t.level, row.author_id, ctx.actor.userId)) {
      throw new ForbiddenError('Only its author or an admin of the space can delete a reply');
    }
    requireWritable(t);
    const deleted = await comments.deleteReply(tx, commentId, id);
    if (deleted) await comments.adjustReplies(tx, commentId, -1);
    return deleted;
  });
}

// Commenters

export async function listCommenters(ctx: ServiceContext, where: ThreadsOf, page: string | undefined, limit: number) {
  const t = await loadThreads(ctx.db, ctx, where, 'view', 'read its comments');
  return keysetPage({
    page,
    limit,
    arity: 1,
    rows: (after, take) => comments.listCommenters(ctx.db, t.space.organization_id, t.scope, after, take),
    count: () => comments.countCommenters(ctx.db, t.space.organization_id, t.scope),
    key: (r) => [r.user_id],
  });
}
