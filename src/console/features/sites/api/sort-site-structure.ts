import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { SiteStructure, SortSiteStructureBody } from '../../../../shared/contract';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';
import { useRefreshSite } from '../utils/cache';
import { sitePath, type SiteRef } from '../utils/paths';
import { applySort } from '../utils/structure';

/**
 * `PATCH …/sites/{siteId}/structure/sort` → the moved item (not read here): moves it among its siblings, before
 * one, after one, or between two adjacent ones.
 */
export function sortSiteStructure(site: SiteRef, body: SortSiteStructureBody) {
  return api.send('PATCH', sitePath(site, '/structure/sort'), body);
}

/** The editor shows the new order at once; a refused move puts the server's order back. */
export function useSortSiteStructure(site: SiteRef) {
  const queryClient = useQueryClient();
  const refresh = useRefreshSite(site);
  const key = queryKeys.sites.structure(site.siteId);
  return useMutation({
    mutationFn: (body: SortSiteStructureBody) => sortSiteStructure(site, body),
    onMutate: async (body) => {
      await queryClient.cancelQueries({ queryKey: key });
      const previous = queryClient.getQueryData<SiteStructure>(key);
      if (previous) queryClient.setQueryData(key, applySort(previous, body.item, body.position ?? {}));
      return { previous };
    },
    onError: (_error, _body, context) => {
      if (context?.previous) queryClient.setQueryData(key, context.previous);
    },
    onSettled: refresh,
  });
}
