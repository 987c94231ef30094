import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { OrgInvitation, orgInvitationSchema } from '../../../../shared/contract';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** `POST /v1/orgs/{organizationId}/invitations/{invitationId}/resend`: a new link, a new expiry (429 within 10 min). */
export function resendInvitation(organizationId: string, invitationId: string) {
  return api.post<typeof orgInvitationSchema>(
    `/orgs/${encodeURIComponent(organizationId)}/invitations/${encodeURIComponent(invitationId)}/resend`,
    {},
  );
}

export function useResendInvitation(organizationId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (invitation: OrgInvitation) => resendInvitation(organizationId, invitation.id),
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.invitations.organization(organizationId) }),
  });
}
