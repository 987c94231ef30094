import { queryOptions, useSuspenseQuery } from '@tanstack/react-query';
import type { customizationSchema } from '../../../../shared/contract';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';
import { sitePath, type SiteRef } from '../utils/paths';

/** `GET /v1/orgs/{organizationId}/sites/{siteId}/customization`. */
export function getCustomization(site: SiteRef, signal?: AbortSignal) {
  return api.get<typeof customizationSchema>(sitePath(site, '/customization'), { signal });
}

export function customizationQueryOptions(site: SiteRef) {
  return queryOptions({
    queryKey: queryKeys.sites.customization(site.siteId),
    queryFn: ({ signal }) => getCustomization(site, signal),
  });
}

export function useCustomization(site: SiteRef) {
  return useSuspenseQuery(customizationQueryOptions(site)).data;
}
