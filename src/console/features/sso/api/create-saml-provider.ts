import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CreateSamlProviderBody, samlProviderSchema } from '../../../../shared/contract';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** `POST /v1/orgs/{organizationId}/saml` → 201; the server parses the certificate and says what is wrong with it. */
export function createSamlProvider(organizationId: string, body: CreateSamlProviderBody) {
  return api.post<typeof samlProviderSchema>(`/orgs/${encodeURIComponent(organizationId)}/saml`, body);
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
