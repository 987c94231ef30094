import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** `DELETE /v1/user/tokens/{tokenId}` → 205 (204 when it was gone already): the token stops working at once. */
export function revokeToken(tokenId: string) {
  return api.send('DELETE', `/user/tokens/${encodeURIComponent(tokenId)}`);
}

export function useRevokeToken() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: revokeToken,
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.account.tokens }),
  });
}
