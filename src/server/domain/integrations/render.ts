import { createHash } from 'node:crypto';
import type { ServiceContext } from '../context.js';
import * as repo from '../../storage/repos/integrations.js';
import type { Executor } from '../../storage/db.js';
import { findSiteById } from '../../storage/repos/sites.js';
import { LruCache } from '../../lib/lru-cache.js';
import { newId } from '../../lib/ids.js';
import { DomainError, NotFoundError } from '../errors.js';
import { requireOrgAccess, requireOrgRole } from '../permissions/resolver.js';
import { organizationPolicy } from '../organizations/policy.js';
import { loadSpace } from '../spaces/service.js';
import { dispatch, type DispatchDeps } from './delivery.js';
import { resolveSelectOptions } from './select-options.js';
import { RuntimeError } from '../../workers/sandbox/runtime.js';
import type { RenderIntegrationUiBody } from '../../../shared/contract/integrations.js';
import {
  integrationBlockKey as blockKey,
  UNFURL_PROP,
  type IntegrationBlockRef,
} from '../../../shared/gitbook-blocks.js';

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
  const reaches = installation && (spaceId === undefined || (await reachesSpace(ctx.db, installation, spaceId)));
  if (!installation || !reaches) throw new NotFoundError(`The integration "${name}" is not installed here`);
  return { organizationId, installation, spaceId, siteId };
}

/** What a script said went wrong (`@gitbook/runtime` answers `{error: "…"}`), or its status and first words. */
function scriptError(text: string, status: number): string {
  try {
    const body = JSON.parse(text) as { error?: unknown };
    const error =
      typeof body.error === 'object' && body.error ? (body.error as { message?: unknown }).message : body.error;
    if (typeof error === 'string' && error.trim()) return error.trim().slice(0, 300);
  } catch {
    // Not JSON: its words as they are.
  }
  return `${status} ${text.slice(0, 300)}`.trim();
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
  const target = await renderTarget(ctx, name, body.context);
  // A settings screen is given what is saved, as GitBook gives it: the installation's configuration, and the
  // space's or site's (`props.spaceInstallation.configuration`), under what the caller sent.
  if (body.context.type !== 'document') {
    const saved = (json: string | null | undefined) => ({ configuration: json ? (JSON.parse(json) as unknown) : {} });
    const kind = target.spaceId ? 'space' : target.siteId ? 'site' : undefined;
    const on =
      kind && (await repo.findTarget(ctx.db, target.installation.id, kind, (target.spaceId ?? target.siteId)!));
    body = {
      ...body,
      props: {
        installation: saved(target.installation.configuration),
        ...(kind ? { [`${kind}Installation`]: saved(on ? on.configuration : null) } : {}),
        ...body.props,
      },
    };
  }
  return (await renderComponent(deps, integration, target, body, ctx.actor.userId)).output;
}

/** Where a component renders: the installation, and the organization, space or site of its context. */
interface RenderTarget {
  organizationId: string;
  installation: repo.InstallationRow;
  spaceId?: string | undefined;
  siteId?: string | undefined;
}

/**
 * A component rendered by its script (or the cache), for `userId` (a person; '' for a published site's readers, who
 * all see the same), with when the answer stops being fresh (now, when the script said not to keep it).
 */
async function renderComponent(
  deps: DispatchDeps,
  integration: repo.IntegrationRow,
  { organizationId, installation, spaceId, siteId }: RenderTarget,
  body: RenderIntegrationUiBody,
  userId: string,
): Promise<{ output: Record<string, unknown>; expires: number }> {
  const name = integration.name;
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
      .update(`${name}\n${shared ? '' : userId}\n${what}`)
      .digest('base64url');
  const now = Date.now();
  for (const shared of [false, true]) {
    const hit = cache.get(key(shared));
    if (hit && hit.expires > now) return hit;
  }
  const payload = {
    eventId: newId(),
    type: 'ui_render',
    installationId: installation.id,
    ...(spaceId ? { spaceId } : {}),
    ...(siteId ? { siteId } : {}),
    ...(userId ? { auth: { userId } } : {}),
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
    throw new BadGatewayError(`The integration could not render: ${scriptError(text, result.status)}`);
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
  await resolveSelectOptions(deps, integration, rendered);
  const { seconds, shared } = cacheSeconds(result.headers['cache-control']);
  const entry = { expires: now + seconds * 1000, output: rendered };
  if (seconds > 0) cache.set(key(shared), entry);
  return entry;
}

/** Integration blocks a published page renders at most (the others show their label). */
export const PAGE_BLOCKS_MAX = 50;
/** How long a published page waits for all its blocks together. */
const PAGE_BLOCKS_DEADLINE_MS = RENDER_DEADLINE_MS;
/** At most this many of one page's blocks render at once. */
const PAGE_BLOCKS_CONCURRENCY = 4;

/**
 * The integration blocks of a published page rendered for its readers (the page's space has already been found
 * visible to them): each as its integration answers in the context of the space's document (not editable), by key
 * (blockKey); null for a block that could not render (not installed here, failed, slower than the page's deadline).
 * `expires`: when the first of them stops being fresh (the page is rendered again then).
 */
export async function renderPageBlocks(
  deps: DispatchDeps,
  organizationId: string,
  spaceId: string,
  refs: IntegrationBlockRef[],
): Promise<{ outputs: Record<string, Record<string, unknown> | null>; expires: number }> {
  const unique = new Map<string, IntegrationBlockRef>();
  for (const ref of refs) if (unique.size < PAGE_BLOCKS_MAX) unique.set(blockKey(ref), ref);
  const outputs: Record<string, Record<string, unknown> | null> = {};
  let expires = Number.POSITIVE_INFINITY;
  const targets = new Map<string, ReturnType<typeof readerTarget>>();
  const targetOf = (name: string) => {
    let found = targets.get(name);
    if (!found) {
      found = readerTarget(deps, name, organizationId, spaceId);
      targets.set(name, found);
    }
    return found;
  };
  const deadline = Date.now() + PAGE_BLOCKS_DEADLINE_MS;
  const queue = [...unique];
  const renderOne = async (key: string, ref: IntegrationBlockRef) => {
    outputs[key] = null;
    const found = await targetOf(ref.integration);
    if (!found || Date.now() >= deadline) return;
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<undefined>((resolve) => {
      timer = setTimeout(() => resolve(undefined), deadline - Date.now());
    });
    try {
      const done = await Promise.race([
        renderComponent(
          deps,
          found.integration,
          found.target,
          {
            componentId: ref.block,
            ...unfurled(ref.props),
            context: { type: 'document', spaceId, editable: false, theme: 'light' },
          } as RenderIntegrationUiBody,
          '',
        ),
        late,
      ]);
      if (done) {
        outputs[key] = done.output;
        expires = Math.min(expires, done.expires);
      }
    } catch (err) {
      if (!(err instanceof DomainError)) throw err;
    } finally {
      clearTimeout(timer);
    }
  };
  await Promise.all(
    Array.from({ length: Math.min(PAGE_BLOCKS_CONCURRENCY, queue.length) }, async () => {
      for (let next = queue.shift(); next; next = queue.shift()) await renderOne(...next);
    }),
  );
  // A block that failed is tried again soon; one the script said not to keep, at the next view after that.
  const floor = Date.now() + PAGE_FRESH_MIN_MS;
  const failed = Object.values(outputs).some((o) => o === null);
  return { outputs, expires: failed ? floor : Math.max(floor, expires) };
}

/**
 * A page's block made of an embed (shared/gitbook-blocks.ts embedsAsBlocks) is rendered as GitBook renders one: no
 * props, and `@link.unfurl` of its link; any other with its props.
 */
function unfurled(props: Record<string, unknown>): {
  props: Record<string, unknown>;
  action?: Record<string, unknown>;
} {
  const url = props[UNFURL_PROP];
  return typeof url === 'string' ? { props: {}, action: { action: '@link.unfurl', url } } : { props };
}

/** The integration `name` and its installation, when that reaches `spaceId` (else undefined). */
async function readerTarget(
  deps: DispatchDeps,
  name: string,
  organizationId: string,
  spaceId: string,
): Promise<{ integration: repo.IntegrationRow; target: RenderTarget } | undefined> {
  const integration = await repo.findIntegration(deps.db, name);
  const installation = integration && (await repo.findInstallationOfOrg(deps.db, name, organizationId));
  if (!integration || !installation) return undefined;
  const reaches = await reachesSpace(deps.db, installation, spaceId);
  return reaches ? { integration, target: { organizationId, installation, spaceId } } : undefined;
}

/** Whether an installation reaches a space: all of its organization's (`space_selection: all`), or this one chosen. */
async function reachesSpace(db: Executor, installation: repo.InstallationRow, spaceId: string): Promise<boolean> {
  if (installation.space_selection === 'all') return true;
  return (await repo.findTarget(db, installation.id, 'space', spaceId)) !== undefined;
}

/** What a reader of a published site did in an integration block (site-script.js), to render it again. */
export interface ReaderAction {
  integration: string;
  block: string;
  props: Record<string, unknown>;
  state?: Record<string, unknown> | undefined;
  /** None: its first render (a modal a block opened). */
  action?: (Record<string, unknown> & { action: string }) | undefined;
}

/**
 * An integration block of a published space rendered again for its readers after one of them acted in it (pressed
 * its button, changed its value): as a page's blocks, in the context of the space's document, never as anyone.
 * 404 when the integration does not reach the space; 502 when its script fails.
 */
export async function renderForReaders(
  deps: DispatchDeps,
  organizationId: string,
  spaceId: string,
  input: ReaderAction,
): Promise<Record<string, unknown>> {
  const found = await readerTarget(deps, input.integration, organizationId, spaceId);
  if (!found) throw new NotFoundError(`The integration "${input.integration}" is not installed here`);
  const body = {
    componentId: input.block,
    props: unfurled(input.props).props,
    ...(input.state ? { state: input.state } : {}),
    ...(input.action ? { action: input.action } : {}),
    context: { type: 'document', spaceId, editable: false, theme: 'light' },
  } as RenderIntegrationUiBody;
  return (await renderComponent(deps, found.integration, found.target, body, '')).output;
}

/** A published page with integration blocks is rendered again at most this often (the script is not called per view). */
const PAGE_FRESH_MIN_MS = 30_000;
