import type { Executor } from '../db.js';
import type { SamlProvidersTable } from '../schema.js';

export type SamlProviderRow = SamlProvidersTable;

export function findProvider(db: Executor, id: string) {
  return db.selectFrom('saml_providers').selectAll().where('id', '=', id).executeTakeFirst();
}

export function findOrgProvider(db: Executor, organizationId: string, id: string) {
  return db
    .selectFrom('saml_providers')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .where('id', '=', id)
    .executeTakeFirst();
}

export async function insertProvider(db: Executor, row: SamlProviderRow): Promise<void> {
  await db.insertInto('saml_providers').values(row).execute();
}

export async function updateProvider(db: Executor, id: string, patch: Partial<SamlProviderRow>): Promise<void> {
  await db.updateTable('saml_providers').set(patch).where('id', '=', id).execute();
}

export async function deleteProvider(db: Executor, organizationId: string, id: string): Promise<boolean> {
  const r = await db
    .deleteFrom('saml_providers')
    .where('organization_id', '=', organizationId)
    .where('id', '=', id)
    .executeTakeFirst();
  return Number(r.numDeletedRows) > 0;
}

export function listProviders(db: Executor, organizationId: string, after: string[] | undefined, take: number) {
  let q = db
    .selectFrom('saml_providers')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .orderBy('id')
    .limit(take);
  if (after) q = q.where('id', '>', after[0]!);
  return q.execute();
}

export async function countProviders(db: Executor, organizationId: string): Promise<number> {
  const r = await db
    .selectFrom('saml_providers')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('organization_id', '=', organizationId)
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

/** Every provider of an organization (the sign-in page lists them all; an organization has a handful). */
export function allProviders(db: Executor, organizationId: string) {
  return db
    .selectFrom('saml_providers')
    .select(['id', 'label'])
    .where('organization_id', '=', organizationId)
    .orderBy('id')
    .execute();
}

/**
 * Records an accepted assertion id until it expires. False when it was recorded already: a replay. The primary
 * key decides, so two processes receiving the same assertion at once cannot both accept it.
 */
export async function recordAssertion(
  db: Executor,
  row: { provider_id: string; assertion_id: string; expires_at: string },
): Promise<boolean> {
  const r = await db
    .insertInto('saml_assertions')
    .values(row)
    .onConflict((oc) => oc.columns(['provider_id', 'assertion_id']).doNothing())
    .executeTakeFirst();
  return Number(r.numInsertedOrUpdatedRows ?? 0) > 0;
}

export async function purgeExpiredAssertions(db: Executor, before: string): Promise<void> {
  await db.deleteFrom('saml_assertions').where('expires_at', '<', before).execute();
}
