import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CreateSiteBody, siteSchema } from '../../../../shared/contract';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';
import { sitesPath } from '../utils/paths';

/** `POST /v1/orgs/{organizationId}/sites` → 201 Site; the spaces given become its site spaces, in that order. */
export function createSite(organizationId: string, body: CreateSiteBody) {
  return api.post<typeof siteSchema>(sitesPath(organizationId), body);
}

export function useCreateSite(organizationId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateSiteBody) => createSite(organizationId, body),
    onSuccess: async (site) => {
      queryClient.setQueryData(queryKeys.sites.detail(site.id), site);
      await queryClient.invalidateQueries({ queryKey: queryKeys.sites.lists(organizationId) });
    },
  });
}
