import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';
import { sitePath, type SiteRef } from '../utils/paths';

/** `DELETE …/sites/{siteId}/share-links/{shareLinkId}` (205): its URL stops working at once. */
export function deleteShareLink(site: SiteRef, shareLinkId: string) {
  return api.send('DELETE', sitePath(site, `/share-links/${encodeURIComponent(shareLinkId)}`));
}

export function useDeleteShareLink(site: SiteRef) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (shareLinkId: string) => deleteShareLink(site, shareLinkId),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.sites.shareLinks(site.siteId) }),
  });
}
