import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CreateCollectionBody, collectionSchema } from '../../../../shared/contract';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** `POST /v1/orgs/{organizationId}/collections` → 201 Collection, at the root or inside `parent`. */
export function createCollection(organizationId: string, body: CreateCollectionBody) {
  return api.post<typeof collectionSchema>(`/orgs/${encodeURIComponent(organizationId)}/collections`, body);
}

export function useCreateCollection(organizationId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateCollectionBody) => createCollection(organizationId, body),
    onSuccess: async (collection) => {
      queryClient.setQueryData(queryKeys.collections.detail(collection.id), collection);
      await queryClient.invalidateQueries({ queryKey: queryKeys.collections.list(organizationId) });
    },
  });
}
