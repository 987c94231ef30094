import { queryOptions, useSuspenseQuery } from '@tanstack/react-query';
import type { revisionPagesSchema } from '../../shared/contract';
import { api } from './api-client';
import { queryKeys } from './query-keys';

/** `GET /v1/spaces/{spaceId}/content/pages`: the page tree of the space's current revision. */
export async function getSpacePages(spaceId: string, signal?: AbortSignal) {
  const { pages } = await api.get<typeof revisionPagesSchema>(`/spaces/${encodeURIComponent(spaceId)}/content/pages`, {
    signal,
  });
  return pages;
}

export function spacePagesQueryOptions(spaceId: string) {
  return queryOptions({
    queryKey: queryKeys.content.pages(spaceId),
    queryFn: ({ signal }) => getSpacePages(spaceId, signal),
  });
}

export function useSpacePages(spaceId: string) {
  return useSuspenseQuery(spacePagesQueryOptions(spaceId)).data;
}
