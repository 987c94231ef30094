import { useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import type { NotificationChannel, NotificationKind } from '../../../../shared/contract';
import { ErrorState, Loading } from '../../../components/ui/states';
import { useToast } from '../../../components/ui/toast';
import { errorMessage } from '../../../lib/api-client';
import { notificationSettingsQueryOptions, useUpdateNotificationSettings } from '../api/notifications';
import '../notifications.css';

const CHANNELS: Array<{ value: NotificationChannel; label: string }> = [
  { value: 'in-app', label: 'In the inbox only' },
  { value: 'email', label: 'E-mail at once' },
  { value: 'digest', label: 'Daily digest' },
];

/** The browser's time zone: the digest's hour is the person's own. */
function browserTimeZone(): string {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  } catch {
    return 'UTC';
  }
}

/**
 * Per kind of notification: inbox only, e-mail at once, or the daily digest (every notification is in the inbox);
 * and the digest's hour. Each choice is saved as it is made.
 */
export function NotificationSettingsForm() {
  const settings = useQuery(notificationSettingsQueryOptions());
  const update = useUpdateNotificationSettings();
  const toast = useToast();
  const hourId = useId();
  // The choice just made shows at once, while it is saved (a radio bound to the server's answer alone would
  // spring back until it arrives).
  const [chosen, setChosen] = useState<Partial<Record<NotificationKind, NotificationChannel>>>({});
  if (settings.isPending) return <Loading label="Loading notification settings…" />;
  if (settings.isError) return <ErrorState error={settings.error} onRetry={() => void settings.refetch()} />;
  const s = settings.data;
  const save = (body: Parameters<typeof update.mutate>[0], what: string, undo?: () => void) =>
    update.mutate(
      { ...body, timeZone: browserTimeZone() },
      {
        onSuccess: () => toast.show(`${what} saved`),
        onError: (error) => {
          undo?.();
          toast.show(errorMessage(error), 'error');
        },
      },
    );
  return (
    <div className="section notification-settings">
      {!s.emailEnabled && (
        <p className="notice notice-warning" role="status">
          Nothing is e-mailed until your address is confirmed: notifications wait in your inbox.
        </p>
      )}
      <table className="notification-table">
        <caption className="visually-hidden">How each kind of notification reaches you</caption>
        <thead>
          <tr>
            <th scope="col">Notify me when</th>
            {CHANNELS.map((c) => (
              <th key={c.value} scope="col">
                {c.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {s.kinds.map((k) => (
            <tr key={k.kind}>
              <th scope="row">{k.label}</th>
              {CHANNELS.map((c) => (
                <td key={c.value}>
                  <input
                    type="radio"
                    name={`channel-${k.kind}`}
                    aria-label={`${k.label}: ${c.label}`}
                    checked={(chosen[k.kind] ?? k.channel) === c.value}
                    onChange={() => {
                      setChosen((before) => ({ ...before, [k.kind]: c.value }));
                      save({ kinds: { [k.kind]: c.value } }, `“${k.label}”`, () =>
                        setChosen((before) => ({ ...before, [k.kind]: undefined })),
                      );
                    }}
                  />
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
      <div className="field digest-hour">
        <label htmlFor={hourId}>Send the daily digest at</label>
        <select
          id={hourId}
          className="input"
          value={s.digestHour}
          onChange={(event) => save({ digestHour: Number(event.target.value) }, 'The digest’s hour')}
        >
          {Array.from({ length: 24 }, (_, h) => (
            <option key={h} value={h}>
              {String(h).padStart(2, '0')}:00
            </option>
          ))}
        </select>
        <p className="field-hint">Your time ({s.timeZone}). A day without notifications sends nothing.</p>
      </div>
    </div>
  );
}
