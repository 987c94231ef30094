import type { Executor } from '../../storage/db.js';
import * as repo from '../../storage/repos/integration-tokens.js';
import { findInstallationOfOrg, findIntegrationByAccount, findTarget } from '../../storage/repos/integrations.js';
import { hashToken, newSecret } from '../../lib/secrets.js';
import { newId } from '../../lib/ids.js';
import { nowIso } from '../../lib/time.js';
import type { Role } from '../../../shared/contract/common.js';
import type { IntegrationScope } from '../../../shared/contract/integrations.js';

/**
 * The tokens an integration's script is handed with each event (`environment.apiTokens`, issue 31), and what the
 * API lets them do. Neither acts as a person: a request made with one is answered only by the routes that say
 * what an integration may do there (`config.integrationAccess`, checked in plugins/auth.ts; any other route
 * answers 403), and by the permission resolver only through `integrationSpaceLevel` below.
 *
 * - The **integration token** acts as the integration itself: its own installations and their spaces and sites
 *   (reading them, keeping its configuration and external ids there), nothing of any organization's content.
 * - The **installation token** acts for one installation: the scopes the organization granted when it installed
 *   the integration (those it declared then) that it still declares (`space:content:read` …), on the spaces of the
 *   installing organization chosen for it (all of them with `space_selection: all`), and nothing else. Uninstalling deletes it (the row goes with the installation); choosing a space, or removing one,
 *   counts from the next request.
 */

export const INTEGRATION_TOKEN_PREFIX = 'dsi_';
/** How long a token handed with an event lasts: enough for the script's work, short if it leaks. */
export const INTEGRATION_TOKEN_TTL_MS = 60 * 60 * 1000;

export interface IntegrationActor {
  tokenId: string;
  integrationName: string;
  /** null for the integration's own token. */
  installationId: string | null;
  /** The organization of the event the token was handed with (an installation token's: the installing one). */
  organizationId: string;
  scopes: ReadonlySet<string>;
  spaceSelection: 'all' | 'selected';
  siteSelection: 'all' | 'selected';
  /** The account the integration writes as (lib/integration-accounts.ts): the request's user. */
  accountId: string | null;
  /** What the route being answered lets integrations do (its `config.integrationAccess`). */
  routeScope?: IntegrationAccess | undefined;
}

/** The scopes an installation's token holds: those the organization granted that the integration still declares. */
export function grantedScopes(declared: string, granted: string | null): string[] {
  const now = new Set(JSON.parse(declared) as string[]);
  return (JSON.parse(granted ?? '[]') as string[]).filter((scope) => now.has(scope));
}

/**
 * Tokens handed out lately, by what they act as, reused while they have more than half their life left: a script
 * called a thousand times an hour (an endpoint, renders) does not leave a thousand rows behind. Each process keeps
 * its own; a reused token is checked to be still stored and valid (its installation or integration may have gone).
 */
const minted = new Map<string, { token: string; hash: string; expires: number }>();
const MINTED_MAX = 10_000;

async function tokenFor(
  db: Executor,
  key: string,
  row: Omit<repo.IntegrationTokenRow, 'id' | 'token_hash' | 'created_at' | 'expires_at'>,
  now: number,
): Promise<string> {
  const kept = minted.get(key);
  const halfLife = new Date(now + INTEGRATION_TOKEN_TTL_MS / 2).toISOString();
  if (
    kept &&
    kept.expires - now > INTEGRATION_TOKEN_TTL_MS / 2 &&
    (await repo.integrationTokenValid(db, kept.hash, halfLife))
  ) {
    return kept.token;
  }
  const token = newSecret(INTEGRATION_TOKEN_PREFIX);
  const hash = hashToken(token);
  await repo.insertIntegrationTokens(db, [
    {
      ...row,
      id: newId(),
      token_hash: hash,
      created_at: new Date(now).toISOString(),
      expires_at: new Date(now + INTEGRATION_TOKEN_TTL_MS).toISOString(),
    },
  ]);
  if (minted.size >= MINTED_MAX) minted.delete(minted.keys().next().value!);
  minted.set(key, { token, hash, expires: now + INTEGRATION_TOKEN_TTL_MS });
  return token;
}

/** The tokens for one dispatch: the integration's, and the installation's when the event has one. */
export async function mintIntegrationTokens(
  db: Executor,
  integration: { name: string; scopes: string },
  installation: { id: string; scopes: string | null } | null,
  organizationId: string,
  now = Date.now(),
): Promise<{ integration: string; installation?: string }> {
  const own = await tokenFor(
    db,
    JSON.stringify([integration.name, organizationId]),
    { integration_name: integration.name, installation_id: null, organization_id: organizationId, scopes: '[]' },
    now,
  );
  if (!installation) return { integration: own };
  const scopes = JSON.stringify(grantedScopes(integration.scopes, installation.scopes));
  const forInstallation = await tokenFor(
    db,
    JSON.stringify([integration.name, organizationId, installation.id, scopes]),
    { integration_name: integration.name, installation_id: installation.id, organization_id: organizationId, scopes },
    now,
  );
  return { integration: own, installation: forInstallation };
}

export function looksLikeIntegrationToken(token: string): boolean {
  return token.startsWith(INTEGRATION_TOKEN_PREFIX);
}

/** The integration a token acts as, or null when it is unknown, expired, or its installation is gone. */
export async function authenticateIntegrationToken(db: Executor, token: string): Promise<IntegrationActor | null> {
  return actorOf(await repo.findIntegrationTokenByHash(db, hashToken(token)));
}

/**
 * What a token acts as now, by its id: work queued for a script's request (an import) runs as the token would be
 * authenticated when it runs, so nothing is done once it expired or its installation is gone.
 */
export async function integrationActorOfToken(db: Executor, tokenId: string): Promise<IntegrationActor | null> {
  return actorOf(await repo.findIntegrationTokenById(db, tokenId));
}

function actorOf(row: Awaited<ReturnType<typeof repo.findIntegrationTokenById>>): IntegrationActor | null {
  if (!row || row.expires_at <= nowIso()) return null;
  // An installation's token goes with its installation.
  if (row.installation_id !== null && row.installation_found === null) return null;
  return integrationActor({
    tokenId: row.id,
    integrationName: row.integration_name,
    installationId: row.installation_id,
    organizationId: row.organization_id,
    scopes: JSON.parse(row.scopes) as string[],
    spaceSelection: row.space_selection,
    siteSelection: row.site_selection,
    accountId: row.account_id,
  });
}

/**
 * What an integration acts as, from a token's row or from its installation (the two ways one is known): the
 * selections as stored (anything but `all` is the chosen ones).
 */
function integrationActor(
  fields: Omit<IntegrationActor, 'scopes' | 'spaceSelection' | 'siteSelection'> & {
    scopes: readonly string[];
    spaceSelection: string | null;
    siteSelection: string | null;
  },
): IntegrationActor {
  return {
    ...fields,
    scopes: new Set(fields.scopes),
    spaceSelection: fields.spaceSelection === 'all' ? 'all' : 'selected',
    siteSelection: fields.siteSelection === 'all' ? 'all' : 'selected',
  };
}

/** What a route lets an integration's token do: the scope an installation token needs, or `own` (see above). */
export type IntegrationAccess = IntegrationScope | 'own';

/** A scope that writes something reads it too: the read scopes each write scope implies. */
const WRITE_OF: Partial<Record<IntegrationScope, IntegrationScope>> = {
  'space:content:read': 'space:content:write',
  'space:metadata:read': 'space:metadata:write',
  'site:adaptive:read': 'site:adaptive:write',
  'openapi:read': 'openapi:write',
};

/** Why a route refuses an integration's token (403), or null when it may go on. */
export function integrationRouteRefusal(actor: IntegrationActor, access: IntegrationAccess | undefined): string | null {
  if (access === undefined) return "An integration's token cannot call this endpoint";
  if (access === 'own') return null;
  if (actor.installationId === null) {
    return `This endpoint needs an installation's token with the ${access} scope, not the integration's own`;
  }
  if (!actor.scopes.has(access) && !actor.scopes.has(WRITE_OF[access] ?? access)) {
    return `The integration was not granted the ${access} scope`;
  }
  return null;
}

/**
 * Whether an installation's token reaches a space or site: one of the installing organization's, chosen for the
 * installation (or all of them), with one of `scopes` granted.
 */
async function reaches(
  db: Executor,
  actor: IntegrationActor,
  kind: 'space' | 'site',
  target: { id: string; organization_id: string },
  scopes: readonly string[],
): Promise<boolean> {
  if (actor.installationId === null || target.organization_id !== actor.organizationId) return false;
  if (!scopes.some((scope) => actor.scopes.has(scope))) return false;
  const selection = kind === 'space' ? actor.spaceSelection : actor.siteSelection;
  return selection === 'all' || (await findTarget(db, actor.installationId, kind, target.id)) !== undefined;
}

const WRITE_SCOPES = ['space:content:write', 'space:metadata:write'];
const READ_SCOPES = ['space:content:read', 'space:metadata:read', 'space:git:sync', ...WRITE_SCOPES];

/**
 * The level an installation's token has on a space: `edit` with a write scope, `read` with a read scope, on a space
 * of the installing organization chosen for the installation; otherwise none (the space is not found). Which
 * scope each route needs is the route's own check (integrationRouteRefusal). On the Git Sync routes
 * (`space:git:sync`), `admin`: connecting a space to a repository is a space admin's, and the organization that
 * granted the scope on this space consented to it; the level is asked for that route's work only.
 */
export async function integrationSpaceLevel(
  db: Executor,
  actor: IntegrationActor,
  space: { id: string; organization_id: string },
): Promise<Role | null> {
  if (!(await reaches(db, actor, 'space', space, READ_SCOPES))) return null;
  if (actor.routeScope === 'space:git:sync' && actor.scopes.has('space:git:sync')) return 'admin';
  return WRITE_SCOPES.some((scope) => actor.scopes.has(scope)) ? 'edit' : 'read';
}

/**
 * An integration's account acting for its installation in an organization, as a token handed with an event for
 * that installation would (work it started that runs later: a Git Sync it set up), on `routeScope`'s work; null
 * when the account is no integration's, or it is no longer installed there.
 */
export async function integrationActorOfAccount(
  db: Executor,
  accountId: string,
  organizationId: string,
  routeScope: IntegrationAccess,
): Promise<IntegrationActor | null> {
  const integration = await findIntegrationByAccount(db, accountId);
  const installation = integration && (await findInstallationOfOrg(db, integration.name, organizationId));
  if (!integration || !installation) return null;
  return integrationActor({
    tokenId: '',
    integrationName: integration.name,
    installationId: installation.id,
    organizationId,
    scopes: grantedScopes(integration.scopes, installation.scopes),
    spaceSelection: installation.space_selection,
    siteSelection: installation.site_selection,
    accountId,
    routeScope,
  });
}

const SITE_SCOPES = ['site:metadata:read', 'site:adaptive:read', 'site:adaptive:write'];

/**
 * The organization role an installation's token acts with on a site, for the site policy: `create` with
 * `site:adaptive:write` (it edits the adaptive schema), `read` with another site scope, on a site of the installing
 * organization chosen for the installation; otherwise none (the site is not found). As with spaces, which scope
 * each route needs is the route's own check.
 */
export async function integrationSiteRole(
  db: Executor,
  actor: IntegrationActor,
  site: { id: string; organization_id: string },
): Promise<Role | null> {
  if (!(await reaches(db, actor, 'site', site, SITE_SCOPES))) return null;
  return actor.scopes.has('site:adaptive:write') ? 'create' : 'read';
}

/** The role an installation's token has on its organization's OpenAPI specifications: `create` to write them. */
export function integrationOpenApiRole(actor: IntegrationActor): Role | null {
  if (actor.scopes.has('openapi:write')) return 'create';
  return actor.scopes.has('openapi:read') ? 'read' : null;
}
