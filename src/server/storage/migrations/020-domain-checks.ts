import { sql, type Kysely } from 'kysely';

/**
 * E-mail domains verified by their DNS record are checked again (jobs/domains.ts): `checked_at` is when the record
 * was last looked up, `misses` how many look-ups in a row did not find it (two make the domain unverified again).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('org_domains').addColumn('checked_at', 'varchar(32)').execute();
  await db.schema
    .alterTable('org_domains')
    .addColumn('misses', 'integer', (c) => c.notNull().defaultTo(sql`0`))
    .execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('org_domains').dropColumn('misses').execute();
  await db.schema.alterTable('org_domains').dropColumn('checked_at').execute();
}
