import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { UpdateReplyBody, commentReplySchema } from '../../../../shared/contract';
import { api } from '../../../lib/api-client';
import { replyChanged } from '../utils/cache';
import { threadsPath, type ThreadsOwner } from '../utils/paths';

export type { UpdateReplyBody };

/** `PUT …/comments/{commentId}/replies/{replyId}` `{body?, addedReactions?, removedReactions?}` → CommentReply. */
export function updateCommentReply(
  spaceId: string,
  number: ThreadsOwner,
  commentId: string,
  replyId: string,
  body: UpdateReplyBody,
) {
  return api.put<typeof commentReplySchema>(
    threadsPath(spaceId, number, `/comments/${encodeURIComponent(commentId)}/replies/${encodeURIComponent(replyId)}`),
    body,
  );
}

export function useUpdateCommentReply(spaceId: string, number: ThreadsOwner, commentId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ replyId, body }: { replyId: string; body: UpdateReplyBody }) =>
      updateCommentReply(spaceId, number, commentId, replyId, body),
    // As for comments (update-comment.ts): pending until the answer is shown, not until the refetch after it.
    onSuccess: (reply) => {
      void replyChanged(queryClient, spaceId, number, commentId, { reply });
    },
  });
}
