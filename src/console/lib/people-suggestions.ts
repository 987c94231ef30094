import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { MEMBER_SEARCH_MAX, TEAM_TITLE_MAX } from '../../shared/contract';
import type { Member, Team, memberListSchema, teamListSchema } from '../../shared/contract';
import { api } from './api-client';
import { queryKeys } from './query-keys';

/**
 * The organization's people matching what is typed, for the pickers that need them: the access panel's people
 * picker (features/access) and the comment forms' @-mentions (features/change-requests).
 */

/** Suggestions of each kind shown while typing. */
export const SUGGESTIONS = 6;

export type Suggestion = { kind: 'user'; member: Member } | { kind: 'team'; team: Team };

/** How a suggestion is named: a team's title, a member's display name (else their e-mail address). */
export function suggestionName(s: Suggestion): string {
  return s.kind === 'team' ? s.team.title : s.member.user.displayName || s.member.user.email || 'Unnamed member';
}

/** A key unique among the suggestions of both kinds. */
export function suggestionKey(s: Suggestion): string {
  return s.kind === 'team' ? `team-${s.team.id}` : `user-${s.member.user.id}`;
}

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
