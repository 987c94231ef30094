import { sql } from 'kysely';
import type { Executor } from '../db.js';
import type { NotificationEventsTable, NotificationsTable, NotificationWatchersTable } from '../schema.js';

export type NotificationEventRow = NotificationEventsTable;
export type NotificationRow = NotificationsTable;
export type WatcherRow = NotificationWatchersTable;

export async function insertEvent(db: Executor, row: NotificationEventRow): Promise<void> {
  await db.insertInto('notification_events').values(row).execute();
}

export function findEvent(db: Executor, id: string) {
  return db.selectFrom('notification_events').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Inserts the notifications not there yet (a fan-out run again adds only the missing ones); answers those added. */
export async function insertNotifications(db: Executor, rows: NotificationRow[]): Promise<NotificationRow[]> {
  if (!rows.length) return [];
  const inserted = await db
    .insertInto('notifications')
    .values(rows)
    .onConflict((oc) => oc.columns(['event_id', 'user_id']).doNothing())
    .returning('id')
    .execute();
  const ids = new Set(inserted.map((r) => r.id));
  return rows.filter((r) => ids.has(r.id));
}

export async function setNotificationEmail(db: Executor, id: string, messageId: string): Promise<void> {
  await db.updateTable('notifications').set({ email_message_id: messageId }).where('id', '=', id).execute();
}

export function findNotification(db: Executor, id: string) {
  return db.selectFrom('notifications').selectAll().where('id', '=', id).executeTakeFirst();
}

/** A person's notifications with their events, newest first (keyset on id). */
export function listNotifications(
  db: Executor,
  userId: string,
  unread: boolean,
  after: string[] | undefined,
  take: number,
) {
  let q = db
    .selectFrom('notifications as n')
    .innerJoin('notification_events as e', 'e.id', 'n.event_id')
    .select([
      'n.id',
      'n.kind',
      'n.reason',
      'n.created_at',
      'n.read_at',
      'n.organization_id',
      'e.space_id',
      'e.change_request_id',
      'e.page_id',
      'e.comment_id',
      'e.reply_id',
      'e.actor_id',
      'e.data',
    ])
    .where('n.user_id', '=', userId)
    .orderBy('n.id', 'desc')
    .limit(take);
  if (unread) q = q.where('n.read_at', 'is', null);
  if (after) q = q.where('n.id', '<', after[0]!);
  return q.execute();
}
export type ListedNotification = Awaited<ReturnType<typeof listNotifications>>[number];

export async function countNotifications(db: Executor, userId: string, unread: boolean): Promise<number> {
  let q = db
    .selectFrom('notifications')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('user_id', '=', userId);
  if (unread) q = q.where('read_at', 'is', null);
  return Number((await q.executeTakeFirstOrThrow()).n);
}

/** The newest notification id of a person (the unread count's ETag moves with it). */
export async function newestNotificationId(db: Executor, userId: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('notifications')
    .select('id')
    .where('user_id', '=', userId)
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row?.id;
}

export async function markRead(db: Executor, userId: string, ids: string[] | 'all', at: string): Promise<number> {
  let q = db
    .updateTable('notifications')
    .set({ read_at: at })
    .where('user_id', '=', userId)
    .where('read_at', 'is', null);
  if (ids !== 'all') q = q.where('id', 'in', ids);
  return Number((await q.executeTakeFirst()).numUpdatedRows);
}

/** Adds watchers (an existing row, muted or not, stays as it is). */
export async function addWatchers(db: Executor, rows: WatcherRow[]): Promise<void> {
  for (let i = 0; i < rows.length; i += 500) {
    await db
      .insertInto('notification_watchers')
      .values(rows.slice(i, i + 500))
      .onConflict((oc) => oc.columns(['target_kind', 'target_id', 'user_id']).doNothing())
      .execute();
  }
}

export async function setMuted(
  db: Executor,
  target: { kind: string; id: string },
  userId: string,
  muted: boolean,
  now: string,
): Promise<void> {
  await db
    .insertInto('notification_watchers')
    .values({
      target_kind: target.kind,
      target_id: target.id,
      user_id: userId,
      reason: 'chose',
      muted: muted ? 1 : 0,
      created_at: now,
    })
    .onConflict((oc) => oc.columns(['target_kind', 'target_id', 'user_id']).doUpdateSet({ muted: muted ? 1 : 0 }))
    .execute();
}

export function watchersOf(db: Executor, kind: string, id: string) {
  return db
    .selectFrom('notification_watchers')
    .select(['user_id', 'reason', 'muted'])
    .where('target_kind', '=', kind)
    .where('target_id', '=', id)
    .execute();
}

export function watcherOf(db: Executor, kind: string, id: string, userId: string) {
  return db
    .selectFrom('notification_watchers')
    .select(['muted'])
    .where('target_kind', '=', kind)
    .where('target_id', '=', id)
    .where('user_id', '=', userId)
    .executeTakeFirst();
}

/** The channels a person chose, by kind (kinds left at their default are absent). */
export async function settingsOf(db: Executor, userIds: string[]): Promise<Map<string, Map<string, string>>> {
  const out = new Map<string, Map<string, string>>();
  for (let i = 0; i < userIds.length; i += 500) {
    const rows = await db
      .selectFrom('notification_settings')
      .selectAll()
      .where('user_id', 'in', userIds.slice(i, i + 500))
      .execute();
    for (const row of rows) {
      let m = out.get(row.user_id);
      if (!m) out.set(row.user_id, (m = new Map()));
      m.set(row.kind, row.channel);
    }
  }
  return out;
}

export async function saveSetting(db: Executor, userId: string, kind: string, channel: string | null) {
  if (channel === null) {
    await db.deleteFrom('notification_settings').where('user_id', '=', userId).where('kind', '=', kind).execute();
    return;
  }
  await db
    .insertInto('notification_settings')
    .values({ user_id: userId, kind, channel })
    .onConflict((oc) => oc.columns(['user_id', 'kind']).doUpdateSet({ channel }))
    .execute();
}

/** Sets when the person's next digest is due unless one is due sooner already. */
export async function scheduleDigest(db: Executor, userId: string, dueAt: string): Promise<void> {
  await db
    .insertInto('notification_digests')
    .values({ user_id: userId, due_at: dueAt, last_sent_at: null })
    .onConflict((oc) =>
      oc.column('user_id').doUpdateSet({
        // The sooner of the two (portable: PostgreSQL's min() is an aggregate, SQLite's least() does not exist).
        due_at: sql<string>`case when notification_digests.due_at < ${dueAt} then notification_digests.due_at else ${dueAt} end`,
      }),
    )
    .execute();
}

export function dueDigests(db: Executor, now: string, take: number) {
  return db
    .selectFrom('notification_digests')
    .selectAll()
    .where('due_at', '<=', now)
    .orderBy('due_at')
    .limit(take)
    .execute();
}

/** Claims a due digest: one process wins (the row must still say what it read). */
export async function claimDigest(db: Executor, userId: string, seen: string, next: string): Promise<boolean> {
  const r = await db
    .updateTable('notification_digests')
    .set({ due_at: next })
    .where('user_id', '=', userId)
    .where('due_at', '=', seen)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

export function pendingDigestNotifications(db: Executor, userId: string) {
  return db
    .selectFrom('notifications')
    .select(['id', 'event_id', 'kind', 'read_at'])
    .where('user_id', '=', userId)
    .where('digest_state', '=', 'pending')
    .orderBy('id')
    .limit(500)
    .execute();
}

export async function setDigestState(db: Executor, ids: string[], state: 'included' | 'dropped'): Promise<void> {
  for (let i = 0; i < ids.length; i += 500) {
    await db
      .updateTable('notifications')
      .set({ digest_state: state })
      .where('id', 'in', ids.slice(i, i + 500))
      .execute();
  }
}

/** Who wrote a change request. */
export async function changeRequestAuthor(db: Executor, id: string): Promise<string | undefined> {
  const row = await db.selectFrom('change_requests').select('created_by').where('id', '=', id).executeTakeFirst();
  return row?.created_by;
}

/** Everyone who wrote in a thread: the comment's author and those who replied. */
export async function threadParticipants(db: Executor, commentId: string): Promise<string[]> {
  const comment = await db.selectFrom('comments').select('author_id').where('id', '=', commentId).executeTakeFirst();
  const repliers = await db
    .selectFrom('comment_replies')
    .select('author_id')
    .distinct()
    .where('comment_id', '=', commentId)
    .execute();
  return [...(comment ? [comment.author_id] : []), ...repliers.map((r) => r.author_id)];
}

/** A notification that waits for the digest instead of being mailed now. */
export async function moveToDigest(db: Executor, id: string): Promise<void> {
  await db
    .updateTable('notifications')
    .set({ channel: 'digest', digest_state: 'pending' })
    .where('id', '=', id)
    .execute();
}

/** What a notification's event concerns, as shown: a change request's number and subject, a post's text. */
export function changeRequestHeading(db: Executor, id: string) {
  return db.selectFrom('change_requests').select(['id', 'number', 'subject']).where('id', '=', id).executeTakeFirst();
}

export async function postBody(db: Executor, where: { commentId: string | null; replyId: string | null }) {
  if (where.replyId) {
    const reply = await db
      .selectFrom('comment_replies')
      .select('body')
      .where('id', '=', where.replyId)
      .executeTakeFirst();
    return reply?.body;
  }
  if (where.commentId) {
    const comment = await db.selectFrom('comments').select('body').where('id', '=', where.commentId).executeTakeFirst();
    return comment?.body;
  }
  return undefined;
}

export async function recordDigestSent(db: Executor, userId: string, at: string): Promise<void> {
  await db.updateTable('notification_digests').set({ last_sent_at: at }).where('user_id', '=', userId).execute();
}

/** Events (with their notifications) older than `before`. */
export async function purgeEventsBefore(db: Executor, before: string): Promise<void> {
  await db.deleteFrom('notification_events').where('created_at', '<', before).execute();
}

export async function setChannel(db: Executor, id: string, channel: string): Promise<void> {
  await db.updateTable('notifications').set({ channel }).where('id', '=', id).execute();
}
