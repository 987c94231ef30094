import { useMutation } from '@tanstack/react-query';
import type { UpdateSiteSpaceBody, siteSpaceSchema } from '../../../../shared/contract';
import { api } from '../../../lib/api-client';
import { useRefreshSite } from '../utils/cache';
import { sitePath, type SiteRef } from '../utils/paths';

/** `PATCH …/sites/{siteId}/site-spaces/{siteSpaceId}` → SiteSpace: its path, condition (`null` removes it), space. */
export function updateSiteSpace(site: SiteRef, siteSpaceId: string, body: UpdateSiteSpaceBody) {
  return api.patch<typeof siteSpaceSchema>(sitePath(site, `/site-spaces/${encodeURIComponent(siteSpaceId)}`), body);
}

export function useUpdateSiteSpace(site: SiteRef) {
  const refresh = useRefreshSite(site);
  return useMutation({
    mutationFn: ({ siteSpaceId, body }: { siteSpaceId: string; body: UpdateSiteSpaceBody }) =>
      updateSiteSpace(site, siteSpaceId, body),
    onSuccess: refresh,
  });
}
