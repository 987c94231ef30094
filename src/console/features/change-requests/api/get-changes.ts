import { queryOptions, useSuspenseQuery } from '@tanstack/react-query';
import type { semanticChangesSchema } from '../../../../shared/contract';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';
import { changeRequestPath } from '../utils/paths';

/** `GET /v1/spaces/{spaceId}/change-requests/{number}/changes`: what the change request changes against its base. */
export async function getChanges(spaceId: string, number: number, signal?: AbortSignal) {
  const { changes } = await api.get<typeof semanticChangesSchema>(changeRequestPath(spaceId, number, '/changes'), {
    signal,
  });
  return changes;
}

export function changesQueryOptions(spaceId: string, number: number) {
  return queryOptions({
    queryKey: queryKeys.changeRequests.changes(spaceId, number),
    queryFn: ({ signal }) => getChanges(spaceId, number, signal),
  });
}

export function useChanges(spaceId: string, number: number) {
  return useSuspenseQuery(changesQueryOptions(spaceId, number)).data;
}
