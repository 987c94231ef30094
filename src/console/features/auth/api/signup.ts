import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { SignupBody, authResultSchema } from '../../../../shared/contract';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** `POST /v1/auth/signup`: creates the account and signs it in; 403 when the server has sign-up closed. */
export function signup(body: SignupBody) {
  return api.post<typeof authResultSchema>('/auth/signup', body);
}

export function useSignup() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: signup,
    onSuccess: (result) => {
      queryClient.clear();
      queryClient.setQueryData(queryKeys.user, result.user);
    },
  });
}
