import { useQuery } from '@tanstack/react-query';
import type { unreadCountSchema } from '../../../../shared/contract';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** How often the bell asks for the unread count while the tab is visible (answered 304 while unchanged). */
export const UNREAD_POLL_MS = 10_000;

/** `GET /v1/user/notifications/unread` → `{count}`. */
export function useUnreadCount() {
  return useQuery({
    queryKey: queryKeys.notifications.unread,
    queryFn: ({ signal }) => api.get<typeof unreadCountSchema>('/user/notifications/unread', { signal }),
    refetchInterval: UNREAD_POLL_MS,
    refetchIntervalInBackground: false,
  });
}
