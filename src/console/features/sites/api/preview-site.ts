import { useMutation } from '@tanstack/react-query';
import type { sitePreviewGrantSchema } from '../../../../shared/contract';
import { api } from '../../../lib/api-client';
import { sitePath, type SiteRef } from '../utils/paths';

/**
 * `POST /v1/orgs/{organizationId}/sites/{siteId}/preview-grant` → a URL that opens the published site for 15
 * minutes, whatever its visibility (for the site's managers).
 */
export function grantSitePreview(site: SiteRef) {
  return api.post<typeof sitePreviewGrantSchema>(sitePath(site, '/preview-grant'), undefined);
}

export function useSitePreviewGrant(site: SiteRef) {
  return useMutation({ mutationFn: () => grantSitePreview(site) });
}
