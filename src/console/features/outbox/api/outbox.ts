import { infiniteQueryOptions, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { EmailState, mailStatusSchema, outboxListSchema, outboxMessageSchema } from '../../../../shared/contract';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** `GET /v1/instance/mail`: whether mail leaves the server, through which relay, and counts by state. */
export function mailStatusQueryOptions() {
  return queryOptions({
    queryKey: queryKeys.outbox.status,
    queryFn: ({ signal }) => api.get<typeof mailStatusSchema>('/instance/mail', { signal }),
  });
}

export interface OutboxFilter {
  state?: EmailState | undefined;
  to?: string | undefined;
}

/** `GET /v1/instance/outbox`: newest first, a page at a time ("Show more"). */
export function outboxQueryOptions(filter: OutboxFilter) {
  return infiniteQueryOptions({
    queryKey: queryKeys.outbox.list(filter),
    queryFn: ({ pageParam, signal }) =>
      api.get<typeof outboxListSchema>('/instance/outbox', {
        query: { limit: 50, state: filter.state, to: filter.to || undefined, page: pageParam || undefined },
        signal,
      }),
    initialPageParam: '',
    getNextPageParam: (last) => last.next?.page,
  });
}

export function outboxMessageQueryOptions(id: string) {
  return queryOptions({
    queryKey: queryKeys.outbox.message(id),
    queryFn: ({ signal }) =>
      api.get<typeof outboxMessageSchema>(`/instance/outbox/${encodeURIComponent(id)}`, { signal }),
  });
}

/** The HTML part, served on its own under a sandboxing policy, for an iframe. */
export function outboxHtmlUrl(id: string): string {
  return `/v1/instance/outbox/${encodeURIComponent(id)}/html`;
}

/** `POST …/resend`: a held, failed or uncertain message goes out again (same bytes, same Message-ID). */
export function useResendEmail() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      api.post<typeof outboxMessageSchema>(`/instance/outbox/${encodeURIComponent(id)}/resend`, {}),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.outbox.all }),
  });
}
