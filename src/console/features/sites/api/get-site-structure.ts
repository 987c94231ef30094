import { queryOptions, useSuspenseQuery } from '@tanstack/react-query';
import type { publishedContentSiteSchema } from '../../../../shared/contract';
import type { SiteStructure } from '../../../../shared/contract';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';
import { sitePath, type SiteRef } from '../utils/paths';

/**
 * The structure of a site (sections and groups in order, each section's site spaces; or site spaces alone), read
 * from `GET /v1/orgs/{organizationId}/sites/{siteId}/published`, which gives all of it in one answer, published or not.
 */
export async function getSiteStructure(site: SiteRef, signal?: AbortSignal): Promise<SiteStructure> {
  return (await api.get<typeof publishedContentSiteSchema>(sitePath(site, '/published'), { signal })).structure;
}

export function siteStructureQueryOptions(site: SiteRef) {
  return queryOptions({
    queryKey: queryKeys.sites.structure(site.siteId),
    queryFn: ({ signal }) => getSiteStructure(site, signal),
  });
}

export function useSiteStructure(site: SiteRef) {
  return useSuspenseQuery(siteStructureQueryOptions(site)).data;
}
