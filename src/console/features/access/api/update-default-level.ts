import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { collectionSchema, spaceSchema } from '../../../../shared/contract';
import type { DefaultLevel } from '../../../../shared/contract';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';
import { targetPath, type AccessTarget } from './target';

/** `PATCH /v1/{spaces|collections}/{id}` `{defaultLevel}`: the access members get without a grant. */
export function useUpdateDefaultLevel(target: AccessTarget) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (defaultLevel: DefaultLevel) => {
      if (target.kind === 'spaces') {
        const space = await api.patch<typeof spaceSchema>(targetPath(target), { defaultLevel });
        queryClient.setQueryData(queryKeys.spaces.detail(space.id), space);
      } else {
        const collection = await api.patch<typeof collectionSchema>(targetPath(target), { defaultLevel });
        queryClient.setQueryData(queryKeys.collections.detail(collection.id), collection);
      }
    },
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeys.access.item(target.kind, target.id) }),
        queryClient.invalidateQueries({ queryKey: queryKeys.spaces.list(target.organizationId) }),
        queryClient.invalidateQueries({ queryKey: queryKeys.collections.list(target.organizationId) }),
      ]),
  });
}
