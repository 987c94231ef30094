import type { QueryClient } from '@tanstack/react-query';
import type { ChangeRequest, Comment, CommentReply } from '../../../../shared/contract';
import { queryKeys } from '../../../lib/query-keys';
import type { ThreadsOwner } from './paths';

/** A change request as the server just answered it: its detail, then everything derived from it is refetched. */
export async function changeRequestChanged(queryClient: QueryClient, changeRequest: ChangeRequest): Promise<void> {
  const { space, number } = changeRequest;
  queryClient.setQueryData(queryKeys.changeRequests.detail(space, number), changeRequest);
  await Promise.all([
    queryClient.invalidateQueries({
      queryKey: queryKeys.changeRequests.one(space, number),
      // Reads as of one revision (a page's, a reusable content's) stay true: only what follows the latest one reloads.
      predicate: (query) => !['detail', 'page', 'reusable-one'].includes(String(query.queryKey[3])),
    }),
    queryClient.invalidateQueries({ queryKey: queryKeys.changeRequests.lists(space) }),
  ]);
}

/** Everything about one change request is stale (after an update from the space, a merge, a resolution). */
export async function refreshChangeRequest(queryClient: QueryClient, spaceId: string, number: number): Promise<void> {
  await Promise.all([
    queryClient.invalidateQueries({ queryKey: queryKeys.changeRequests.one(spaceId, number) }),
    queryClient.invalidateQueries({ queryKey: queryKeys.changeRequests.lists(spaceId) }),
  ]);
}

/** The space's counters and content changed (a change request was created, merged, archived…). */
export async function refreshSpace(queryClient: QueryClient, spaceId: string, { content = false } = {}): Promise<void> {
  await Promise.all([
    queryClient.invalidateQueries({ queryKey: queryKeys.spaces.detail(spaceId) }),
    content && queryClient.invalidateQueries({ queryKey: queryKeys.content.space(spaceId) }),
    content && queryClient.invalidateQueries({ queryKey: queryKeys.spaces.all }),
  ]);
}

/**
 * A thread as the server just answered it (posted, edited, resolved, reacted to): shown at once, then the list is
 * refetched. `counters`: the change request's count of open threads changed too (its detail and the lists show it).
 */
export async function commentChanged(
  queryClient: QueryClient,
  spaceId: string,
  number: ThreadsOwner,
  change: { comment: Comment } | { removed: string },
  { counters = false } = {},
): Promise<void> {
  const key = queryKeys.changeRequests.commentList(spaceId, number);
  queryClient.setQueryData<Comment[]>(key, (list) => {
    if (!list) return list;
    if ('removed' in change) return list.filter((comment) => comment.id !== change.removed);
    const { comment } = change;
    return list.some((c) => c.id === comment.id)
      ? list.map((c) => (c.id === comment.id ? comment : c))
      : [...list, comment];
  });
  await Promise.all([
    queryClient.invalidateQueries({ queryKey: key }),
    counters &&
      number !== null &&
      queryClient.invalidateQueries({ queryKey: queryKeys.changeRequests.detail(spaceId, number) }),
    counters && number !== null && queryClient.invalidateQueries({ queryKey: queryKeys.changeRequests.lists(spaceId) }),
  ]);
}

/** A reply as the server just answered it, or gone: its thread's replies, and the thread's count of them, refetched. */
export async function replyChanged(
  queryClient: QueryClient,
  spaceId: string,
  number: ThreadsOwner,
  commentId: string,
  change: { reply: CommentReply } | { removed: string },
): Promise<void> {
  const key = queryKeys.changeRequests.commentReplies(spaceId, number, commentId);
  queryClient.setQueryData<CommentReply[]>(key, (list) => {
    if (!list) return list;
    if ('removed' in change) return list.filter((reply) => reply.id !== change.removed);
    const { reply } = change;
    return list.some((r) => r.id === reply.id) ? list.map((r) => (r.id === reply.id ? reply : r)) : [...list, reply];
  });
  await Promise.all([
    queryClient.invalidateQueries({ queryKey: key }),
    queryClient.invalidateQueries({ queryKey: queryKeys.changeRequests.commentList(spaceId, number) }),
  ]);
}
