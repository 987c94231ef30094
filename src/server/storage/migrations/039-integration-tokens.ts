import { sql, type Kysely } from 'kysely';

/**
 * The short-lived tokens an integration's script is handed with each event (issue 31): an integration token
 * (`installation_id` null: acts as the integration, on its own installations) and an installation token (acts for
 * one installation, with the scopes it was granted, on the spaces and sites chosen for it). Stored hashed; they go
 * with their installation or integration, and the purge job deletes them once expired.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('integration_tokens')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('token_hash', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('integration_name', 'varchar(100)', (c) =>
      c.notNull().references('integrations.name').onDelete('cascade'),
    )
    .addColumn('installation_id', 'varchar(64)', (c) =>
      c.references('integration_installations.id').onDelete('cascade'),
    )
    // The organization of the event it was handed with: what the script queues with it (tasks) runs as that
    // organization's work, in its process.
    .addColumn('organization_id', 'varchar(64)', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('scopes', 'text', (c) => c.notNull())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('expires_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('integration_tokens_expires').on('integration_tokens').column('expires_at').execute();
  // The scopes the installing organization granted: those the integration declared when it was installed. A later
  // version that declares more gets no more through existing installations (tokens hold the scopes both name).
  await db.schema.alterTable('integration_installations').addColumn('scopes', 'text').execute();
  await sql`update integration_installations set scopes = (select i.scopes from integrations i
    where i.name = integration_installations.integration_name)`.execute(db);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('integration_installations').dropColumn('scopes').execute();
  await db.schema.dropTable('integration_tokens').execute();
}
