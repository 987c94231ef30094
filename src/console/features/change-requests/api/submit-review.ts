import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { reviewSchema } from '../../../../shared/contract';
import type { submitReviewBodySchema } from '../../../../shared/contract';
import type { z } from 'zod';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';
import { changeRequestPath } from '../utils/paths';

export type SubmitReviewBody = z.input<typeof submitReviewBodySchema>;

/** `POST /v1/spaces/{spaceId}/change-requests/{number}/reviews` `{status, comment?}` → 201 Review. */
export function submitReview(spaceId: string, number: number, body: SubmitReviewBody) {
  return api.post<typeof reviewSchema>(changeRequestPath(spaceId, number, '/reviews'), body);
}

export function useSubmitReview(spaceId: string, number: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: SubmitReviewBody) => submitReview(spaceId, number, body),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeys.changeRequests.reviews(spaceId, number) }),
        queryClient.invalidateQueries({ queryKey: queryKeys.changeRequests.reviewers(spaceId, number) }),
      ]),
  });
}
