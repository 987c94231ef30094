import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ShareLink, UpdateShareLinkBody, shareLinkSchema } from '../../../../shared/contract';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';
import { sitePath, type SiteRef } from '../utils/paths';

/** `PATCH …/sites/{siteId}/share-links/{shareLinkId}` → ShareLink: rename it, or (de)activate it at once. */
export function updateShareLink(site: SiteRef, shareLinkId: string, body: UpdateShareLinkBody) {
  return api.patch<typeof shareLinkSchema>(sitePath(site, `/share-links/${encodeURIComponent(shareLinkId)}`), body);
}

export function useUpdateShareLink(site: SiteRef) {
  const queryClient = useQueryClient();
  const key = queryKeys.sites.shareLinks(site.siteId);
  return useMutation({
    mutationFn: ({ shareLinkId, body }: { shareLinkId: string; body: UpdateShareLinkBody }) =>
      updateShareLink(site, shareLinkId, body),
    onSuccess: async (updated) => {
      queryClient.setQueryData<ShareLink[]>(key, (links) =>
        links?.map((link) => (link.id === updated.id ? updated : link)),
      );
      await queryClient.invalidateQueries({ queryKey: key });
    },
  });
}
