import { queryOptions } from '@tanstack/react-query';
import type { revisionPageSchema } from '../../../../shared/contract';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** `GET /v1/spaces/{spaceId}/revisions/{revisionId}/page/{pageId}?format=markdown`. */
export function getRevisionPage(spaceId: string, revisionId: string, pageId: string, signal?: AbortSignal) {
  const path = `/spaces/${encodeURIComponent(spaceId)}/revisions/${encodeURIComponent(revisionId)}/page/${encodeURIComponent(pageId)}`;
  return api.get<typeof revisionPageSchema>(path, { query: { format: 'markdown' }, signal });
}

export function revisionPageQueryOptions(spaceId: string, revisionId: string, pageId: string) {
  return queryOptions({
    queryKey: queryKeys.revisions.page(spaceId, revisionId, pageId),
    queryFn: ({ signal }) => getRevisionPage(spaceId, revisionId, pageId, signal),
    staleTime: Infinity,
  });
}
