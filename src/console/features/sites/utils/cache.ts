import { useQueryClient } from '@tanstack/react-query';
import { queryKeys } from '../../../lib/query-keys';
import type { SiteRef } from './paths';

/**
 * Refetches what a change to a site may have changed: everything read of the site (its structure, defaults,
 * counts) and the organization's lists of sites (their site-space counts and titles).
 */
export function useRefreshSite({ organizationId, siteId }: SiteRef) {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: queryKeys.sites.site(siteId) }),
      queryClient.invalidateQueries({ queryKey: queryKeys.sites.lists(organizationId) }),
    ]);
}
