import type { Db, Executor } from '../../storage/db.js';
import { afterCommit } from '../../storage/db.js';
import * as repo from '../../storage/repos/integrations.js';
import { findOrganization } from '../../storage/repos/organizations.js';
import { enqueueJob } from '../../storage/repos/jobs.js';
import type { JobHandler } from '../../jobs/queue.js';
import { wakeJobQueues } from '../../jobs/queue.js';
import { newId } from '../../lib/ids.js';
import { nowIso } from '../../lib/time.js';
import type { Urls } from '../../lib/urls.js';
import { presentInstallation, presentIntegration, presentTarget } from '../../presenters/integration.js';
import { mintIntegrationTokens } from './tokens.js';
import type { IntegrationRuntime } from '../../workers/sandbox/runtime.js';
import { encodeDispatch, RuntimeError, type Invocation, type LogLine } from '../../workers/sandbox/runtime.js';
import { requestUrl, type PrivateAddresses } from '../../lib/fetch-url.js';
import { decryptSecrets } from './secrets.js';

/**
 * Delivering integration events to the integration's script (docs/design/integrations-runtime.md). An event is
 * stored `pending` in the transaction of what caused it, with an `integration-event` job (keyed by the event, so
 * it runs once); the job sends it to the script in its sandbox (workers/sandbox) as GitBook's dispatcher does, and
 * records the outcome: `success`, `ignored` (406: the script does not handle that type), `failed` (a 4xx, or a 5xx
 * or no answer five times, retried with backoff), with the time it took and what the script logged.
 */

export const INTEGRATION_EVENT_JOB = 'integration-event';
/** Events one server process delivers at once: scripts of other kinds of work never wait behind them. */
export const INTEGRATION_EVENTS_IN_FLIGHT_MAX = 4;
/** A background event's script must answer within this time, or its process is killed and the event retried. */
export const EVENT_DEADLINE_MS = 30_000;
const ATTEMPTS = 5;

export async function queueIntegrationEvent(
  tx: Executor,
  e: {
    integration: string;
    installationId: string | null;
    organizationId: string;
    payload: Record<string, unknown> & { type: string };
    /** Delivered no sooner than this long from now (a scheduled task). */
    delayMs?: number;
  },
): Promise<string> {
  const id = newId();
  const now = nowIso();
  await repo.insertEvent(tx, {
    id,
    integration_name: e.integration,
    installation_id: e.installationId,
    organization_id: e.organizationId,
    payload: JSON.stringify({
      eventId: id,
      ...(e.installationId ? { installationId: e.installationId } : {}),
      ...e.payload,
    }),
    status: 'pending',
    created_at: now,
    attempts: 0,
    duration_ms: null,
    error: null,
    trace: null,
  });
  await enqueueJob(
    tx,
    {
      id: newId(),
      kind: INTEGRATION_EVENT_JOB,
      key: id,
      payload: JSON.stringify({ id }),
      // One organization's burst of events does not hold the others' back.
      group_key: `integration-events:${e.organizationId}`,
    },
    now,
    e.delayMs ? new Date(Date.now() + e.delayMs).toISOString() : now,
  );
  afterCommit(tx, wakeJobQueues);
  return id;
}

/**
 * An event about a space (`space_content_updated`, `space_gitsync_completed`), queued in the transaction of its
 * cause for every installation of the space's organization that reaches the space.
 */
export async function queueSpaceEvent(
  tx: Executor,
  space: { id: string; organization_id: string },
  payload: Record<string, unknown> & { type: string },
): Promise<void> {
  for (const installation of await repo.installationsReachingSpace(tx, space.organization_id, space.id)) {
    await queueIntegrationEvent(tx, {
      integration: installation.integration_name,
      installationId: installation.id,
      organizationId: space.organization_id,
      payload: { ...payload, spaceId: space.id },
    });
  }
}

/**
 * What GitBook's dispatcher sends as `environment`: the integration, the installation (and the space or site
 * installation the event is about), its configuration, secrets, and tokens minted for this dispatch
 * (integrations/tokens.ts): the integration's own, and the installation's with the scopes it was granted.
 */
async function environmentOf(db: Db, urls: Urls, integration: repo.IntegrationRow, event: DispatchedEvent) {
  const owner = await findOrganization(db, integration.organization_id);
  const installation = event.installation_id
    ? await repo.findInstallation(db, integration.name, event.installation_id)
    : undefined;
  const payload = JSON.parse(event.payload) as { spaceId?: unknown; siteId?: unknown };
  const targetOf = async (kind: 'space' | 'site', id: unknown) => {
    if (!installation || typeof id !== 'string') return undefined;
    const row = await repo.findTarget(db, installation.id, kind, id);
    return row && presentTarget(urls, integration.name, row);
  };
  const spaceInstallation = await targetOf('space', payload.spaceId);
  const siteInstallation = await targetOf('site', payload.siteId);
  return {
    apiEndpoint: urls.base,
    apiTokens: await mintIntegrationTokens(
      db,
      integration,
      installation ?? null,
      event.organization_id ?? integration.organization_id,
    ),
    integration: presentIntegration(urls, integration, owner!, false),
    ...(installation
      ? {
          installation: presentInstallation(urls, installation, await repo.countTargets(db, installation.id, 'space')),
        }
      : {}),
    ...(spaceInstallation ? { spaceInstallation } : {}),
    ...(siteInstallation ? { siteInstallation } : {}),
    secrets: integration.secrets ? await decryptSecrets(db, integration.secrets) : {},
    signingSecrets: {},
  };
}

/**
 * `gitbook dev`: while an integration's development tunnel is set, its events (those of the owner's organization,
 * or all with `all`) go to the developer's script behind the tunnel instead of the published one, as the same
 * multipart POST, through the guarded fetch (a tunnel is a user-given URL).
 */
async function sendToTunnel(
  tunnelUrl: string,
  invocation: Pick<Invocation, 'event' | 'environment'> & { fetchBody?: Buffer | undefined },
  allowPrivate: PrivateAddresses,
  deadlineMs: number,
) {
  const { event, environment, fetchBody } = invocation;
  const { contentType, bytes } = await encodeDispatch({ event, environment, ...(fetchBody ? { fetchBody } : {}) });
  const started = performance.now();
  try {
    const answer = await requestUrl(new URL('v1', tunnelUrl.endsWith('/') ? tunnelUrl : `${tunnelUrl}/`).href, {
      method: 'POST',
      headers: { 'content-type': contentType },
      body: bytes,
      maxBytes: 10 * 1024 * 1024,
      allowPrivate,
      deadlineMs,
    });
    return {
      status: answer.status,
      headers: answer.headers,
      body: answer.data,
      durationMs: performance.now() - started,
      logs: [{ level: 'info', message: `Delivered to the development tunnel ${tunnelUrl}` }],
    };
  } catch (err) {
    throw new RuntimeError(`the development tunnel ${tunnelUrl} did not answer: ${(err as Error).message}`);
  }
}

/** What sending an event to a script needs. */
export interface DispatchDeps {
  db: Db;
  runtime: IntegrationRuntime;
  urls: Urls;
  allowPrivate: PrivateAddresses;
}

/** An event to send: stored (integration_events) or answered inline (a render). */
export type DispatchedEvent = Pick<repo.EventRow, 'installation_id' | 'organization_id' | 'payload'>;

/**
 * Sends one event to the integration's script with its environment, as GitBook's dispatcher does: to the
 * development tunnel while `gitbook dev` is on for the event's organization, else to the published script in the
 * organization's own process (workers/sandbox). Throws RuntimeError when the script did not answer in time.
 */
export async function dispatch(
  deps: DispatchDeps,
  integration: repo.IntegrationRow,
  event: DispatchedEvent,
  deadlineMs: number,
  /** The body of the request a `fetch` event stands for. */
  fetchBody?: Buffer,
): Promise<{ status: number; headers: Record<string, string>; body: Buffer; durationMs: number; logs: LogLine[] }> {
  const organizationId = event.organization_id ?? integration.organization_id;
  const payload = JSON.parse(event.payload) as { eventId: string; type: string };
  const environment = await environmentOf(deps.db, deps.urls, integration, event);
  const tunnel =
    integration.dev_tunnel_url && (integration.dev_all || organizationId === integration.organization_id)
      ? integration.dev_tunnel_url
      : undefined;
  if (tunnel) return sendToTunnel(tunnel, { event: payload, environment, fetchBody }, deps.allowPrivate, deadlineMs);
  return deps.runtime.invoke(
    { integration: integration.name, version: integration.version, organizationId },
    async () => integration.script,
    { event: payload, environment, deadlineMs, ...(fetchBody ? { fetchBody } : {}) },
  );
}

export function integrationEventJobHandler(
  db: Db,
  runtime: IntegrationRuntime,
  urls: Urls,
  allowPrivate: PrivateAddresses = false,
): JobHandler {
  return {
    attempts: ATTEMPTS,
    retryDelayMs: (attempts) => Math.min(15_000 * 2 ** (attempts - 1), 600_000),
    async run(payload) {
      const { id } = payload as { id: string };
      const event = await repo.findEventById(db, id);
      if (!event || event.status !== 'pending') return;
      const integration = await repo.findIntegration(db, event.integration_name);
      if (!integration) {
        await repo.updateEvent(db, id, { status: 'failed', error: 'The integration was unpublished' });
        return;
      }
      const attempts = event.attempts + 1;
      await repo.updateEvent(db, id, { attempts });
      let result;
      try {
        result = await dispatch({ db, runtime, urls, allowPrivate }, integration, event, EVENT_DEADLINE_MS);
      } catch (err) {
        await repo.updateEvent(db, id, { error: (err as Error).message.slice(0, 2000) });
        throw err;
      }
      const trace = JSON.stringify(
        result.logs.map(({ level, message }) => ({ level, message: message.slice(0, 4000) })),
      );
      const outcome = {
        duration_ms: Math.round(result.durationMs),
        trace,
        error: result.status >= 400 && result.status !== 406 ? result.body.toString('utf8').slice(0, 2000) : null,
      };
      if (result.status >= 500) {
        // The script failed: tried again later, as GitBook retries a failed delivery.
        await repo.updateEvent(db, id, outcome);
        throw new RuntimeError(`the integration answered ${result.status}`);
      }
      await repo.updateEvent(db, id, {
        ...outcome,
        status: result.status === 406 ? 'ignored' : result.status >= 400 ? 'failed' : 'success',
      });
    },
    async giveUp(payload, error) {
      const { id } = payload as { id: string };
      await repo.updateEvent(db, id, {
        status: 'failed',
        error: `Gave up after ${ATTEMPTS} attempts: ${(error as Error).message}`.slice(0, 2000),
      });
    },
  };
}
