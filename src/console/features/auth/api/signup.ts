import { useMutation, useQueryClient } from '@tanstack/react-query';
import { authResultSchema, signupBodySchema } from '../../../../shared/contract';
import type { SignupBody } from '../../../../shared/contract';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

export { signupBodySchema };

/** `POST /v1/auth/signup`: creates the account and signs it in; 403 when the server has sign-up closed. */
export function signup(body: SignupBody) {
  return api.post('/auth/signup', body, authResultSchema);
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
