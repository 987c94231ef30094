import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Collection, UpdateCollectionBody, collectionSchema } from '../../../../shared/contract';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** `PATCH /v1/collections/{collectionId}` → Collection. */
export function updateCollection(collectionId: string, body: UpdateCollectionBody) {
  return api.patch<typeof collectionSchema>(`/collections/${encodeURIComponent(collectionId)}`, body);
}

export function useUpdateCollection(collection: Pick<Collection, 'id' | 'organization'>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: UpdateCollectionBody) => updateCollection(collection.id, body),
    onSuccess: async (updated) => {
      queryClient.setQueryData(queryKeys.collections.detail(updated.id), updated);
      await queryClient.invalidateQueries({ queryKey: queryKeys.collections.list(collection.organization) });
    },
  });
}
