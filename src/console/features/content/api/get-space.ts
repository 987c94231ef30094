import { queryOptions, useSuspenseQuery } from '@tanstack/react-query';
import type { spaceSchema } from '../../../../shared/contract';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** `GET /v1/spaces/{spaceId}`. */
export function getSpace(spaceId: string, signal?: AbortSignal) {
  return api.get<typeof spaceSchema>(`/spaces/${encodeURIComponent(spaceId)}`, { signal });
}

export function spaceQueryOptions(spaceId: string) {
  return queryOptions({
    queryKey: queryKeys.spaces.detail(spaceId),
    queryFn: ({ signal }) => getSpace(spaceId, signal),
  });
}

export function useSpace(spaceId: string) {
  return useSuspenseQuery(spaceQueryOptions(spaceId)).data;
}
