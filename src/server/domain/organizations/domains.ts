import type { ServiceContext } from '../context.js';
import { transaction, type Executor } from '../../storage/db.js';
import { nowIso } from '../../lib/time.js';
import { newSecret } from '../../lib/secrets.js';
import type { TxtLookup } from '../../lib/dns.js';
import * as orgs from '../../storage/repos/organizations.js';
import * as domains from '../../storage/repos/domains.js';
import * as users from '../../storage/repos/users.js';
import { requireOrgAccess, requireOrgRole } from '../permissions/resolver.js';
import { ConflictError, ForbiddenError, NotFoundError } from '../errors.js';
import { ORG_EMAIL_DOMAINS_MAX } from '../../../shared/contract/organizations.js';
import { organizationPolicy } from './policy.js';

/**
 * E-mail domains of an organization. Listing a domain gives no power; a verified one lets the organization's
 * identity providers create accounts (just in time) for addresses of that domain, and offers its providers on
 * the sign-in page to people with such an address. A domain is verified by a DNS TXT record that the server
 * looks up (`_docspace-challenge.<domain>` holding `docspace-domain-verification=<token>`), or by the instance
 * owner (the account created at first start), who vouches for it.
 */
export const CHALLENGE_PREFIX = '_docspace-challenge';
export const CHALLENGE_VALUE = 'docspace-domain-verification=';

export function challenge(row: domains.OrgDomainRow) {
  return { name: `${CHALLENGE_PREFIX}.${row.domain}`, type: 'TXT' as const, value: `${CHALLENGE_VALUE}${row.token}` };
}

async function syncDomainList(db: Executor, organizationId: string) {
  const rows = await domains.listDomains(db, organizationId);
  await orgs.updateOrganization(db, organizationId, {
    email_domains: JSON.stringify(rows.map((r) => r.domain)),
    updated_at: nowIso(),
  });
}

function newDomainRow(organizationId: string, domain: string): domains.OrgDomainRow {
  return {
    organization_id: organizationId,
    domain,
    token: newSecret().slice(0, 32),
    verified_at: null,
    verified_by: null,
    created_at: nowIso(),
  };
}

/** Makes the organization's domains exactly `list` (PATCH emailDomains): new ones unverified, absent ones gone. */
export async function setDomains(db: Executor, organizationId: string, list: string[]) {
  const wanted = new Set(list);
  const current = await domains.listDomains(db, organizationId);
  for (const row of current) if (!wanted.has(row.domain)) await domains.deleteDomain(db, organizationId, row.domain);
  for (const domain of wanted) await domains.insertDomainIfAbsent(db, newDomainRow(organizationId, domain));
  await syncDomainList(db, organizationId);
}

async function adminAccess(ctx: ServiceContext, db: Executor, organizationId: string, action: string) {
  const access = await requireOrgAccess(db, ctx.actor, organizationId);
  requireOrgRole(access, organizationPolicy.needs('admin'), action);
  return access;
}

export async function listDomains(ctx: ServiceContext, organizationId: string) {
  await adminAccess(ctx, ctx.db, organizationId, 'see e-mail domains');
  return domains.listDomains(ctx.db, organizationId);
}

export async function addDomain(ctx: ServiceContext, organizationId: string, domain: string) {
  return transaction(ctx.db, async (tx) => {
    await adminAccess(ctx, tx, organizationId, 'add e-mail domains');
    await orgs.lockOrganization(tx, organizationId);
    const current = await domains.listDomains(tx, organizationId);
    const existing = current.find((d) => d.domain === domain);
    if (existing) return { row: existing, created: false };
    if (current.length >= ORG_EMAIL_DOMAINS_MAX) {
      throw new ConflictError(`An organization has at most ${ORG_EMAIL_DOMAINS_MAX} e-mail domains`);
    }
    await domains.insertDomainIfAbsent(tx, newDomainRow(organizationId, domain));
    await syncDomainList(tx, organizationId);
    return { row: (await domains.findDomain(tx, organizationId, domain))!, created: true };
  });
}

/** False when the organization had no such domain. */
export async function removeDomain(ctx: ServiceContext, organizationId: string, domain: string) {
  return transaction(ctx.db, async (tx) => {
    await adminAccess(ctx, tx, organizationId, 'remove e-mail domains');
    const removed = await domains.deleteDomain(tx, organizationId, domain);
    if (removed) await syncDomainList(tx, organizationId);
    return removed;
  });
}

/**
 * Verifies a domain. `dns` (organization admins): the server looks up the TXT record and compares it with the
 * domain's token. `owner`: the instance owner vouches for the domain, with or without membership.
 * Authorization comes before the look-up.
 */
export async function verifyDomain(
  ctx: ServiceContext,
  lookup: TxtLookup,
  organizationId: string,
  domain: string,
  method: 'dns' | 'owner',
) {
  if (method === 'owner') {
    const caller = await users.findUserById(ctx.db, ctx.actor.userId);
    if (!caller?.instance_owner) {
      // A non-owner learns nothing about organizations they are not in.
      await requireOrgAccess(ctx.db, ctx.actor, organizationId);
      throw new ForbiddenError('Only the instance owner can verify a domain without a DNS record');
    }
  } else {
    await adminAccess(ctx, ctx.db, organizationId, 'verify e-mail domains');
  }
  const row = await domains.findDomain(ctx.db, organizationId, domain);
  if (!row) throw new NotFoundError('E-mail domain not found: add it to the organization first');
  if (row.verified_at) return row;
  if (method === 'dns') {
    const expected = challenge(row);
    let records: string[];
    try {
      records = await lookup(expected.name);
    } catch (err) {
      throw new ConflictError(
        `The DNS look-up of ${expected.name} failed (${(err as { code?: string }).code ?? 'error'}): try again later`,
      );
    }
    if (!records.some((r) => r.trim() === expected.value)) {
      throw new ConflictError(
        `No TXT record ${expected.name} with the value ${expected.value} was found: publish it, wait for DNS to update, and try again`,
      );
    }
  }
  await domains.markVerified(ctx.db, organizationId, domain, method, nowIso());
  return (await domains.findDomain(ctx.db, organizationId, domain))!;
}

/** How often a domain verified by DNS is looked up again; after a miss, it is looked up again within the hour. */
export const RECHECK_EVERY_MS = 24 * 60 * 60 * 1000;
const RECHECK_AFTER_MISS_MS = 60 * 60 * 1000;
/** Look-ups in a row that miss the record before the domain is unverified (one miss may be a DNS hiccup). */
export const MISSES_TO_UNVERIFY = 2;
/** Domains looked up in one run at most (the next run takes the rest). */
const RECHECKS_PER_RUN = 200;

/**
 * Looks up again the records of domains verified by DNS, at most once a day each: a verification proves control
 * of the domain when it is made, and a domain changes hands. A record found keeps the domain verified; missed
 * MISSES_TO_UNVERIFY times in a row (an hour apart), the domain is unverified, so the organization's identity
 * providers stop creating accounts for its addresses until an admin verifies it again. A look-up that fails (a DNS
 * error rather than no record) changes nothing. Domains the instance owner vouched for are not looked up.
 * Idempotent: several processes may run it.
 */
export async function recheckDomains(db: Executor, lookup: TxtLookup, now = Date.now()) {
  const due = await domains.domainsToRecheck(db, new Date(now - RECHECK_EVERY_MS).toISOString(), RECHECKS_PER_RUN);
  const result = { checked: 0, unverified: [] as string[] };
  for (const row of due) {
    const expected = challenge(row);
    let records: string[];
    try {
      records = await lookup(expected.name);
    } catch {
      continue;
    }
    result.checked++;
    const found = records.some((r) => r.trim() === expected.value);
    const misses = found ? 0 : (row.misses ?? 0) + 1;
    const unverify = misses >= MISSES_TO_UNVERIFY;
    // After a miss, the next look-up comes within the hour rather than the next day.
    const at = found || unverify ? now : now - RECHECK_EVERY_MS + RECHECK_AFTER_MISS_MS;
    await domains.recordCheck(db, row.organization_id, row.domain, new Date(at).toISOString(), misses, unverify);
    if (unverify) result.unverified.push(`${row.organization_id}:${row.domain}`);
  }
  return result;
}
