import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { UpdatePublishingAuthBody, publishingAuthSchema } from '../../../../shared/contract';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';
import { sitePath, type SiteRef } from '../utils/paths';

/** `PATCH …/sites/{siteId}/publishing/auth`: set the signing key by hand, or the fallback URL (`null` removes it). */
export function updatePublishingAuth(site: SiteRef, body: UpdatePublishingAuthBody) {
  return api.patch<typeof publishingAuthSchema>(sitePath(site, '/publishing/auth'), body);
}

export function useUpdatePublishingAuth(site: SiteRef) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: UpdatePublishingAuthBody) => updatePublishingAuth(site, body),
    onSuccess: (saved) => queryClient.setQueryData(queryKeys.sites.publishingAuth(site.siteId), saved),
  });
}
