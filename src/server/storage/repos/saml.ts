import type { Executor } from '../db.js';
import type { SamlCompletionsTable, SamlProvidersTable, SsoIdentitiesTable, SamlRequestsTable } from '../schema.js';

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

/** The organization of a provider (undefined when it was deleted). */
export async function providerOrganization(db: Executor, providerId: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('saml_providers')
    .select('organization_id')
    .where('id', '=', providerId)
    .executeTakeFirst();
  return row?.organization_id;
}

// Identities: the accounts a provider may sign in.

export type SsoIdentityRow = SsoIdentitiesTable;

export function findIdentity(db: Executor, providerId: string, subject: string) {
  return db
    .selectFrom('sso_identities')
    .selectAll()
    .where('provider_id', '=', providerId)
    .where('subject', '=', subject)
    .executeTakeFirst();
}

export function findIdentityOfUser(db: Executor, providerId: string, userId: string) {
  return db
    .selectFrom('sso_identities')
    .selectAll()
    .where('provider_id', '=', providerId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
}

/** False when the provider already has an identity with this subject, or one for this account. */
export async function insertIdentity(db: Executor, row: SsoIdentityRow): Promise<boolean> {
  const r = await db
    .insertInto('sso_identities')
    .values(row)
    .onConflict((oc) => oc.doNothing())
    .executeTakeFirst();
  return Number(r.numInsertedOrUpdatedRows ?? 0) > 0;
}

/** A user's identities with their providers and organizations. */
export function identitiesOfUser(db: Executor, userId: string) {
  return db
    .selectFrom('sso_identities')
    .innerJoin('saml_providers', 'saml_providers.id', 'sso_identities.provider_id')
    .innerJoin('organizations', 'organizations.id', 'sso_identities.organization_id')
    .select([
      'sso_identities.provider_id',
      'sso_identities.organization_id',
      'sso_identities.subject',
      'sso_identities.kind',
      'sso_identities.created_at',
      'saml_providers.label',
      'organizations.title as organization_title',
    ])
    .where('sso_identities.user_id', '=', userId)
    .orderBy('sso_identities.created_at')
    .orderBy('sso_identities.provider_id')
    .execute();
}

export async function deleteIdentity(db: Executor, providerId: string, userId: string): Promise<boolean> {
  const r = await db
    .deleteFrom('sso_identities')
    .where('provider_id', '=', providerId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return Number(r.numDeletedRows) > 0;
}

/** Linked identities of a user in one organization go when their membership ends. */
export async function deleteLinkedIdentitiesInOrg(db: Executor, organizationId: string, userId: string) {
  await db
    .deleteFrom('sso_identities')
    .where('organization_id', '=', organizationId)
    .where('user_id', '=', userId)
    .where('kind', '=', 'linked')
    .execute();
}

// Requests sent to identity providers (InResponseTo binding).

export type SamlRequestRow = SamlRequestsTable;

export async function insertRequest(db: Executor, row: SamlRequestRow): Promise<void> {
  await db.insertInto('saml_requests').values(row).execute();
}

/** A live request of this provider (not expired), or undefined. */
export function findLiveRequest(db: Executor, providerId: string, id: string, now: string) {
  return db
    .selectFrom('saml_requests')
    .selectAll()
    .where('id', '=', id)
    .where('provider_id', '=', providerId)
    .where('expires_at', '>', now)
    .executeTakeFirst();
}

/** Spends a request: true for the one caller that deleted it, so a request is answered once. */
export async function consumeRequest(db: Executor, providerId: string, id: string): Promise<boolean> {
  const r = await db
    .deleteFrom('saml_requests')
    .where('id', '=', id)
    .where('provider_id', '=', providerId)
    .executeTakeFirst();
  return Number(r.numDeletedRows) > 0;
}

export async function purgeExpiredRequests(db: Executor, now: string): Promise<void> {
  await db.deleteFrom('saml_requests').where('expires_at', '<', now).execute();
}

// Sign-ins checked at the ACS URL, completed in the browser that started them.

export type SamlCompletionRow = SamlCompletionsTable;

export async function insertCompletion(db: Executor, row: SamlCompletionRow): Promise<void> {
  await db.deleteFrom('saml_completions').where('expires_at', '<', new Date().toISOString()).execute();
  await db.insertInto('saml_completions').values(row).execute();
}

/** Takes a completion (one use): the row, deleted by this caller, or undefined. */
export async function takeCompletion(db: Executor, providerId: string, id: string) {
  const row = await db
    .selectFrom('saml_completions')
    .selectAll()
    .where('id', '=', id)
    .where('provider_id', '=', providerId)
    .executeTakeFirst();
  if (!row) return undefined;
  const r = await db.deleteFrom('saml_completions').where('id', '=', id).executeTakeFirst();
  return Number(r.numDeletedRows) > 0 ? row : undefined;
}

/** Providers of the organizations that verified an e-mail domain (sign-in discovery). */
export function providersOfVerifiedDomain(db: Executor, domain: string) {
  return db
    .selectFrom('org_domains')
    .innerJoin('saml_providers', 'saml_providers.organization_id', 'org_domains.organization_id')
    .innerJoin('organizations', 'organizations.id', 'org_domains.organization_id')
    .select(['saml_providers.id', 'saml_providers.label', 'organizations.id as organization_id', 'organizations.title'])
    .where('org_domains.domain', '=', domain)
    .where('org_domains.verified_at', 'is not', null)
    .orderBy('organizations.title')
    .orderBy('saml_providers.id')
    .limit(50)
    .execute();
}

/** Removes every provider the account linked itself (not one that created it). */
export async function deleteLinkedIdentities(db: Executor, userId: string): Promise<void> {
  await db.deleteFrom('sso_identities').where('user_id', '=', userId).where('kind', '=', 'linked').execute();
}
