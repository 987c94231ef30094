import { infiniteQueryOptions, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  MarkReadBody,
  notificationListSchema,
  notificationSettingsSchema,
  unreadCountSchema,
  UpdateNotificationSettings,
  unsubscribeResultSchema,
} from '../../../../shared/contract';
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

/** `GET /v1/user/notifications`: newest first, a page at a time. */
export function inboxQueryOptions(unread: boolean) {
  return infiniteQueryOptions({
    queryKey: queryKeys.notifications.list({ unread }),
    queryFn: ({ pageParam, signal }) =>
      api.get<typeof notificationListSchema>('/user/notifications', {
        query: { limit: 30, unread: unread || undefined, page: pageParam || undefined },
        signal,
      }),
    initialPageParam: '',
    getNextPageParam: (last) => last.next?.page,
  });
}

/** `POST /v1/user/notifications/read` `{ids}` or `{all: true}`. */
export function useMarkRead() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: MarkReadBody) => api.post('/user/notifications/read', body),
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.notifications.all }),
  });
}

export function notificationSettingsQueryOptions() {
  return queryOptions({
    queryKey: queryKeys.notifications.settings,
    queryFn: ({ signal }) => api.get<typeof notificationSettingsSchema>('/user/notification-settings', { signal }),
  });
}

export function useUpdateNotificationSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: UpdateNotificationSettings) =>
      api.patch<typeof notificationSettingsSchema>('/user/notification-settings', body),
    onSuccess: (settings) => queryClient.setQueryData(queryKeys.notifications.settings, settings),
  });
}

/** `POST /v1/notifications/unsubscribe?t=`: the link of a notification mail, one kind at a time. */
export function useUnsubscribe() {
  return useMutation({
    mutationFn: (token: string) =>
      api.post<typeof unsubscribeResultSchema>(`/notifications/unsubscribe?t=${encodeURIComponent(token)}`, {}),
  });
}
