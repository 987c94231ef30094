import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { passwordChangedSchema } from '../../../../shared/contract';
import type { ChangePasswordBody } from '../../../../shared/contract';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/**
 * `POST /v1/user/password {currentPassword, newPassword, revokeTokens?}` → `{signedOut, revokedTokens,
 * remainingTokens}`: the other sessions are signed out, the lasting API tokens revoked when asked. A wrong current
 * password is a 400 naming `currentPassword`; too many wrong ones a 429.
 */
export function changePassword(body: ChangePasswordBody) {
  return api.post<typeof passwordChangedSchema>('/user/password', body);
}

export function useChangePassword() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: changePassword,
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeys.account.sessions }),
        queryClient.invalidateQueries({ queryKey: queryKeys.account.tokens }),
      ]),
  });
}
