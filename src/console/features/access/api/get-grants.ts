import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import type { teamPermissionListSchema, userPermissionListSchema } from '../../../../shared/contract';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';
import { targetPath, type AccessTarget } from './target';

/** Grants shown at first, then on "Show more". */
export const GRANTS_PAGE_SIZE = 20;

/**
 * `GET …/permissions/teams` (teams given a role on the item) or `…/permissions/users` (members given one), a keyset
 * page at a time.
 */
function grantsQueryOptions<S extends z.ZodType<Page>>(target: AccessTarget, who: 'teams' | 'users') {
  return infiniteQueryOptions({
    queryKey: queryKeys.access[who](target.kind, target.id),
    queryFn: ({ pageParam, signal }) =>
      api.get<S>(targetPath(target, `/permissions/${who}`), {
        query: { limit: GRANTS_PAGE_SIZE, page: pageParam },
        signal,
      }),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last: Page) => last.next?.page,
  });
}

interface Page {
  next?: { page: string };
}

export function useTeamGrants(target: AccessTarget) {
  return useInfiniteQuery(grantsQueryOptions<typeof teamPermissionListSchema>(target, 'teams'));
}

export function useUserGrants(target: AccessTarget) {
  return useInfiniteQuery(grantsQueryOptions<typeof userPermissionListSchema>(target, 'users'));
}
