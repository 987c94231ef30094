import { useMutation, useQueryClient } from '@tanstack/react-query';
import { createTokenBodySchema, createdTokenSchema } from '../../../../shared/contract';
import type { CreateTokenBody } from '../../../../shared/contract';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

export { createTokenBodySchema };

/** `POST /v1/user/tokens {label}` → 201 with the secret `token`, which no later answer shows again. */
export function createToken(body: CreateTokenBody) {
  return api.post('/user/tokens', body, createdTokenSchema);
}

export function useCreateToken() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createToken,
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.account.tokens }),
  });
}
