import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { commentChanged } from '../utils/cache';
import { changeRequestPath } from '../utils/paths';

/** `DELETE …/change-requests/{number}/comments/{commentId}` → 205: the thread with its replies. */
export function deleteComment(spaceId: string, number: number, commentId: string) {
  return api.send('DELETE', changeRequestPath(spaceId, number, `/comments/${encodeURIComponent(commentId)}`));
}

export function useDeleteComment(spaceId: string, number: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (commentId: string) => deleteComment(spaceId, number, commentId),
    onSuccess: (_, commentId) =>
      commentChanged(queryClient, spaceId, number, { removed: commentId }, { counters: true }),
  });
}
