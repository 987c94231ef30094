import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { commentChanged } from '../utils/cache';
import { threadsPath, type ThreadsOwner } from '../utils/paths';

/** `DELETE …/change-requests/{number}/comments/{commentId}` → 205: the thread with its replies. */
export function deleteComment(spaceId: string, number: ThreadsOwner, commentId: string) {
  return api.send('DELETE', threadsPath(spaceId, number, `/comments/${encodeURIComponent(commentId)}`));
}

export function useDeleteComment(spaceId: string, number: ThreadsOwner) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (commentId: string) => deleteComment(spaceId, number, commentId),
    onSuccess: (_, commentId) =>
      commentChanged(queryClient, spaceId, number, { removed: commentId }, { counters: true }),
  });
}
