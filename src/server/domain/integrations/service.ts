import { Ajv, type ValidateFunction } from 'ajv';
import type { ServiceContext } from '../context.js';
import * as repo from '../../storage/repos/integrations.js';
import { findOrganization, findOrganizations } from '../../storage/repos/organizations.js';
import { findSpace } from '../../storage/repos/spaces.js';
import { findSiteById } from '../../storage/repos/sites.js';
import { isUniqueViolation, transaction, type Executor } from '../../storage/db.js';
import { keysetPage } from '../../storage/pagination.js';
import { newId } from '../../lib/ids.js';
import { nowIso } from '../../lib/time.js';
import { integrationAccountRow } from '../../lib/integration-accounts.js';
import * as users from '../../storage/repos/users.js';
import { LruCache } from '../../lib/lru-cache.js';
import { orgAccess, requireOrgAccess, requireOrgRole, spaceLevel, type Actor } from '../permissions/resolver.js';
import { spacePolicy } from '../spaces/policy.js';
import { ConflictError, ForbiddenError, InvalidError, NotFoundError, TooManyRequestsError } from '../errors.js';
import { encryptSecrets } from './secrets.js';
import { queueIntegrationEvent } from './delivery.js';
import { decodeImage } from '../images.js';
import { loadSpace } from '../spaces/service.js';
import { loadSite } from '../sites/access.js';
import {
  INTEGRATION_EVENTS_PENDING_MAX,
  INTEGRATION_ICON_BYTES_MAX,
  INTEGRATION_PREVIEW_BYTES_MAX,
  INTEGRATION_TASK_BYTES_MAX,
  type QueueTaskBody,
  type IntegrationConfiguration,
  type IntegrationFilters,
  type PublishIntegrationBody,
  type UpdateInstallationBody,
} from '../../../shared/contract/integrations.js';
import { organizationPolicy } from '../organizations/policy.js';
import { administersIntegration } from './policy.js';
import { asRole } from '../permissions/roles.js';
import { mintIntegrationTokens, type IntegrationActor } from './tokens.js';

/**
 * Integrations. Names are global; an integration belongs to the organization that first published it, whose
 * admins alone publish it again (each time `version` goes up) or unpublish it. Who sees one: anyone signed in for
 * a public or unlisted one (unlisted ones are not listed), members of the owner for a private one; for anyone
 * else a private one does not exist (404). Installing needs the `admin` role in the organization installed on.
 */

export type { IntegrationRow } from '../../storage/repos/integrations.js';

const notFound = (name: string) => new NotFoundError(`No integration named "${name}"`);

/** The organization that owns an integration (the one that first published it), as its presenter shows it. */
export async function integrationOwner(db: Executor, row: repo.IntegrationRow) {
  return (await findOrganization(db, row.organization_id))!;
}

/** The owners of these integrations by id, each read once (a page holds many integrations of few owners). */
export async function integrationOwners(db: Executor, rows: repo.IntegrationRow[]) {
  const ownerIds = [...new Set(rows.map((row) => row.organization_id))];
  return new Map((await findOrganizations(db, ownerIds)).map((o) => [o.id, o]));
}

/**
 * The integration if this caller (anyone, on the public routes of its script and images) may see it; with whether
 * they administer it.
 */
export async function findVisibleIntegration(db: Executor, actor: Actor | undefined, name: string) {
  const row = await repo.findIntegration(db, name);
  if (!row) throw notFound(name);
  const access = actor ? await orgAccess(db, actor, row.organization_id).catch(() => null) : null;
  const member = access !== null && access.role !== null;
  if (row.visibility === 'private' && !member) throw notFound(name);
  return { row, admin: administersIntegration(access?.role ?? null) };
}

export function visibleIntegration(ctx: ServiceContext, name: string) {
  return findVisibleIntegration(ctx.db, ctx.actor, name);
}

async function requireAdmin(ctx: ServiceContext, name: string) {
  const found = await visibleIntegration(ctx, name);
  if (!found.admin) throw new ForbiddenError(`Only admins of the organization that owns "${name}" can change it`);
  return found.row;
}

function unfurlDomains(blocks: PublishIntegrationBody['blocks']): string {
  const hosts = new Set<string>();
  for (const block of blocks ?? []) {
    for (const pattern of block.urlUnfurl ?? []) {
      const host = /^(?:[a-z]+:\/\/)?([^/:?#]+)/i.exec(pattern)?.[1]?.toLowerCase().replace(/^\*\./, '');
      if (host) hosts.add(host);
    }
  }
  return ` ${[...hosts].join(' ')} `;
}

function cspString(csp: PublishIntegrationBody['contentSecurityPolicy']): string | null {
  if (csp === undefined) return null;
  if (typeof csp === 'string') return csp;
  return Object.entries(csp)
    .map(([directive, value]) => `${directive} ${value}`.trim())
    .join('; ');
}

/** Publishes (or publishes again) an integration for `body.organization`, whose admin the caller must be. */
export async function publishIntegration(ctx: ServiceContext, name: string, body: PublishIntegrationBody) {
  const organization = await findOrganization(ctx.db, body.organization);
  const access = organization ? await orgAccess(ctx.db, ctx.actor, organization.id) : null;
  if (!organization || !access) throw new InvalidError('organization', 'No such organization among yours');
  requireOrgRole(access, 'admin', 'publish integrations');
  const icon = body.icon ? decodeImage(body.icon, 'icon', INTEGRATION_ICON_BYTES_MAX) : undefined;
  const previews = (body.previewImages ?? []).map((image, i) =>
    decodeImage(image, `previewImages.${i}`, INTEGRATION_PREVIEW_BYTES_MAX),
  );
  checkConfigurationSchemas(body.configurations);
  const secrets = body.secrets && Object.keys(body.secrets).length ? await encryptSecrets(ctx.db, body.secrets) : null;
  return transaction(ctx.db, async (tx) => {
    const existing = await repo.findIntegration(tx, name);
    if (existing && existing.organization_id !== organization.id) {
      throw new ConflictError(`The name "${name}" is taken by an integration of another organization`);
    }
    const now = nowIso();
    const iconId = icon ? newId() : null;
    const previewIds = previews.map(() => newId());
    const row: repo.IntegrationRow = {
      name,
      organization_id: organization.id,
      version: (existing?.version ?? 0) + 1,
      title: body.title,
      description: body.description,
      summary: body.summary ?? null,
      visibility: body.visibility ?? existing?.visibility ?? 'private',
      target: body.target ?? 'all',
      runtime: body.runtime,
      scopes: JSON.stringify([...new Set(body.scopes)]),
      categories: JSON.stringify([...new Set(body.categories ?? [])]),
      blocks: body.blocks ? JSON.stringify(body.blocks) : null,
      content_sources: body.contentSources ? JSON.stringify(body.contentSources) : null,
      configurations: body.configurations ? JSON.stringify(body.configurations) : null,
      external_links: JSON.stringify(body.externalLinks ?? []),
      content_security_policy: cspString(body.contentSecurityPolicy),
      script: body.script,
      secrets,
      icon_asset_id: iconId,
      preview_asset_ids: JSON.stringify(previewIds),
      unfurl_domains: unfurlDomains(body.blocks),
      has_blocks: body.blocks?.length ? 1 : 0,
      has_content_sources: body.contentSources?.length ? 1 : 0,
      dev_tunnel_url: existing?.dev_tunnel_url ?? null,
      dev_all: existing?.dev_all ?? 0,
      account_id: existing?.account_id ?? newId(),
      created_at: existing?.created_at ?? now,
      updated_at: now,
    };
    // The account it writes as (lib/integration-accounts.ts) shows its title and icon of this version.
    const account = integrationAccountRow(row.account_id!, row, now);
    if (existing?.account_id) {
      await users.updateUser(tx, account.id, { display_name: account.display_name, photo_url: account.photo_url });
    } else {
      await users.insertUser(tx, account);
    }
    if (existing) {
      if (!(await repo.replaceIntegration(tx, row, existing.version))) {
        throw new ConflictError(`"${name}" was published by someone else meanwhile: publish again`);
      }
    } else {
      await repo.insertIntegration(tx, row);
    }
    await repo.deleteAssetsExcept(tx, name, []);
    if (icon && iconId)
      await repo.insertAsset(tx, {
        id: iconId,
        integration_name: name,
        content_type: icon.contentType,
        data: icon.data,
      });
    for (const [i, preview] of previews.entries()) {
      await repo.insertAsset(tx, {
        id: previewIds[i]!,
        integration_name: name,
        content_type: preview.contentType,
        data: preview.data,
      });
    }
    return { row, admin: true };
  }).catch((err: unknown) => {
    if (isUniqueViolation(err)) {
      throw new ConflictError(`"${name}" was published by someone else meanwhile: publish again`);
    }
    throw err;
  });
}

export async function unpublishIntegration(ctx: ServiceContext, name: string): Promise<void> {
  const row = await requireAdmin(ctx, name);
  await transaction(ctx.db, async (tx) => {
    // Its account stays, naming what it wrote; its icon goes with it.
    if (row.account_id) await users.updateUser(tx, row.account_id, { photo_url: null });
    await repo.deleteIntegration(tx, name);
  });
}

export async function listIntegrations(
  ctx: ServiceContext,
  filters: IntegrationFilters,
  page: string | undefined,
  limit: number,
  installedOn?: string,
) {
  const { memberOf, adminOf } = await memberships(ctx);
  const query: repo.IntegrationQuery = { memberOf, ...filters };
  let installations = new Map<string, string>();
  if (installedOn) {
    const access = await requireOrgAccess(ctx.db, ctx.actor, installedOn);
    if (!organizationPolicy.can(access.role, 'listIntegrations')) {
      throw new ForbiddenError("Guests cannot see the organization's integrations");
    }
    installations = await repo.installationsOfOrg(ctx.db, installedOn);
    query.names = [...installations.keys()];
  }
  const result = await keysetPage({
    page,
    limit,
    arity: 1,
    rows: (after, take) => repo.listIntegrations(ctx.db, query, after, take),
    count: () => repo.countIntegrations(ctx.db, query),
    key: (row) => [row.name],
  });
  return { ...result, installations, adminOf };
}

/**
 * The organizations the caller is a member of, and those they administer (`permissions.admin` of their
 * integrations): one read of their memberships. Admins keep any credential under enforced SSO (see orgAccess), so
 * the role alone says it.
 */
async function memberships(ctx: ServiceContext) {
  const rows = await repo.memberOrganizations(ctx.db, ctx.actor.userId);
  return {
    memberOf: rows.map((r) => r.organization_id),
    adminOf: new Set(rows.filter((r) => administersIntegration(asRole(r.role))).map((r) => r.organization_id)),
  };
}

export async function setDevMode(ctx: ServiceContext, name: string, tunnelUrl: string | null, all: boolean) {
  await requireAdmin(ctx, name);
  await repo.updateIntegration(ctx.db, name, { dev_tunnel_url: tunnelUrl, dev_all: all ? 1 : 0 });
}

/** An asset (icon, preview) of an integration the caller may see, or of any public or unlisted one. */
export async function getAsset(db: Executor, actor: Actor | undefined, name: string, id: string) {
  const { row } = await findVisibleIntegration(db, actor, name);
  const asset = await repo.findAsset(db, name, id);
  if (!asset) throw new NotFoundError('No such image');
  return { asset, integration: row };
}

// --- Configuration ---

const ajv = new Ajv({ allErrors: true, strict: false });

/**
 * Validators of configuration schemas, compiled once per schema (by its JSON) and kept within a bound: Ajv keeps
 * every schema it compiles, so a save that compiled its integration's schema again held on to ~0.7 MB for ever.
 * Each schema is removed from Ajv once compiled; its function lives in this cache alone.
 */
const configurationValidators = new LruCache<{ validate: ValidateFunction; size: number }>(
  1000,
  16 * 1024 * 1024,
  (entry) => entry.size,
);

/** The compiled validator of `schema`; throws Ajv's reason when the schema itself is not valid. */
function configurationValidator(schema: object): ValidateFunction {
  const key = JSON.stringify(schema);
  const cached = configurationValidators.get(key);
  if (cached) return cached.validate;
  try {
    const validate = ajv.compile(schema);
    configurationValidators.set(key, { validate, size: key.length });
    return validate;
  } finally {
    ajv.removeSchema(schema);
  }
}

/** 400 naming the configuration whose schema Ajv cannot compile (duplicate `enum` or `required` items, say). */
function checkConfigurationSchemas(configurations: Record<string, IntegrationConfiguration> | undefined) {
  for (const [kind, configuration] of Object.entries(configurations ?? {})) {
    const schema = configurationJsonSchema(configuration);
    if (!schema) continue;
    try {
      configurationValidator(schema);
    } catch (err) {
      throw new InvalidError(`configurations.${kind}`, `Not a valid configuration: ${(err as Error).message}`);
    }
  }
}

/** The JSON Schema of a configuration's values, from the integration's own description of them. */
function configurationJsonSchema(configuration: IntegrationConfiguration | undefined) {
  if (!configuration || !('properties' in configuration)) return undefined;
  const properties: Record<string, object> = {};
  const buttons = new Set<string>();
  for (const [key, p] of Object.entries(configuration.properties)) {
    // A button (GitHub's "Authorize") is pressed, not filled in: what its script stores there (OAuth credentials)
    // is its own, and never asked for.
    if (p.type === 'button') {
      buttons.add(key);
      properties[key] = {};
      continue;
    }
    properties[key] = p.enum?.length && p.type === 'string' ? { type: 'string', enum: p.enum } : { type: p.type };
  }
  const required = (configuration.required ?? []).filter((key) => !buttons.has(key));
  return { type: 'object', properties, required, additionalProperties: false };
}

/** 400 naming the first value that does not fit the integration's configuration schema. */
function validateConfiguration(
  ctx: ServiceContext,
  integration: repo.IntegrationRow,
  kind: 'account' | 'space' | 'site',
  values: Record<string, unknown>,
): void {
  const configurations = integration.configurations
    ? (JSON.parse(integration.configurations) as Record<string, IntegrationConfiguration>)
    : {};
  const schema = configurationJsonSchema(configurations[kind]);
  if (!schema) {
    // Its own script may keep what it likes there (GitBook's webhook keeps its address and secret on the account
    // it declares no settings for); a person fills in only what the integration asks for.
    if (Object.keys(values).length && !configurations[kind] && !ctx.actor.integration) {
      throw new InvalidError('configuration', `This integration takes no ${kind} configuration`);
    }
    return;
  }
  let validate: ValidateFunction;
  try {
    validate = configurationValidator(schema);
  } catch (err) {
    // Published before schemas were checked: the integration's description is at fault, not the values.
    throw new InvalidError('configuration', `The integration's configuration is not valid: ${(err as Error).message}`);
  }
  if (validate(values)) return;
  const error = validate.errors![0]!;
  const property =
    error.keyword === 'required'
      ? String((error.params as { missingProperty: string }).missingProperty)
      : error.keyword === 'additionalProperties'
        ? String((error.params as { additionalProperty: string }).additionalProperty)
        : error.instancePath.replace(/^\//, '').split('/')[0]!;
  const message =
    error.keyword === 'required'
      ? 'This value is required'
      : error.keyword === 'additionalProperties'
        ? 'The integration has no such setting'
        : (error.message ?? 'Invalid value');
  throw new InvalidError(`configuration.${property}`, message.charAt(0).toUpperCase() + message.slice(1));
}

// --- Installations ---

/** An event for the integration's script, delivered by a job once this transaction commits (delivery.ts). */
function recordEvent(
  db: Executor,
  integration: string,
  installation: { id: string; organization_id: string },
  payload: Record<string, unknown> & { type: string },
) {
  return queueIntegrationEvent(db, {
    integration,
    installationId: installation.id,
    organizationId: installation.organization_id,
    payload,
  });
}

export async function install(ctx: ServiceContext, name: string, organizationId: string) {
  const access = await requireOrgAccess(ctx.db, ctx.actor, organizationId);
  requireOrgRole(access, organizationPolicy.needs('installIntegration'), 'install integrations');
  const { row: integration } = await visibleIntegration(ctx, name);
  if (integration.visibility === 'private' && integration.organization_id !== organizationId) {
    throw notFound(name);
  }
  return transaction(ctx.db, async (tx) => {
    if (await repo.findInstallationOfOrg(tx, name, organizationId)) {
      throw new ConflictError(`"${integration.title}" is already installed on this organization`);
    }
    const now = nowIso();
    const row: repo.InstallationRow = {
      id: newId(),
      integration_name: name,
      organization_id: organizationId,
      status: 'active',
      space_selection: 'selected',
      site_selection: 'selected',
      configuration: '{}',
      external_ids: '[]',
      created_at: now,
      updated_at: now,
      // What the admin installing it grants: the scopes it declares now (integrations/tokens.ts).
      scopes: integration.scopes,
    };
    await repo.insertInstallation(tx, row);
    await recordEvent(tx, name, row, { type: 'installation_setup', status: 'active' });
    return { row, spaces: 0 };
  }).catch((err: unknown) => {
    if (isUniqueViolation(err)) {
      throw new ConflictError(`"${integration.title}" is already installed on this organization`);
    }
    throw err;
  });
}

/** An installation and the integration, for an admin of its organization (members may read it). */
/**
 * An installation, for the integration's own script (integrations/tokens.ts): its own token reaches every
 * installation of the integration, an installation's token its own only; anything else is no such installation.
 */
async function ownInstallation(ctx: ServiceContext, actor: IntegrationActor, name: string, installationId: string) {
  const installation = await repo.findInstallation(ctx.db, name, installationId);
  const own =
    installation &&
    actor.integrationName === name &&
    (actor.installationId === null || actor.installationId === installation.id);
  if (!own) throw new NotFoundError('No such installation');
  const integration = (await repo.findIntegration(ctx.db, name))!;
  return { installation, integration };
}

/**
 * `POST …/installations/{id}/tokens`: a temporary token of one of its installations, for the integration itself
 * (authenticated with its own token), as it is handed with that installation's events: what its script needs to
 * act for an installation outside an event of it (a webhook of another service reaching its endpoint).
 */
export async function createInstallationToken(ctx: ServiceContext, name: string, installationId: string) {
  const actor = ctx.actor.integration;
  if (!actor || actor.installationId !== null) {
    throw new ForbiddenError("Only the integration itself, with its own token, can create its installations' tokens");
  }
  const { installation, integration } = await ownInstallation(ctx, actor, name, installationId);
  const tokens = await mintIntegrationTokens(ctx.db, integration, installation, installation.organization_id);
  return { token: tokens.installation! };
}

async function requireInstallation(ctx: ServiceContext, name: string, installationId: string, write: boolean) {
  if (ctx.actor.integration) return ownInstallation(ctx, ctx.actor.integration, name, installationId);
  const installation = await repo.findInstallation(ctx.db, name, installationId);
  if (!installation) throw new NotFoundError('No such installation');
  const access = await orgAccess(ctx.db, ctx.actor, installation.organization_id);
  if (!access || access.role === null) throw new NotFoundError('No such installation');
  if (write) requireOrgRole(access, organizationPolicy.needs('installIntegration'), 'change integration installations');
  const integration = (await repo.findIntegration(ctx.db, name))!;
  return { installation, integration };
}

/**
 * An installation, for whoever may change what it holds of `kind` `targetId`: the organization's admins, and for a
 * space, the space's admins (`spacePolicy`'s `installIntegration`: a space admin decides who sees the space, so
 * also which of the organization's integrations read it). The target must belong to the installation's
 * organization; one the caller cannot see is no such target to them.
 */
async function requireTargetAccess(
  ctx: ServiceContext,
  name: string,
  installationId: string,
  kind: TargetKind,
  targetId: string,
) {
  if (ctx.actor.integration) return ownInstallation(ctx, ctx.actor.integration, name, installationId);
  const installation = await repo.findInstallation(ctx.db, name, installationId);
  if (!installation) throw new NotFoundError('No such installation');
  const access = await orgAccess(ctx.db, ctx.actor, installation.organization_id);
  if (!access) throw new NotFoundError('No such installation');
  if (!organizationPolicy.can(access.role, 'installIntegration')) {
    const space = kind === 'space' ? await findSpace(ctx.db, targetId) : undefined;
    const level =
      space && space.organization_id === installation.organization_id && !space.deleted_at
        ? (await spaceLevel(ctx.db, ctx.actor, space, access)).level
        : null;
    if (access.role === null && !spacePolicy.can(level, 'view')) throw new NotFoundError('No such installation');
    if (!spacePolicy.can(level, 'installIntegration')) {
      throw new ForbiddenError(
        kind === 'space'
          ? 'You need to be an admin of this space or of the organization to change its integrations'
          : 'You need the admin role in this organization to change integration installations',
      );
    }
  }
  const integration = (await repo.findIntegration(ctx.db, name))!;
  return { installation, integration };
}

export async function getInstallation(ctx: ServiceContext, name: string, installationId: string) {
  const { installation } = await requireInstallation(ctx, name, installationId, false);
  return { row: installation, spaces: await repo.countTargets(ctx.db, installation.id, 'space') };
}

export async function updateInstallation(
  ctx: ServiceContext,
  name: string,
  installationId: string,
  body: UpdateInstallationBody,
) {
  const { installation, integration } = await requireInstallation(ctx, name, installationId, true);
  // Which spaces and sites an installation reaches is the installing organization's choice, never its script's.
  if (ctx.actor.integration && (body.space_selection || body.site_selection)) {
    throw new ForbiddenError(
      `An integration cannot change the ${body.space_selection ? 'space_selection' : 'site_selection'} of its installation`,
    );
  }
  if (body.configuration) validateConfiguration(ctx, integration, 'account', body.configuration);
  const patch: Partial<repo.InstallationRow> = { updated_at: nowIso() };
  if (body.configuration) patch.configuration = JSON.stringify(body.configuration);
  if (body.externalIds) patch.external_ids = JSON.stringify(body.externalIds);
  if (body.space_selection) patch.space_selection = body.space_selection;
  if (body.site_selection) patch.site_selection = body.site_selection;
  await transaction(ctx.db, async (tx) => {
    await repo.updateInstallation(tx, installation.id, patch);
    await recordEvent(tx, name, installation, {
      type: 'installation_setup',
      status: installation.status,
      previous: { status: installation.status, configuration: JSON.parse(installation.configuration) as object },
    });
  });
  return getInstallation(ctx, name, installationId);
}

export async function uninstall(ctx: ServiceContext, name: string, installationId: string) {
  const { installation } = await requireInstallation(ctx, name, installationId, true);
  await transaction(ctx.db, async (tx) => {
    await repo.deleteInstallation(tx, installation.id);
    await recordEvent(tx, name, installation, {
      type: 'installation_deleted',
      previous: { configuration: JSON.parse(installation.configuration) as object },
    });
  });
}

/** The installations of an integration: for admins of the organization that owns it. */
export async function listInstallations(
  ctx: ServiceContext,
  name: string,
  externalId: string | undefined,
  page: string | undefined,
  limit: number,
) {
  const actor = ctx.actor.integration;
  if (actor) {
    // The integration's own script, with its own token: every installation of the integration.
    if (actor.integrationName !== name) throw new NotFoundError('Integration not found');
    if (actor.installationId !== null) {
      throw new ForbiddenError("Only the integration's own token lists its installations");
    }
  } else await requireAdmin(ctx, name);
  const result = await keysetPage({
    page,
    limit,
    arity: 1,
    // The ids are a JSON array of strings: the quoted id, escaped as JSON writes it, matches one element exactly.
    rows: (after, take) => repo.listInstallations(ctx.db, name, externalId, after, take),
    count: () => repo.countInstallations(ctx.db, name, externalId),
    key: (row) => [row.id],
  });
  const spaces = await Promise.all(result.items.map((row) => repo.countTargets(ctx.db, row.id, 'space')));
  return { ...result, items: result.items.map((row, i) => ({ row, spaces: spaces[i]! })) };
}

// --- Spaces and sites of an installation ---

export type TargetKind = 'space' | 'site';

async function requireTargetInOrg(ctx: ServiceContext, kind: TargetKind, id: string, organizationId: string) {
  const found = kind === 'space' ? await findSpace(ctx.db, id) : await findSiteById(ctx.db, id);
  const deleted = kind === 'space' && (found as { deleted_at?: string | null } | undefined)?.deleted_at;
  if (!found || found.organization_id !== organizationId || deleted) {
    throw new InvalidError(kind === 'space' ? 'space' : 'siteId', `No such ${kind} in the installation's organization`);
  }
}

export async function installOnTarget(
  ctx: ServiceContext,
  name: string,
  installationId: string,
  kind: TargetKind,
  targetId: string,
) {
  const { installation, integration } = await requireTargetAccess(ctx, name, installationId, kind, targetId);
  if (integration.target !== 'all' && integration.target !== kind) {
    throw new InvalidError(
      kind === 'space' ? 'space' : 'siteId',
      `"${integration.title}" cannot be installed on a ${kind}`,
    );
  }
  await requireTargetInOrg(ctx, kind, targetId, installation.organization_id);
  return transaction(ctx.db, async (tx) => {
    if (await repo.findTarget(tx, installation.id, kind, targetId)) {
      throw new ConflictError(`"${integration.title}" is already installed on this ${kind}`);
    }
    const now = nowIso();
    const row: repo.TargetRow = {
      installation_id: installation.id,
      kind,
      target_id: targetId,
      status: 'active',
      configuration: '{}',
      external_ids: '[]',
      created_at: now,
      updated_at: now,
    };
    await repo.insertTarget(tx, row);
    await recordEvent(tx, name, installation, {
      type: `${kind}_installation_setup`,
      status: 'active',
      [kind === 'space' ? 'spaceId' : 'siteId']: targetId,
    });
    return row;
  });
}

export async function getTarget(
  ctx: ServiceContext,
  name: string,
  installationId: string,
  kind: TargetKind,
  targetId: string,
) {
  const { installation } = await requireInstallation(ctx, name, installationId, false);
  const row = await repo.findTarget(ctx.db, installation.id, kind, targetId);
  if (!row) throw new NotFoundError(`The integration is not installed on this ${kind}`);
  return row;
}

export async function updateTarget(
  ctx: ServiceContext,
  name: string,
  installationId: string,
  kind: TargetKind,
  targetId: string,
  body: { configuration?: Record<string, unknown>; externalIds?: string[] },
) {
  const { installation, integration } = await requireTargetAccess(ctx, name, installationId, kind, targetId);
  const row = await repo.findTarget(ctx.db, installation.id, kind, targetId);
  if (!row) throw new NotFoundError(`The integration is not installed on this ${kind}`);
  if (body.configuration) validateConfiguration(ctx, integration, kind, body.configuration);
  const patch: Partial<repo.TargetRow> = { updated_at: nowIso() };
  if (body.configuration) patch.configuration = JSON.stringify(body.configuration);
  if (body.externalIds) patch.external_ids = JSON.stringify(body.externalIds);
  await transaction(ctx.db, async (tx) => {
    await repo.updateTarget(tx, row, patch);
    await recordEvent(tx, name, installation, {
      type: `${kind}_installation_setup`,
      status: row.status,
      [kind === 'space' ? 'spaceId' : 'siteId']: targetId,
      previous: { status: row.status, configuration: JSON.parse(row.configuration) as object },
    });
  });
  return { ...row, ...patch };
}

export async function uninstallFromTarget(
  ctx: ServiceContext,
  name: string,
  installationId: string,
  kind: TargetKind,
  targetId: string,
): Promise<boolean> {
  const { installation } = await requireTargetAccess(ctx, name, installationId, kind, targetId);
  return transaction(ctx.db, async (tx) => {
    const row = await repo.findTarget(tx, installation.id, kind, targetId);
    if (!row) return false;
    await repo.deleteTarget(tx, installation.id, kind, targetId);
    await recordEvent(tx, name, installation, {
      type: `${kind}_installation_deleted`,
      [kind === 'space' ? 'spaceId' : 'siteId']: targetId,
      previous: { configuration: JSON.parse(row.configuration) as object },
    });
    return true;
  });
}

export async function listTargets(
  ctx: ServiceContext,
  name: string,
  installationId: string,
  kind: TargetKind,
  page: string | undefined,
  limit: number,
) {
  const { installation } = await requireInstallation(ctx, name, installationId, false);
  return keysetPage({
    page,
    limit,
    arity: 1,
    rows: (after, take) => repo.listTargets(ctx.db, installation.id, kind, after, take),
    count: () => repo.countTargets(ctx.db, installation.id, kind),
    key: (row) => [row.target_id],
  });
}

/**
 * `GET /v1/integrations/{name}/spaces` (and `/sites`): the spaces or sites of every installation of the integration,
 * for the integration itself (an installation's token: of its installation), optionally those holding `externalId`:
 * how a script finds where a webhook of another service belongs.
 */
export async function listIntegrationTargets(
  ctx: ServiceContext,
  name: string,
  kind: TargetKind,
  externalId: string | undefined,
  page: string | undefined,
  limit: number,
) {
  const actor = ctx.actor.integration;
  if (!actor) throw new ForbiddenError("Only the integration itself lists its installations' spaces and sites");
  if (actor.integrationName !== name) throw new NotFoundError('Integration not found');
  const filter: repo.IntegrationTargetFilter = {
    name,
    kind,
    externalId,
    ...(actor.installationId ? { installationId: actor.installationId } : {}),
  };
  return keysetPage({
    page,
    limit,
    arity: 2,
    rows: (after, take) => repo.listIntegrationTargets(ctx.db, filter, after, take),
    count: () => repo.countIntegrationTargets(ctx.db, filter),
    key: (row) => [row.installation_id, row.target_id],
  });
}

// --- Events ---

export async function listEvents(ctx: ServiceContext, name: string, page: string | undefined, limit: number) {
  await requireAdmin(ctx, name);
  return keysetPage({
    page,
    limit,
    arity: 1,
    rows: (after, take) => repo.listEvents(ctx.db, name, after, take),
    count: () => repo.countEvents(ctx.db, name),
    key: (row) => [row.id],
  });
}

export async function getEvent(ctx: ServiceContext, name: string, eventId: string) {
  await requireAdmin(ctx, name);
  const row = await repo.findEvent(ctx.db, name, eventId);
  if (!row) throw new NotFoundError('No such event');
  return row;
}

/**
 * The integrations installed on a space (for whoever reads the space) or a site (for members of its
 * organization), with the installation each comes through.
 */
export async function installedOn(ctx: ServiceContext, kind: TargetKind, organizationId: string | null, id: string) {
  if (kind === 'space') await loadSpace(ctx.db, ctx, id, 'view', 'see its integrations');
  else await loadSite(ctx.db, ctx, organizationId!, id, 'view', 'see its integrations');
  const rows = await repo.installedOnTarget(ctx.db, kind, id);
  return { rows, adminOf: (await memberships(ctx)).adminOf };
}

/**
 * Queues a task (`@gitbook/runtime`'s `queueTask`): delivered to the script as a `task` event, now or `schedule`
 * seconds later, through the job queue like any event. The integration's script queues it with either of its
 * tokens, as work of the organization whose event it was handling; the owner's admins may queue one too. A task is
 * bounded in size, and one organization's pending events of an integration in number, so that a script queueing
 * itself in a loop fills only its own queue.
 */
export async function queueTask(ctx: ServiceContext, name: string, body: QueueTaskBody) {
  const actor = ctx.actor.integration;
  let organizationId: string;
  let installationId: string | null = null;
  if (actor) {
    if (actor.integrationName !== name) throw new NotFoundError('Integration not found');
    organizationId = actor.organizationId;
    installationId = actor.installationId;
  } else organizationId = (await requireAdmin(ctx, name)).organization_id;
  if (JSON.stringify(body.task).length > INTEGRATION_TASK_BYTES_MAX) {
    throw new InvalidError('task', `must be at most ${INTEGRATION_TASK_BYTES_MAX} bytes as JSON`);
  }
  if ((await repo.countPendingEvents(ctx.db, name, organizationId)) >= INTEGRATION_EVENTS_PENDING_MAX) {
    throw new TooManyRequestsError(
      `${INTEGRATION_EVENTS_PENDING_MAX} events of this integration are waiting to be delivered; try again later`,
      60,
    );
  }
  await transaction(ctx.db, (tx) =>
    queueIntegrationEvent(tx, {
      integration: name,
      installationId,
      organizationId,
      payload: { type: 'task', task: body.task },
      ...(body.schedule ? { delayMs: body.schedule * 1000 } : {}),
    }),
  );
}
