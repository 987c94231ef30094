import { queryOptions, useQuery } from '@tanstack/react-query';
import type { samlProviderListSchema } from '../../../../shared/contract';
import { getAllPages } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** `GET /v1/orgs/{organizationId}/saml`: the organization's SAML identity providers (admins only). */
export function getSamlProviders(organizationId: string, signal?: AbortSignal) {
  return getAllPages<typeof samlProviderListSchema>(`/orgs/${encodeURIComponent(organizationId)}/saml`, {}, signal);
}

export function samlProvidersQueryOptions(organizationId: string) {
  return queryOptions({
    queryKey: queryKeys.sso.providers(organizationId),
    queryFn: ({ signal }) => getSamlProviders(organizationId, signal),
  });
}

export function useSamlProviders(organizationId: string) {
  return useQuery(samlProvidersQueryOptions(organizationId));
}
