import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { spaceSchema } from '../../../../shared/contract';
import type { Space } from '../../../../shared/contract';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** `POST /v1/spaces/{spaceId}/restore` → 200 Space; refused with a message once it is too old. */
export function restoreSpace(spaceId: string) {
  return api.post<typeof spaceSchema>(`/spaces/${encodeURIComponent(spaceId)}/restore`, {});
}

export function useRestoreSpace(organizationId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (space: Pick<Space, 'id'>) => restoreSpace(space.id),
    onSuccess: async (restored) => {
      queryClient.setQueryData(queryKeys.spaces.detail(restored.id), restored);
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeys.spaces.trash(organizationId) }),
        queryClient.invalidateQueries({ queryKey: queryKeys.spaces.list(organizationId) }),
        // A space whose collection was deleted comes back somewhere else.
        queryClient.invalidateQueries({ queryKey: queryKeys.collections.list(organizationId) }),
      ]);
    },
  });
}
