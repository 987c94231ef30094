import { useState } from 'react';
import type { IntegrationEvent } from '../../../../shared/contract';
import { Card } from '../../../components/ui/page';
import { ErrorState, Loading } from '../../../components/ui/states';
import { RelativeTime } from '../../../components/ui/time';
import { useIntegrationEvent, useIntegrationEvents } from '../api/events';

/**
 * The integration's recent events, for admins of the organization that publishes it: what was delivered to its
 * script, whether it succeeded, how long it took (and how many attempts when more than one), and on demand what the
 * script logged (as `gitbook tail` prints it).
 */
export function IntegrationEvents({ name }: { name: string }) {
  const events = useIntegrationEvents(name);
  return (
    <Card title="Recent events">
      {events.isPending ? (
        <Loading label="Loading the events…" />
      ) : events.isError ? (
        <ErrorState error={events.error} onRetry={() => void events.refetch()} />
      ) : events.data.items.length === 0 ? (
        <p className="section-text">
          No events yet. Installing, configuring or removing the integration sends one to its script.
        </p>
      ) : (
        <ul className="integration-events" aria-label="Recent events">
          {events.data.items.map((event) => (
            <EventItem key={event.id} name={name} event={event} />
          ))}
        </ul>
      )}
    </Card>
  );
}

function EventItem({ name, event }: { name: string; event: IntegrationEvent }) {
  const [open, setOpen] = useState(false);
  const detail = useIntegrationEvent(name, event.id, open);
  const logsId = `event-logs-${event.id}`;
  return (
    <li>
      <div className="integration-event">
        <code>{event.payload.type}</code>
        <span className={`badge ${event.status === 'failed' ? 'badge-danger' : 'badge-resolved'}`}>
          {event.status === 'failed' ? 'Failed' : 'Delivered'}
        </span>
        <span className="team-meta">
          <RelativeTime value={event.createdAt} />
          {event.durationMs !== undefined && ` · ${event.durationMs} ms`}
          {event.attempts !== undefined && event.attempts > 1 && ` · ${event.attempts} attempts`}
        </span>
        <button
          type="button"
          className="link-button"
          aria-expanded={open}
          aria-controls={logsId}
          onClick={() => setOpen(!open)}
        >
          {open ? 'Hide logs' : 'Logs'}
        </button>
      </div>
      {open && (
        <div id={logsId}>
          {detail.isPending ? (
            <Loading label="Loading the logs…" />
          ) : detail.isError ? (
            <ErrorState error={detail.error} onRetry={() => void detail.refetch()} />
          ) : detail.data.trace.logs.length === 0 ? (
            <p className="section-text">The script logged nothing.</p>
          ) : (
            <pre className="integration-event-logs" tabIndex={0}>
              {detail.data.trace.logs.map((line) => `${line.level}  ${line.message}`).join('\n')}
            </pre>
          )}
        </div>
      )}
    </li>
  );
}
