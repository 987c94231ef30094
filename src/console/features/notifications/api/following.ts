import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { FollowState, followStateSchema } from '../../../../shared/contract';
import { api } from '../../../lib/api-client';

/** What can be followed: a change request (by number or id) or a page of a space's own content. */
export type Followable = { spaceId: string } & ({ changeRequest: string | number } | { pageId: string });

function watchPath(target: Followable): string {
  const space = `/spaces/${encodeURIComponent(target.spaceId)}`;
  return 'changeRequest' in target
    ? `${space}/change-requests/${encodeURIComponent(String(target.changeRequest))}/watch`
    : `${space}/pages/${encodeURIComponent(target.pageId)}/watch`;
}

const followKey = (target: Followable) => ['following', watchPath(target)] as const;

/** `GET …/watch` → whether the signed-in person follows it. */
export function followingQueryOptions(target: Followable) {
  return queryOptions({
    queryKey: followKey(target),
    queryFn: ({ signal }) => api.get<typeof followStateSchema>(watchPath(target), { signal }),
  });
}

/** `PUT …/watch` follows, `DELETE …/watch` stops following; the button shows the new state at once. */
export function useSetFollowing(target: Followable) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (following: boolean) =>
      following
        ? api.put<typeof followStateSchema>(watchPath(target), {})
        : api.delete<typeof followStateSchema>(watchPath(target)),
    onMutate: (following) => {
      queryClient.setQueryData<FollowState>(followKey(target), { following });
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: followKey(target) }),
  });
}
