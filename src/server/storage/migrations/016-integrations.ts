import { sql, type Kysely } from 'kysely';
import { isPostgres } from './dialect.js';

/**
 * Integrations: what organizations publish (`integrations`, by their global name; their icon and preview images in
 * `integration_assets`; their secrets encrypted with a key of `server_secrets`), their installations on
 * organizations (`integration_installations`, one per organization) and, within those, on spaces and sites
 * (`integration_targets`), and the log of what happened to them (`integration_events`).
 *
 * `unfurl_domains` holds the host names of the blocks' `urlUnfurl` patterns, between spaces, for the `blockDomain`
 * filter of the list.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('integrations')
    .addColumn('name', 'varchar(100)', (c) => c.primaryKey())
    .addColumn('organization_id', 'varchar(64)', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('version', 'integer', (c) => c.notNull())
    .addColumn('title', 'varchar(64)', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('summary', 'text')
    .addColumn('visibility', 'varchar(16)', (c) => c.notNull())
    .addColumn('target', 'varchar(16)', (c) => c.notNull())
    .addColumn('runtime', 'varchar(8)', (c) => c.notNull())
    .addColumn('scopes', 'text', (c) => c.notNull())
    .addColumn('categories', 'text', (c) => c.notNull())
    .addColumn('blocks', 'text')
    .addColumn('content_sources', 'text')
    .addColumn('configurations', 'text')
    .addColumn('external_links', 'text', (c) => c.notNull())
    .addColumn('content_security_policy', 'text')
    .addColumn('script', 'text', (c) => c.notNull())
    .addColumn('secrets', 'text')
    .addColumn('icon_asset_id', 'varchar(64)')
    .addColumn('preview_asset_ids', 'text', (c) => c.notNull())
    .addColumn('unfurl_domains', 'text', (c) => c.notNull())
    .addColumn('has_blocks', 'integer', (c) => c.notNull())
    .addColumn('has_content_sources', 'integer', (c) => c.notNull())
    .addColumn('dev_tunnel_url', 'text')
    .addColumn('dev_all', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('integrations_owner').on('integrations').columns(['organization_id', 'name']).execute();
  await db.schema.createIndex('integrations_visibility').on('integrations').columns(['visibility', 'name']).execute();

  await db.schema
    .createTable('integration_assets')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('integration_name', 'varchar(100)', (c) =>
      c.notNull().references('integrations.name').onDelete('cascade'),
    )
    .addColumn('content_type', 'varchar(64)', (c) => c.notNull())
    .addColumn('data', isPostgres(db) ? sql`bytea` : sql`blob`, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('integration_assets_integration')
    .on('integration_assets')
    .column('integration_name')
    .execute();

  await db.schema
    .createTable('integration_installations')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('integration_name', 'varchar(100)', (c) =>
      c.notNull().references('integrations.name').onDelete('cascade'),
    )
    .addColumn('organization_id', 'varchar(64)', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('status', 'varchar(16)', (c) => c.notNull())
    .addColumn('space_selection', 'varchar(16)', (c) => c.notNull())
    .addColumn('site_selection', 'varchar(16)', (c) => c.notNull())
    .addColumn('configuration', 'text', (c) => c.notNull())
    .addColumn('external_ids', 'text', (c) => c.notNull())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .addUniqueConstraint('integration_installations_org', ['integration_name', 'organization_id'])
    .execute();
  await db.schema
    .createIndex('integration_installations_by_org')
    .on('integration_installations')
    .columns(['organization_id', 'integration_name'])
    .execute();

  await db.schema
    .createTable('integration_targets')
    .addColumn('installation_id', 'varchar(64)', (c) =>
      c.notNull().references('integration_installations.id').onDelete('cascade'),
    )
    .addColumn('kind', 'varchar(8)', (c) => c.notNull())
    .addColumn('target_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('status', 'varchar(16)', (c) => c.notNull())
    .addColumn('configuration', 'text', (c) => c.notNull())
    .addColumn('external_ids', 'text', (c) => c.notNull())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .addPrimaryKeyConstraint('integration_targets_pk', ['installation_id', 'kind', 'target_id'])
    .execute();
  await db.schema
    .createIndex('integration_targets_by_target')
    .on('integration_targets')
    .columns(['kind', 'target_id'])
    .execute();

  await db.schema
    .createTable('integration_events')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('integration_name', 'varchar(100)', (c) =>
      c.notNull().references('integrations.name').onDelete('cascade'),
    )
    .addColumn('installation_id', 'varchar(64)')
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('status', 'varchar(16)', (c) => c.notNull())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('integration_events_by_integration')
    .on('integration_events')
    .columns(['integration_name', 'id'])
    .execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  for (const table of [
    'integration_events',
    'integration_targets',
    'integration_installations',
    'integration_assets',
    'integrations',
  ]) {
    await db.schema.dropTable(table).ifExists().execute();
  }
}
