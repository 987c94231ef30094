import { useQuery } from '@tanstack/react-query';
import type { pingResultSchema } from '../../../../shared/contract';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** How often an open console tells the server the member is still here. */
const PRESENCE_INTERVAL_MS = 5 * 60_000;

/** `POST /v1/orgs/{organizationId}/ping`: records the member's last-seen time (the members list shows it). */
export function ping(organizationId: string, signal?: AbortSignal) {
  return api.post<typeof pingResultSchema>(`/orgs/${encodeURIComponent(organizationId)}/ping`, undefined, { signal });
}

/**
 * Pings when an organization is opened, then every five minutes while the tab is visible (TanStack Query pauses
 * intervals in background tabs). A failed ping changes nothing on screen: presence is best effort.
 */
export function usePresence(organizationId: string): void {
  useQuery({
    queryKey: queryKeys.organizations.presence(organizationId),
    queryFn: ({ signal }) => ping(organizationId, signal),
    refetchInterval: PRESENCE_INTERVAL_MS,
    staleTime: PRESENCE_INTERVAL_MS,
    retry: false,
    throwOnError: false,
  });
}
