import { queryOptions, useQuery } from '@tanstack/react-query';
import type { reviewListSchema } from '../../../../shared/contract';
import { getAllPages } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';
import { changeRequestPath } from '../utils/paths';

/** `GET /v1/spaces/{spaceId}/change-requests/{number}/reviews`: every review, oldest first. */
export function getReviews(spaceId: string, number: number, signal?: AbortSignal) {
  return getAllPages<typeof reviewListSchema>(changeRequestPath(spaceId, number, '/reviews'), {}, signal);
}

export function reviewsQueryOptions(spaceId: string, number: number) {
  return queryOptions({
    queryKey: queryKeys.changeRequests.reviews(spaceId, number),
    queryFn: ({ signal }) => getReviews(spaceId, number, signal),
  });
}

export function useReviews(spaceId: string, number: number) {
  return useQuery(reviewsQueryOptions(spaceId, number));
}
