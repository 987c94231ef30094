import { queryOptions, useQuery } from '@tanstack/react-query';
import type { pageDiffSchema } from '../../../../shared/contract';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';
import { changeRequestPath } from '../utils/paths';

/** `GET /v1/spaces/{spaceId}/change-requests/{number}/diff/{pageId}`: the page's block diff, base → change request. */
export function getPageDiff(spaceId: string, number: number, pageId: string, signal?: AbortSignal) {
  return api.get<typeof pageDiffSchema>(changeRequestPath(spaceId, number, `/diff/${encodeURIComponent(pageId)}`), {
    signal,
  });
}

export function pageDiffQueryOptions(spaceId: string, number: number, pageId: string) {
  return queryOptions({
    queryKey: queryKeys.changeRequests.diff(spaceId, number, pageId),
    queryFn: ({ signal }) => getPageDiff(spaceId, number, pageId, signal),
  });
}

/** Not suspending: each changed page loads its diff on its own, with its own loading and error state. */
export function usePageDiff(spaceId: string, number: number, pageId: string, enabled = true) {
  return useQuery({ ...pageDiffQueryOptions(spaceId, number, pageId), enabled });
}

/** `GET …/change-requests/{number}/diff/reusable/{id}` (extension): a reusable content's diff, in the same shape. */
export function useReusableDiff(spaceId: string, number: number, reusableId: string, enabled = true) {
  return useQuery({
    queryKey: [...queryKeys.changeRequests.one(spaceId, number), 'reusable-diff', reusableId],
    queryFn: ({ signal }) =>
      api.get<typeof pageDiffSchema>(
        changeRequestPath(spaceId, number, `/diff/reusable/${encodeURIComponent(reusableId)}`),
        { signal },
      ),
    enabled,
  });
}
