import { useMutation, useQueryClient } from '@tanstack/react-query';
import { authResultSchema, loginBodySchema } from '../../../../shared/contract';
import type { LoginBody } from '../../../../shared/contract';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

export { loginBodySchema };

/** `POST /v1/auth/login`: sets the session and CSRF cookies. */
export function login(body: LoginBody) {
  return api.post('/auth/login', body, authResultSchema);
}

export function useLogin() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: login,
    onSuccess: (result) => {
      // Whatever another account left in the cache is not for this one.
      queryClient.clear();
      queryClient.setQueryData(queryKeys.user, result.user);
    },
  });
}
