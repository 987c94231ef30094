import { queryOptions, useQuery } from '@tanstack/react-query';
import type { commentListSchema } from '../../../../shared/contract';
import { getAllPages } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';
import { changeRequestPath } from '../utils/paths';

/** How often an open review screen asks for new comments, replies and resolutions by other members. */
export const COMMENTS_POLL_MS = 3_000;

/** `GET /v1/spaces/{spaceId}/change-requests/{number}/comments`: every thread, open and resolved, oldest first. */
export function getComments(spaceId: string, number: number, signal?: AbortSignal) {
  return getAllPages<typeof commentListSchema>(
    changeRequestPath(spaceId, number, '/comments'),
    { order: 'asc', status: 'all' },
    signal,
  );
}

export function commentsQueryOptions(spaceId: string, number: number) {
  return queryOptions({
    queryKey: queryKeys.changeRequests.commentList(spaceId, number),
    queryFn: ({ signal }) => getComments(spaceId, number, signal),
  });
}

/**
 * The threads, polled while the screen is visible (TanStack Query pauses in background tabs): each poll reads the
 * database, so what another member posts through any server process shows within a few seconds.
 */
export function useComments(spaceId: string, number: number) {
  return useQuery({ ...commentsQueryOptions(spaceId, number), refetchInterval: COMMENTS_POLL_MS });
}
