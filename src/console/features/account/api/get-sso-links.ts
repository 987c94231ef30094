import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ssoLinkListSchema } from '../../../../shared/contract';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** `GET /v1/user/sso-links`: the identity providers that sign in the caller's account, linked or account-creating. */
export function getSsoLinks(signal?: AbortSignal) {
  return api.get<typeof ssoLinkListSchema>('/user/sso-links', { signal });
}

export function ssoLinksQueryOptions() {
  return queryOptions({
    queryKey: queryKeys.account.ssoLinks,
    queryFn: ({ signal }) => getSsoLinks(signal),
    select: (list) => list.items,
  });
}

export function useSsoLinks() {
  return useQuery(ssoLinksQueryOptions());
}
