import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { MEMBER_SEARCH_MAX, TEAM_TITLE_MAX } from '../../../../shared/contract';
import type { Member, Team, memberListSchema, teamListSchema } from '../../../../shared/contract';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** Suggestions of each kind shown while typing. */
export const SUGGESTIONS = 6;

export type Suggestion = { kind: 'user'; member: Member } | { kind: 'team'; team: Team };

/**
 * Members (`GET /orgs/{id}/members?search=`) and, with `teams`, teams (`GET /orgs/{id}/teams?title=`) matching
 * what was typed: asked once something is typed.
 */
export function usePeopleSuggestions(organizationId: string, search: string, teams: boolean) {
  return useQuery({
    queryKey: [...queryKeys.members.list(organizationId, { search, limit: SUGGESTIONS }), teams ? 'teams' : 'members'],
    queryFn: async ({ signal }): Promise<Suggestion[]> => {
      const org = `/orgs/${encodeURIComponent(organizationId)}`;
      const [members, found] = await Promise.all([
        api.get<typeof memberListSchema>(`${org}/members`, {
          query: { search: search.slice(0, MEMBER_SEARCH_MAX), limit: SUGGESTIONS },
          signal,
        }),
        teams
          ? api.get<typeof teamListSchema>(`${org}/teams`, {
              query: { title: search.slice(0, TEAM_TITLE_MAX), limit: SUGGESTIONS },
              signal,
            })
          : undefined,
      ]);
      return [
        ...(found?.items ?? []).map((team) => ({ kind: 'team' as const, team })),
        ...members.items.map((member) => ({ kind: 'user' as const, member })),
      ];
    },
    enabled: search.length > 0,
    placeholderData: keepPreviousData,
  });
}
