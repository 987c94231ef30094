import { createHash } from 'node:crypto';
import type { ServiceContext } from '../context.js';
import * as repo from '../../storage/repos/integrations.js';
import { findSiteById } from '../../storage/repos/sites.js';
import { LruCache } from '../../lib/lru-cache.js';
import { newId } from '../../lib/ids.js';
import { DomainError, NotFoundError } from '../errors.js';
import { requireOrgAccess, requireOrgRole } from '../permissions/resolver.js';
import { organizationPolicy } from '../organizations/policy.js';
import { loadSpace } from '../spaces/service.js';
import { dispatch, type DispatchDeps } from './delivery.js';
import { RuntimeError } from '../../workers/sandbox/runtime.js';
import type { RenderIntegrationUiBody } from '../../../shared/contract/integrations.js';

/**
 * Rendering an integration's ContentKit component (`POST /v1/integrations/{name}/render`, issue 31): the script's
 * `ui_render` answered inline, within RENDER_DEADLINE_MS, in the process of the organization the context belongs
 * to (workers/sandbox). Whoever may see the context may render in it: a document's readers (the block is part of
 * the page they read), a configuration's admins. The integration must be installed there (on a space: reaching it).
 * Anything but a JSON object from the script is a 502: the console and the site show their fallback.
 *
 * Answers are cached as the script's `Cache-Control` says (`max-age`, at most an hour; `no-store` or none: not at
 * all), by integration version, installation, component, props, state, action and context, and by the person
 * unless the answer is `public`. The cache is bounded in entries and bytes; an entry is only ever a copy of what the
 * script answered, so processes need not share it.
 */

export const RENDER_DEADLINE_MS = 10_000;
const RENDER_OUTPUT_BYTES_MAX = 1024 * 1024;
const CACHE_SECONDS_MAX = 3600;

export class BadGatewayError extends DomainError {
  constructor(message: string) {
    super(502, message);
  }
}

const cache = new LruCache<{ expires: number; output: Record<string, unknown> }>(
  1000,
  16 * 1024 * 1024,
  (entry) => JSON.stringify(entry.output).length,
);

/** The organization, installation and target of a render, once the caller may see its context. */
async function renderTarget(ctx: ServiceContext, name: string, context: RenderIntegrationUiBody['context']) {
  let organizationId: string;
  let spaceId: string | undefined;
  let siteId: string | undefined;
  if (context.type === 'document' || context.type === 'configuration_space') {
    const may = context.type === 'document' ? 'view' : 'installIntegration';
    const { row } = await loadSpace(ctx.db, ctx, context.spaceId, may, 'render integrations in it');
    organizationId = row.organization_id;
    spaceId = row.id;
  } else if (context.type === 'configuration_site') {
    const site = await findSiteById(ctx.db, context.siteId);
    if (!site) throw new NotFoundError('Site not found');
    const access = await requireOrgAccess(ctx.db, ctx.actor, site.organization_id);
    requireOrgRole(access, organizationPolicy.needs('installIntegration'), 'configure its integrations');
    organizationId = site.organization_id;
    siteId = site.id;
  } else {
    const access = await requireOrgAccess(ctx.db, ctx.actor, context.organizationId);
    requireOrgRole(access, organizationPolicy.needs('installIntegration'), 'configure its integrations');
    organizationId = context.organizationId;
  }
  const installation = await repo.findInstallationOfOrg(ctx.db, name, organizationId);
  const reaches =
    installation &&
    (spaceId === undefined ||
      installation.space_selection === 'all' ||
      (await repo.findTarget(ctx.db, installation.id, 'space', spaceId)) !== undefined);
  if (!installation || !reaches) throw new NotFoundError(`The integration "${name}" is not installed here`);
  return { organizationId, installation, spaceId, siteId };
}

function cacheSeconds(cacheControl: string | undefined): { seconds: number; shared: boolean } {
  const directives = (cacheControl ?? '').toLowerCase();
  if (!directives || /\bno-store\b|\bno-cache\b/.test(directives)) return { seconds: 0, shared: false };
  const maxAge = /\bmax-age\s*=\s*(\d+)/.exec(directives);
  return {
    seconds: maxAge ? Math.min(Number(maxAge[1]), CACHE_SECONDS_MAX) : 0,
    shared: /\bpublic\b/.test(directives),
  };
}

export async function renderIntegrationUi(
  ctx: ServiceContext,
  deps: DispatchDeps,
  name: string,
  body: RenderIntegrationUiBody,
): Promise<Record<string, unknown>> {
  const integration = await repo.findIntegration(ctx.db, name);
  if (!integration) throw new NotFoundError('Integration not found');
  const { organizationId, installation, spaceId, siteId } = await renderTarget(ctx, name, body.context);
  const what = JSON.stringify([
    integration.version,
    installation.id,
    body.componentId,
    body.props,
    body.state ?? null,
    body.action ?? null,
    body.context,
  ]);
  const key = (shared: boolean) =>
    createHash('sha256')
      .update(`${name}\n${shared ? '' : ctx.actor.userId}\n${what}`)
      .digest('base64url');
  const now = Date.now();
  for (const shared of [false, true]) {
    const hit = cache.get(key(shared));
    if (hit && hit.expires > now) return hit.output;
  }
  const payload = {
    eventId: newId(),
    type: 'ui_render',
    installationId: installation.id,
    ...(spaceId ? { spaceId } : {}),
    ...(siteId ? { siteId } : {}),
    auth: { userId: ctx.actor.userId },
    componentId: body.componentId,
    props: body.props,
    ...(body.state ? { state: body.state } : {}),
    ...(body.action ? { action: body.action } : {}),
    context: body.context,
  };
  let result;
  try {
    result = await dispatch(
      deps,
      integration,
      { installation_id: installation.id, organization_id: organizationId, payload: JSON.stringify(payload) },
      RENDER_DEADLINE_MS,
    );
  } catch (err) {
    if (err instanceof RuntimeError) throw new BadGatewayError(`The integration did not render: ${err.message}`);
    throw err;
  }
  const text = result.body.toString('utf8');
  if (result.status < 200 || result.status >= 300) {
    throw new BadGatewayError(`The integration could not render (${result.status}): ${text.slice(0, 300)}`);
  }
  let output: unknown;
  try {
    output = text.length <= RENDER_OUTPUT_BYTES_MAX ? JSON.parse(text) : undefined;
  } catch {
    output = undefined;
  }
  if (typeof output !== 'object' || output === null || Array.isArray(output)) {
    throw new BadGatewayError('The integration answered something that is not a ContentKit render');
  }
  const rendered = output as Record<string, unknown>;
  const { seconds, shared } = cacheSeconds(result.headers['cache-control']);
  if (seconds > 0) cache.set(key(shared), { expires: now + seconds * 1000, output: rendered });
  return rendered;
}
