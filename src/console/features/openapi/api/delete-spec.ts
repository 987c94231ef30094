import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** `DELETE /v1/orgs/{organizationId}/openapi/{specSlug}`: the spec and its versions. */
export function deleteSpec(organizationId: string, slug: string) {
  return api.send('DELETE', `/orgs/${encodeURIComponent(organizationId)}/openapi/${encodeURIComponent(slug)}`);
}

export function useDeleteSpec(organizationId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (slug: string) => deleteSpec(organizationId, slug),
    onSuccess: (_data, slug) => {
      queryClient.removeQueries({ queryKey: queryKeys.openapi.detail(organizationId, slug) });
      return queryClient.invalidateQueries({ queryKey: queryKeys.openapi.list(organizationId) });
    },
  });
}
