import type { Kysely } from 'kysely';

/**
 * Jobs and hosted OpenAPI specifications.
 *
 * `jobs` is the queue of background work: any server process claims a job by leasing it (`locked_until`), so a job
 * whose process died is claimed again once its lease has run out. `key` names what a job is about (one queued job
 * per key: enqueueing again replaces the payload of a job not yet started).
 *
 * `openapi_specs` holds each specification's source (its URL, or the text given inline, kept until processed) and
 * its processing state; `source_revision` grows with each new source, so that a job finishing after a newer source
 * arrived does not overwrite what that one will produce. `openapi_versions` keeps each distinct content processed:
 * the text as received and the parsed document (JSON), with the text's hash to tell an unchanged source.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('jobs')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('kind', 'varchar(32)', (c) => c.notNull())
    .addColumn('key', 'varchar(160)', (c) => c.notNull())
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('state', 'varchar(16)', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull())
    .addColumn('run_after', 'varchar(32)', (c) => c.notNull())
    .addColumn('locked_until', 'varchar(32)')
    .addColumn('locked_by', 'varchar(64)')
    .addColumn('last_error', 'text')
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('jobs_ready').on('jobs').columns(['state', 'run_after']).execute();
  await db.schema.createIndex('jobs_key').on('jobs').columns(['kind', 'key', 'state']).execute();

  await db.schema
    .createTable('openapi_specs')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('organization_id', 'varchar(64)', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('slug', 'varchar(100)', (c) => c.notNull())
    .addColumn('visibility', 'varchar(16)', (c) => c.notNull())
    .addColumn('source_url', 'text')
    .addColumn('source_text', 'text')
    .addColumn('source_revision', 'integer', (c) => c.notNull())
    .addColumn('processing_state', 'varchar(16)', (c) => c.notNull())
    .addColumn('last_version_id', 'varchar(64)')
    .addColumn('last_processed_at', 'varchar(32)')
    .addColumn('last_error_code', 'varchar(32)')
    .addColumn('last_errors', 'text')
    .addColumn('created_by', 'varchar(64)', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .addUniqueConstraint('openapi_specs_org_slug', ['organization_id', 'slug'])
    .execute();

  await db.schema
    .createTable('openapi_versions')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('spec_id', 'varchar(64)', (c) => c.notNull().references('openapi_specs.id').onDelete('cascade'))
    .addColumn('hash', 'varchar(64)', (c) => c.notNull())
    .addColumn('filename', 'varchar(200)', (c) => c.notNull())
    .addColumn('source_url', 'text')
    .addColumn('text', 'text', (c) => c.notNull())
    .addColumn('document', 'text', (c) => c.notNull())
    .addColumn('specification', 'varchar(32)', (c) => c.notNull())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('openapi_versions_spec').on('openapi_versions').columns(['spec_id', 'id']).execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('openapi_versions').ifExists().execute();
  await db.schema.dropTable('openapi_specs').ifExists().execute();
  await db.schema.dropTable('jobs').ifExists().execute();
}
