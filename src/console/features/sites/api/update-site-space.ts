import { useMutation } from '@tanstack/react-query';
import { siteSpaceSchema, updateSiteSpaceBodySchema } from '../../../../shared/contract';
import type { UpdateSiteSpaceBody } from '../../../../shared/contract';
import { api } from '../../../lib/api-client';
import { useRefreshSite } from '../utils/cache';
import { sitePath, type SiteRef } from '../utils/paths';

export { updateSiteSpaceBodySchema };

/** `PATCH …/sites/{siteId}/site-spaces/{siteSpaceId}` → SiteSpace: its path, condition (`null` removes it), space. */
export function updateSiteSpace(site: SiteRef, siteSpaceId: string, body: UpdateSiteSpaceBody) {
  return api.patch(sitePath(site, `/site-spaces/${encodeURIComponent(siteSpaceId)}`), body, siteSpaceSchema);
}

export function useUpdateSiteSpace(site: SiteRef) {
  const refresh = useRefreshSite(site);
  return useMutation({
    mutationFn: ({ siteSpaceId, body }: { siteSpaceId: string; body: UpdateSiteSpaceBody }) =>
      updateSiteSpace(site, siteSpaceId, body),
    onSuccess: refresh,
  });
}
