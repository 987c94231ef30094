import { useMutation } from '@tanstack/react-query';
import type { siteSectionGroupSchema } from '../../../../shared/contract';
import { api } from '../../../lib/api-client';
import { useRefreshSite } from '../utils/cache';
import { sitePath, type SiteRef } from '../utils/paths';

/** `POST …/section-groups/{siteSectionGroupId}/sections` → 201 SiteSectionGroup: the section joins the group, last. */
export function addSectionToGroup(site: SiteRef, groupId: string, sectionId: string) {
  return api.post<typeof siteSectionGroupSchema>(
    sitePath(site, `/section-groups/${encodeURIComponent(groupId)}/sections`),
    { sectionId },
  );
}

export function useAddSectionToGroup(site: SiteRef) {
  const refresh = useRefreshSite(site);
  return useMutation({
    mutationFn: ({ groupId, sectionId }: { groupId: string; sectionId: string }) =>
      addSectionToGroup(site, groupId, sectionId),
    onSuccess: refresh,
  });
}
