import { queryOptions, useSuspenseQuery } from '@tanstack/react-query';
import type { revisionPagesSchema } from '../../../../shared/contract';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';
import { changeRequestPath } from '../utils/paths';

/** `GET /v1/spaces/{spaceId}/change-requests/{number}/content/pages`: the page tree as the change request has it. */
export async function getChangeRequestPages(spaceId: string, number: number, signal?: AbortSignal) {
  const { pages } = await api.get<typeof revisionPagesSchema>(changeRequestPath(spaceId, number, '/content/pages'), {
    signal,
  });
  return pages;
}

export function changeRequestPagesQueryOptions(spaceId: string, number: number) {
  return queryOptions({
    queryKey: queryKeys.changeRequests.pages(spaceId, number),
    queryFn: ({ signal }) => getChangeRequestPages(spaceId, number, signal),
  });
}

export function useChangeRequestPages(spaceId: string, number: number) {
  return useSuspenseQuery(changeRequestPagesQueryOptions(spaceId, number)).data;
}
