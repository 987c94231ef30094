import { queryOptions, keepPreviousData, useQuery } from '@tanstack/react-query';
import type { teamListSchema } from '../../../../shared/contract';
import { getAllPages } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** `GET /v1/orgs/{organizationId}/teams?title=`: the organization's teams, filtered by title. */
export function getTeams(organizationId: string, title: string | undefined, signal?: AbortSignal) {
  return getAllPages<typeof teamListSchema>(`/orgs/${encodeURIComponent(organizationId)}/teams`, { title }, signal);
}

export function teamsQueryOptions(organizationId: string, title?: string) {
  return queryOptions({
    queryKey: queryKeys.teams.list(organizationId, title),
    queryFn: ({ signal }) => getTeams(organizationId, title, signal),
  });
}

/** Keeps the previous list on screen while another filter loads. */
export function useTeams(organizationId: string, title?: string) {
  return useQuery({ ...teamsQueryOptions(organizationId, title), placeholderData: keepPreviousData });
}
