import { queryOptions, useSuspenseQuery } from '@tanstack/react-query';
import type { spaceListSchema } from '../../../../shared/contract';
import type { Space } from '../../../../shared/contract';
import { getAllPages } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** `GET /v1/orgs/{organizationId}/spaces?deleted=true`: spaces deleted within the restorable window. */
export function getTrash(organizationId: string, signal?: AbortSignal): Promise<Space[]> {
  return getAllPages<typeof spaceListSchema>(
    `/orgs/${encodeURIComponent(organizationId)}/spaces`,
    { deleted: true },
    signal,
  );
}

export function trashQueryOptions(organizationId: string) {
  return queryOptions({
    queryKey: queryKeys.spaces.trash(organizationId),
    queryFn: ({ signal }) => getTrash(organizationId, signal),
    // Items age out of the trash on their own; do not trust a copy for long.
    staleTime: 10_000,
  });
}

export function useTrash(organizationId: string) {
  return useSuspenseQuery(trashQueryOptions(organizationId)).data;
}
