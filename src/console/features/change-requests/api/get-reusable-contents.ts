import { queryOptions, useQuery, useSuspenseQuery } from '@tanstack/react-query';
import type { reusableContentListSchema, reusableContentSchema } from '../../../../shared/contract';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';
import { changeRequestPath } from '../utils/paths';

/** Reusable contents listed at once in the editor's sidebar (a space has a few dozen at most, as a rule). */
export const REUSABLE_LIST_LIMIT = 100;

/** `GET /v1/spaces/{spaceId}/change-requests/{number}/content/reusable-contents`. */
export function reusableContentsQueryOptions(spaceId: string, number: number) {
  return queryOptions({
    queryKey: queryKeys.changeRequests.reusableList(spaceId, number),
    queryFn: ({ signal }) =>
      api.get<typeof reusableContentListSchema>(changeRequestPath(spaceId, number, '/content/reusable-contents'), {
        query: { limit: REUSABLE_LIST_LIMIT },
        signal,
      }),
  });
}

export function useReusableContents(spaceId: string, number: number) {
  return useQuery(reusableContentsQueryOptions(spaceId, number));
}

/** One reusable content with its markdown, as of `revision` (see changeRequestPageQueryOptions). */
export function reusableContentQueryOptions(spaceId: string, number: number, reusableId: string, revision: string) {
  return queryOptions({
    queryKey: queryKeys.changeRequests.reusable(spaceId, number, reusableId, revision),
    queryFn: ({ signal }) =>
      api.get<typeof reusableContentSchema>(
        changeRequestPath(spaceId, number, `/content/reusable-contents/${encodeURIComponent(reusableId)}`),
        { query: { format: 'markdown' }, signal },
      ),
    staleTime: Infinity,
  });
}

export function useReusableContent(spaceId: string, number: number, reusableId: string, revision: string) {
  return useSuspenseQuery(reusableContentQueryOptions(spaceId, number, reusableId, revision)).data;
}
