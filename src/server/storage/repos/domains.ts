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

/** Domains verified by DNS whose record was last looked up before `before` (or never since), oldest first. */
export function domainsToRecheck(db: Executor, before: string, limit: number) {
  return db
    .selectFrom('org_domains')
    .selectAll()
    .where('verified_by', '=', 'dns')
    .where((eb) =>
      eb.or([eb('checked_at', '<', before), eb.and([eb('checked_at', 'is', null), eb('verified_at', '<', before)])]),
    )
    .orderBy('checked_at')
    .orderBy('verified_at')
    .limit(limit)
    .execute();
}

/**
 * Records a look-up of a verified domain's record: found (misses back to 0), or missed (`misses` in a row; at
 * `unverifyAt` misses the domain is unverified). Only a row still verified by DNS is changed.
 */
export async function recordCheck(
  db: Executor,
  organizationId: string,
  domain: string,
  at: string,
  misses: number,
  unverify: boolean,
): Promise<void> {
  await db
    .updateTable('org_domains')
    .set(unverify ? { checked_at: at, misses: 0, verified_at: null, verified_by: null } : { checked_at: at, misses })
    .where('organization_id', '=', organizationId)
    .where('domain', '=', domain)
    .where('verified_by', '=', 'dns')
    .execute();
}
