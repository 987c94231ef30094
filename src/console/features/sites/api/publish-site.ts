import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { siteSchema } from '../../../../shared/contract';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';
import { useRefreshSite } from '../utils/cache';
import { sitePath, type SiteRef } from '../utils/paths';

/** `POST /v1/orgs/{organizationId}/sites/{siteId}/publish` → Site: readers find it at `urls.published`. */
export function publishSite(site: SiteRef) {
  return api.post<typeof siteSchema>(sitePath(site, '/publish'), undefined);
}

export function usePublishSite(site: SiteRef) {
  const queryClient = useQueryClient();
  const refresh = useRefreshSite(site);
  return useMutation({
    mutationFn: () => publishSite(site),
    onSuccess: async (updated) => {
      queryClient.setQueryData(queryKeys.sites.detail(updated.id), updated);
      await refresh();
    },
  });
}
