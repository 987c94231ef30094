import { queryOptions, useQuery } from '@tanstack/react-query';
import type { commentListSchema } from '../../../../shared/contract';
import { getAllPages } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';
import { threadsPath, type ThreadsOwner } from '../utils/paths';

/** How often an open review screen asks for new comments, replies and resolutions by other members. */
export const COMMENTS_POLL_MS = 3_000;

/** `GET /v1/spaces/{spaceId}/change-requests/{number}/comments`: every thread, open and resolved, oldest first. */
export function getComments(spaceId: string, number: ThreadsOwner, signal?: AbortSignal) {
  return getAllPages<typeof commentListSchema>(
    threadsPath(spaceId, number, '/comments'),
    { order: 'asc', status: 'all' },
    signal,
  );
}

export function commentsQueryOptions(spaceId: string, number: ThreadsOwner) {
  return queryOptions({
    queryKey: queryKeys.changeRequests.commentList(spaceId, number),
    queryFn: ({ signal }) => getComments(spaceId, number, signal),
  });
}

/**
 * The threads, polled while the screen is visible (TanStack Query pauses in background tabs): each poll reads the
 * database, so what another member posts through any server process shows within a few seconds.
 */
export function useComments(spaceId: string, number: ThreadsOwner) {
  return useQuery({ ...commentsQueryOptions(spaceId, number), refetchInterval: COMMENTS_POLL_MS });
}

/**
 * `GET /v1/spaces/{spaceId}/comments?targetPage=` : the threads on one page of the space's own content (not of a
 * change request), oldest first; polled like a change request's while shown.
 */
export function usePageComments(spaceId: string, pageId: string) {
  return useQuery({
    queryKey: [...queryKeys.changeRequests.commentList(spaceId, null), pageId],
    queryFn: ({ signal }) =>
      getAllPages<typeof commentListSchema>(
        threadsPath(spaceId, null, '/comments'),
        { order: 'asc', status: 'all', targetPage: pageId },
        signal,
      ),
    refetchInterval: COMMENTS_POLL_MS,
  });
}
