import { queryOptions } from '@tanstack/react-query';
import type { revisionPagesSchema } from '../../../../shared/contract';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** `GET /v1/spaces/{spaceId}/revisions/{revisionId}/pages`: the page tree of one revision of the space. */
export async function getRevisionPages(spaceId: string, revisionId: string, signal?: AbortSignal) {
  const path = `/spaces/${encodeURIComponent(spaceId)}/revisions/${encodeURIComponent(revisionId)}/pages`;
  const { pages } = await api.get<typeof revisionPagesSchema>(path, { signal });
  return pages;
}

/** A revision never changes: what was read stays true. */
export function revisionPagesQueryOptions(spaceId: string, revisionId: string) {
  return queryOptions({
    queryKey: queryKeys.revisions.pages(spaceId, revisionId),
    queryFn: ({ signal }) => getRevisionPages(spaceId, revisionId, signal),
    staleTime: Infinity,
  });
}
