import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ssoLoginListSchema } from '../../../../shared/contract';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/**
 * `GET /v1/orgs/{organizationId}/sso`: the organization's sign-in buttons, `{id, label, startURL}`. Any member may
 * ask, whatever their session: it is how a member of an organization that enforces SSO finds the way in.
 */
export function getSsoLogins(organizationId: string, signal?: AbortSignal) {
  return api.get<typeof ssoLoginListSchema>(`/orgs/${encodeURIComponent(organizationId)}/sso`, { signal });
}

export function ssoLoginsQueryOptions(organizationId: string) {
  return queryOptions({
    queryKey: queryKeys.sso.logins(organizationId),
    queryFn: ({ signal }) => getSsoLogins(organizationId, signal),
    select: (list) => list.items,
  });
}

export function useSsoLogins(organizationId: string) {
  return useQuery(ssoLoginsQueryOptions(organizationId));
}
