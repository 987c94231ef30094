import { queryOptions, useQuery } from '@tanstack/react-query';
import type { requestedReviewerListSchema } from '../../../../shared/contract';
import { getAllPages } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';
import { changeRequestPath } from '../utils/paths';

/** `GET /v1/spaces/{spaceId}/change-requests/{number}/requested-reviewers`. */
export function getRequestedReviewers(spaceId: string, number: number, signal?: AbortSignal) {
  return getAllPages<typeof requestedReviewerListSchema>(
    changeRequestPath(spaceId, number, '/requested-reviewers'),
    {},
    signal,
  );
}

export function requestedReviewersQueryOptions(spaceId: string, number: number) {
  return queryOptions({
    queryKey: queryKeys.changeRequests.reviewers(spaceId, number),
    queryFn: ({ signal }) => getRequestedReviewers(spaceId, number, signal),
  });
}

export function useRequestedReviewers(spaceId: string, number: number) {
  return useQuery(requestedReviewersQueryOptions(spaceId, number));
}
