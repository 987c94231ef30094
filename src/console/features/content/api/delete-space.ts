import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Space } from '../../../../shared/contract';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** `DELETE /v1/spaces/{spaceId}`: the space moves to the trash, restorable for a few days. */
export function deleteSpace(spaceId: string) {
  return api.send('DELETE', `/spaces/${encodeURIComponent(spaceId)}`);
}

/**
 * `onDeleted` runs before the cache forgets the space, so a page showing it can leave first instead of
 * refetching something that is gone.
 */
export function useDeleteSpace(
  space: Pick<Space, 'id' | 'organization'>,
  { onDeleted }: { onDeleted?: () => Promise<void> | void } = {},
) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => deleteSpace(space.id),
    onSuccess: async () => {
      await onDeleted?.();
      queryClient.removeQueries({ queryKey: queryKeys.spaces.detail(space.id) });
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeys.spaces.list(space.organization) }),
        queryClient.invalidateQueries({ queryKey: queryKeys.spaces.trash(space.organization) }),
      ]);
    },
  });
}
