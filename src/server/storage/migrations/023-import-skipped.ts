import type { Kysely } from 'kysely';

/**
 * An import no longer fails as a whole for one file it cannot bring (an image over the file size limit, a page
 * nested too deep): it imports the rest and records what it left out, and why (`skipped`, JSON `[{path, reason}]`).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('import_runs').addColumn('skipped', 'text').execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('import_runs').dropColumn('skipped').execute();
}
