import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { useRefreshSite } from '../utils/cache';
import { sitePath, type SiteRef } from '../utils/paths';

/** `DELETE …/section-groups/{siteSectionGroupId}/sections/{siteSectionId}` (205): to the top level, after the group. */
export function removeSectionFromGroup(site: SiteRef, groupId: string, sectionId: string) {
  return api.send(
    'DELETE',
    sitePath(site, `/section-groups/${encodeURIComponent(groupId)}/sections/${encodeURIComponent(sectionId)}`),
  );
}

export function useRemoveSectionFromGroup(site: SiteRef) {
  const refresh = useRefreshSite(site);
  return useMutation({
    mutationFn: ({ groupId, sectionId }: { groupId: string; sectionId: string }) =>
      removeSectionFromGroup(site, groupId, sectionId),
    onSuccess: refresh,
  });
}
