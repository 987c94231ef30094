import { queryOptions, useQuery } from '@tanstack/react-query';
import type { commentReplyListSchema } from '../../../../shared/contract';
import { getAllPages } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';
import { threadsPath, type ThreadsOwner } from '../utils/paths';
import { COMMENTS_POLL_MS } from './get-comments';

/** `GET …/change-requests/{number}/comments/{commentId}/replies`: every reply of a thread, oldest first. */
export function getCommentReplies(spaceId: string, number: ThreadsOwner, commentId: string, signal?: AbortSignal) {
  return getAllPages<typeof commentReplyListSchema>(
    threadsPath(spaceId, number, `/comments/${encodeURIComponent(commentId)}/replies`),
    {},
    signal,
  );
}

export function commentRepliesQueryOptions(spaceId: string, number: ThreadsOwner, commentId: string) {
  return queryOptions({
    queryKey: queryKeys.changeRequests.commentReplies(spaceId, number, commentId),
    queryFn: ({ signal }) => getCommentReplies(spaceId, number, commentId, signal),
  });
}

/** The replies of a thread while it is open, polled like the thread list. */
export function useCommentReplies(spaceId: string, number: ThreadsOwner, commentId: string, enabled: boolean) {
  return useQuery({
    ...commentRepliesQueryOptions(spaceId, number, commentId),
    enabled,
    refetchInterval: enabled ? COMMENTS_POLL_MS : false,
  });
}
