import { queryOptions, useSuspenseQuery } from '@tanstack/react-query';
import type { teamSchema } from '../../../../shared/contract';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** `GET /v1/orgs/{organizationId}/teams/{teamId}`. */
export function getTeam(organizationId: string, teamId: string, signal?: AbortSignal) {
  return api.get<typeof teamSchema>(`/orgs/${encodeURIComponent(organizationId)}/teams/${encodeURIComponent(teamId)}`, {
    signal,
  });
}

export function teamQueryOptions(organizationId: string, teamId: string) {
  return queryOptions({
    queryKey: queryKeys.teams.detail(organizationId, teamId),
    queryFn: ({ signal }) => getTeam(organizationId, teamId, signal),
  });
}

export function useTeam(organizationId: string, teamId: string) {
  return useSuspenseQuery(teamQueryOptions(organizationId, teamId)).data;
}
