import { queryOptions, useSuspenseQuery } from '@tanstack/react-query';
import type { userSchema } from '../../../../shared/contract';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** `GET /v1/user`: the signed-in user, or a 401 ApiError when there is no session. */
export function getUser(signal?: AbortSignal) {
  return api.get<typeof userSchema>('/user', { signal });
}

export function userQueryOptions() {
  return queryOptions({
    queryKey: queryKeys.user,
    queryFn: ({ signal }) => getUser(signal),
    staleTime: 5 * 60_000,
    retry: false,
  });
}

export function useUser() {
  return useSuspenseQuery(userQueryOptions()).data;
}
