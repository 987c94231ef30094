import type { Kysely } from 'kysely';

/**
 * Notifications (issue 30). An event (a review requested, a comment posted…) is recorded in the transaction of the
 * change that caused it, with a `notify` job; the job fans it out to the people concerned who may still see it:
 * one `notifications` row each (at most one per event and person), read in the console's inbox, and mailed
 * at once or in a daily digest as each person chose (`notification_settings`: only choices that differ from the
 * defaults). `notification_watchers`: who follows a change request (its author, reviewers, people who took part)
 * or a page (authors of change requests merged into it); `muted` keeps someone out. `notification_digests`: when
 * each person's next digest is due.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('notification_events')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('kind', 'varchar(32)', (c) => c.notNull())
    .addColumn('organization_id', 'varchar(64)', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('space_id', 'varchar(64)')
    .addColumn('change_request_id', 'varchar(64)')
    .addColumn('page_id', 'varchar(64)')
    .addColumn('comment_id', 'varchar(64)')
    .addColumn('reply_id', 'varchar(64)')
    .addColumn('actor_id', 'varchar(64)')
    .addColumn('data', 'text', (c) => c.notNull())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('notifications')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('user_id', 'varchar(64)', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('event_id', 'varchar(64)', (c) => c.notNull().references('notification_events.id').onDelete('cascade'))
    .addColumn('kind', 'varchar(32)', (c) => c.notNull())
    .addColumn('organization_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('reason', 'varchar(16)', (c) => c.notNull())
    .addColumn('channel', 'varchar(8)', (c) => c.notNull())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('read_at', 'varchar(32)')
    .addColumn('digest_state', 'varchar(16)')
    .addColumn('email_message_id', 'varchar(64)')
    .execute();
  await db.schema
    .createIndex('notifications_event_user')
    .on('notifications')
    .columns(['event_id', 'user_id'])
    .unique()
    .execute();
  await db.schema.createIndex('notifications_user').on('notifications').columns(['user_id', 'id']).execute();
  await db.schema.createIndex('notifications_unread').on('notifications').columns(['user_id', 'read_at']).execute();
  await db.schema
    .createIndex('notifications_digest')
    .on('notifications')
    .columns(['user_id', 'digest_state'])
    .execute();
  await db.schema
    .createTable('notification_watchers')
    .addColumn('target_kind', 'varchar(16)', (c) => c.notNull())
    .addColumn('target_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('user_id', 'varchar(64)', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('reason', 'varchar(16)', (c) => c.notNull())
    .addColumn('muted', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addPrimaryKeyConstraint('notification_watchers_pk', ['target_kind', 'target_id', 'user_id'])
    .execute();
  await db.schema
    .createTable('notification_settings')
    .addColumn('user_id', 'varchar(64)', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('kind', 'varchar(32)', (c) => c.notNull())
    .addColumn('channel', 'varchar(8)', (c) => c.notNull())
    .addPrimaryKeyConstraint('notification_settings_pk', ['user_id', 'kind'])
    .execute();
  await db.schema
    .createTable('notification_digests')
    .addColumn('user_id', 'varchar(64)', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('due_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('last_sent_at', 'varchar(32)')
    .execute();
  await db.schema.createIndex('notification_digests_due').on('notification_digests').columns(['due_at']).execute();
  await db.schema.alterTable('users').addColumn('digest_hour', 'integer').execute();
  await db.schema.alterTable('users').addColumn('time_zone', 'varchar(64)').execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('users').dropColumn('time_zone').execute();
  await db.schema.alterTable('users').dropColumn('digest_hour').execute();
  for (const table of [
    'notification_digests',
    'notification_settings',
    'notification_watchers',
    'notifications',
    'notification_events',
  ]) {
    await db.schema.dropTable(table).ifExists().execute();
  }
}
