import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { useRefreshSite } from '../utils/cache';
import { sitePath, type SiteRef } from '../utils/paths';

/** `DELETE …/sites/{siteId}/section-groups/{siteSectionGroupId}` (205): its sections stay, where the group was. */
export function deleteSectionGroup(site: SiteRef, groupId: string) {
  return api.send('DELETE', sitePath(site, `/section-groups/${encodeURIComponent(groupId)}`));
}

export function useDeleteSectionGroup(site: SiteRef) {
  const refresh = useRefreshSite(site);
  return useMutation({ mutationFn: (groupId: string) => deleteSectionGroup(site, groupId), onSuccess: refresh });
}
