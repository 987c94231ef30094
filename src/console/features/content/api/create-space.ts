import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CreateSpaceBody, spaceSchema } from '../../../../shared/contract';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** `POST /v1/orgs/{organizationId}/spaces` → 201 Space, at the root or inside the collection `parent`. */
export function createSpace(organizationId: string, body: CreateSpaceBody) {
  return api.post<typeof spaceSchema>(`/orgs/${encodeURIComponent(organizationId)}/spaces`, body);
}

export function useCreateSpace(organizationId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateSpaceBody) => createSpace(organizationId, body),
    onSuccess: async (space) => {
      queryClient.setQueryData(queryKeys.spaces.detail(space.id), space);
      await queryClient.invalidateQueries({ queryKey: queryKeys.spaces.list(organizationId) });
    },
  });
}
