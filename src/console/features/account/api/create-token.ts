import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CreateTokenBody, createdTokenSchema } from '../../../../shared/contract';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** `POST /v1/user/tokens {label}` → 201 with the secret `token`, which no later answer shows again. */
export function createToken(body: CreateTokenBody) {
  return api.post<typeof createdTokenSchema>('/user/tokens', body);
}

export function useCreateToken() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createToken,
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.account.tokens }),
  });
}
