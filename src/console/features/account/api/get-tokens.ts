import { queryOptions, useQuery } from '@tanstack/react-query';
import type { apiTokenListSchema } from '../../../../shared/contract';
import { getAllPages } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** `GET /v1/user/tokens`: the caller's lasting API tokens (labels and dates; never their secrets), every page. */
export function getTokens(signal?: AbortSignal) {
  return getAllPages<typeof apiTokenListSchema>('/user/tokens', {}, signal);
}

export function tokensQueryOptions() {
  return queryOptions({
    queryKey: queryKeys.account.tokens,
    queryFn: ({ signal }) => getTokens(signal),
    // Newest first: the one just created is at the top.
    select: (tokens) => [...tokens].sort((a, b) => b.createdAt.localeCompare(a.createdAt)),
  });
}

export function useTokens() {
  return useQuery(tokensQueryOptions());
}
