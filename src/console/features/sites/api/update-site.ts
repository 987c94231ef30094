import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { UpdateSiteBody, siteSchema } from '../../../../shared/contract';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';
import { useRefreshSite } from '../utils/cache';
import { sitePath, type SiteRef } from '../utils/paths';

/** `PATCH /v1/orgs/{organizationId}/sites/{siteId}` → Site; `proxy: null` removes the proxy. */
export function updateSite(site: SiteRef, body: UpdateSiteBody) {
  return api.patch<typeof siteSchema>(sitePath(site), body);
}

export function useUpdateSite(site: SiteRef) {
  const queryClient = useQueryClient();
  const refresh = useRefreshSite(site);
  return useMutation({
    mutationFn: (body: UpdateSiteBody) => updateSite(site, body),
    onSuccess: async (updated) => {
      queryClient.setQueryData(queryKeys.sites.detail(updated.id), updated);
      // The defaults live in the structure too.
      await refresh();
    },
  });
}
