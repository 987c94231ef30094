import type { Kysely } from 'kysely';

/**
 * Imports become jobs of the queue (jobs/imports.ts): stored, claimed by any server process, run again after a
 * crash. `jobs.group_key` names a group of which one job runs at a time across every process (an organization's
 * imports: one slow import of one organization never holds two of the slots every organization shares). An
 * upload waits in `blob_chunks` under a key of its own (`src-…`) until its import is over. `import_runs.error`
 * keeps how a failed import is answered (`{status, message, issues?}`), for the request that waits on it.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('jobs').addColumn('group_key', 'varchar(64)').execute();
  await db.schema.createIndex('jobs_group').on('jobs').columns(['group_key', 'state']).execute();
  await db.schema.alterTable('import_runs').addColumn('error', 'text').execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('import_runs').dropColumn('error').execute();
  await db.schema.dropIndex('jobs_group').execute();
  await db.schema.alterTable('jobs').dropColumn('group_key').execute();
}
