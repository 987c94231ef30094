import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { useRefreshSite } from '../utils/cache';
import { sitePath, type SiteRef } from '../utils/paths';

/** `DELETE …/sites/{siteId}/sections/{siteSectionId}` (205): with its site spaces; another becomes the default. */
export function deleteSection(site: SiteRef, sectionId: string) {
  return api.send('DELETE', sitePath(site, `/sections/${encodeURIComponent(sectionId)}`));
}

export function useDeleteSection(site: SiteRef) {
  const refresh = useRefreshSite(site);
  return useMutation({ mutationFn: (sectionId: string) => deleteSection(site, sectionId), onSuccess: refresh });
}
