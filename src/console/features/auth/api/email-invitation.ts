import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { acceptedInvitationSchema, invitationCheckSchema } from '../../../../shared/contract';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/**
 * An invitation by e-mail opened from its link (`/invitations/{id}#<secret>`): the secret is kept for the tab's
 * session, so signing in on the way (which leaves the page) does not lose it.
 */
const KEY = (id: string) => `docspace.invitation.${id}`;

export function rememberInvitationSecret(id: string, secret: string): void {
  try {
    sessionStorage.setItem(KEY(id), secret);
  } catch {
    // Storage may be off: the link still works while the page stays open.
  }
}

export function rememberedInvitationSecret(id: string): string | null {
  try {
    return sessionStorage.getItem(KEY(id));
  } catch {
    return null;
  }
}

export function forgetInvitationSecret(id: string): void {
  try {
    sessionStorage.removeItem(KEY(id));
  } catch {
    // nothing kept
  }
}

/** `POST /v1/invitations/{id}/check`: what the link invites to; 404 when it no longer works. */
export function useInvitationCheck(id: string, token: string | null) {
  return useQuery({
    queryKey: ['invitation-link', id, token],
    queryFn: () => api.post<typeof invitationCheckSchema>(`/invitations/${encodeURIComponent(id)}/check`, { token }),
    enabled: token !== null,
    retry: false,
    staleTime: Infinity,
  });
}

/** `POST /v1/invitations/{id}/accept|decline` with the link's secret. */
export function useAnswerInvitationLink(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ token, answer }: { token: string; answer: 'accept' | 'decline' }) =>
      answer === 'accept'
        ? api.post<typeof acceptedInvitationSchema>(`/invitations/${encodeURIComponent(id)}/accept`, { token })
        : api.post(`/invitations/${encodeURIComponent(id)}/decline`, { token }).then(() => null),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeys.organizations.all }),
        queryClient.invalidateQueries({ queryKey: queryKeys.invitations.mine }),
        queryClient.invalidateQueries({ queryKey: queryKeys.user }),
      ]),
  });
}
