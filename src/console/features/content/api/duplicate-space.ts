import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { spaceSchema } from '../../../../shared/contract';
import type { Space } from '../../../../shared/contract';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** `POST /v1/spaces/{spaceId}/duplicate` → 201, the copy. */
export function duplicateSpace(spaceId: string) {
  return api.post<typeof spaceSchema>(`/spaces/${encodeURIComponent(spaceId)}/duplicate`, {});
}

export function useDuplicateSpace(space: Pick<Space, 'id' | 'organization'>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => duplicateSpace(space.id),
    onSuccess: async (copy) => {
      queryClient.setQueryData(queryKeys.spaces.detail(copy.id), copy);
      await queryClient.invalidateQueries({ queryKey: queryKeys.spaces.list(space.organization) });
    },
  });
}
