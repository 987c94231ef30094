import { queryOptions, useSuspenseQuery } from '@tanstack/react-query';
import type { shareLinkListSchema } from '../../../../shared/contract';
import type { ShareLink } from '../../../../shared/contract';
import { getAllPages } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';
import { sitePath, type SiteRef } from '../utils/paths';

/** `GET …/sites/{siteId}/share-links`: every share link of the site, oldest first. */
export function getShareLinks(site: SiteRef, signal?: AbortSignal): Promise<ShareLink[]> {
  return getAllPages<typeof shareLinkListSchema>(sitePath(site, '/share-links'), {}, signal);
}

export function shareLinksQueryOptions(site: SiteRef) {
  return queryOptions({
    queryKey: queryKeys.sites.shareLinks(site.siteId),
    queryFn: ({ signal }) => getShareLinks(site, signal),
  });
}

export function useShareLinks(site: SiteRef) {
  return useSuspenseQuery(shareLinksQueryOptions(site)).data;
}
