import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { UserInvitation } from '../../../../shared/contract';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** `POST /v1/user/invitations/{invitationId}/decline` → 204: the invitation is gone; nothing else changes. */
export function declineInvitation(invitationId: string) {
  return api.send('POST', `/user/invitations/${encodeURIComponent(invitationId)}/decline`);
}

export function useDeclineInvitation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (invitation: UserInvitation) => declineInvitation(invitation.id),
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.invitations.mine }),
  });
}
