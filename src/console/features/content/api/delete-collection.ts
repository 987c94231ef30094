import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Collection } from '../../../../shared/contract';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** `DELETE /v1/collections/{collectionId}` → 205: the collection goes, every space inside it moves to the trash. */
export function deleteCollection(collectionId: string) {
  return api.send('DELETE', `/collections/${encodeURIComponent(collectionId)}`);
}

/**
 * `onDeleted` runs before the cache forgets the collection, so a page showing it can leave first instead of
 * refetching something that is gone.
 */
export function useDeleteCollection(
  collection: Pick<Collection, 'id' | 'organization'>,
  { onDeleted }: { onDeleted?: () => Promise<void> | void } = {},
) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => deleteCollection(collection.id),
    onSuccess: async () => {
      await onDeleted?.();
      queryClient.removeQueries({ queryKey: queryKeys.collections.detail(collection.id) });
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeys.collections.list(collection.organization) }),
        queryClient.invalidateQueries({ queryKey: queryKeys.spaces.list(collection.organization) }),
        queryClient.invalidateQueries({ queryKey: queryKeys.spaces.trash(collection.organization) }),
      ]);
    },
  });
}
