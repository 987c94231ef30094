import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { mergeResultSchema } from '../../../../shared/contract';
import { api } from '../../../lib/api-client';
import { refreshChangeRequest, refreshSpace } from '../utils/cache';
import { changeRequestPath } from '../utils/paths';

/**
 * `POST /v1/spaces/{spaceId}/change-requests/{number}/merge` → `{revision, result: 'merge'}`; 409 with unresolved
 * conflicts or when the space changed in a conflicting way, 403 below the review role or in a locked space.
 */
export function mergeChangeRequest(spaceId: string, number: number) {
  return api.post<typeof mergeResultSchema>(changeRequestPath(spaceId, number, '/merge'), undefined);
}

export function useMergeChangeRequest(spaceId: string, number: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => mergeChangeRequest(spaceId, number),
    onSettled: async () => {
      await Promise.all([
        refreshChangeRequest(queryClient, spaceId, number),
        refreshSpace(queryClient, spaceId, { content: true }),
      ]);
    },
  });
}
