import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { organizationSchema } from '../../../../shared/contract';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/**
 * `PATCH /v1/orgs/{organizationId} {sso}`: with `true`, members other than admins reach the organization only with
 * a session that came through one of its identity providers (others get 403 `sso-required`).
 */
export function updateSsoEnforcement(organizationId: string, sso: boolean) {
  return api.patch<typeof organizationSchema>(`/orgs/${encodeURIComponent(organizationId)}`, { sso });
}

export function useUpdateSsoEnforcement(organizationId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (sso: boolean) => updateSsoEnforcement(organizationId, sso),
    onSuccess: async (organization) => {
      queryClient.setQueryData(queryKeys.organizations.detail(organizationId), organization);
      await queryClient.invalidateQueries({ queryKey: queryKeys.organizations.list() });
    },
  });
}
