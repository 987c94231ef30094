import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { InviteLink } from '../../../../shared/contract';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** `DELETE /v1/orgs/{organizationId}/link-invites/{inviteId}`: the link stops working; members stay. */
export function deleteInviteLink(organizationId: string, inviteId: string) {
  return api.send('DELETE', `/orgs/${encodeURIComponent(organizationId)}/link-invites/${encodeURIComponent(inviteId)}`);
}

export function useDeleteInviteLink(organizationId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (invite: InviteLink) => deleteInviteLink(organizationId, invite.id),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.inviteLinks.list(organizationId) }),
  });
}
