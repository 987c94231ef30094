import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';
import { sitePath, type SiteRef } from '../utils/paths';

/** `DELETE /v1/orgs/{organizationId}/sites/{siteId}`: the site goes with its structure and share links. */
export function deleteSite(site: SiteRef) {
  return api.send('DELETE', sitePath(site));
}

/** `onDeleted` runs before the cache forgets the site, so the page showing it can leave first. */
export function useDeleteSite(site: SiteRef, { onDeleted }: { onDeleted?: () => Promise<void> | void } = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => deleteSite(site),
    onSuccess: async () => {
      await onDeleted?.();
      queryClient.removeQueries({ queryKey: queryKeys.sites.site(site.siteId) });
      await queryClient.invalidateQueries({ queryKey: queryKeys.sites.lists(site.organizationId) });
    },
  });
}
