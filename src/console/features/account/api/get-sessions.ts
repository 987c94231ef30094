import { queryOptions, useQuery } from '@tanstack/react-query';
import type { userSessionListSchema } from '../../../../shared/contract';
import { getAllPages } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** `GET /v1/user/sessions`: the account's console sessions, the current one marked. */
export function getSessions(signal?: AbortSignal) {
  return getAllPages<typeof userSessionListSchema>('/user/sessions', {}, signal);
}

export function sessionsQueryOptions() {
  return queryOptions({
    queryKey: queryKeys.account.sessions,
    queryFn: ({ signal }) => getSessions(signal),
    // This session first, then the most recently used.
    select: (sessions) =>
      [...sessions].sort(
        (a, b) =>
          Number(b.current) - Number(a.current) ||
          (b.lastUsedAt ?? b.createdAt).localeCompare(a.lastUsedAt ?? a.createdAt),
      ),
  });
}

export function useSessions() {
  return useQuery(sessionsQueryOptions());
}
