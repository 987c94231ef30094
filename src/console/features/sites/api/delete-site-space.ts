import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { useRefreshSite } from '../utils/cache';
import { sitePath, type SiteRef } from '../utils/paths';

/** `DELETE …/sites/{siteId}/site-spaces/{siteSpaceId}` (205): the space leaves the site, not the organization. */
export function deleteSiteSpace(site: SiteRef, siteSpaceId: string) {
  return api.send('DELETE', sitePath(site, `/site-spaces/${encodeURIComponent(siteSpaceId)}`));
}

export function useDeleteSiteSpace(site: SiteRef) {
  const refresh = useRefreshSite(site);
  return useMutation({ mutationFn: (siteSpaceId: string) => deleteSiteSpace(site, siteSpaceId), onSuccess: refresh });
}
