import type { Kysely } from 'kysely';

/**
 * Bounces (issue 30): a delivery status notification names the message it reports by its Message-ID, so the
 * outbox is looked up by it.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('email_messages_message_id').on('email_messages').column('message_id').execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('email_messages_message_id').execute();
}
