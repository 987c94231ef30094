import { queryOptions, useQuery } from '@tanstack/react-query';
import type { orgInvitationListSchema } from '../../../../shared/contract';
import { getAllPages } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** `GET /v1/orgs/{organizationId}/invitations` (admins): pending invitations, each an address and a role. */
export function getOrgInvitations(organizationId: string, signal?: AbortSignal) {
  return getAllPages<typeof orgInvitationListSchema>(
    `/orgs/${encodeURIComponent(organizationId)}/invitations`,
    {},
    signal,
  );
}

export function orgInvitationsQueryOptions(organizationId: string) {
  return queryOptions({
    queryKey: queryKeys.invitations.organization(organizationId),
    queryFn: ({ signal }) => getOrgInvitations(organizationId, signal),
  });
}

export function useOrgInvitations(organizationId: string) {
  return useQuery(orgInvitationsQueryOptions(organizationId));
}
