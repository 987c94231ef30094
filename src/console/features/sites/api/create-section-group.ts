import { useMutation } from '@tanstack/react-query';
import type { CreateSectionGroupBody, siteSectionGroupSchema } from '../../../../shared/contract';
import { api } from '../../../lib/api-client';
import { useRefreshSite } from '../utils/cache';
import { sitePath, type SiteRef } from '../utils/paths';

/** `POST …/sites/{siteId}/section-groups` → 201 SiteSectionGroup holding `sections`, where the first of them was. */
export function createSectionGroup(site: SiteRef, body: CreateSectionGroupBody) {
  return api.post<typeof siteSectionGroupSchema>(sitePath(site, '/section-groups'), body);
}

export function useCreateSectionGroup(site: SiteRef) {
  const refresh = useRefreshSite(site);
  return useMutation({
    mutationFn: (body: CreateSectionGroupBody) => createSectionGroup(site, body),
    onSuccess: refresh,
  });
}
