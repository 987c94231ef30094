import { useMutation } from '@tanstack/react-query';
import type { UpdateSectionBody, siteSectionSchema } from '../../../../shared/contract';
import { api } from '../../../lib/api-client';
import { useRefreshSite } from '../utils/cache';
import { sitePath, type SiteRef } from '../utils/paths';

/** `PATCH …/sites/{siteId}/sections/{siteSectionId}` → SiteSection; `null` removes condition, icon, description. */
export function updateSection(site: SiteRef, sectionId: string, body: UpdateSectionBody) {
  return api.patch<typeof siteSectionSchema>(sitePath(site, `/sections/${encodeURIComponent(sectionId)}`), body);
}

export function useUpdateSection(site: SiteRef) {
  const refresh = useRefreshSite(site);
  return useMutation({
    mutationFn: ({ sectionId, body }: { sectionId: string; body: UpdateSectionBody }) =>
      updateSection(site, sectionId, body),
    onSuccess: refresh,
  });
}
