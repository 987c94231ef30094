import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { LoginBody, authResultSchema } from '../../../../shared/contract';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** `POST /v1/auth/login`: sets the session and CSRF cookies. */
export function login(body: LoginBody) {
  return api.post<typeof authResultSchema>('/auth/login', body);
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
