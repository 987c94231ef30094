import type { Kysely } from 'kysely';

/**
 * The API token handed out at sign-in belongs to that sign-in's session: it expires and is revoked with it.
 * Pending e-mail invites go: without e-mail verification, whoever signed up first with the address would have
 * taken the invited role. Invite links (a secret) replace them.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('api_tokens').addColumn('session_id', 'varchar(64)').execute();
  await db.schema.createIndex('api_tokens_session').on('api_tokens').column('session_id').execute();
  await db.schema.dropTable('email_invites').execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('email_invites')
    .addColumn('organization_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('email', 'varchar(254)', (c) => c.notNull())
    .addColumn('role', 'varchar(16)')
    .addColumn('invited_by', 'varchar(64)', (c) => c.notNull())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addPrimaryKeyConstraint('email_invites_pk', ['organization_id', 'email'])
    .execute();
  await db.schema.dropIndex('api_tokens_session').execute();
  await db.schema.alterTable('api_tokens').dropColumn('session_id').execute();
}
