import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { SsoLink } from '../../../../shared/contract';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/**
 * `DELETE /v1/user/sso-links/{providerId}` → 205 (204 when it was not linked); 409 when the provider created the
 * account and the account has no password: it is the only way in.
 */
export function unlinkSsoProvider(providerId: string) {
  return api.send('DELETE', `/user/sso-links/${encodeURIComponent(providerId)}`);
}

export function useUnlinkSsoProvider() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (link: SsoLink) => unlinkSsoProvider(link.provider.id),
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.account.ssoLinks }),
  });
}
