import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { SamlProvider } from '../../../../shared/contract';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** `DELETE /v1/orgs/{organizationId}/saml/{samlProviderId}`: nobody signs in through it any more. */
export function deleteSamlProvider(organizationId: string, providerId: string) {
  return api.send('DELETE', `/orgs/${encodeURIComponent(organizationId)}/saml/${encodeURIComponent(providerId)}`);
}

export function useDeleteSamlProvider(organizationId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (provider: SamlProvider) => deleteSamlProvider(organizationId, provider.id),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeys.sso.providers(organizationId) }),
        queryClient.invalidateQueries({ queryKey: queryKeys.sso.logins(organizationId) }),
      ]),
  });
}
