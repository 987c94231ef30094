import { useMutation, useQueryClient } from '@tanstack/react-query';
import { changeRequestSchema, updateChangeRequestBodySchema } from '../../../../shared/contract';
import type { UpdateChangeRequestBody } from '../../../../shared/contract';
import { api } from '../../../lib/api-client';
import { changeRequestChanged, refreshSpace } from '../utils/cache';
import { changeRequestPath } from '../utils/paths';

export { updateChangeRequestBodySchema };

/** `PATCH /v1/spaces/{spaceId}/change-requests/{number}`: subject, or status draft / open / archived. */
export function updateChangeRequest(spaceId: string, number: number, body: UpdateChangeRequestBody) {
  return api.patch(changeRequestPath(spaceId, number), body, changeRequestSchema);
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
