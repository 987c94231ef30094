import { useMutation } from '@tanstack/react-query';
import type { UpdateSectionGroupBody, siteSectionGroupSchema } from '../../../../shared/contract';
import { api } from '../../../lib/api-client';
import { useRefreshSite } from '../utils/cache';
import { sitePath, type SiteRef } from '../utils/paths';

/** `PATCH …/sites/{siteId}/section-groups/{siteSectionGroupId}` → SiteSectionGroup: its title and icon. */
export function updateSectionGroup(site: SiteRef, groupId: string, body: UpdateSectionGroupBody) {
  return api.patch<typeof siteSectionGroupSchema>(
    sitePath(site, `/section-groups/${encodeURIComponent(groupId)}`),
    body,
  );
}

export function useUpdateSectionGroup(site: SiteRef) {
  const refresh = useRefreshSite(site);
  return useMutation({
    mutationFn: ({ groupId, body }: { groupId: string; body: UpdateSectionGroupBody }) =>
      updateSectionGroup(site, groupId, body),
    onSuccess: refresh,
  });
}
