import { sql, type Kysely } from 'kysely';
import { isPostgres } from './dialect.js';

/** Positions are fractional-indexing keys compared byte by byte (see 001): PostgreSQL must not use a collation. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
function positionType(db: Kysely<any>) {
  return isPostgres(db) ? sql`varchar(255) collate "C"` : sql`varchar(255)`;
}

/**
 * Docs sites: the site, its section groups, sections and site spaces (each ordered among its siblings), and its
 * share links. `version` goes up with every change to a site or its structure: published pages are cached by it.
 * Defaults are pointers on the parent (the site, or the section), so there can never be two.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('sites')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('organization_id', 'varchar(64)', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('type', 'varchar(32)', (c) => c.notNull())
    .addColumn('title', 'varchar(255)', (c) => c.notNull())
    .addColumn('visibility', 'varchar(32)', (c) => c.notNull())
    .addColumn('basename', 'varchar(255)')
    .addColumn('proxy', 'varchar(512)')
    .addColumn('published', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('adaptive_enabled', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('agents_context', 'varchar(16)', (c) => c.notNull())
    .addColumn('adaptive_schema', 'text')
    .addColumn('adaptive_schema_updated_at', 'varchar(32)')
    .addColumn('visitor_key', 'varchar(256)', (c) => c.notNull())
    .addColumn('visitor_fallback_url', 'text')
    .addColumn('default_section_id', 'varchar(64)')
    .addColumn('default_site_space_id', 'varchar(64)')
    .addColumn('version', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_by', 'varchar(64)', (c) => c.notNull())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('sites_org').on('sites').columns(['organization_id', 'id']).execute();

  await db.schema
    .createTable('site_section_groups')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('site_id', 'varchar(64)', (c) => c.notNull().references('sites.id').onDelete('cascade'))
    .addColumn('title', 'varchar(255)', (c) => c.notNull())
    .addColumn('icon', 'varchar(64)')
    .addColumn('position', positionType(db), (c) => c.notNull())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('site_section_groups_site').on('site_section_groups').columns(['site_id']).execute();

  await db.schema
    .createTable('site_sections')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('site_id', 'varchar(64)', (c) => c.notNull().references('sites.id').onDelete('cascade'))
    .addColumn('group_id', 'varchar(64)', (c) => c.references('site_section_groups.id').onDelete('set null'))
    .addColumn('title', 'varchar(255)', (c) => c.notNull())
    .addColumn('path', 'varchar(128)', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('condition', 'text')
    .addColumn('icon', 'varchar(64)')
    .addColumn('position', positionType(db), (c) => c.notNull())
    .addColumn('default_site_space_id', 'varchar(64)')
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  // Section paths are unique within their site (groups give no path segment).
  await db.schema.createIndex('site_sections_path').on('site_sections').columns(['site_id', 'path']).unique().execute();

  await db.schema
    .createTable('site_spaces')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('site_id', 'varchar(64)', (c) => c.notNull().references('sites.id').onDelete('cascade'))
    .addColumn('section_id', 'varchar(64)', (c) => c.references('site_sections.id').onDelete('cascade'))
    /** The section id, or '' at the site's root: unique paths per parent, which a nullable column cannot give. */
    .addColumn('parent_key', 'varchar(64)', (c) => c.notNull())
    .addColumn('space_id', 'varchar(64)', (c) => c.notNull().references('spaces.id').onDelete('cascade'))
    .addColumn('path', 'varchar(128)', (c) => c.notNull())
    .addColumn('condition', 'text')
    .addColumn('position', positionType(db), (c) => c.notNull())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('site_spaces_path')
    .on('site_spaces')
    .columns(['site_id', 'parent_key', 'path'])
    .unique()
    .execute();
  await db.schema.createIndex('site_spaces_space').on('site_spaces').columns(['space_id']).execute();

  await db.schema
    .createTable('site_share_links')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('site_id', 'varchar(64)', (c) => c.notNull().references('sites.id').onDelete('cascade'))
    .addColumn('name', 'varchar(64)', (c) => c.notNull())
    .addColumn('key', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('active', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('site_share_links_site').on('site_share_links').columns(['site_id', 'id']).execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['site_share_links', 'site_spaces', 'site_sections', 'site_section_groups', 'sites']) {
    await db.schema.dropTable(table).ifExists().execute();
  }
}
