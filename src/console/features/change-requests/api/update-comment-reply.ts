import { useMutation, useQueryClient } from '@tanstack/react-query';
import { commentReplySchema, updateReplyBodySchema } from '../../../../shared/contract';
import type { UpdateReplyBody } from '../../../../shared/contract';
import { api } from '../../../lib/api-client';
import { replyChanged } from '../utils/cache';
import { changeRequestPath } from '../utils/paths';

export { updateReplyBodySchema };
export type { UpdateReplyBody };

/** `PUT …/comments/{commentId}/replies/{replyId}` `{body?, addedReactions?, removedReactions?}` → CommentReply. */
export function updateCommentReply(
  spaceId: string,
  number: number,
  commentId: string,
  replyId: string,
  body: UpdateReplyBody,
) {
  return api.put(
    changeRequestPath(
      spaceId,
      number,
      `/comments/${encodeURIComponent(commentId)}/replies/${encodeURIComponent(replyId)}`,
    ),
    body,
    commentReplySchema,
  );
}

export function useUpdateCommentReply(spaceId: string, number: number, commentId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ replyId, body }: { replyId: string; body: UpdateReplyBody }) =>
      updateCommentReply(spaceId, number, commentId, replyId, body),
    onSuccess: (reply) => replyChanged(queryClient, spaceId, number, commentId, { reply }),
  });
}
