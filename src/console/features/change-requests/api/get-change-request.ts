import { queryOptions, useSuspenseQuery } from '@tanstack/react-query';
import type { changeRequestSchema } from '../../../../shared/contract';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';
import { changeRequestPath } from '../utils/paths';

/** `GET /v1/spaces/{spaceId}/change-requests/{number}`. */
export function getChangeRequest(spaceId: string, number: number, signal?: AbortSignal) {
  return api.get<typeof changeRequestSchema>(changeRequestPath(spaceId, number), { signal });
}

export function changeRequestQueryOptions(spaceId: string, number: number) {
  return queryOptions({
    queryKey: queryKeys.changeRequests.detail(spaceId, number),
    queryFn: ({ signal }) => getChangeRequest(spaceId, number, signal),
  });
}

export function useChangeRequest(spaceId: string, number: number) {
  return useSuspenseQuery(changeRequestQueryOptions(spaceId, number)).data;
}
