import type { Role } from '../../../shared/contract/common.js';
import type { Comment, CommentReply } from '../../../shared/contract/comments.js';
import { spacePolicy } from '../spaces/policy.js';

/**
 * Who may do what with comments and replies (of a space or of a change request): whoever sees the space reads
 * them; the comment level posts, replies, reacts and resolves; only its author edits a post; its author (with the
 * comment level) or an admin of the space deletes it. The `permissions` flags of comments and replies and the
 * checks of the comment service ask this module.
 */
export type CommentAction = 'view' | 'comment';

/** Reading the threads (`view`) or writing to them (`comment`): asked of the space policy. */
export function mayOnThreads(level: Role | null, action: CommentAction): boolean {
  return spacePolicy.can(level, action);
}

/** The author of a post edits it (with the comment level). */
export function canEditPost(level: Role | null, authorId: string, userId: string): boolean {
  return mayOnThreads(level, 'comment') && authorId === userId;
}

/** Its author (with the comment level) or an admin of the space deletes a post. */
export function canDeletePost(level: Role | null, authorId: string, userId: string): boolean {
  return spacePolicy.can(level, 'admin') || (authorId === userId && mayOnThreads(level, 'comment'));
}

/** The `permissions` of a reply, and of a comment but for `resolve`. */
export function replyPermissions(level: Role | null, authorId: string, userId: string): CommentReply['permissions'] {
  return {
    view: true,
    edit: canEditPost(level, authorId, userId),
    reply: mayOnThreads(level, 'comment'),
    delete: canDeletePost(level, authorId, userId),
  };
}

/** The `permissions` of a comment: a reply's, and whoever may comment resolves it. */
export function commentPermissions(level: Role | null, authorId: string, userId: string): Comment['permissions'] {
  return { ...replyPermissions(level, authorId, userId), resolve: mayOnThreads(level, 'comment') };
}
