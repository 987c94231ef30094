import { useMutation, useQueryClient } from '@tanstack/react-query';
import { changeRequestSchema, createChangeRequestBodySchema } from '../../../../shared/contract';
import type { CreateChangeRequestBody } from '../../../../shared/contract';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';
import { refreshSpace } from '../utils/cache';

export { createChangeRequestBodySchema };

/** `POST /v1/spaces/{spaceId}/change-requests` → 201 ChangeRequest, based on the space's current revision. */
export function createChangeRequest(spaceId: string, body: CreateChangeRequestBody) {
  return api.post(`/spaces/${encodeURIComponent(spaceId)}/change-requests`, body, changeRequestSchema);
}

export function useCreateChangeRequest(spaceId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateChangeRequestBody) => createChangeRequest(spaceId, body),
    onSuccess: async (created) => {
      queryClient.setQueryData(queryKeys.changeRequests.detail(spaceId, created.number), created);
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeys.changeRequests.lists(spaceId) }),
        refreshSpace(queryClient, spaceId),
      ]);
    },
  });
}
