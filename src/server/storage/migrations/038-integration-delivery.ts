import type { Kysely } from 'kysely';

/**
 * Integration events are delivered to the integration's script (issue 31): an event is `pending` until its job ran
 * it, then `success`, `ignored` (the script does not handle that type: 406) or `failed`, with the attempts made,
 * how long the script took, what went wrong and what it logged (`trace`: JSON list of log lines). Existing events
 * were recorded without running anything: they stay as they were.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('integration_events')
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.alterTable('integration_events').addColumn('duration_ms', 'integer').execute();
  await db.schema.alterTable('integration_events').addColumn('error', 'text').execute();
  await db.schema.alterTable('integration_events').addColumn('trace', 'text').execute();
  await db.schema.alterTable('integration_events').addColumn('organization_id', 'varchar(64)').execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  for (const column of ['organization_id', 'trace', 'error', 'duration_ms', 'attempts']) {
    await db.schema.alterTable('integration_events').dropColumn(column).execute();
  }
}
