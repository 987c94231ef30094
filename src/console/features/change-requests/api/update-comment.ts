import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { UpdateCommentBody, commentSchema } from '../../../../shared/contract';
import { api } from '../../../lib/api-client';
import { commentChanged } from '../utils/cache';
import { threadsPath, type ThreadsOwner } from '../utils/paths';

export type { UpdateCommentBody };

/**
 * `PUT …/change-requests/{number}/comments/{commentId}` `{resolved?, body?, addedReactions?, removedReactions?}`
 * → Comment. Only the author changes the body; whoever can comment resolves, reopens and reacts.
 */
export function updateComment(spaceId: string, number: ThreadsOwner, commentId: string, body: UpdateCommentBody) {
  return api.put<typeof commentSchema>(
    threadsPath(spaceId, number, `/comments/${encodeURIComponent(commentId)}`),
    body,
  );
}

export function useUpdateComment(spaceId: string, number: ThreadsOwner) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ commentId, body }: { commentId: string; body: UpdateCommentBody }) =>
      updateComment(spaceId, number, commentId, body),
    // The answer is shown at once and the refetch that follows is not awaited: the mutation stops being pending when
    // its answer is on screen (a click on the reaction the answer shows was ignored while that refetch ran).
    onSuccess: (comment, { body }) => {
      void commentChanged(queryClient, spaceId, number, { comment }, { counters: body.resolved !== undefined });
    },
  });
}
