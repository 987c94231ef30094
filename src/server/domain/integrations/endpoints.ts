import * as repo from '../../storage/repos/integrations.js';
import { newId } from '../../lib/ids.js';
import { flatHeaders } from '../../lib/headers.js';
import { RuntimeError } from '../../workers/sandbox/runtime.js';
import { dispatch, type DispatchDeps } from './delivery.js';
import { injectsScripts } from './published-scripts.js';
import { findSiteById } from '../../storage/repos/sites.js';

/**
 * Integrations' HTTP endpoints (issue 31): a request to `INTEGRATIONS_ORIGIN/v1/integrations/{name}`, or under an
 * installation of it (`…/installations/{id}`, `…/installations/{id}/spaces/{spaceId}` or `/sites/{siteId}`), at any
 * path below, is the integration's `fetch` event, answered by its script inline (ENDPOINT_DEADLINE_MS; 502 when it
 * does not answer). This is where webhooks of other services arrive and where webframes are served from, so it is
 * another origin than the console's and the sites' (routes/integration-endpoints.ts): no cookie of this server
 * reaches a script, and none a script sets is kept (`Cookie` and `Set-Cookie` are dropped on the way).
 */

export const ENDPOINT_DEADLINE_MS = 10_000;
export const ENDPOINT_BODY_BYTES_MAX = 1024 * 1024;

const PATH = /^\/v1\/integrations\/([^/]+)(?:\/installations\/([^/]+)(?:\/(spaces|sites)\/([^/]+))?)?(?:\/.*)?$/;
/** Headers that describe one connection, not the message, and what would carry cookies across. */
const DROPPED = new Set([
  'connection',
  'keep-alive',
  'transfer-encoding',
  'upgrade',
  'proxy-connection',
  'content-length',
  'cookie',
  'set-cookie',
]);

export interface EndpointAnswer {
  status: number;
  headers: Record<string, string>;
  body: Buffer | string;
}

/** 502: the script did not answer (a time-out, a crash). */
const noAnswer = (err: RuntimeError): EndpointAnswer => ({
  status: 502,
  headers: { 'content-type': 'application/json; charset=utf-8' },
  body: JSON.stringify({ error: { code: 502, message: `The integration did not answer: ${err.message}` } }),
});

const notFound = (message: string): EndpointAnswer => ({
  status: 404,
  headers: { 'content-type': 'application/json; charset=utf-8' },
  body: JSON.stringify({ error: { code: 404, message } }),
});

function decoded(segment: string | undefined): string | undefined {
  if (segment === undefined) return undefined;
  try {
    return decodeURIComponent(segment);
  } catch {
    return '\u0000';
  }
}

export async function serveIntegrationEndpoint(
  deps: DispatchDeps,
  origin: string,
  request: { method: string; url: string; headers: Record<string, string | string[] | undefined>; body?: Buffer },
  deadlineMs = ENDPOINT_DEADLINE_MS,
): Promise<EndpointAnswer> {
  let url: URL;
  try {
    url = new URL(request.url, origin);
  } catch {
    return notFound('No integration endpoint here');
  }
  const found = PATH.exec(url.pathname);
  if (!found) return notFound('No integration endpoint here');
  const [name, installationId, kind, targetId] = [found[1], found[2], found[3], found[4]].map(decoded);
  const integration = await repo.findIntegration(deps.db, name!);
  if (!integration) return notFound('No such integration');
  const installation = installationId ? await repo.findInstallation(deps.db, name!, installationId) : undefined;
  if (installationId && !installation) return notFound('No such installation');
  const target =
    kind && installation ? await repo.findTarget(deps.db, installation.id, kind.slice(0, -1), targetId!) : undefined;
  // An installation on all of its organization's sites reaches those, and no other organization's.
  const allSites =
    kind === 'sites' &&
    installation?.site_selection === 'all' &&
    (await siteOfOrganization(deps.db, targetId!, installation.organization_id));
  if (kind && !target && !allSites) return notFound(`The integration is not installed on this ${kind.slice(0, -1)}`);

  // A site's script (published-scripts.ts): the script's `fetch_published_script`, for an installation granted it
  // (the path names a site the installation reaches: checked above).
  const script = /^\/v1\/integrations\/[^/]+\/installations\/[^/]+\/sites\/[^/]+\/script\.js$/.test(url.pathname);
  if (script && (request.method === 'GET' || request.method === 'HEAD')) {
    if (!installation || !injectsScripts({ granted: installation.scopes, declared: integration.scopes })) {
      return notFound('No script here');
    }
    return publishedScript(deps, integration, installation, targetId!);
  }

  const headers = flatHeaders(request.headers, (name) => DROPPED.has(name));
  // A credential of this server is never a script's to see (a webhook's own Authorization goes through).
  if (headers.authorization && /^Bearer\s+(ds_|dss_|dsi_)/i.test(headers.authorization)) delete headers.authorization;
  const payload = {
    eventId: newId(),
    type: 'fetch',
    request: { method: request.method.toLowerCase(), url: url.href, headers },
    ...(installation ? { installationId: installation.id } : {}),
    ...(target ? { [target.kind === 'space' ? 'spaceId' : 'siteId']: target.target_id } : {}),
  };
  const body = request.method === 'GET' || request.method === 'HEAD' ? undefined : request.body;
  let result;
  try {
    result = await dispatch(
      deps,
      integration,
      {
        installation_id: installation?.id ?? null,
        organization_id: installation?.organization_id ?? integration.organization_id,
        payload: JSON.stringify(payload),
      },
      deadlineMs,
      body && body.length > 0 ? body : undefined,
    );
  } catch (err) {
    if (!(err instanceof RuntimeError)) throw err;
    return noAnswer(err);
  }
  const answered: Record<string, string> = {};
  for (const [header, value] of Object.entries(result.headers)) {
    if (!DROPPED.has(header.toLowerCase())) answered[header.toLowerCase()] = value;
  }
  answered['x-content-type-options'] = 'nosniff';
  return { status: result.status, headers: answered, body: result.body };
}

/** Whether `siteId` is a site of the organization (an installation on all its sites reaches only those). */
async function siteOfOrganization(db: DispatchDeps['db'], siteId: string, organizationId: string): Promise<boolean> {
  const site = await findSiteById(db, siteId);
  return site?.organization_id === organizationId;
}

/** How long a browser keeps a site's script at most (the script may say less; its address changes with a version). */
const SCRIPT_CACHE_SECONDS_MAX = 86_400;

/**
 * An installation's script for a site: what the integration answers to `fetch_published_script` (200 with its
 * JavaScript; anything else is no script, 404), served as JavaScript whatever type the script said.
 */
async function publishedScript(
  deps: DispatchDeps,
  integration: repo.IntegrationRow,
  installation: repo.InstallationRow,
  siteId: string,
): Promise<EndpointAnswer> {
  const payload = { eventId: newId(), type: 'fetch_published_script', installationId: installation.id, siteId };
  let result;
  try {
    result = await dispatch(
      deps,
      integration,
      {
        installation_id: installation.id,
        organization_id: installation.organization_id,
        payload: JSON.stringify(payload),
      },
      ENDPOINT_DEADLINE_MS,
    );
  } catch (err) {
    if (!(err instanceof RuntimeError)) throw err;
    return noAnswer(err);
  }
  if (result.status !== 200) return notFound('This integration adds no script');
  const maxAge = /\bmax-age\s*=\s*(\d+)/i.exec(result.headers['cache-control'] ?? '');
  const seconds = Math.min(Number(maxAge?.[1] ?? 0), SCRIPT_CACHE_SECONDS_MAX);
  return {
    status: 200,
    headers: {
      'content-type': 'application/javascript; charset=utf-8',
      'cache-control': seconds > 0 ? `public, max-age=${seconds}` : 'no-cache',
      'x-content-type-options': 'nosniff',
      // Pages of any site load it.
      'cross-origin-resource-policy': 'cross-origin',
    },
    body: result.body,
  };
}
