import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { shareLinkSchema } from '../../../../shared/contract';
import type { createShareLinkBodySchema } from '../../../../shared/contract';
import type { z } from 'zod';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';
import { sitePath, type SiteRef } from '../utils/paths';

export type CreateShareLinkBody = z.infer<typeof createShareLinkBodySchema>;

/** `POST …/sites/{siteId}/share-links` → 201 ShareLink, active, with its secret URL in `urls.published`. */
export function createShareLink(site: SiteRef, body: CreateShareLinkBody) {
  return api.post<typeof shareLinkSchema>(sitePath(site, '/share-links'), body);
}

export function useCreateShareLink(site: SiteRef) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateShareLinkBody) => createShareLink(site, body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.sites.shareLinks(site.siteId) }),
  });
}
