import { queryOptions, useSuspenseQuery } from '@tanstack/react-query';
import { shareLinkListSchema } from '../../../../shared/contract';
import type { ShareLink } from '../../../../shared/contract';
import { getAllPages } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';
import { sitePath, type SiteRef } from '../utils/paths';

/** `GET …/sites/{siteId}/share-links`: every share link of the site, oldest first. */
export function getShareLinks(site: SiteRef, signal?: AbortSignal): Promise<ShareLink[]> {
  return getAllPages(sitePath(site, '/share-links'), shareLinkListSchema, {}, signal);
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
