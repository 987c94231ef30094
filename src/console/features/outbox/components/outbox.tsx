import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import type { EmailState, OutboxItem } from '../../../../shared/contract';
import { EMAIL_STATES } from '../../../../shared/contract';
import { Button } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { EmptyState, ErrorState, Loading } from '../../../components/ui/states';
import { RelativeTime } from '../../../components/ui/time';
import { useToast } from '../../../components/ui/toast';
import { errorMessage } from '../../../lib/api-client';
import {
  mailStatusQueryOptions,
  outboxHtmlUrl,
  outboxMessageQueryOptions,
  outboxQueryOptions,
  useResendEmail,
} from '../api/outbox';
import '../outbox.css';

/** What each state means to the person reading the outbox. */
export const STATE_LABELS: Record<EmailState, string> = {
  queued: 'Waiting to be sent',
  held: 'Held (no SMTP)',
  sending: 'Sending',
  sent: 'Sent',
  failed: 'Failed',
  uncertain: 'Uncertain',
  suppressed: 'Not sent',
  bounced: 'Bounced',
};

const STATE_BADGES: Partial<Record<EmailState, string>> = {
  failed: 'badge-danger',
  bounced: 'badge-danger',
  uncertain: 'badge-warning',
  held: 'badge-warning',
  sent: 'badge-resolved',
};

function StateBadge({ state }: { state: EmailState }) {
  return <span className={`badge ${STATE_BADGES[state] ?? ''}`}>{STATE_LABELS[state]}</span>;
}

/** Where mail goes: the relay, or the reason it stays here, and how many messages are in each state. */
export function MailStatus() {
  const status = useQuery(mailStatusQueryOptions());
  if (status.isPending) return <Loading label="Loading the mail status…" />;
  if (status.isError) return <ErrorState error={status.error} onRetry={() => void status.refetch()} />;
  const s = status.data;
  const counts = EMAIL_STATES.filter((state) => s.counts[state]).map(
    (state) => `${s.counts[state]} ${STATE_LABELS[state].toLowerCase()}`,
  );
  return (
    <div className="section mail-status">
      {s.configured ? (
        <p className="section-text">
          Mail goes out through <strong>{s.relay}</strong> ({s.tls === 'none' ? 'without TLS' : `TLS: ${s.tls}`}) as{' '}
          <strong>{s.from}</strong>.
        </p>
      ) : (
        <div className="notice notice-warning" role="status">
          <p>
            <strong>SMTP is not configured: no e-mail leaves this server.</strong> Messages are kept here as “Held”:
            open one to read it (a password reset link to pass on, for instance). Set <code>SMTP_HOST</code>,{' '}
            <code>SMTP_FROM</code> and, if your relay needs them, <code>SMTP_USER</code> and <code>SMTP_PASSWORD</code>,
            then restart the server.
          </p>
        </div>
      )}
      {counts.length > 0 && <p className="section-text">{counts.join(' · ')}</p>}
      {s.lastError && (
        <p className="section-text">
          Last problem (<RelativeTime value={s.lastError.at} />
          ): {s.lastError.message}
        </p>
      )}
    </div>
  );
}

/** The messages, newest first, filtered by state or recipient; each opens with its text, its HTML and a resend. */
export function OutboxList() {
  const [state, setState] = useState<EmailState | ''>('');
  const [to, setTo] = useState('');
  const [typed, setTyped] = useState('');
  const [open, setOpen] = useState<OutboxItem | null>(null);
  const list = useInfiniteQuery(outboxQueryOptions({ state: state || undefined, to: to || undefined }));
  const stateId = useId();
  const toId = useId();
  const items = list.data?.pages.flatMap((page) => page.items) ?? [];
  return (
    <div className="section outbox">
      <form
        className="outbox-filters"
        role="search"
        aria-label="Filter messages"
        onSubmit={(event) => {
          event.preventDefault();
          setTo(typed.trim().toLowerCase());
        }}
      >
        <label htmlFor={stateId}>State</label>
        <select
          id={stateId}
          className="input"
          value={state}
          onChange={(event) => setState(event.target.value as EmailState | '')}
        >
          <option value="">Every state</option>
          {EMAIL_STATES.map((s) => (
            <option key={s} value={s}>
              {STATE_LABELS[s]}
            </option>
          ))}
        </select>
        <label htmlFor={toId}>Recipient</label>
        <input
          id={toId}
          className="input"
          type="email"
          value={typed}
          placeholder="someone@example.com"
          onChange={(event) => setTyped(event.target.value)}
        />
        <Button type="submit">Filter</Button>
        {(to || state) && (
          <Button
            variant="ghost"
            onClick={() => {
              setState('');
              setTo('');
              setTyped('');
            }}
          >
            Clear
          </Button>
        )}
      </form>
      {list.isPending ? (
        <Loading label="Loading messages…" />
      ) : list.isError ? (
        <ErrorState error={list.error} onRetry={() => void list.refetch()} />
      ) : items.length === 0 ? (
        <EmptyState title={to || state ? 'No message matches' : 'No message yet'} level={3}>
          {to || state
            ? 'Try another state or recipient.'
            : 'Password resets, invitations and notifications appear here as the server writes them.'}
        </EmptyState>
      ) : (
        <>
          <p className="section-text" aria-live="polite">
            {list.data.pages[0]!.count === 1 ? 'One message' : `${list.data.pages[0]!.count} messages`}
          </p>
          <div className="table-scroll">
            <table className="outbox-table" aria-label="Messages">
              <thead>
                <tr>
                  <th scope="col">Written</th>
                  <th scope="col">To</th>
                  <th scope="col">Subject</th>
                  <th scope="col">State</th>
                </tr>
              </thead>
              <tbody>
                {items.map((item) => (
                  <tr key={item.id}>
                    <td>
                      <RelativeTime value={item.createdAt} />
                    </td>
                    <td className="outbox-to">{item.to}</td>
                    <td className="outbox-subject">
                      <button type="button" className="link-button" onClick={() => setOpen(item)}>
                        {item.subject}
                      </button>
                    </td>
                    <td>
                      <StateBadge state={item.state} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          {list.hasNextPage && (
            <Button onClick={() => void list.fetchNextPage()} loading={list.isFetchingNextPage}>
              Show more
            </Button>
          )}
        </>
      )}
      {open && <MessageDialog item={open} onClose={() => setOpen(null)} />}
    </div>
  );
}

function MessageDialog({ item, onClose }: { item: OutboxItem; onClose: () => void }) {
  const message = useQuery(outboxMessageQueryOptions(item.id));
  const resend = useResendEmail();
  const toast = useToast();
  const [tab, setTab] = useState<'text' | 'html'>('text');
  const m = message.data;
  const resendable = m && ['held', 'failed', 'uncertain'].includes(m.state);
  return (
    <Dialog open onOpenChange={(o) => !o && onClose()} title={item.subject}>
      {message.isPending ? (
        <Loading label="Loading the message…" />
      ) : message.isError ? (
        <ErrorState error={message.error} onRetry={() => void message.refetch()} />
      ) : (
        <div className="outbox-message">
          <dl className="outbox-facts">
            <dt>To</dt>
            <dd>{m!.to}</dd>
            <dt>State</dt>
            <dd>
              <StateBadge state={m!.state} /> after {m!.attempts === 1 ? 'one attempt' : `${m!.attempts} attempts`}
            </dd>
            <dt>Written</dt>
            <dd>
              <RelativeTime value={m!.createdAt} />
            </dd>
            {m!.sentAt && (
              <>
                <dt>Sent</dt>
                <dd>
                  <RelativeTime value={m!.sentAt} />
                </dd>
              </>
            )}
            {m!.smtpReply && (
              <>
                <dt>Relay said</dt>
                <dd>{m!.smtpReply}</dd>
              </>
            )}
            {m!.lastError && (
              <>
                <dt>Problem</dt>
                <dd>{m!.lastError}</dd>
              </>
            )}
            <dt>Message-ID</dt>
            <dd className="outbox-id">{m!.messageId}</dd>
          </dl>
          {m!.text === undefined ? (
            <p className="section-text">
              Its content is no longer kept: security messages (password resets) are forgotten once sent.
            </p>
          ) : (
            <>
              <div className="subtabs" role="group" aria-label="Message part">
                <button
                  type="button"
                  className={`subtab${tab === 'text' ? ' active' : ''}`}
                  aria-pressed={tab === 'text'}
                  onClick={() => setTab('text')}
                >
                  Plain text
                </button>
                {m!.hasHtml && (
                  <button
                    type="button"
                    className={`subtab${tab === 'html' ? ' active' : ''}`}
                    aria-pressed={tab === 'html'}
                    onClick={() => setTab('html')}
                  >
                    HTML
                  </button>
                )}
              </div>
              {tab === 'text' ? (
                <pre className="outbox-text" tabIndex={0} aria-label="Plain text of the message">
                  {m!.text}
                </pre>
              ) : (
                <iframe
                  className="outbox-html"
                  title="HTML of the message"
                  src={outboxHtmlUrl(m!.id)}
                  sandbox=""
                  referrerPolicy="no-referrer"
                />
              )}
            </>
          )}
          {resendable && (
            <div className="form-actions">
              <Button
                variant="primary"
                loading={resend.isPending}
                onClick={() =>
                  resend.mutate(m!.id, {
                    onSuccess: () => {
                      toast.show('Queued to be sent again');
                      void message.refetch();
                    },
                    onError: (error) => toast.show(errorMessage(error), 'error'),
                  })
                }
              >
                Send again
              </Button>
            </div>
          )}
        </div>
      )}
    </Dialog>
  );
}
