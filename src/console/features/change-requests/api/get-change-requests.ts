import { infiniteQueryOptions, queryOptions, useQuery, useSuspenseInfiniteQuery } from '@tanstack/react-query';
import type { changeRequestListSchema } from '../../../../shared/contract';
import type { ChangeRequestStatus } from '../../../../shared/contract';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

export const CHANGE_REQUESTS_PAGE_SIZE = 25;

/**
 * `GET /v1/spaces/{spaceId}/change-requests?status=&contributor=`: one page of the list, most recently updated
 * first; with `contributor`, only those that user created or edited.
 */
export function getChangeRequests(
  spaceId: string,
  query: { status: ChangeRequestStatus; page?: string; limit?: number; contributor?: string },
  signal?: AbortSignal,
) {
  return api.get<typeof changeRequestListSchema>(`/spaces/${encodeURIComponent(spaceId)}/change-requests`, {
    query: {
      status: query.status,
      page: query.page,
      limit: query.limit ?? CHANGE_REQUESTS_PAGE_SIZE,
      contributor: query.contributor,
    },
    signal,
  });
}

export function changeRequestsQueryOptions(spaceId: string, status: ChangeRequestStatus) {
  return infiniteQueryOptions({
    queryKey: queryKeys.changeRequests.list(spaceId, status),
    queryFn: ({ pageParam, signal }) => getChangeRequests(spaceId, { status, page: pageParam }, signal),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.next?.page,
  });
}

export function useChangeRequests(spaceId: string, status: ChangeRequestStatus) {
  return useSuspenseInfiniteQuery(changeRequestsQueryOptions(spaceId, status));
}

/** How many change requests have this status (the list's `count`, asked with the smallest page). */
export function changeRequestCountQueryOptions(spaceId: string, status: ChangeRequestStatus) {
  return queryOptions({
    queryKey: queryKeys.changeRequests.count(spaceId, status),
    queryFn: async ({ signal }) => (await getChangeRequests(spaceId, { status, limit: 1 }, signal)).count,
  });
}

export function useChangeRequestCount(spaceId: string, status: ChangeRequestStatus) {
  return useQuery(changeRequestCountQueryOptions(spaceId, status));
}
