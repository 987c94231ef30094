import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { PostCommentBody, commentSchema } from '../../../../shared/contract';
import { api } from '../../../lib/api-client';
import { commentChanged } from '../utils/cache';
import { threadsPath, type ThreadsOwner } from '../utils/paths';

export type { PostCommentBody };

/**
 * `POST /v1/spaces/{spaceId}/change-requests/{number}/comments` `{page?, node?, body}` → Comment: a thread on a
 * block of a page (`node`), on a page, or on the whole change request.
 */
export function postComment(spaceId: string, number: ThreadsOwner, body: PostCommentBody) {
  return api.post<typeof commentSchema>(threadsPath(spaceId, number, '/comments'), body);
}

export function usePostComment(spaceId: string, number: ThreadsOwner) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: PostCommentBody) => postComment(spaceId, number, body),
    onSuccess: (comment) => commentChanged(queryClient, spaceId, number, { comment }, { counters: true }),
  });
}
