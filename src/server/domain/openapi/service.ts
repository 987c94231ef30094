import { siteReach, siteShowsSpec } from '../sites/published/site-reach.js';
import type { SiteTokenScope } from '../sites/published/site-token.js';
import type { ServiceContext } from '../context.js';
import * as repo from '../../storage/repos/openapi.js';
import { enqueueJob } from '../../storage/repos/jobs.js';
import { isUniqueViolation, transaction, type Db, type Executor } from '../../storage/db.js';
import { keysetPage } from '../../storage/pagination.js';
import { newId } from '../../lib/ids.js';
import { nowIso } from '../../lib/time.js';
import { integrationOrgAccess, requireOrgAccess, requireOrgRole, type OrgAccess } from '../permissions/resolver.js';
import { integrationOpenApiRole } from '../integrations/tokens.js';
import { ConflictError, ForbiddenError, NotFoundError } from '../errors.js';
import { workers } from '../../workers/pool.js';
import { wakeJobQueues } from '../../jobs/queue.js';
import type { OpenApiSource, OpenApiVisibility } from '../../../shared/contract/openapi.js';
import type { Role } from '../../../shared/contract/common.js';
import { openApiPolicy } from './policy.js';

/**
 * Hosted OpenAPI specifications. Members of the organization (not guests) read them; members with the `create`
 * role (the role that creates content) add, update and delete them. A new source is processed in the background
 * (jobs/openapi.ts): the spec is `pending` until a process picks the job up.
 */

export const OPENAPI_JOB = 'openapi-process';

export interface OpenApiJobPayload {
  specId: string;
  revision: number;
}

export interface SpecResult {
  row: repo.OpenApiSpecRow;
  role: Role | null;
}

async function readAccess(ctx: ServiceContext, organizationId: string): Promise<OrgAccess> {
  const integration = ctx.actor.integration;
  const access = integration
    ? integrationOrgAccess(integration, organizationId, integrationOpenApiRole(integration))
    : await requireOrgAccess(ctx.db, ctx.actor, organizationId);
  if (!openApiPolicy.can(access.role, 'view')) throw new ForbiddenError('Guests cannot see the OpenAPI specifications');
  return access;
}

function requireEdit(access: OrgAccess) {
  requireOrgRole(access, openApiPolicy.needs('edit'), 'change OpenAPI specifications');
}

async function requireSpec(db: Db, organizationId: string, slug: string) {
  const row = await repo.findSpec(db, organizationId, slug);
  if (!row) throw new NotFoundError(`No OpenAPI specification "${slug}" in this organization`);
  return row;
}

export async function listSpecs(ctx: ServiceContext, organizationId: string, page: string | undefined, limit: number) {
  const access = await readAccess(ctx, organizationId);
  const result = await keysetPage({
    page,
    limit,
    arity: 1,
    rows: (after, take) => repo.listSpecs(ctx.db, organizationId, after, take),
    count: () => repo.countSpecs(ctx.db, organizationId),
    key: (row) => [row.slug],
  });
  return { ...result, role: access.role };
}

export async function getSpec(ctx: ServiceContext, organizationId: string, slug: string): Promise<SpecResult> {
  const access = await readAccess(ctx, organizationId);
  return { row: await requireSpec(ctx.db, organizationId, slug), role: access.role };
}

function sourceColumns(source: OpenApiSource) {
  return 'url' in source
    ? { source_url: source.url, source_text: null }
    : { source_url: null, source_text: source.text };
}

async function queueProcessing(db: Executor, row: repo.OpenApiSpecRow) {
  const payload: OpenApiJobPayload = { specId: row.id, revision: row.source_revision };
  await enqueueJob(db, { id: newId(), kind: OPENAPI_JOB, key: row.id, payload: JSON.stringify(payload) }, nowIso());
}

/** POST: a new spec (409 when the slug is taken), queued for processing. */
export async function createSpec(
  ctx: ServiceContext,
  organizationId: string,
  slug: string,
  source: OpenApiSource,
): Promise<SpecResult> {
  const access = await readAccess(ctx, organizationId);
  requireEdit(access);
  const row = await transaction(ctx.db, async (tx) => {
    if (await repo.findSpec(tx, organizationId, slug)) {
      throw new ConflictError(`An OpenAPI specification with the slug "${slug}" already exists`);
    }
    const now = nowIso();
    const row: repo.OpenApiSpecRow = {
      id: newId(),
      organization_id: organizationId,
      slug,
      visibility: 'private',
      ...sourceColumns(source),
      source_revision: 1,
      processing_state: 'pending',
      last_version_id: null,
      last_processed_at: null,
      last_error_code: null,
      last_errors: null,
      created_by: ctx.actor.userId,
      created_at: now,
      updated_at: now,
    };
    await repo.insertSpec(tx, row);
    await queueProcessing(tx, row);
    return row;
  }).catch((err: unknown) => {
    // Two creations of one slug at once: the unique index refuses the second.
    if (isUniqueViolation(err))
      throw new ConflictError(`An OpenAPI specification with the slug "${slug}" already exists`);
    throw err;
  });
  wakeJobQueues();
  return { row, role: access.role };
}

/**
 * PUT: updates the spec's source, or creates the spec. Processing is queued again even when the source is the
 * same (that is how a spec given by URL is refreshed); an unchanged content makes no new version.
 */
export async function putSpec(
  ctx: ServiceContext,
  organizationId: string,
  slug: string,
  source: OpenApiSource,
): Promise<SpecResult & { created: boolean }> {
  const access = await readAccess(ctx, organizationId);
  requireEdit(access);
  for (let attempt = 0; ; attempt++) {
    const existing = await repo.findSpec(ctx.db, organizationId, slug);
    if (!existing) {
      try {
        return { ...(await createSpec(ctx, organizationId, slug, source)), created: true };
      } catch (err) {
        if (err instanceof ConflictError && attempt === 0) continue; // created meanwhile: update it
        throw err;
      }
    }
    const row = await transaction(ctx.db, async (tx) => {
      const current = await repo.findSpec(tx, organizationId, slug);
      if (!current) return undefined;
      const patch = {
        ...sourceColumns(source),
        source_revision: current.source_revision + 1,
        processing_state: 'pending',
        updated_at: nowIso(),
      };
      // The revision is checked as it is raised: of two updates at once, each gets its own revision.
      if (!(await repo.updateSpecAtRevision(tx, current.id, current.source_revision, patch))) return undefined;
      const row = { ...current, ...patch };
      await queueProcessing(tx, row);
      return row;
    });
    if (!row) continue;
    wakeJobQueues();
    return { row, role: access.role, created: false };
  }
}

export async function setVisibility(
  ctx: ServiceContext,
  organizationId: string,
  slug: string,
  visibility: OpenApiVisibility,
): Promise<SpecResult> {
  const access = await readAccess(ctx, organizationId);
  const row = await requireSpec(ctx.db, organizationId, slug);
  requireEdit(access);
  const patch = { visibility, updated_at: nowIso() };
  await repo.updateSpec(ctx.db, row.id, patch);
  return { row: { ...row, ...patch }, role: access.role };
}

/** False when there was no such spec (the route answers 204). */
export async function deleteSpec(ctx: ServiceContext, organizationId: string, slug: string): Promise<boolean> {
  const access = await readAccess(ctx, organizationId);
  requireEdit(access);
  return repo.deleteSpec(ctx.db, organizationId, slug);
}

export async function listVersions(
  ctx: ServiceContext,
  organizationId: string,
  slug: string,
  page: string | undefined,
  limit: number,
) {
  await readAccess(ctx, organizationId);
  const spec = await requireSpec(ctx.db, organizationId, slug);
  const result = await keysetPage({
    page,
    limit,
    arity: 1,
    rows: (after, take) => repo.listVersions(ctx.db, spec.id, after, take),
    count: () => repo.countVersions(ctx.db, spec.id),
    key: (row) => [row.id],
  });
  return { ...result, spec };
}

/** A version by id, or the latest (`latest`); 404 when the spec has none yet. */
async function versionMeta(db: Db, spec: repo.OpenApiSpecRow, versionId: string) {
  const id = versionId === 'latest' ? spec.last_version_id : versionId;
  const meta = id ? await repo.findVersionMeta(db, spec.id, id) : undefined;
  if (!meta) {
    throw new NotFoundError(
      versionId === 'latest'
        ? `The OpenAPI specification "${spec.slug}" has no processed version yet`
        : 'No such version of this OpenAPI specification',
    );
  }
  return meta;
}

export async function getVersion(ctx: ServiceContext, organizationId: string, slug: string, versionId: string) {
  await readAccess(ctx, organizationId);
  const spec = await requireSpec(ctx.db, organizationId, slug);
  return { spec, version: await versionMeta(ctx.db, spec, versionId) };
}

/** A version with its text and document. */
export async function getVersionContent(ctx: ServiceContext, organizationId: string, slug: string, versionId: string) {
  const { spec, version } = await getVersion(ctx, organizationId, slug, versionId);
  return { spec, version: (await repo.findVersion(ctx.db, spec.id, version.id))! };
}

/**
 * The latest version of a specification, with its document, for a site API token's caller (a renderer of the
 * published site): only a specification of the token's organization that a page of the site shows (404 otherwise,
 * and for any version but `latest`, which is what published pages show).
 */
export async function getLatestContentForSite(
  db: Db,
  token: SiteTokenScope,
  organizationId: string,
  slug: string,
  versionId: string,
) {
  const missing = () => new NotFoundError(`No OpenAPI specification "${slug}" in this organization`);
  if (token.organizationId !== organizationId || versionId !== 'latest') throw missing();
  const reach = await siteReach(db, token);
  if (!(await siteShowsSpec(db, reach, slug))) throw missing();
  const spec = await requireSpec(db, organizationId, slug);
  const version = await versionMeta(db, spec, versionId);
  return { spec, version: (await repo.findVersion(db, spec.id, version.id))! };
}

/**
 * The text of a version, for anyone when the spec is public, else for members (the `url` of versions and
 * contents). Undefined when the caller may not read it (the route answers 404 either way).
 */
export async function getRawVersion(
  db: Db,
  actor: ServiceContext['actor'] | undefined,
  organizationId: string,
  slug: string,
  versionId: string,
) {
  const spec = await requireSpec(db, organizationId, slug);
  if (spec.visibility !== 'public') {
    const access = actor ? await requireOrgAccess(db, actor, organizationId).catch(() => undefined) : undefined;
    if (!access || access.role === null)
      throw new NotFoundError(`No OpenAPI specification "${slug}" in this organization`);
  }
  const meta = await versionMeta(db, spec, versionId);
  return (await repo.findVersion(db, spec.id, meta.id))!;
}

/**
 * Documents are read in a worker thread whatever their size: a small one can still be costly (schemas that refer
 * to each other many times), and a worker has a time limit. They get more time than page content.
 */
const DOCUMENT_TIMEOUT_MS = 30_000;
export const ALWAYS_IN_A_WORKER = Number.POSITIVE_INFINITY;

export async function getReference(
  ctx: ServiceContext,
  organizationId: string,
  slug: string,
  versionId: string,
  query: { q?: string; offset: number; limit: number },
) {
  const { version } = await getVersionContent(ctx, organizationId, slug, versionId);
  return workers.run(
    'openApiReference',
    { document: version.document, specification: version.specification, query },
    ALWAYS_IN_A_WORKER,
    { timeoutMs: DOCUMENT_TIMEOUT_MS },
  );
}

export async function getOperation(
  ctx: ServiceContext,
  organizationId: string,
  slug: string,
  versionId: string,
  path: string,
  method: string,
) {
  const { version } = await getVersionContent(ctx, organizationId, slug, versionId);
  const [operation] = await workers.run(
    'openApiOperations',
    { document: version.document, operations: [{ path, method }] },
    ALWAYS_IN_A_WORKER,
    { timeoutMs: DOCUMENT_TIMEOUT_MS },
  );
  if (!operation)
    throw new NotFoundError(`The specification "${slug}" has no operation ${method.toUpperCase()} ${path}`);
  return operation;
}

export async function compareVersions(
  ctx: ServiceContext,
  organizationId: string,
  slug: string,
  fromId: string,
  toId: string,
) {
  await readAccess(ctx, organizationId);
  const spec = await requireSpec(ctx.db, organizationId, slug);
  const [from, to] = await Promise.all([versionMeta(ctx.db, spec, fromId), versionMeta(ctx.db, spec, toId)]);
  const [a, b] = await Promise.all([
    repo.findVersion(ctx.db, spec.id, from.id),
    repo.findVersion(ctx.db, spec.id, to.id),
  ]);
  return workers.run(
    'compareOpenApi',
    {
      from: { id: a!.id, document: a!.document, specification: a!.specification },
      to: { id: b!.id, document: b!.document, specification: b!.specification },
    },
    ALWAYS_IN_A_WORKER,
    { timeoutMs: DOCUMENT_TIMEOUT_MS },
  );
}
