import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { teamPermissionListSchema, userPermissionListSchema } from '../../../../shared/contract';
import type { z } from 'zod';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';
import { targetPath, type AccessTarget } from './target';

/** Grants shown at first, then on "Show more". */
export const GRANTS_PAGE_SIZE = 20;

/**
 * `GET …/permissions/teams` (teams given a role on the item) or `…/permissions/users` (members given one), a keyset
 * page at a time.
 */
function grantsQueryOptions<T>(target: AccessTarget, who: 'teams' | 'users', schema: z.ZodType<T & Page>) {
  return infiniteQueryOptions({
    queryKey: queryKeys.access[who](target.kind, target.id),
    queryFn: ({ pageParam, signal }) =>
      api.get(targetPath(target, `/permissions/${who}`), schema, {
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
  return useInfiniteQuery(grantsQueryOptions(target, 'teams', teamPermissionListSchema));
}

export function useUserGrants(target: AccessTarget) {
  return useInfiniteQuery(grantsQueryOptions(target, 'users', userPermissionListSchema));
}
