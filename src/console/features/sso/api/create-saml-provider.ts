import { useMutation, useQueryClient } from '@tanstack/react-query';
import { createSamlProviderBodySchema, samlProviderSchema } from '../../../../shared/contract';
import type { CreateSamlProviderBody } from '../../../../shared/contract';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

export { createSamlProviderBodySchema };

/** `POST /v1/orgs/{organizationId}/saml` → 201; the server parses the certificate and says what is wrong with it. */
export function createSamlProvider(organizationId: string, body: CreateSamlProviderBody) {
  return api.post(`/orgs/${encodeURIComponent(organizationId)}/saml`, body, samlProviderSchema);
}

export function useCreateSamlProvider(organizationId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateSamlProviderBody) => createSamlProvider(organizationId, body),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeys.sso.providers(organizationId) }),
        queryClient.invalidateQueries({ queryKey: queryKeys.sso.logins(organizationId) }),
      ]),
  });
}
