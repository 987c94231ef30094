import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query';
import type { revisionChangesSchema, revisionSummaryListSchema } from '../../../../shared/contract';
import { api } from '../../../lib/api-client';

const PER_PAGE = 20;

/** `GET /v1/spaces/{spaceId}/revisions` (extension): the space's history, newest first, page by page. */
export function spaceRevisionsQueryOptions(spaceId: string) {
  return infiniteQueryOptions({
    queryKey: ['spaces', spaceId, 'history'] as const,
    queryFn: ({ pageParam, signal }) =>
      api.get<typeof revisionSummaryListSchema>(`/spaces/${encodeURIComponent(spaceId)}/revisions`, {
        query: { limit: PER_PAGE, page: pageParam },
        signal,
      }),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.next?.page,
  });
}

/** What a revision changed against the one before it (`GET …/revisions/{revisionId}/changes`). Immutable. */
export function revisionChangesQueryOptions(spaceId: string, revisionId: string) {
  return queryOptions({
    queryKey: ['spaces', spaceId, 'history', 'changes', revisionId] as const,
    queryFn: ({ signal }) =>
      api.get<typeof revisionChangesSchema>(
        `/spaces/${encodeURIComponent(spaceId)}/revisions/${encodeURIComponent(revisionId)}/changes`,
        { query: { limit: 50 }, signal },
      ),
    staleTime: Infinity,
  });
}
