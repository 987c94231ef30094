import type { Kysely } from 'kysely';

/**
 * People and identity: teams and their members, explicit grants of a role on a space or a collection (to a
 * user or a team), SAML providers with the assertion ids already used (replay store), translation settings,
 * server-wide secrets (the key that signs visitor claims), SSO membership and the member-list indexes.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('members')
    .addColumn('sso', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  // Keyset pages of the member list by join time and by last-seen time cost the same at any depth.
  await db.schema
    .createIndex('members_org_joined')
    .on('members')
    .columns(['organization_id', 'joined_at', 'user_id'])
    .execute();
  await db.schema
    .createIndex('members_org_seen')
    .on('members')
    .columns(['organization_id', 'last_seen_at', 'user_id'])
    .execute();

  await db.schema
    .createTable('teams')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('organization_id', 'varchar(64)', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('title', 'varchar(64)', (c) => c.notNull())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('teams_org').on('teams').columns(['organization_id', 'id']).execute();

  await db.schema
    .createTable('team_members')
    .addColumn('team_id', 'varchar(64)', (c) => c.notNull().references('teams.id').onDelete('cascade'))
    .addColumn('organization_id', 'varchar(64)', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('user_id', 'varchar(64)', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('role', 'varchar(16)', (c) => c.notNull())
    .addColumn('added_at', 'varchar(32)', (c) => c.notNull())
    .addPrimaryKeyConstraint('team_members_pk', ['team_id', 'user_id'])
    .execute();
  await db.schema
    .createIndex('team_members_user')
    .on('team_members')
    .columns(['organization_id', 'user_id', 'team_id'])
    .execute();

  for (const [table, target, targetTable] of [
    ['space_grants', 'space_id', 'spaces'],
    ['collection_grants', 'collection_id', 'collections'],
  ] as const) {
    // A grant goes to a user or to a team (exactly one of the two columns is set).
    await db.schema
      .createTable(table)
      .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
      .addColumn('organization_id', 'varchar(64)', (c) =>
        c.notNull().references('organizations.id').onDelete('cascade'),
      )
      .addColumn(target, 'varchar(64)', (c) => c.notNull().references(`${targetTable}.id`).onDelete('cascade'))
      .addColumn('user_id', 'varchar(64)', (c) => c.references('users.id').onDelete('cascade'))
      .addColumn('team_id', 'varchar(64)', (c) => c.references('teams.id').onDelete('cascade'))
      .addColumn('role', 'varchar(16)', (c) => c.notNull())
      .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
      .execute();
    await db.schema.createIndex(`${table}_target_user`).on(table).columns([target, 'user_id']).unique().execute();
    await db.schema.createIndex(`${table}_target_team`).on(table).columns([target, 'team_id']).unique().execute();
    await db.schema.createIndex(`${table}_user`).on(table).columns(['user_id', 'organization_id']).execute();
    await db.schema.createIndex(`${table}_team`).on(table).columns(['team_id']).execute();
  }

  await db.schema
    .createTable('saml_providers')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('organization_id', 'varchar(64)', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('label', 'varchar(30)', (c) => c.notNull())
    .addColumn('sso_url', 'text', (c) => c.notNull())
    .addColumn('idp_entity_id', 'varchar(1024)', (c) => c.notNull())
    .addColumn('certificate', 'text', (c) => c.notNull())
    .addColumn('default_team_id', 'varchar(64)', (c) => c.references('teams.id').onDelete('set null'))
    .addColumn('default_role', 'varchar(16)')
    .addColumn('status', 'varchar(16)', (c) => c.notNull())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('saml_providers_org').on('saml_providers').columns(['organization_id', 'id']).execute();

  // Assertion ids already accepted, until they expire: a second use is a replay, whichever process sees it.
  await db.schema
    .createTable('saml_assertions')
    .addColumn('provider_id', 'varchar(64)', (c) => c.notNull().references('saml_providers.id').onDelete('cascade'))
    .addColumn('assertion_id', 'varchar(256)', (c) => c.notNull())
    .addColumn('expires_at', 'varchar(32)', (c) => c.notNull())
    .addPrimaryKeyConstraint('saml_assertions_pk', ['provider_id', 'assertion_id'])
    .execute();
  await db.schema.createIndex('saml_assertions_expiry').on('saml_assertions').column('expires_at').execute();

  await db.schema
    .createTable('translation_settings')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('organization_id', 'varchar(64)', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('title', 'varchar(128)', (c) => c.notNull())
    .addColumn('languages', 'text', (c) => c.notNull())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('translation_settings_org')
    .on('translation_settings')
    .columns(['organization_id', 'id'])
    .execute();

  await db.schema
    .createTable('server_secrets')
    .addColumn('name', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  for (const t of [
    'server_secrets',
    'translation_settings',
    'saml_assertions',
    'saml_providers',
    'collection_grants',
    'space_grants',
    'team_members',
    'teams',
  ]) {
    await db.schema.dropTable(t).ifExists().execute();
  }
  await db.schema.dropIndex('members_org_seen').ifExists().execute();
  await db.schema.dropIndex('members_org_joined').ifExists().execute();
  await db.schema.alterTable('members').dropColumn('sso').execute();
}
