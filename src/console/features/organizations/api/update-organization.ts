import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { organizationSchema } from '../../../../shared/contract';
import type { UpdateOrganizationBody } from '../../../../shared/contract';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** `PATCH /v1/orgs/{organizationId}` (admins): only the fields sent change. */
export function updateOrganization(organizationId: string, body: UpdateOrganizationBody) {
  return api.patch<typeof organizationSchema>(`/orgs/${encodeURIComponent(organizationId)}`, body);
}

export function useUpdateOrganization(organizationId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: UpdateOrganizationBody) => updateOrganization(organizationId, body),
    onSuccess: async (organization) => {
      queryClient.setQueryData(queryKeys.organizations.detail(organizationId), organization);
      // The switcher and the sidebar show the title.
      await queryClient.invalidateQueries({ queryKey: queryKeys.organizations.list() });
    },
  });
}
