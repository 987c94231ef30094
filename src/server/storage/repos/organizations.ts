import type { Executor } from '../db.js';
import type { OrganizationsTable, InviteLinksTable } from '../schema.js';

export type OrganizationRow = OrganizationsTable;
export type InviteLinkRow = InviteLinksTable;

export function findOrganization(db: Executor, id: string) {
  return db.selectFrom('organizations').selectAll().where('id', '=', id).executeTakeFirst();
}

export function findOrganizations(db: Executor, ids: string[]) {
  if (!ids.length) return Promise.resolve([]);
  return db.selectFrom('organizations').selectAll().where('id', 'in', ids).execute();
}

/** A new organization's row with the defaults every organization starts with. */
export function newOrganizationRow(id: string, title: string, now: string): OrganizationRow {
  return {
    id,
    title,
    type: 'business',
    email_domains: '[]',
    hostname: null,
    default_role: 'read',
    default_content_site: null,
    logo: null,
    sso: 0,
    ai: 0,
    invite_links: 1,
    plan: 'free',
    created_at: now,
    updated_at: now,
  };
}

export async function insertOrganization(db: Executor, row: OrganizationRow): Promise<void> {
  await db.insertInto('organizations').values(row).execute();
}

export async function updateOrganization(db: Executor, id: string, patch: Partial<OrganizationRow>): Promise<void> {
  await db.updateTable('organizations').set(patch).where('id', '=', id).execute();
}

export function findOrganizationByHostname(db: Executor, hostname: string) {
  return db.selectFrom('organizations').select('id').where('hostname', '=', hostname).executeTakeFirst();
}

/** Organizations the user is an enabled member of, ordered by id. */
export function listUserOrganizations(db: Executor, userId: string, after: string[] | undefined, take: number) {
  let q = db
    .selectFrom('organizations')
    .innerJoin('members', 'members.organization_id', 'organizations.id')
    .selectAll('organizations')
    .select(['members.role as member_role'])
    .where('members.user_id', '=', userId)
    .where('members.disabled', '=', 0)
    .orderBy('organizations.id')
    .limit(take);
  if (after) q = q.where('organizations.id', '>', after[0]!);
  return q.execute();
}

export async function countUserOrganizations(db: Executor, userId: string): Promise<number> {
  const r = await db
    .selectFrom('members')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('user_id', '=', userId)
    .where('disabled', '=', 0)
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

// Invite links

export async function insertInviteLink(db: Executor, row: InviteLinkRow): Promise<void> {
  await db.insertInto('invite_links').values(row).execute();
}

export function findInviteLink(db: Executor, organizationId: string, id: string) {
  return db
    .selectFrom('invite_links')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .where('id', '=', id)
    .executeTakeFirst();
}

export function listInviteLinks(db: Executor, organizationId: string, after: string[] | undefined, take: number) {
  let q = db
    .selectFrom('invite_links')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .orderBy('id')
    .limit(take);
  if (after) q = q.where('id', '>', after[0]!);
  return q.execute();
}

export async function countInviteLinks(db: Executor, organizationId: string): Promise<number> {
  const r = await db
    .selectFrom('invite_links')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('organization_id', '=', organizationId)
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

export async function updateInviteLinkRole(db: Executor, organizationId: string, id: string, role: string | null) {
  await db
    .updateTable('invite_links')
    .set({ role })
    .where('organization_id', '=', organizationId)
    .where('id', '=', id)
    .execute();
}

export async function deleteInviteLink(db: Executor, organizationId: string, id: string): Promise<boolean> {
  const r = await db
    .deleteFrom('invite_links')
    .where('organization_id', '=', organizationId)
    .where('id', '=', id)
    .executeTakeFirst();
  return Number(r.numDeletedRows) > 0;
}

/**
 * Takes the organization's row lock until the transaction ends (PostgreSQL; SQLite serializes writers
 * anyway), so that checks such as "at least one admin stays" cannot race with one another.
 */
export async function lockOrganization(db: Executor, id: string): Promise<void> {
  await db.updateTable('organizations').set({ id }).where('id', '=', id).execute();
}

/**
 * The user's organizations whose e-mail domains may include `domain` (a text match on the stored JSON array;
 * callers check the parsed list).
 */
export function organizationsWithEmailDomain(db: Executor, domain: string, userId: string) {
  return db
    .selectFrom('organizations')
    .innerJoin('members', 'members.organization_id', 'organizations.id')
    .selectAll('organizations')
    .select('members.role as member_role')
    .where('members.user_id', '=', userId)
    .where('members.disabled', '=', 0)
    .where('organizations.email_domains', 'like', `%${JSON.stringify(domain)}%`)
    .orderBy('organizations.id')
    .execute();
}

/**
 * Integrations this organization publishes that other organizations have installed: deleting the organization
 * would take them away from those organizations.
 */
export function integrationsInstalledElsewhere(db: Executor, organizationId: string) {
  return db
    .selectFrom('integrations')
    .innerJoin('integration_installations', 'integration_installations.integration_name', 'integrations.name')
    .select(['integrations.name', 'integrations.title'])
    .distinct()
    .where('integrations.organization_id', '=', organizationId)
    .where('integration_installations.organization_id', '<>', organizationId)
    .orderBy('integrations.name')
    .execute();
}

/**
 * Deletes the organization's row; the foreign keys' cascades remove everything that belongs to it (memberships,
 * teams and grants, invite links and invitations, e-mail domains, SAML providers and their links to accounts,
 * collections, spaces and their content, sites, OpenAPI specs, integrations and installations). Accounts, their
 * sign-ins and API tokens are not the organization's and stay. True when it existed.
 */
export async function deleteOrganization(db: Executor, id: string): Promise<boolean> {
  const r = await db.deleteFrom('organizations').where('id', '=', id).executeTakeFirst();
  return Number(r.numDeletedRows) > 0;
}
