import type { Kysely } from 'kysely';

/**
 * Site customization: the site's settings (JSON of the contract's SiteCustomizationSettings; null until set, meaning
 * the defaults) and each site space's overrides of them (JSON of the parts overridden; null when none).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  for (const table of ['sites', 'site_spaces']) {
    await db.schema.alterTable(table).addColumn('customization', 'text').execute();
  }
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['sites', 'site_spaces']) {
    await db.schema.alterTable(table).dropColumn('customization').execute();
  }
}
