import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CreateInviteLinkBody, inviteLinkSchema } from '../../../../shared/contract';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** `POST /v1/orgs/{organizationId}/link-invites` `{role}` → 201 the link. */
export function createInviteLink(organizationId: string, body: CreateInviteLinkBody) {
  return api.post<typeof inviteLinkSchema>(`/orgs/${encodeURIComponent(organizationId)}/link-invites`, body);
}

export function useCreateInviteLink(organizationId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateInviteLinkBody) => createInviteLink(organizationId, body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.inviteLinks.list(organizationId) }),
  });
}
