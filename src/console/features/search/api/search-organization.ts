import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { searchSpaceResultListSchema } from '../../../../shared/contract';
import { api } from '../../../lib/api-client';

/** Results shown at once in the command palette. */
export const PALETTE_RESULTS = 20;

/** `GET /v1/orgs/{organizationId}/search?query=`: the spaces with pages matching `query`, best first. */
export function searchOrganization(organizationId: string, query: string, signal?: AbortSignal) {
  return api.get<typeof searchSpaceResultListSchema>(`/orgs/${encodeURIComponent(organizationId)}/search`, {
    query: { query, limit: PALETTE_RESULTS },
    signal,
  });
}

export function organizationSearchQueryOptions(organizationId: string, query: string) {
  return queryOptions({
    queryKey: ['search', organizationId, query] as const,
    queryFn: ({ signal }) => searchOrganization(organizationId, query, signal),
    enabled: query.trim().length > 0,
    // While the next word is typed, the last results stay on screen instead of a loading state.
    placeholderData: keepPreviousData,
    staleTime: 30_000,
  });
}
