import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { signedOutSchema } from '../../../../shared/contract';
import type { ChangePasswordBody } from '../../../../shared/contract';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/**
 * `POST /v1/user/password {currentPassword, newPassword}` → `{signedOut}`: the other sessions are signed out. A
 * wrong current password is a 400 naming `currentPassword`; too many wrong ones a 429.
 */
export function changePassword(body: ChangePasswordBody) {
  return api.post<typeof signedOutSchema>('/user/password', body);
}

export function useChangePassword() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: changePassword,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.account.sessions }),
  });
}
