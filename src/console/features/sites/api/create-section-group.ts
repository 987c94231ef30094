import { useMutation } from '@tanstack/react-query';
import { createSectionGroupBodySchema, siteSectionGroupSchema } from '../../../../shared/contract';
import type { CreateSectionGroupBody } from '../../../../shared/contract';
import { api } from '../../../lib/api-client';
import { useRefreshSite } from '../utils/cache';
import { sitePath, type SiteRef } from '../utils/paths';

export { createSectionGroupBodySchema };

/** `POST …/sites/{siteId}/section-groups` → 201 SiteSectionGroup holding `sections`, where the first of them was. */
export function createSectionGroup(site: SiteRef, body: CreateSectionGroupBody) {
  return api.post(sitePath(site, '/section-groups'), body, siteSectionGroupSchema);
}

export function useCreateSectionGroup(site: SiteRef) {
  const refresh = useRefreshSite(site);
  return useMutation({
    mutationFn: (body: CreateSectionGroupBody) => createSectionGroup(site, body),
    onSuccess: refresh,
  });
}
