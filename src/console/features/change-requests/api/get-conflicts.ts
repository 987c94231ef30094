import { queryOptions, useSuspenseQuery } from '@tanstack/react-query';
import type { conflictListSchema } from '../../../../shared/contract';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';
import { changeRequestPath } from '../utils/paths';

/** `GET /v1/spaces/{spaceId}/change-requests/{number}/conflicts`: those of the pending update from the space. */
export function getConflicts(spaceId: string, number: number, signal?: AbortSignal) {
  return api.get<typeof conflictListSchema>(changeRequestPath(spaceId, number, '/conflicts'), { signal });
}

export function conflictsQueryOptions(spaceId: string, number: number) {
  return queryOptions({
    queryKey: queryKeys.changeRequests.conflicts(spaceId, number),
    queryFn: ({ signal }) => getConflicts(spaceId, number, signal),
  });
}

export function useConflicts(spaceId: string, number: number) {
  return useSuspenseQuery(conflictsQueryOptions(spaceId, number)).data;
}
