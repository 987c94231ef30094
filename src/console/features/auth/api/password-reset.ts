import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  PasswordResetComplete,
  PasswordResetRequest,
  passwordResetCheckResultSchema,
  passwordResetResultSchema,
} from '../../../../shared/contract';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** `POST /v1/auth/password-reset`: answers 202 whether or not the address has an account. */
export function useRequestPasswordReset() {
  return useMutation({ mutationFn: (body: PasswordResetRequest) => api.post('/auth/password-reset', body) });
}

/** Whose account a reset link is for, and its API tokens; an error when the link no longer works. */
export function usePasswordResetCheck(token: string | null) {
  return useQuery({
    queryKey: ['password-reset', token],
    queryFn: () => api.post<typeof passwordResetCheckResultSchema>('/auth/password-reset/check', { token }),
    enabled: token !== null,
    retry: false,
    staleTime: Infinity,
  });
}

/** `POST /v1/auth/password-reset/complete`: signs this browser in as the account (every other session ends). */
export function useCompletePasswordReset() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: PasswordResetComplete) =>
      api.post<typeof passwordResetResultSchema>('/auth/password-reset/complete', body),
    onSuccess: (result) => {
      queryClient.clear();
      queryClient.setQueryData(queryKeys.user, result.user);
    },
  });
}
