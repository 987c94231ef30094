import type { QueryClient } from '@tanstack/react-query';
import type { ChangeRequest } from '../../../../shared/contract';
import { queryKeys } from '../../../lib/query-keys';

/** A change request as the server just answered it: its detail, then everything derived from it is refetched. */
export async function changeRequestChanged(queryClient: QueryClient, changeRequest: ChangeRequest): Promise<void> {
  const { space, number } = changeRequest;
  queryClient.setQueryData(queryKeys.changeRequests.detail(space, number), changeRequest);
  await Promise.all([
    queryClient.invalidateQueries({
      queryKey: queryKeys.changeRequests.one(space, number),
      predicate: (query) => query.queryKey[3] !== 'detail' && query.queryKey[3] !== 'page',
    }),
    queryClient.invalidateQueries({ queryKey: queryKeys.changeRequests.lists(space) }),
  ]);
}

/** Everything about one change request is stale (after an update from the space, a merge, a resolution). */
export async function refreshChangeRequest(queryClient: QueryClient, spaceId: string, number: number): Promise<void> {
  await Promise.all([
    queryClient.invalidateQueries({ queryKey: queryKeys.changeRequests.one(spaceId, number) }),
    queryClient.invalidateQueries({ queryKey: queryKeys.changeRequests.lists(spaceId) }),
  ]);
}

/** The space's counters and content changed (a change request was created, merged, archived…). */
export async function refreshSpace(queryClient: QueryClient, spaceId: string, { content = false } = {}): Promise<void> {
  await Promise.all([
    queryClient.invalidateQueries({ queryKey: queryKeys.spaces.detail(spaceId) }),
    content && queryClient.invalidateQueries({ queryKey: queryKeys.content.space(spaceId) }),
    content && queryClient.invalidateQueries({ queryKey: queryKeys.spaces.all }),
  ]);
}
