import type { Comment, CommentReply } from '../../shared/contract/comments.js';
import type { CommentBundle, ReactionView, ReplyBundle, ThreadContext } from '../domain/comments/service.js';
import { commentPermissions, replyPermissions } from '../domain/comments/policy.js';
import type { UserSummary } from '../storage/repos/users.js';
import { markdownToDocument } from '../../shared/document/from-markdown.js';
import type { PageDocument } from '../../shared/contract/content.js';
import { presentUser } from './user.js';
import type { Urls } from '../lib/urls.js';

type Format = 'markdown' | 'document';

function presentBody(id: string, markdown: string, format: Format): Comment['body'] {
  if (format === 'markdown') return { markdown };
  // A comment is short (COMMENT_BODY_MAX): read here, its nodes keyed after the comment.
  let n = 0;
  const document = markdownToDocument(markdown, { keyAt: () => `${id}-${n++}` });
  return { document: document as unknown as PageDocument };
}

/** Reactions grouped by emoji, in the order each emoji was first used. */
function presentReactions(urls: Urls, rows: ReactionView[]): Comment['reactions'] {
  const byEmoji = new Map<string, Comment['reactions'][number]>();
  for (const r of rows) {
    let group = byEmoji.get(r.emoji);
    if (!group) {
      group = { emoji: r.emoji, count: 0, users: [] };
      byEmoji.set(r.emoji, group);
    }
    group.count++;
    group.users.push({ user: presentUser(urls, r.user), reactedAt: r.reacted_at });
  }
  return [...byEmoji.values()];
}

/** What comments and replies share: id, author, times, reactions and body. */
function presentPost(
  urls: Urls,
  row: { id: string; posted_at: string; edited_at: string | null; body: string },
  author: UserSummary,
  reactions: ReactionView[],
  format: Format,
) {
  return {
    id: row.id,
    postedBy: presentUser(urls, author),
    postedAt: row.posted_at,
    ...(row.edited_at ? { editedAt: row.edited_at } : {}),
    reactions: presentReactions(urls, reactions),
    body: presentBody(row.id, row.body, format),
  };
}

export function presentComment(
  urls: Urls,
  t: ThreadContext,
  userId: string,
  b: CommentBundle,
  format: Format = 'markdown',
): Comment {
  const { row } = b;
  return {
    object: 'comment',
    ...presentPost(urls, row, b.author, b.reactions, format),
    replies: row.replies,
    repliers: b.repliers.map((u) => presentUser(urls, u)),
    target: {
      space: t.scope.spaceId,
      revision: row.revision_id,
      ...(t.scope.changeRequestId ? { changeRequest: t.scope.changeRequestId } : {}),
      ...(b.page
        ? {
            page: {
              id: b.page.id,
              title: b.page.title,
              ...(b.page.emoji ? { emoji: b.page.emoji } : {}),
              path: b.page.path,
              outdated: b.page.outdated,
            },
          }
        : {}),
      ...(row.node_id
        ? {
            node: {
              id: row.node_id,
              ...(row.node_preview !== null ? { preview: row.node_preview } : {}),
              outdated: b.nodeOutdated,
            },
          }
        : {}),
    },
    urls: { location: urls.api(`${t.apiBase}/comments/${row.id}`) },
    permissions: commentPermissions(t.level, row.author_id, userId),
    ...(row.resolved_at
      ? {
          status: 'resolved' as const,
          resolvedAt: row.resolved_at,
          ...(b.resolver ? { resolvedBy: presentUser(urls, b.resolver) } : {}),
        }
      : { status: 'open' as const }),
  };
}

export function presentReply(
  urls: Urls,
  t: ThreadContext,
  userId: string,
  commentId: string,
  b: ReplyBundle,
  format: Format = 'markdown',
): CommentReply {
  const { row } = b;
  return {
    object: 'comment-reply',
    ...presentPost(
      urls,
      row,
      { id: row.author_id, display_name: row.author_name, email: row.author_email, photo_url: row.author_photo },
      b.reactions,
      format,
    ),
    urls: { location: urls.api(`${t.apiBase}/comments/${commentId}/replies/${row.id}`) },
    permissions: replyPermissions(t.level, row.author_id, userId),
  };
}
