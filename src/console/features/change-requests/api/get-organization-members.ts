import { queryOptions, useQuery } from '@tanstack/react-query';
import type { memberListSchema } from '../../../../shared/contract';
import { getAllPages } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** `GET /v1/orgs/{organizationId}/members`: whom a review can be requested from. */
export function getOrganizationMembers(organizationId: string, signal?: AbortSignal) {
  return getAllPages<typeof memberListSchema>(`/orgs/${encodeURIComponent(organizationId)}/members`, {}, signal);
}

export function organizationMembersQueryOptions(organizationId: string) {
  return queryOptions({
    queryKey: queryKeys.organizations.members(organizationId),
    queryFn: ({ signal }) => getOrganizationMembers(organizationId, signal),
  });
}

/** Loaded only when asked for (`enabled`), e.g. when the reviewer picker opens. */
export function useOrganizationMembers(organizationId: string, enabled: boolean) {
  return useQuery({ ...organizationMembersQueryOptions(organizationId), enabled });
}
