import { sql, type Kysely } from 'kysely';
import { isPostgres } from './dialect.js';

/**
 * Account settings: a console session records the browser's User-Agent and the client address it signed in from
 * (shown in the list of active sessions); an account's uploaded photo is stored here, one per account, and served
 * under an id that changes with each upload (so a cached copy never outlives a change).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('api_tokens').addColumn('user_agent', 'varchar(512)').execute();
  await db.schema.alterTable('api_tokens').addColumn('ip', 'varchar(64)').execute();
  await db.schema
    .createTable('user_photos')
    .addColumn('user_id', 'varchar(64)', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('id', 'varchar(64)', (c) => c.notNull())
    .addColumn('content_type', 'varchar(64)', (c) => c.notNull())
    .addColumn('data', isPostgres(db) ? sql`bytea` : sql`blob`, (c) => c.notNull())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('user_photos').execute();
  await db.schema.alterTable('api_tokens').dropColumn('ip').execute();
  await db.schema.alterTable('api_tokens').dropColumn('user_agent').execute();
}
