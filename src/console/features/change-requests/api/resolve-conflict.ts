import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type { conflictListSchema, ConflictResolution, mergeResultSchema } from '../../../../shared/contract';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';
import { refreshChangeRequest } from '../utils/cache';
import { changeRequestPath } from '../utils/paths';

/** The merge result, with the conflicts that are left. */
type ResolveResult = z.output<typeof mergeResultSchema> & { conflicts: z.output<typeof conflictListSchema> };

/**
 * `POST /v1/spaces/{spaceId}/change-requests/{number}/conflicts/{conflictId}` with `{keep}` or `{markdown}`.
 * When it was the last unresolved conflict, the update from the space applies (`result: 'update'`).
 */
export function resolveConflict(spaceId: string, number: number, conflictId: string, resolution: ConflictResolution) {
  return api.post<z.ZodType<ResolveResult>>(
    changeRequestPath(spaceId, number, `/conflicts/${encodeURIComponent(conflictId)}`),
    resolution,
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
