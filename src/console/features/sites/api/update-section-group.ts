import { useMutation } from '@tanstack/react-query';
import { siteSectionGroupSchema, updateSectionGroupBodySchema } from '../../../../shared/contract';
import type { UpdateSectionGroupBody } from '../../../../shared/contract';
import { api } from '../../../lib/api-client';
import { useRefreshSite } from '../utils/cache';
import { sitePath, type SiteRef } from '../utils/paths';

export { updateSectionGroupBodySchema };

/** `PATCH …/sites/{siteId}/section-groups/{siteSectionGroupId}` → SiteSectionGroup: its title and icon. */
export function updateSectionGroup(site: SiteRef, groupId: string, body: UpdateSectionGroupBody) {
  return api.patch(sitePath(site, `/section-groups/${encodeURIComponent(groupId)}`), body, siteSectionGroupSchema);
}

export function useUpdateSectionGroup(site: SiteRef) {
  const refresh = useRefreshSite(site);
  return useMutation({
    mutationFn: ({ groupId, body }: { groupId: string; body: UpdateSectionGroupBody }) =>
      updateSectionGroup(site, groupId, body),
    onSuccess: refresh,
  });
}
