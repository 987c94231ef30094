import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { UpdateSamlProviderBody, samlProviderSchema } from '../../../../shared/contract';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** `PATCH /v1/orgs/{organizationId}/saml/{samlProviderId}`: the fields given change. */
export function updateSamlProvider(organizationId: string, providerId: string, body: UpdateSamlProviderBody) {
  return api.patch<typeof samlProviderSchema>(
    `/orgs/${encodeURIComponent(organizationId)}/saml/${encodeURIComponent(providerId)}`,
    body,
  );
}

export function useUpdateSamlProvider(organizationId: string, providerId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: UpdateSamlProviderBody) => updateSamlProvider(organizationId, providerId, body),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeys.sso.providers(organizationId) }),
        queryClient.invalidateQueries({ queryKey: queryKeys.sso.logins(organizationId) }),
      ]),
  });
}
