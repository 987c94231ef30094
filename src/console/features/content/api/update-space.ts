import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Space, UpdateSpaceBody, spaceSchema } from '../../../../shared/contract';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** `PATCH /v1/spaces/{spaceId}` → Space; `emoji: null` clears the emoji. */
export function updateSpace(spaceId: string, body: UpdateSpaceBody) {
  return api.patch<typeof spaceSchema>(`/spaces/${encodeURIComponent(spaceId)}`, body);
}

export function useUpdateSpace(space: Pick<Space, 'id' | 'organization'>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: UpdateSpaceBody) => updateSpace(space.id, body),
    onSuccess: async (updated) => {
      queryClient.setQueryData(queryKeys.spaces.detail(updated.id), updated);
      await queryClient.invalidateQueries({ queryKey: queryKeys.spaces.list(space.organization) });
    },
  });
}
