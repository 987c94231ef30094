import { queryOptions, useSuspenseQuery } from '@tanstack/react-query';
import type { revisionPageSchema } from '../../../../shared/contract';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';
import { changeRequestPath } from '../utils/paths';

/** `GET /v1/spaces/{spaceId}/change-requests/{number}/content/page/{pageId}?format=markdown`. */
export function getChangeRequestPage(spaceId: string, number: number, pageId: string, signal?: AbortSignal) {
  return api.get<typeof revisionPageSchema>(
    changeRequestPath(spaceId, number, `/content/page/${encodeURIComponent(pageId)}`),
    { query: { format: 'markdown' }, signal },
  );
}

/**
 * The page as of `revision`, the change request's revision known before asking. An edit of what this answered
 * sends that revision as If-Match: if the change request moved on meanwhile, the server refuses (409) instead of
 * overwriting someone's edit.
 */
export function changeRequestPageQueryOptions(spaceId: string, number: number, pageId: string, revision: string) {
  return queryOptions({
    queryKey: queryKeys.changeRequests.page(spaceId, number, pageId, revision),
    queryFn: ({ signal }) => getChangeRequestPage(spaceId, number, pageId, signal),
    staleTime: Infinity,
  });
}

export function useChangeRequestPage(spaceId: string, number: number, pageId: string, revision: string) {
  return useSuspenseQuery(changeRequestPageQueryOptions(spaceId, number, pageId, revision)).data;
}
