import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { memberListSchema } from '../../../../shared/contract';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** Suggestions shown while typing a name or e-mail. */
export const MEMBER_SUGGESTIONS = 8;

/** `GET /v1/orgs/{organizationId}/members?search=&limit=`: members to pick when adding to a team. */
export function searchOrganizationMembers(organizationId: string, search: string, signal?: AbortSignal) {
  return api.get<typeof memberListSchema>(`/orgs/${encodeURIComponent(organizationId)}/members`, {
    query: { search, limit: MEMBER_SUGGESTIONS },
    signal,
  });
}

export function memberSuggestionsQueryOptions(organizationId: string, search: string) {
  return queryOptions({
    queryKey: queryKeys.members.list(organizationId, { search, limit: MEMBER_SUGGESTIONS }),
    queryFn: ({ signal }) => searchOrganizationMembers(organizationId, search, signal),
    select: (list) => list.items,
  });
}

/** Asks only once something is typed. */
export function useMemberSuggestions(organizationId: string, search: string) {
  return useQuery({
    ...memberSuggestionsQueryOptions(organizationId, search),
    enabled: search.length > 0,
    placeholderData: keepPreviousData,
  });
}
