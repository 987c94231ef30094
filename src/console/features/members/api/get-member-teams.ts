import { queryOptions, useQuery } from '@tanstack/react-query';
import type { memberTeamListSchema } from '../../../../shared/contract';
import { getAllPages } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** `GET /v1/orgs/{organizationId}/members/{userId}/teams`: the member's teams with their role in each. */
export function getMemberTeams(organizationId: string, userId: string, signal?: AbortSignal) {
  return getAllPages<typeof memberTeamListSchema>(
    `/orgs/${encodeURIComponent(organizationId)}/members/${encodeURIComponent(userId)}/teams`,
    {},
    signal,
  );
}

export function memberTeamsQueryOptions(organizationId: string, userId: string) {
  return queryOptions({
    queryKey: queryKeys.members.teams(organizationId, userId),
    queryFn: ({ signal }) => getMemberTeams(organizationId, userId, signal),
  });
}

export function useMemberTeams(organizationId: string, userId: string) {
  return useQuery(memberTeamsQueryOptions(organizationId, userId));
}
