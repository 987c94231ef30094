import { MutationCache, QueryCache, QueryClient } from '@tanstack/react-query';
import { ApiError, isApiError } from './api-client';
import { queryKeys } from './query-keys';

/** Client errors (4xx) will not change on retry; network and server errors get two more tries. */
function shouldRetry(failureCount: number, error: unknown): boolean {
  if (error instanceof ApiError && error.status >= 400 && error.status < 500) return false;
  return failureCount < 2;
}

/**
 * `onSessionLost` runs when a request answers 401 while the console believed someone was signed in (the session
 * expired or was revoked elsewhere). A 401 from signing in, or from asking who is signed in, is expected instead.
 */
export function createQueryClient({ onSessionLost }: { onSessionLost?: () => void } = {}): QueryClient {
  const client: QueryClient = new QueryClient({
    queryCache: new QueryCache({
      onError: (error, query) => {
        if (query.queryKey[0] === queryKeys.user[0]) return;
        if (isApiError(error, 401) && client.getQueryData(queryKeys.user)) onSessionLost?.();
      },
    }),
    mutationCache: new MutationCache({
      onError: (error) => {
        if (isApiError(error, 401) && client.getQueryData(queryKeys.user)) onSessionLost?.();
      },
    }),
    defaultOptions: {
      queries: { staleTime: 30_000, retry: shouldRetry },
      mutations: { retry: false },
    },
  });
  return client;
}
