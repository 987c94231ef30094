import type { Executor } from '../db.js';
import type { OrgDomainsTable } from '../schema.js';

export type OrgDomainRow = OrgDomainsTable;

export function listDomains(db: Executor, organizationId: string) {
  return db
    .selectFrom('org_domains')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .orderBy('domain')
    .execute();
}

export function findDomain(db: Executor, organizationId: string, domain: string) {
  return db
    .selectFrom('org_domains')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .where('domain', '=', domain)
    .executeTakeFirst();
}

export async function insertDomainIfAbsent(db: Executor, row: OrgDomainRow): Promise<void> {
  await db
    .insertInto('org_domains')
    .values(row)
    .onConflict((oc) => oc.columns(['organization_id', 'domain']).doNothing())
    .execute();
}

export async function deleteDomain(db: Executor, organizationId: string, domain: string): Promise<boolean> {
  const r = await db
    .deleteFrom('org_domains')
    .where('organization_id', '=', organizationId)
    .where('domain', '=', domain)
    .executeTakeFirst();
  return Number(r.numDeletedRows) > 0;
}

export async function markVerified(
  db: Executor,
  organizationId: string,
  domain: string,
  by: 'dns' | 'owner',
  at: string,
): Promise<void> {
  await db
    .updateTable('org_domains')
    .set({ verified_at: at, verified_by: by })
    .where('organization_id', '=', organizationId)
    .where('domain', '=', domain)
    .execute();
}

/** True when the organization verified this domain. */
export async function isVerifiedDomainOf(db: Executor, organizationId: string, domain: string): Promise<boolean> {
  const row = await db
    .selectFrom('org_domains')
    .select('domain')
    .where('organization_id', '=', organizationId)
    .where('domain', '=', domain)
    .where('verified_at', 'is not', null)
    .executeTakeFirst();
  return row !== undefined;
}
