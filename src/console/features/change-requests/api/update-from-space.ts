import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { mergeResultSchema } from '../../../../shared/contract';
import { api } from '../../../lib/api-client';
import { refreshChangeRequest } from '../utils/cache';
import { changeRequestPath } from '../utils/paths';

/**
 * `POST /v1/spaces/{spaceId}/change-requests/{number}/update`: brings the space's current content into the change
 * request. `result: 'update'` when it applied; `'conflicts'` when some changes conflict and wait for a resolution.
 */
export function updateFromSpace(spaceId: string, number: number) {
  return api.post<typeof mergeResultSchema>(changeRequestPath(spaceId, number, '/update'), undefined);
}

export function useUpdateFromSpace(spaceId: string, number: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => updateFromSpace(spaceId, number),
    onSettled: () => refreshChangeRequest(queryClient, spaceId, number),
  });
}
