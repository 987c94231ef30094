import { queryOptions, useQuery } from '@tanstack/react-query';
import type { teamListSchema } from '../../../../shared/contract';
import { getAllPages } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** `GET /v1/orgs/{organizationId}/teams`: the teams people signing in can join by default. */
export function getTeamChoices(organizationId: string, signal?: AbortSignal) {
  return getAllPages<typeof teamListSchema>(`/orgs/${encodeURIComponent(organizationId)}/teams`, {}, signal);
}

export function teamChoicesQueryOptions(organizationId: string) {
  return queryOptions({
    // The same list as the teams page without a filter: one cache entry.
    queryKey: queryKeys.teams.list(organizationId),
    queryFn: ({ signal }) => getTeamChoices(organizationId, signal),
  });
}

export function useTeamChoices(organizationId: string) {
  return useQuery(teamChoicesQueryOptions(organizationId));
}
