import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { siteSchema } from '../../../../shared/contract';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';
import { useRefreshSite } from '../utils/cache';
import { sitePath, type SiteRef } from '../utils/paths';

/** `POST /v1/orgs/{organizationId}/sites/{siteId}/unpublish` → Site: its published URL answers 404 again. */
export function unpublishSite(site: SiteRef) {
  return api.post<typeof siteSchema>(sitePath(site, '/unpublish'), undefined);
}

export function useUnpublishSite(site: SiteRef) {
  const queryClient = useQueryClient();
  const refresh = useRefreshSite(site);
  return useMutation({
    mutationFn: () => unpublishSite(site),
    onSuccess: async (updated) => {
      queryClient.setQueryData(queryKeys.sites.detail(updated.id), updated);
      await refresh();
    },
  });
}
