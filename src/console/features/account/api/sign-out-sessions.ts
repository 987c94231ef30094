import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { signedOutSchema } from '../../../../shared/contract';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** `DELETE /v1/user/sessions/{sessionId}` → 204; 404 when it is not (or no longer) one of the account's. */
export function signOutSession(sessionId: string) {
  return api.send('DELETE', `/user/sessions/${encodeURIComponent(sessionId)}`);
}

/** `DELETE /v1/user/sessions` → `{signedOut}`: every session but this one. */
export function signOutOtherSessions() {
  return api.delete<typeof signedOutSchema>('/user/sessions');
}

export function useSignOutSession() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: signOutSession,
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.account.sessions }),
  });
}

export function useSignOutOtherSessions() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: signOutOtherSessions,
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.account.sessions }),
  });
}
