import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { searchPageResultListSchema } from '../../../../shared/contract';
import { api } from '../../../lib/api-client';

/** Pages shown at once in a space's search. */
export const SPACE_SEARCH_RESULTS = 20;

/** `GET /v1/spaces/{spaceId}/search?query=`: pages of the space's current content matching `query`, best first. */
export function spaceSearchQueryOptions(spaceId: string, query: string) {
  return queryOptions({
    queryKey: ['search', 'space', spaceId, query] as const,
    queryFn: ({ signal }) =>
      api.get<typeof searchPageResultListSchema>(`/spaces/${encodeURIComponent(spaceId)}/search`, {
        query: { query, limit: SPACE_SEARCH_RESULTS },
        signal,
      }),
    enabled: query.trim().length > 0,
    placeholderData: keepPreviousData,
    staleTime: 30_000,
  });
}
