import type { Db } from '../../storage/db.js';
import * as repo from '../../storage/repos/notifications.js';
import { keysetPage } from '../../storage/pagination.js';
import { nowIso } from '../../lib/time.js';
import { NotFoundError } from '../errors.js';
import type { Notification, NotificationKind } from '../../../shared/contract/notifications.js';
import { Visibility } from './policy.js';
import { Describer, UNAVAILABLE_SUMMARY } from './describe.js';
import { channelOf } from './preferences.js';

/**
 * The inbox: a person's notifications, newest first. Each is described when read, and only if its reader may
 * still see what it is about (a grant removed since, a space in the trash: only its kind and date remain).
 */
export async function listInbox(db: Db, userId: string, unread: boolean, page: string | undefined, limit: number) {
  const result = await keysetPage({
    page,
    limit,
    arity: 1,
    rows: (after, take) => repo.listNotifications(db, userId, unread, after, take),
    count: () => repo.countNotifications(db, userId, unread),
    key: (row) => [row.id],
  });
  const visibility = new Visibility(db);
  const describer = new Describer(db);
  const items: Notification[] = [];
  for (const row of result.items) {
    const kind = row.kind as NotificationKind;
    const base = {
      object: 'notification' as const,
      id: row.id,
      kind,
      reason: row.reason,
      createdAt: row.created_at,
      ...(row.read_at ? { readAt: row.read_at } : {}),
    };
    if (!(await visibility.may(userId, row))) {
      items.push({ ...base, available: false, summary: UNAVAILABLE_SUMMARY });
      continue;
    }
    items.push({ ...base, available: true, ...(await describer.describe(kind, row)) });
  }
  return { ...result, items };
}

/** The unread count and a tag that changes whenever it may (a new notification, one read). */
export async function unreadState(db: Db, userId: string) {
  const [count, newest] = await Promise.all([
    repo.countNotifications(db, userId, true),
    repo.newestNotificationId(db, userId),
  ]);
  return { count, etag: `W/"n-${newest ?? '0'}-${count}"` };
}

export async function markRead(db: Db, userId: string, ids: string[] | 'all') {
  return { marked: await repo.markRead(db, userId, ids, nowIso()) };
}

/** Asked just before a notification's e-mail goes (mail/outbox.ts). */
export async function notificationStillWanted(db: Db, notificationId: string): Promise<boolean> {
  const row = await repo.findNotification(db, notificationId);
  if (!row) return false;
  const event = await repo.findEvent(db, row.event_id);
  if (!event || !(await new Visibility(db).may(row.user_id, event))) return false;
  const chosen = (await repo.settingsOf(db, [row.user_id])).get(row.user_id);
  return channelOf(row.kind as NotificationKind, chosen) === 'email';
}

/** The notification, if it is the caller's (404 otherwise, as for none). */
export async function ownNotification(db: Db, userId: string, id: string) {
  const row = await repo.findNotification(db, id);
  if (!row || row.user_id !== userId) throw new NotFoundError('Notification not found');
  return row;
}
