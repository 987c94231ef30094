import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { verifyEmailResultSchema } from '../../../../shared/contract';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** `POST /v1/auth/verify-email`: follows a link confirming an address (at sign-up, or a change of address). */
export function useVerifyEmail() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (token: string) => api.post<typeof verifyEmailResultSchema>('/auth/verify-email', { token }),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeys.user }),
        queryClient.invalidateQueries({ queryKey: queryKeys.invitations.mine }),
      ]),
  });
}
