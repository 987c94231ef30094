import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { MoveBody, Space } from '../../../../shared/contract';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** `POST /v1/spaces/{spaceId}/move`: into a collection (`null` = organization root) and/or beside a sibling. */
export function moveSpace(spaceId: string, body: MoveBody) {
  return api.send('POST', `/spaces/${encodeURIComponent(spaceId)}/move`, body);
}

export function useMoveSpace(space: Pick<Space, 'id' | 'organization'>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: MoveBody) => moveSpace(space.id, body),
    onSuccess: async () => {
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeys.spaces.list(space.organization) }),
        queryClient.invalidateQueries({ queryKey: queryKeys.spaces.detail(space.id) }),
      ]);
    },
  });
}
