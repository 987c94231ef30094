import { queryOptions, useSuspenseQuery } from '@tanstack/react-query';
import type { collectionListSchema } from '../../../../shared/contract';
import type { Collection } from '../../../../shared/contract';
import { getAllPages } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** `GET /v1/orgs/{organizationId}/collections?nested=true`: every collection, nested ones included, by position. */
export function getCollections(organizationId: string, signal?: AbortSignal): Promise<Collection[]> {
  return getAllPages<typeof collectionListSchema>(
    `/orgs/${encodeURIComponent(organizationId)}/collections`,
    { nested: true },
    signal,
  );
}

export function collectionsQueryOptions(organizationId: string) {
  return queryOptions({
    queryKey: queryKeys.collections.list(organizationId),
    queryFn: ({ signal }) => getCollections(organizationId, signal),
  });
}

export function useCollections(organizationId: string) {
  return useSuspenseQuery(collectionsQueryOptions(organizationId)).data;
}
