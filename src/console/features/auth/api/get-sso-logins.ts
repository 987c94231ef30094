import { queryOptions, useQuery } from '@tanstack/react-query';
import { ssoLoginListSchema } from '../../../../shared/contract';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** `GET /v1/orgs/{organizationId}/sso` (public): the organization's sign-in buttons, `{id, label, startURL}`. */
export function getSsoLogins(organizationId: string, signal?: AbortSignal) {
  return api.get(`/orgs/${encodeURIComponent(organizationId)}/sso`, ssoLoginListSchema, { signal });
}

export function ssoLoginsQueryOptions(organizationId: string) {
  return queryOptions({
    queryKey: queryKeys.sso.logins(organizationId),
    queryFn: ({ signal }) => getSsoLogins(organizationId, signal),
    select: (list) => list.items,
    retry: false,
  });
}

/** Asked only once an organization is named. */
export function useSsoLogins(organizationId: string | undefined) {
  return useQuery({ ...ssoLoginsQueryOptions(organizationId ?? ''), enabled: !!organizationId });
}
