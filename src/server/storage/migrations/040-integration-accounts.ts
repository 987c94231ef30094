import type { Kysely } from 'kysely';
import { newId } from '../../lib/ids.js';
import { INTEGRATION_ACCOUNT_DOMAIN, integrationAccountRow } from '../../lib/integration-accounts.js';

/**
 * The account an integration writes as (issue 31's write scopes): a change request or revision made with an
 * installation's token names it as its author. One per published integration, kept when it is unpublished (what
 * it wrote stays attributed); a name published again by anyone gets a new one. Existing integrations get theirs.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('integrations').addColumn('account_id', 'varchar(64)').execute();
  const rows = (await db.selectFrom('integrations').select(['name', 'title', 'icon_asset_id']).execute()) as {
    name: string;
    title: string;
    icon_asset_id: string | null;
  }[];
  const now = new Date().toISOString();
  for (const row of rows) {
    const id = newId();
    await db
      .insertInto('users')
      .values(integrationAccountRow(id, row, now))
      .execute();
    await db.updateTable('integrations').set({ account_id: id }).where('name', '=', row.name).execute();
  }
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.deleteFrom('users').where('email', 'like', `%@${INTEGRATION_ACCOUNT_DOMAIN}`).execute();
  await db.schema.alterTable('integrations').dropColumn('account_id').execute();
}
