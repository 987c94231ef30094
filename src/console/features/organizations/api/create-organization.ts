import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CreateOrganizationBody, organizationSchema } from '../../../../shared/contract';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** `POST /v1/orgs` → 201 Organization; the caller becomes its admin. */
export function createOrganization(body: CreateOrganizationBody) {
  return api.post<typeof organizationSchema>('/orgs', body);
}

export function useCreateOrganization() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createOrganization,
    onSuccess: async (organization) => {
      queryClient.setQueryData(queryKeys.organizations.detail(organization.id), organization);
      await queryClient.invalidateQueries({ queryKey: queryKeys.organizations.list() });
    },
  });
}
