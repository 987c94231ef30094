import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { OrgInvitation } from '../../../../shared/contract';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** `DELETE /v1/orgs/{organizationId}/invitations/{invitationId}` → 205 (204 when it was gone already). */
export function revokeInvitation(organizationId: string, invitationId: string) {
  return api.send(
    'DELETE',
    `/orgs/${encodeURIComponent(organizationId)}/invitations/${encodeURIComponent(invitationId)}`,
  );
}

export function useRevokeInvitation(organizationId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (invitation: OrgInvitation) => revokeInvitation(organizationId, invitation.id),
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.invitations.organization(organizationId) }),
  });
}
