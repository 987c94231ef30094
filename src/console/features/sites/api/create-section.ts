import { useMutation } from '@tanstack/react-query';
import type { CreateSectionBody, siteSectionSchema } from '../../../../shared/contract';
import { api } from '../../../lib/api-client';
import { useRefreshSite } from '../utils/cache';
import { sitePath, type SiteRef } from '../utils/paths';

/**
 * `POST …/sites/{siteId}/sections` → 201 SiteSection: a section showing the space, at the end. A site whose site
 * spaces sat at its root gets them wrapped in a first section.
 */
export function createSection(site: SiteRef, body: CreateSectionBody) {
  return api.post<typeof siteSectionSchema>(sitePath(site, '/sections'), body);
}

export function useCreateSection(site: SiteRef) {
  const refresh = useRefreshSite(site);
  return useMutation({ mutationFn: (body: CreateSectionBody) => createSection(site, body), onSuccess: refresh });
}
