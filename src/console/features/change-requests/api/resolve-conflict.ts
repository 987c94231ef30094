import { useMutation, useQueryClient } from '@tanstack/react-query';
import { conflictListSchema, mergeResultSchema } from '../../../../shared/contract';
import type { ConflictResolution } from '../../../../shared/contract';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';
import { refreshChangeRequest } from '../utils/cache';
import { changeRequestPath } from '../utils/paths';

const resolveResultSchema = mergeResultSchema.extend({ conflicts: conflictListSchema });

/**
 * `POST /v1/spaces/{spaceId}/change-requests/{number}/conflicts/{conflictId}` with `{keep}` or `{markdown}`.
 * When it was the last unresolved conflict, the update from the space applies (`result: 'update'`).
 */
export function resolveConflict(spaceId: string, number: number, conflictId: string, resolution: ConflictResolution) {
  return api.post(
    changeRequestPath(spaceId, number, `/conflicts/${encodeURIComponent(conflictId)}`),
    resolution,
    resolveResultSchema,
  );
}

export function useResolveConflict(spaceId: string, number: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ conflictId, resolution }: { conflictId: string; resolution: ConflictResolution }) =>
      resolveConflict(spaceId, number, conflictId, resolution),
    onSuccess: async (result) => {
      queryClient.setQueryData(queryKeys.changeRequests.conflicts(spaceId, number), result.conflicts);
      if (result.result === 'update') await refreshChangeRequest(queryClient, spaceId, number);
      else await queryClient.invalidateQueries({ queryKey: queryKeys.changeRequests.detail(spaceId, number) });
    },
  });
}
