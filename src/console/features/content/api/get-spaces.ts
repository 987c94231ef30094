import { queryOptions, useSuspenseQuery } from '@tanstack/react-query';
import type { spaceListSchema } from '../../../../shared/contract';
import type { Space } from '../../../../shared/contract';
import { getAllPages } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** `GET /v1/orgs/{organizationId}/spaces`: every live space, in collections or not, by position. */
export function getSpaces(organizationId: string, signal?: AbortSignal): Promise<Space[]> {
  return getAllPages<typeof spaceListSchema>(`/orgs/${encodeURIComponent(organizationId)}/spaces`, {}, signal);
}

export function spacesQueryOptions(organizationId: string) {
  return queryOptions({
    queryKey: queryKeys.spaces.list(organizationId),
    queryFn: ({ signal }) => getSpaces(organizationId, signal),
  });
}

export function useSpaces(organizationId: string) {
  return useSuspenseQuery(spacesQueryOptions(organizationId)).data;
}
