import { useMutation, useQueryClient } from '@tanstack/react-query';
import { collectionSchema, updateCollectionBodySchema } from '../../../../shared/contract';
import type { Collection, UpdateCollectionBody } from '../../../../shared/contract';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

export { updateCollectionBodySchema };

/** `PATCH /v1/collections/{collectionId}` → Collection. */
export function updateCollection(collectionId: string, body: UpdateCollectionBody) {
  return api.patch(`/collections/${encodeURIComponent(collectionId)}`, body, collectionSchema);
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
