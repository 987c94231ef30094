import type { Kysely } from 'kysely';

/**
 * A SAML sign-in is bound to the browser that started it: the start records a hash of a secret it sets as a cookie
 * in that browser (`binding_hash`), and a response that answers the request signs in only where that cookie is. The
 * identity provider's POST to the ACS URL is cross-site, so it carries no Lax cookie: the ACS records a one-time
 * completion (`saml_completions`) and sends the browser to a same-site URL, where the cookie is checked and the
 * session made. Without it, someone could post their own valid response from a victim's browser and sign it into
 * their account.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('saml_requests').addColumn('binding_hash', 'varchar(64)').execute();
  await db.schema
    .createTable('saml_completions')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('provider_id', 'varchar(64)', (c) => c.notNull().references('saml_providers.id').onDelete('cascade'))
    .addColumn('user_id', 'varchar(64)', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('organization_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('binding_hash', 'varchar(64)', (c) => c.notNull())
    .addColumn('expires_at', 'varchar(32)', (c) => c.notNull())
    .execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('saml_completions').execute();
  await db.schema.alterTable('saml_requests').dropColumn('binding_hash').execute();
}
