import { queryOptions, useMutation, useQueryClient, useSuspenseQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import type {
  createSiteRedirectBodySchema,
  SiteRedirect,
  siteRedirectListSchema,
  siteRedirectSchema,
} from '../../../../shared/contract';
import { api, getAllPages } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';
import { sitePath, type SiteRef } from '../utils/paths';

export type CreateSiteRedirectBody = z.infer<typeof createSiteRedirectBodySchema>;

/** `GET …/sites/{siteId}/redirects`: every redirect of the site, oldest first. */
export function getSiteRedirects(site: SiteRef, signal?: AbortSignal): Promise<SiteRedirect[]> {
  return getAllPages<typeof siteRedirectListSchema>(sitePath(site, '/redirects'), {}, signal);
}

export function siteRedirectsQueryOptions(site: SiteRef) {
  return queryOptions({
    queryKey: queryKeys.sites.redirects(site.siteId),
    queryFn: ({ signal }) => getSiteRedirects(site, signal),
  });
}

export function useSiteRedirects(site: SiteRef) {
  return useSuspenseQuery(siteRedirectsQueryOptions(site)).data;
}

/** `POST …/sites/{siteId}/redirects` → 201 SiteRedirect (400 naming the field, 409 when the source is taken). */
export function useCreateSiteRedirect(site: SiteRef) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateSiteRedirectBody) =>
      api.post<typeof siteRedirectSchema>(sitePath(site, '/redirects'), body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.sites.redirects(site.siteId) }),
  });
}

/** `DELETE …/sites/{siteId}/redirects/{id}`: its source answers 404 again (or shows a page, if one is there). */
export function useDeleteSiteRedirect(site: SiteRef) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.send('DELETE', sitePath(site, `/redirects/${encodeURIComponent(id)}`)),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.sites.redirects(site.siteId) }),
  });
}
