import { queryOptions, useSuspenseQuery } from '@tanstack/react-query';
import type { publishingAuthSchema } from '../../../../shared/contract';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';
import { sitePath, type SiteRef } from '../utils/paths';

/** `GET …/sites/{siteId}/publishing/auth`: the key visitor JWTs are signed with (HS256), and the fallback URL. */
export function getPublishingAuth(site: SiteRef, signal?: AbortSignal) {
  return api.get<typeof publishingAuthSchema>(sitePath(site, '/publishing/auth'), { signal });
}

export function publishingAuthQueryOptions(site: SiteRef) {
  return queryOptions({
    queryKey: queryKeys.sites.publishingAuth(site.siteId),
    queryFn: ({ signal }) => getPublishingAuth(site, signal),
  });
}

export function usePublishingAuth(site: SiteRef) {
  return useSuspenseQuery(publishingAuthQueryOptions(site)).data;
}
