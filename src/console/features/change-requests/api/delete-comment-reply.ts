import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { replyChanged } from '../utils/cache';
import { threadsPath, type ThreadsOwner } from '../utils/paths';

/** `DELETE …/comments/{commentId}/replies/{replyId}` → 205. */
export function deleteCommentReply(spaceId: string, number: ThreadsOwner, commentId: string, replyId: string) {
  return api.send(
    'DELETE',
    threadsPath(spaceId, number, `/comments/${encodeURIComponent(commentId)}/replies/${encodeURIComponent(replyId)}`),
  );
}

export function useDeleteCommentReply(spaceId: string, number: ThreadsOwner, commentId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (replyId: string) => deleteCommentReply(spaceId, number, commentId, replyId),
    onSuccess: (_, replyId) => replyChanged(queryClient, spaceId, number, commentId, { removed: replyId }),
  });
}
