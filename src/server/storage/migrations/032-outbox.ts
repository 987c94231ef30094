import type { Kysely } from 'kysely';

/**
 * The outbox (issue 30): every e-mail the server sends is a row here, composed once (its exact MIME bytes, the
 * Message-ID included) and handed to the SMTP relay by a stored job. `dedupe_key` makes a cause queued twice one
 * message; `state` records how far the hand-over went, so a crash never sends a message twice (see
 * domain/mail/outbox.ts). `email_rate_counters` count messages per recipient, sender and client address in fixed
 * windows, atomically on both databases.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('email_messages')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('dedupe_key', 'varchar(160)', (c) => c.notNull().unique())
    .addColumn('category', 'varchar(16)', (c) => c.notNull())
    .addColumn('kind', 'varchar(32)', (c) => c.notNull())
    .addColumn('to_address', 'varchar(254)', (c) => c.notNull())
    .addColumn('to_user_id', 'varchar(64)', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('sender_user_id', 'varchar(64)')
    .addColumn('organization_id', 'varchar(64)')
    .addColumn('notification_id', 'varchar(64)')
    .addColumn('subject', 'varchar(300)', (c) => c.notNull())
    .addColumn('message_id', 'varchar(320)', (c) => c.notNull())
    .addColumn('envelope_from', 'varchar(254)', (c) => c.notNull())
    .addColumn('raw', 'text')
    .addColumn('text_body', 'text')
    .addColumn('html_body', 'text')
    .addColumn('state', 'varchar(16)', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('last_error', 'text')
    .addColumn('smtp_reply', 'text')
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('send_started_at', 'varchar(32)')
    .addColumn('sent_at', 'varchar(32)')
    .execute();
  await db.schema.createIndex('email_messages_list').on('email_messages').columns(['created_at', 'id']).execute();
  await db.schema.createIndex('email_messages_state').on('email_messages').columns(['state', 'created_at']).execute();
  await db.schema.createIndex('email_messages_to').on('email_messages').columns(['to_address', 'created_at']).execute();
  await db.schema
    .createTable('email_rate_counters')
    .addColumn('scope', 'varchar(32)', (c) => c.notNull())
    .addColumn('key', 'varchar(254)', (c) => c.notNull())
    .addColumn('window_start', 'varchar(32)', (c) => c.notNull())
    .addColumn('count', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('email_rate_counters_pk', ['scope', 'key', 'window_start'])
    .execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('email_rate_counters').ifExists().execute();
  await db.schema.dropTable('email_messages').ifExists().execute();
}
