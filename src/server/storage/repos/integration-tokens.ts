import type { Executor } from '../db.js';
import type { IntegrationTokensTable } from '../schema.js';

export type IntegrationTokenRow = IntegrationTokensTable;

export async function insertIntegrationTokens(db: Executor, rows: IntegrationTokenRow[]): Promise<void> {
  await db.insertInto('integration_tokens').values(rows).execute();
}

/** A token with what authenticating it reads of its installation (none for the integration's own token). */
export function findIntegrationTokenByHash(db: Executor, tokenHash: string) {
  return db
    .selectFrom('integration_tokens as t')
    .leftJoin('integration_installations as i', 'i.id', 't.installation_id')
    .select([
      't.id',
      't.integration_name',
      't.installation_id',
      't.scopes',
      't.expires_at',
      't.organization_id',
      'i.id as installation_found',
      'i.space_selection',
      'i.site_selection',
    ])
    .where('t.token_hash', '=', tokenHash)
    .executeTakeFirst();
}

export async function deleteExpiredIntegrationTokens(db: Executor, now: string): Promise<void> {
  await db.deleteFrom('integration_tokens').where('expires_at', '<', now).execute();
}

/** Whether a token is stored and valid past `until`. */
export async function integrationTokenValid(db: Executor, tokenHash: string, until: string): Promise<boolean> {
  const row = await db
    .selectFrom('integration_tokens')
    .select('id')
    .where('token_hash', '=', tokenHash)
    .where('expires_at', '>', until)
    .executeTakeFirst();
  return row !== undefined;
}
