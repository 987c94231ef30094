import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { requestReviewersResultSchema } from '../../../../shared/contract';
import type { requestReviewersBodySchema } from '../../../../shared/contract';
import type { z } from 'zod';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';
import { changeRequestPath } from '../utils/paths';

/** `POST /v1/spaces/{spaceId}/change-requests/{number}/requested-reviewers` `{users: [userId]}`. */
export function requestReviewers(spaceId: string, number: number, body: z.input<typeof requestReviewersBodySchema>) {
  return api.post<typeof requestReviewersResultSchema>(
    changeRequestPath(spaceId, number, '/requested-reviewers'),
    body,
  );
}

export function useRequestReviewers(spaceId: string, number: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (users: string[]) => requestReviewers(spaceId, number, { users }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.changeRequests.reviewers(spaceId, number) }),
  });
}
