import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { commentReplySchema } from '../../../../shared/contract';
import type { postReplyBodySchema } from '../../../../shared/contract';
import type { z } from 'zod';
import { api } from '../../../lib/api-client';
import { replyChanged } from '../utils/cache';
import { threadsPath, type ThreadsOwner } from '../utils/paths';

export type PostReplyBody = z.infer<typeof postReplyBodySchema>;

/** `POST …/change-requests/{number}/comments/{commentId}/replies` `{body}` → CommentReply. */
export function postCommentReply(spaceId: string, number: ThreadsOwner, commentId: string, body: PostReplyBody) {
  return api.post<typeof commentReplySchema>(
    threadsPath(spaceId, number, `/comments/${encodeURIComponent(commentId)}/replies`),
    body,
  );
}

export function usePostCommentReply(spaceId: string, number: ThreadsOwner, commentId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: PostReplyBody) => postCommentReply(spaceId, number, commentId, body),
    onSuccess: (reply) => replyChanged(queryClient, spaceId, number, commentId, { reply }),
  });
}
