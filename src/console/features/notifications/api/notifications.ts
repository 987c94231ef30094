import { infiniteQueryOptions, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type {
  MarkReadBody,
  NotificationSettings,
  notificationListSchema,
  notificationSettingsSchema,
  UpdateNotificationSettings,
  unsubscribeResultSchema,
} from '../../../../shared/contract';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

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

/** Saves a choice; the form shows it at once (and goes back to what was saved if the server refuses). */
export function useUpdateNotificationSettings() {
  const queryClient = useQueryClient();
  const key = queryKeys.notifications.settings;
  return useMutation({
    mutationFn: (body: UpdateNotificationSettings) =>
      api.patch<typeof notificationSettingsSchema>('/user/notification-settings', body),
    onMutate: async (body) => {
      await queryClient.cancelQueries({ queryKey: key });
      const before = queryClient.getQueryData<NotificationSettings>(key);
      if (before) {
        queryClient.setQueryData<NotificationSettings>(key, {
          ...before,
          kinds: before.kinds.map((k) => {
            const channel = body.kinds?.[k.kind];
            return channel ? { ...k, channel } : k;
          }),
          ...(body.digestHour !== undefined ? { digestHour: body.digestHour } : {}),
        });
      }
      return { before };
    },
    onError: (_error, _body, context) => {
      if (context?.before) queryClient.setQueryData(key, context.before);
    },
    onSuccess: (settings) => queryClient.setQueryData(key, settings),
  });
}

/** `POST /v1/notifications/unsubscribe?t=`: the link of a notification mail, one kind at a time. */
export function useUnsubscribe() {
  return useMutation({
    mutationFn: (token: string) =>
      api.post<typeof unsubscribeResultSchema>(`/notifications/unsubscribe?t=${encodeURIComponent(token)}`, {}),
  });
}
