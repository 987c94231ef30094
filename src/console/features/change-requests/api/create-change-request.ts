import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CreateChangeRequestBody, changeRequestSchema } from '../../../../shared/contract';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';
import { refreshSpace } from '../utils/cache';

/** `POST /v1/spaces/{spaceId}/change-requests` → 201 ChangeRequest, based on the space's current revision. */
export function createChangeRequest(spaceId: string, body: CreateChangeRequestBody) {
  return api.post<typeof changeRequestSchema>(`/spaces/${encodeURIComponent(spaceId)}/change-requests`, body);
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
