import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

/**
 * `DELETE /v1/orgs/{organizationId}` (extension, admins): the organization and everything in it, for good. The
 * caller decides where to go next and clears the caches (see DeleteOrganizationDialog).
 */
export function deleteOrganization(organizationId: string) {
  return api.send('DELETE', `/orgs/${encodeURIComponent(organizationId)}`);
}

export function useDeleteOrganization(organizationId: string) {
  return useMutation({ mutationFn: () => deleteOrganization(organizationId) });
}
