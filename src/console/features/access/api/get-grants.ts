import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { teamPermissionListSchema, userPermissionListSchema } from '../../../../shared/contract';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';
import { targetPath, type AccessTarget } from './target';

/** Grants shown at first, then on "Show more". */
export const GRANTS_PAGE_SIZE = 20;

/** `GET …/permissions/teams`: teams given a role on the item, a keyset page at a time. */
export function teamGrantsQueryOptions(target: AccessTarget) {
  return infiniteQueryOptions({
    queryKey: queryKeys.access.teams(target.kind, target.id),
    queryFn: ({ pageParam, signal }) =>
      api.get(targetPath(target, '/permissions/teams'), teamPermissionListSchema, {
        query: { limit: GRANTS_PAGE_SIZE, page: pageParam },
        signal,
      }),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.next?.page,
  });
}

/** `GET …/permissions/users`: members given a role on the item. */
export function userGrantsQueryOptions(target: AccessTarget) {
  return infiniteQueryOptions({
    queryKey: queryKeys.access.users(target.kind, target.id),
    queryFn: ({ pageParam, signal }) =>
      api.get(targetPath(target, '/permissions/users'), userPermissionListSchema, {
        query: { limit: GRANTS_PAGE_SIZE, page: pageParam },
        signal,
      }),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.next?.page,
  });
}

export function useTeamGrants(target: AccessTarget) {
  return useInfiniteQuery(teamGrantsQueryOptions(target));
}

export function useUserGrants(target: AccessTarget) {
  return useInfiniteQuery(userGrantsQueryOptions(target));
}
