import { useQuery } from '@tanstack/react-query';
import type { integrationEventListSchema, integrationEventWithTraceSchema } from '../../../../shared/contract';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** How often an open integration page asks for new events while the tab is visible. */
const EVENTS_POLL_MS = 10_000;
/** Events the page shows: the newest. */
export const EVENTS_SHOWN = 20;

const eventsPath = (name: string) => `/integrations/${encodeURIComponent(name)}/events`;

/** `GET /v1/integrations/{name}/events`: the newest delivered events (for admins of the owner). */
export function useIntegrationEvents(name: string) {
  return useQuery({
    queryKey: queryKeys.integrations.events(name),
    queryFn: ({ signal }) =>
      api.get<typeof integrationEventListSchema>(eventsPath(name), { query: { limit: EVENTS_SHOWN }, signal }),
    refetchInterval: EVENTS_POLL_MS,
    refetchIntervalInBackground: false,
  });
}

/** `GET /v1/integrations/{name}/events/{id}`: one event with what the script logged, once asked for. */
export function useIntegrationEvent(name: string, id: string, enabled: boolean) {
  return useQuery({
    queryKey: queryKeys.integrations.event(name, id),
    queryFn: ({ signal }) =>
      api.get<typeof integrationEventWithTraceSchema>(`${eventsPath(name)}/${encodeURIComponent(id)}`, { signal }),
    enabled,
  });
}
