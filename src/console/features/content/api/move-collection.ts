import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Collection, MoveBody } from '../../../../shared/contract';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** `POST /v1/collections/{collectionId}/move`: to another parent (`null` = organization root) and/or beside a sibling. */
export function moveCollection(collectionId: string, body: MoveBody) {
  return api.send('POST', `/collections/${encodeURIComponent(collectionId)}/move`, body);
}

export function useMoveCollection(collection: Pick<Collection, 'id' | 'organization'>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: MoveBody) => moveCollection(collection.id, body),
    onSuccess: async () => {
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeys.collections.list(collection.organization) }),
        queryClient.invalidateQueries({ queryKey: queryKeys.collections.detail(collection.id) }),
      ]);
    },
  });
}
