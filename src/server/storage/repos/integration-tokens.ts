import type { Executor } from '../db.js';
import type { IntegrationTokensTable } from '../schema.js';

export type IntegrationTokenRow = IntegrationTokensTable;

export async function insertIntegrationTokens(db: Executor, rows: IntegrationTokenRow[]): Promise<void> {
  await db.insertInto('integration_tokens').values(rows).execute();
}

/**
 * A token with what authenticating it reads of its installation (none for the integration's own token), and the
 * account its integration writes as.
 */
export function findIntegrationTokenByHash(db: Executor, tokenHash: string) {
  return selectIntegrationToken(db).where('t.token_hash', '=', tokenHash).executeTakeFirst();
}

/** The same, by the token's id (a job run for a script's request acts as its token does then). */
export function findIntegrationTokenById(db: Executor, id: string) {
  return selectIntegrationToken(db).where('t.id', '=', id).executeTakeFirst();
}

function selectIntegrationToken(db: Executor) {
  return db
    .selectFrom('integration_tokens as t')
    .leftJoin('integration_installations as i', 'i.id', 't.installation_id')
    .innerJoin('integrations as n', 'n.name', 't.integration_name')
    .select([
      'n.account_id',
      't.id',
      't.integration_name',
      't.installation_id',
      't.scopes',
      't.expires_at',
      't.organization_id',
      'i.id as installation_found',
      'i.space_selection',
      'i.site_selection',
    ]);
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
