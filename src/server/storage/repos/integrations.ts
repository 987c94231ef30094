import { sql } from 'kysely';
import { containsPattern } from '../like.js';
import type { Executor } from '../db.js';
import type {
  IntegrationAssetsTable,
  IntegrationEventsTable,
  IntegrationInstallationsTable,
  IntegrationsTable,
  IntegrationTargetsTable,
} from '../schema.js';

export type IntegrationRow = IntegrationsTable;
export type InstallationRow = IntegrationInstallationsTable;
export type TargetRow = IntegrationTargetsTable;
export type EventRow = IntegrationEventsTable;

function like(column: string, pattern: string, lower = false) {
  const ref = lower ? sql`lower(${sql.ref(column)})` : sql.ref(column);
  return sql<boolean>`${ref} like ${pattern} escape '\\'`;
}

export function findIntegration(db: Executor, name: string) {
  return db.selectFrom('integrations').selectAll().where('name', '=', name).executeTakeFirst();
}

/** The integration whose account this is (lib/integration-accounts.ts), while it is published. */
export function findIntegrationByAccount(db: Executor, accountId: string) {
  return db.selectFrom('integrations').selectAll().where('account_id', '=', accountId).executeTakeFirst();
}

export async function insertIntegration(db: Executor, row: IntegrationRow): Promise<void> {
  await db.insertInto('integrations').values(row).execute();
}

/** Replaces a published integration at `version` (false when it changed meanwhile). */
export async function replaceIntegration(db: Executor, row: IntegrationRow, previousVersion: number): Promise<boolean> {
  const { name, created_at: _created, ...rest } = row;
  const r = await db
    .updateTable('integrations')
    .set(rest)
    .where('name', '=', name)
    .where('version', '=', previousVersion)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

export async function updateIntegration(db: Executor, name: string, patch: Partial<IntegrationRow>): Promise<void> {
  await db.updateTable('integrations').set(patch).where('name', '=', name).execute();
}

export async function deleteIntegration(db: Executor, name: string): Promise<boolean> {
  const r = await db.deleteFrom('integrations').where('name', '=', name).executeTakeFirst();
  return Number(r.numDeletedRows) > 0;
}

export interface IntegrationQuery {
  /** Organizations whose private integrations the caller sees. */
  memberOf: string[];
  search?: string;
  category?: string;
  blockDomain?: string;
  blocks?: boolean;
  contentSources?: boolean;
  owner?: string;
  scope?: string;
  target?: string;
  /** Only these names (an organization's installed integrations). */
  names?: string[];
}

function filtered(db: Executor, q: IntegrationQuery) {
  let query = db.selectFrom('integrations');
  // Listed: public ones, and the private and unlisted ones of the caller's organizations. Unlisted ones are
  // reached by name (or by their owner) only.
  query = query.where((eb) =>
    eb.or([eb('visibility', '=', 'public'), ...(q.memberOf.length ? [eb('organization_id', 'in', q.memberOf)] : [])]),
  );
  if (q.names) query = q.names.length ? query.where('name', 'in', q.names) : query.where(sql<boolean>`1 = 0`);
  if (q.search) {
    const pattern = containsPattern(q.search.toLowerCase());
    query = query.where((eb) =>
      eb.or([like('name', pattern, true), like('title', pattern, true), like('description', pattern, true)]),
    );
  }
  if (q.category) query = query.where('categories', 'like', `%"${q.category}"%`);
  if (q.scope) query = query.where('scopes', 'like', `%"${q.scope}"%`);
  if (q.target) query = query.where((eb) => eb.or([eb('target', '=', q.target!), eb('target', '=', 'all')]));
  if (q.owner) query = query.where('organization_id', '=', q.owner);
  if (q.blocks !== undefined) query = query.where('has_blocks', '=', q.blocks ? 1 : 0);
  if (q.contentSources !== undefined) query = query.where('has_content_sources', '=', q.contentSources ? 1 : 0);
  if (q.blockDomain) query = query.where(like('unfurl_domains', containsPattern(` ${q.blockDomain.toLowerCase()} `)));
  return query;
}

export function listIntegrations(db: Executor, q: IntegrationQuery, after: string[] | undefined, take: number) {
  let query = filtered(db, q).selectAll().orderBy('name').limit(take);
  if (after) query = query.where('name', '>', after[0]!);
  return query.execute();
}

export async function countIntegrations(db: Executor, q: IntegrationQuery): Promise<number> {
  const r = await filtered(db, q)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

export async function insertAsset(db: Executor, row: IntegrationAssetsTable): Promise<void> {
  await db.insertInto('integration_assets').values(row).execute();
}

export async function deleteAssetsExcept(db: Executor, name: string, keep: string[]): Promise<void> {
  let q = db.deleteFrom('integration_assets').where('integration_name', '=', name);
  if (keep.length) q = q.where('id', 'not in', keep);
  await q.execute();
}

export function findAsset(db: Executor, name: string, id: string) {
  return db
    .selectFrom('integration_assets')
    .selectAll()
    .where('integration_name', '=', name)
    .where('id', '=', id)
    .executeTakeFirst();
}

// --- Installations ---

export function findInstallation(db: Executor, name: string, id: string) {
  return db
    .selectFrom('integration_installations')
    .selectAll()
    .where('integration_name', '=', name)
    .where('id', '=', id)
    .executeTakeFirst();
}

export function findInstallationOfOrg(db: Executor, name: string, organizationId: string) {
  return db
    .selectFrom('integration_installations')
    .selectAll()
    .where('integration_name', '=', name)
    .where('organization_id', '=', organizationId)
    .executeTakeFirst();
}

export async function insertInstallation(db: Executor, row: InstallationRow): Promise<void> {
  await db.insertInto('integration_installations').values(row).execute();
}

export async function updateInstallation(db: Executor, id: string, patch: Partial<InstallationRow>): Promise<void> {
  await db.updateTable('integration_installations').set(patch).where('id', '=', id).execute();
}

export async function deleteInstallation(db: Executor, id: string): Promise<boolean> {
  const r = await db.deleteFrom('integration_installations').where('id', '=', id).executeTakeFirst();
  return Number(r.numDeletedRows) > 0;
}

export function listInstallations(
  db: Executor,
  name: string,
  externalId: string | undefined,
  after: string[] | undefined,
  take: number,
) {
  let q = db
    .selectFrom('integration_installations')
    .selectAll()
    .where('integration_name', '=', name)
    .orderBy('id')
    .limit(take);
  if (externalId) q = q.where(like('external_ids', containsPattern(JSON.stringify(externalId))));
  if (after) q = q.where('id', '>', after[0]!);
  return q.execute();
}

export async function countInstallations(db: Executor, name: string, externalId?: string): Promise<number> {
  let q = db
    .selectFrom('integration_installations')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('integration_name', '=', name);
  if (externalId) q = q.where(like('external_ids', containsPattern(JSON.stringify(externalId))));
  const r = await q.executeTakeFirstOrThrow();
  return Number(r.n);
}

/** The integrations installed on an organization: installation id by integration name. */
export async function installationsOfOrg(db: Executor, organizationId: string): Promise<Map<string, string>> {
  const rows = await db
    .selectFrom('integration_installations')
    .select(['integration_name', 'id'])
    .where('organization_id', '=', organizationId)
    .execute();
  return new Map(rows.map((r) => [r.integration_name, r.id]));
}

export async function countTargets(db: Executor, installationId: string, kind: string): Promise<number> {
  const r = await db
    .selectFrom('integration_targets')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('installation_id', '=', installationId)
    .where('kind', '=', kind)
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

export function findTarget(db: Executor, installationId: string, kind: string, targetId: string) {
  return db
    .selectFrom('integration_targets')
    .selectAll()
    .where('installation_id', '=', installationId)
    .where('kind', '=', kind)
    .where('target_id', '=', targetId)
    .executeTakeFirst();
}

export async function insertTarget(db: Executor, row: TargetRow): Promise<void> {
  await db.insertInto('integration_targets').values(row).execute();
}

export async function updateTarget(
  db: Executor,
  key: Pick<TargetRow, 'installation_id' | 'kind' | 'target_id'>,
  patch: Partial<TargetRow>,
): Promise<void> {
  await db
    .updateTable('integration_targets')
    .set(patch)
    .where('installation_id', '=', key.installation_id)
    .where('kind', '=', key.kind)
    .where('target_id', '=', key.target_id)
    .execute();
}

export async function deleteTarget(db: Executor, installationId: string, kind: string, targetId: string) {
  const r = await db
    .deleteFrom('integration_targets')
    .where('installation_id', '=', installationId)
    .where('kind', '=', kind)
    .where('target_id', '=', targetId)
    .executeTakeFirst();
  return Number(r.numDeletedRows) > 0;
}

/** Filter of an integration's spaces or sites across its installations (`GET /v1/integrations/{name}/spaces`). */
export interface IntegrationTargetFilter {
  name: string;
  kind: string;
  externalId?: string | undefined;
  /** An installation token's own installation only. */
  installationId?: string | undefined;
}

function integrationTargets(db: Executor, f: IntegrationTargetFilter) {
  let q = db
    .selectFrom('integration_targets as t')
    .innerJoin('integration_installations as i', 'i.id', 't.installation_id')
    .where('i.integration_name', '=', f.name)
    .where('t.kind', '=', f.kind);
  if (f.externalId) q = q.where(like('t.external_ids', containsPattern(JSON.stringify(f.externalId))));
  if (f.installationId) q = q.where('t.installation_id', '=', f.installationId);
  return q;
}

export function listIntegrationTargets(
  db: Executor,
  f: IntegrationTargetFilter,
  after: string[] | undefined,
  take: number,
) {
  let q = integrationTargets(db, f).selectAll('t').orderBy('t.installation_id').orderBy('t.target_id').limit(take);
  if (after) {
    q = q.where((eb) =>
      eb.or([
        eb('t.installation_id', '>', after[0]!),
        eb.and([eb('t.installation_id', '=', after[0]!), eb('t.target_id', '>', after[1]!)]),
      ]),
    );
  }
  return q.execute();
}

export async function countIntegrationTargets(db: Executor, f: IntegrationTargetFilter): Promise<number> {
  const r = await integrationTargets(db, f)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

export function listTargets(
  db: Executor,
  installationId: string,
  kind: string,
  after: string[] | undefined,
  take: number,
) {
  let q = db
    .selectFrom('integration_targets')
    .selectAll()
    .where('installation_id', '=', installationId)
    .where('kind', '=', kind)
    .orderBy('target_id')
    .limit(take);
  if (after) q = q.where('target_id', '>', after[0]!);
  return q.execute();
}

// --- Events ---

export async function insertEvent(db: Executor, row: EventRow): Promise<void> {
  await db.insertInto('integration_events').values(row).execute();
}

export async function updateEvent(
  db: Executor,
  id: string,
  set: Partial<Pick<EventRow, 'status' | 'attempts' | 'duration_ms' | 'error' | 'trace'>>,
): Promise<void> {
  await db.updateTable('integration_events').set(set).where('id', '=', id).execute();
}

export function findEventById(db: Executor, id: string) {
  return db.selectFrom('integration_events').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Newest first; those still waiting to be delivered are not listed yet (they have no outcome). */
export function listEvents(db: Executor, name: string, after: string[] | undefined, take: number) {
  let q = db
    .selectFrom('integration_events')
    .selectAll()
    .where('integration_name', '=', name)
    .where('status', '!=', 'pending')
    .orderBy('id', 'desc')
    .limit(take);
  if (after) q = q.where('id', '<', after[0]!);
  return q.execute();
}

export async function countEvents(db: Executor, name: string): Promise<number> {
  const r = await db
    .selectFrom('integration_events')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('integration_name', '=', name)
    .where('status', '!=', 'pending')
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

export function findEvent(db: Executor, name: string, id: string) {
  return db
    .selectFrom('integration_events')
    .selectAll()
    .where('integration_name', '=', name)
    .where('id', '=', id)
    .executeTakeFirst();
}

/** Organizations the user belongs to with a role (not as a guest, not disabled), with that role. */
export function memberOrganizations(db: Executor, userId: string) {
  return db
    .selectFrom('members')
    .select(['organization_id', 'role'])
    .where('user_id', '=', userId)
    .where('disabled', '=', 0)
    .where('role', 'is not', null)
    .execute();
}

/** The integrations installed on a space or site (through their organization's installation), by name. */
export function installedOnTarget(db: Executor, kind: string, targetId: string) {
  return db
    .selectFrom('integration_targets')
    .innerJoin('integration_installations', 'integration_installations.id', 'integration_targets.installation_id')
    .innerJoin('integrations', 'integrations.name', 'integration_installations.integration_name')
    .selectAll('integrations')
    .select(['integration_installations.id as installation_id'])
    .where('integration_targets.kind', '=', kind)
    .where('integration_targets.target_id', '=', targetId)
    .orderBy('integrations.name')
    .execute();
}

/**
 * An organization's installations that reach a space or a site, with their integrations (`n`): every one of that
 * kind (`space_selection` / `site_selection: all`), or this one chosen.
 */
function reaching(db: Executor, organizationId: string, kind: 'space' | 'site', targetId: string) {
  return db
    .selectFrom('integration_installations as i')
    .innerJoin('integrations as n', 'n.name', 'i.integration_name')
    .where('i.organization_id', '=', organizationId)
    .where((eb) =>
      eb.or([
        eb(kind === 'space' ? 'i.space_selection' : 'i.site_selection', '=', 'all'),
        eb.exists(
          eb
            .selectFrom('integration_targets as t')
            .select('t.target_id')
            .whereRef('t.installation_id', '=', 'i.id')
            .where('t.kind', '=', kind)
            .where('t.target_id', '=', targetId),
        ),
      ]),
    );
}

/** The installations of an organization that reach a space. */
export function installationsReachingSpace(db: Executor, organizationId: string, spaceId: string) {
  return reaching(db, organizationId, 'space', spaceId)
    .select(['i.id', 'i.integration_name'])
    .orderBy('i.id')
    .execute();
}

/** The integrations installed on an organization that reach a space and have blocks, with them (JSON), by name. */
export function integrationsReachingSpace(db: Executor, organizationId: string, spaceId: string) {
  return reaching(db, organizationId, 'space', spaceId)
    .select(['n.name', 'n.blocks'])
    .where('n.has_blocks', '=', 1)
    .orderBy('n.name')
    .execute();
}

/** The installations of an organization on a site, with what they were granted and what their integration declares now. */
export function installationsReachingSite(db: Executor, organizationId: string, siteId: string) {
  return reaching(db, organizationId, 'site', siteId)
    .select(['i.id', 'i.integration_name', 'i.scopes as granted', 'n.scopes as declared', 'n.version'])
    .orderBy('i.integration_name')
    .execute();
}

/** Events of an integration for one organization not yet delivered (a bound on what one may queue). */
export async function countPendingEvents(db: Executor, name: string, organizationId: string): Promise<number> {
  const r = await db
    .selectFrom('integration_events')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('integration_name', '=', name)
    .where('organization_id', '=', organizationId)
    .where('status', '=', 'pending')
    .executeTakeFirstOrThrow();
  return Number(r.n);
}
