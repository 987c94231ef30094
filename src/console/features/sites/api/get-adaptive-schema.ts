import { queryOptions, useSuspenseQuery } from '@tanstack/react-query';
import type { siteAdaptiveSchemaSchema } from '../../../../shared/contract';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';
import { sitePath, type SiteRef } from '../utils/paths';

/** `GET …/sites/{siteId}/adaptive-schema`: the claims visitors carry (a JSON Schema draft-07). */
export function getAdaptiveSchema(site: SiteRef, signal?: AbortSignal) {
  return api.get<typeof siteAdaptiveSchemaSchema>(sitePath(site, '/adaptive-schema'), { signal });
}

export function adaptiveSchemaQueryOptions(site: SiteRef) {
  return queryOptions({
    queryKey: queryKeys.sites.adaptiveSchema(site.siteId),
    queryFn: ({ signal }) => getAdaptiveSchema(site, signal),
  });
}

export function useAdaptiveSchema(site: SiteRef) {
  return useSuspenseQuery(adaptiveSchemaQueryOptions(site)).data;
}
