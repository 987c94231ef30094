import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, isApiError } from '../../../lib/api-client';

/** `POST /v1/auth/logout` → 204: ends the session and clears its cookies. A session already gone counts as done. */
export async function logout(): Promise<void> {
  try {
    await api.send('POST', '/auth/logout');
  } catch (error) {
    if (!isApiError(error, 401)) throw error;
  }
}

/** Signs out, lets the caller leave the signed-in pages, then forgets everything cached for that account. */
export function useLogout({ afterSignOut }: { afterSignOut: () => Promise<void> | void }) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: logout,
    onSuccess: async () => {
      await afterSignOut();
      queryClient.clear();
    },
  });
}
