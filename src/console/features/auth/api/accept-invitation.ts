import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { acceptedInvitationSchema } from '../../../../shared/contract';
import type { UserInvitation } from '../../../../shared/contract';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** `POST /v1/user/invitations/{invitationId}/accept` → `{organization}`: the caller joins with the invitation's role. */
export function acceptInvitation(invitationId: string) {
  return api.post<typeof acceptedInvitationSchema>(
    `/user/invitations/${encodeURIComponent(invitationId)}/accept`,
    undefined,
  );
}

/** Once accepted, the organization is in the switcher and the invitation is gone, before the caller moves on. */
export function useAcceptInvitation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (invitation: UserInvitation) => acceptInvitation(invitation.id),
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.invitations.mine }),
    onSuccess: ({ organization }) =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeys.organizations.all }),
        queryClient.invalidateQueries({ queryKey: queryKeys.members.all(organization) }),
      ]),
  });
}
