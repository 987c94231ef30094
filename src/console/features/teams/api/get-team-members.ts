import { queryOptions, useQuery } from '@tanstack/react-query';
import type { teamMembershipListSchema } from '../../../../shared/contract';
import { getAllPages } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** `GET /v1/orgs/{organizationId}/teams/{teamId}/members`: each member with their role in the team. */
export function getTeamMembers(organizationId: string, teamId: string, signal?: AbortSignal) {
  return getAllPages<typeof teamMembershipListSchema>(
    `/orgs/${encodeURIComponent(organizationId)}/teams/${encodeURIComponent(teamId)}/members`,
    {},
    signal,
  );
}

export function teamMembersQueryOptions(organizationId: string, teamId: string) {
  return queryOptions({
    queryKey: queryKeys.teams.members(organizationId, teamId),
    queryFn: ({ signal }) => getTeamMembers(organizationId, teamId, signal),
  });
}

export function useTeamMembers(organizationId: string, teamId: string) {
  return useQuery(teamMembersQueryOptions(organizationId, teamId));
}
