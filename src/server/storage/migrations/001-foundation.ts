import { sql, type Kysely } from 'kysely';
import { isPostgres } from './dialect.js';

/**
 * Positions are fractional-indexing keys compared byte by byte; PostgreSQL must not sort them with a
 * language collation. SQLite compares bytes (BINARY) by default.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
function positionType(db: Kysely<any>) {
  return isPostgres(db) ? sql`varchar(255) collate "C"` : sql`varchar(255)`;
}

// Frozen in time: migrations use Kysely<any> and never import the application's types.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('users')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('email', 'varchar(254)', (c) => c.notNull().unique())
    .addColumn('display_name', 'varchar(100)', (c) => c.notNull())
    .addColumn('password_hash', 'text', (c) => c.notNull())
    .addColumn('photo_url', 'text')
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('api_tokens')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('user_id', 'varchar(64)', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('kind', 'varchar(16)', (c) => c.notNull())
    .addColumn('label', 'varchar(100)', (c) => c.notNull())
    .addColumn('token_hash', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('csrf_hash', 'varchar(64)')
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('last_used_at', 'varchar(32)')
    .addColumn('expires_at', 'varchar(32)')
    .execute();
  await db.schema.createIndex('api_tokens_user').on('api_tokens').columns(['user_id', 'kind', 'id']).execute();

  await db.schema
    .createTable('login_attempts')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('email', 'varchar(254)', (c) => c.notNull())
    .addColumn('ip', 'varchar(64)', (c) => c.notNull())
    .addColumn('at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('login_attempts_email').on('login_attempts').columns(['email', 'at']).execute();
  await db.schema.createIndex('login_attempts_ip').on('login_attempts').columns(['ip', 'at']).execute();

  await db.schema
    .createTable('organizations')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('title', 'varchar(255)', (c) => c.notNull())
    .addColumn('type', 'varchar(16)', (c) => c.notNull())
    .addColumn('email_domains', 'text', (c) => c.notNull())
    .addColumn('hostname', 'varchar(32)', (c) => c.unique())
    .addColumn('default_role', 'varchar(16)')
    .addColumn('default_content_site', 'varchar(64)')
    .addColumn('logo', 'text')
    .addColumn('sso', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('ai', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('invite_links', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('plan', 'varchar(32)', (c) => c.notNull())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('members')
    .addColumn('organization_id', 'varchar(64)', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('user_id', 'varchar(64)', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('role', 'varchar(16)')
    .addColumn('disabled', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('joined_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('last_seen_at', 'varchar(32)')
    .addPrimaryKeyConstraint('members_pk', ['organization_id', 'user_id'])
    .execute();
  await db.schema.createIndex('members_user').on('members').columns(['user_id', 'organization_id']).execute();

  await db.schema
    .createTable('invite_links')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('organization_id', 'varchar(64)', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('role', 'varchar(16)')
    .addColumn('created_by', 'varchar(64)', (c) => c.notNull())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('invite_links_org').on('invite_links').columns(['organization_id', 'id']).execute();

  await db.schema
    .createTable('email_invites')
    .addColumn('organization_id', 'varchar(64)', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('email', 'varchar(254)', (c) => c.notNull())
    .addColumn('role', 'varchar(16)')
    .addColumn('invited_by', 'varchar(64)', (c) => c.notNull())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addPrimaryKeyConstraint('email_invites_pk', ['organization_id', 'email'])
    .execute();
  await db.schema.createIndex('email_invites_email').on('email_invites').columns(['email']).execute();

  await db.schema
    .createTable('collections')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('organization_id', 'varchar(64)', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('parent_id', 'varchar(64)', (c) => c.references('collections.id').onDelete('cascade'))
    .addColumn('title', 'varchar(50)', (c) => c.notNull())
    .addColumn('description', 'varchar(100)')
    .addColumn('default_level', 'varchar(16)')
    .addColumn('position', positionType(db), (c) => c.notNull())
    .addColumn('created_by', 'varchar(64)', (c) => c.notNull())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('collections_org_position')
    .on('collections')
    .columns(['organization_id', 'position', 'id'])
    .execute();
  await db.schema.createIndex('collections_parent').on('collections').columns(['parent_id', 'position']).execute();

  await db.schema
    .createTable('spaces')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('organization_id', 'varchar(64)', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('parent_id', 'varchar(64)', (c) => c.references('collections.id').onDelete('set null'))
    .addColumn('title', 'varchar(50)', (c) => c.notNull())
    .addColumn('emoji', 'varchar(50)', (c) => c.notNull())
    .addColumn('visibility', 'varchar(16)', (c) => c.notNull())
    .addColumn('edit_mode', 'varchar(16)', (c) => c.notNull())
    .addColumn('default_level', 'varchar(16)')
    .addColumn('position', positionType(db), (c) => c.notNull())
    .addColumn('revision_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('comments', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('change_requests', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('change_requests_open', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('change_requests_draft', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_by', 'varchar(64)', (c) => c.notNull())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('deleted_at', 'varchar(32)')
    .execute();
  await db.schema
    .createIndex('spaces_org_position')
    .on('spaces')
    .columns(['organization_id', 'position', 'id'])
    .execute();
  await db.schema.createIndex('spaces_parent').on('spaces').columns(['parent_id', 'position']).execute();
  await db.schema.createIndex('spaces_deleted').on('spaces').columns(['deleted_at']).execute();

  await db.schema
    .createTable('revisions')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('space_id', 'varchar(64)', (c) => c.notNull().references('spaces.id').onDelete('cascade'))
    .addColumn('parents', 'text', (c) => c.notNull())
    .addColumn('type', 'varchar(16)', (c) => c.notNull())
    .addColumn('created_by', 'varchar(64)')
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('revisions_space').on('revisions').columns(['space_id', 'id']).execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  for (const t of [
    'revisions',
    'spaces',
    'collections',
    'email_invites',
    'invite_links',
    'members',
    'organizations',
    'login_attempts',
    'api_tokens',
    'users',
  ]) {
    await db.schema.dropTable(t).ifExists().execute();
  }
}
