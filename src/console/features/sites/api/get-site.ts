import { queryOptions, useSuspenseQuery } from '@tanstack/react-query';
import type { siteSchema } from '../../../../shared/contract';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';
import { sitePath, type SiteRef } from '../utils/paths';

/** `GET /v1/orgs/{organizationId}/sites/{siteId}`. */
export function getSite(site: SiteRef, signal?: AbortSignal) {
  return api.get<typeof siteSchema>(sitePath(site), { signal });
}

export function siteQueryOptions(site: SiteRef) {
  return queryOptions({
    queryKey: queryKeys.sites.detail(site.siteId),
    queryFn: ({ signal }) => getSite(site, signal),
  });
}

export function useSite(site: SiteRef) {
  return useSuspenseQuery(siteQueryOptions(site)).data;
}
