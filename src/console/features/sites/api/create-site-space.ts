import { useMutation } from '@tanstack/react-query';
import type { CreateSiteSpaceBody, siteSpaceSchema } from '../../../../shared/contract';
import { api } from '../../../lib/api-client';
import { useRefreshSite } from '../utils/cache';
import { sitePath, type SiteRef } from '../utils/paths';

/**
 * `POST …/sites/{siteId}/site-spaces` → 201 SiteSpace: the space into the section `sectionId`, or at the root of a
 * site without sections (into the default section when it has some).
 */
export function createSiteSpace(site: SiteRef, body: CreateSiteSpaceBody) {
  return api.post<typeof siteSpaceSchema>(sitePath(site, '/site-spaces'), body);
}

export function useCreateSiteSpace(site: SiteRef) {
  const refresh = useRefreshSite(site);
  return useMutation({ mutationFn: (body: CreateSiteSpaceBody) => createSiteSpace(site, body), onSuccess: refresh });
}
