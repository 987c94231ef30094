import { queryOptions, useSuspenseQuery } from '@tanstack/react-query';
import type { collectionSchema } from '../../../../shared/contract';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** `GET /v1/collections/{collectionId}`. */
export function getCollection(collectionId: string, signal?: AbortSignal) {
  return api.get<typeof collectionSchema>(`/collections/${encodeURIComponent(collectionId)}`, { signal });
}

export function collectionQueryOptions(collectionId: string) {
  return queryOptions({
    queryKey: queryKeys.collections.detail(collectionId),
    queryFn: ({ signal }) => getCollection(collectionId, signal),
  });
}

export function useCollection(collectionId: string) {
  return useSuspenseQuery(collectionQueryOptions(collectionId)).data;
}
