import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { UpdateChangeRequestBody, changeRequestSchema } from '../../../../shared/contract';
import { api } from '../../../lib/api-client';
import { changeRequestChanged, refreshSpace } from '../utils/cache';
import { changeRequestPath } from '../utils/paths';

/** `PATCH /v1/spaces/{spaceId}/change-requests/{number}`: subject, or status draft / open / archived. */
export function updateChangeRequest(spaceId: string, number: number, body: UpdateChangeRequestBody) {
  return api.patch<typeof changeRequestSchema>(changeRequestPath(spaceId, number), body);
}

export function useUpdateChangeRequest(spaceId: string, number: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: UpdateChangeRequestBody) => updateChangeRequest(spaceId, number, body),
    onSuccess: async (updated) => {
      await Promise.all([changeRequestChanged(queryClient, updated), refreshSpace(queryClient, spaceId)]);
    },
  });
}
