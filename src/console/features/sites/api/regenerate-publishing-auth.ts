import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { publishingAuthSchema } from '../../../../shared/contract';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';
import { sitePath, type SiteRef } from '../utils/paths';

/** `POST …/sites/{siteId}/publishing/auth/regenerate`: a new random signing key; tokens signed with the old one stop working. */
export function regeneratePublishingAuth(site: SiteRef) {
  return api.post<typeof publishingAuthSchema>(sitePath(site, '/publishing/auth/regenerate'), undefined);
}

export function useRegeneratePublishingAuth(site: SiteRef) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => regeneratePublishingAuth(site),
    onSuccess: (saved) => queryClient.setQueryData(queryKeys.sites.publishingAuth(site.siteId), saved),
  });
}
