import { infiniteQueryOptions, keepPreviousData, useInfiniteQuery } from '@tanstack/react-query';
import type { siteListSchema } from '../../../../shared/contract';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';
import { sitesPath } from '../utils/paths';

export const SITES_PAGE_SIZE = 25;

/** The list filters of `GET /v1/orgs/{organizationId}/sites` the console offers. */
export interface SiteFilters {
  /** Part of the title, any case. */
  title?: string;
  published?: boolean;
  /** Sites that show this space. */
  space?: string;
}

/** `GET /v1/orgs/{organizationId}/sites?title=&published=&space=`: one page of the organization's sites. */
export function getSites(organizationId: string, filters: SiteFilters, page?: string, signal?: AbortSignal) {
  return api.get<typeof siteListSchema>(sitesPath(organizationId), {
    query: { ...filters, page, limit: SITES_PAGE_SIZE },
    signal,
  });
}

export function sitesQueryOptions(organizationId: string, filters: SiteFilters) {
  return infiniteQueryOptions({
    queryKey: queryKeys.sites.list(organizationId, filters),
    queryFn: ({ pageParam, signal }) => getSites(organizationId, filters, pageParam, signal),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.next?.page,
  });
}

/** Not suspending: the filters stay on screen (and keep focus) while another page of results loads. */
export function useSites(organizationId: string, filters: SiteFilters) {
  return useInfiniteQuery({ ...sitesQueryOptions(organizationId, filters), placeholderData: keepPreviousData });
}
