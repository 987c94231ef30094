import { queryOptions, useSuspenseQuery } from '@tanstack/react-query';
import type { revisionPageSchema } from '../../../../shared/contract';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** `GET /v1/spaces/{spaceId}/content/page/{pageId}?format=markdown`: one page of the space, its body as markdown. */
export function getSpacePage(spaceId: string, pageId: string, signal?: AbortSignal) {
  return api.get<typeof revisionPageSchema>(
    `/spaces/${encodeURIComponent(spaceId)}/content/page/${encodeURIComponent(pageId)}`,
    { query: { format: 'markdown' }, signal },
  );
}

export function spacePageQueryOptions(spaceId: string, pageId: string) {
  return queryOptions({
    queryKey: queryKeys.content.page(spaceId, pageId),
    queryFn: ({ signal }) => getSpacePage(spaceId, pageId, signal),
  });
}

export function useSpacePage(spaceId: string, pageId: string) {
  return useSuspenseQuery(spacePageQueryOptions(spaceId, pageId)).data;
}
