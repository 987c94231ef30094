import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';
import { changeRequestPath } from '../utils/paths';

/** `DELETE /v1/spaces/{spaceId}/change-requests/{number}/requested-reviewers/{userId}`. */
export function removeRequestedReviewer(spaceId: string, number: number, userId: string) {
  return api.send('DELETE', changeRequestPath(spaceId, number, `/requested-reviewers/${encodeURIComponent(userId)}`));
}

export function useRemoveRequestedReviewer(spaceId: string, number: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (userId: string) => removeRequestedReviewer(spaceId, number, userId),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.changeRequests.reviewers(spaceId, number) }),
  });
}
