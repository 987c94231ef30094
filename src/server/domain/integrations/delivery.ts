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
import { presentInstallation, presentIntegration } from '../../presenters/integration.js';
import type { IntegrationRuntime } from '../../workers/sandbox/runtime.js';
import { RuntimeError } from '../../workers/sandbox/runtime.js';
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
  );
  afterCommit(tx, wakeJobQueues);
  return id;
}

/** What GitBook's dispatcher sends as `environment`: the integration, the installation, its configuration, secrets. */
async function environmentOf(db: Db, urls: Urls, integration: repo.IntegrationRow, event: repo.EventRow) {
  const owner = await findOrganization(db, integration.organization_id);
  const installation = event.installation_id
    ? await repo.findInstallation(db, integration.name, event.installation_id)
    : undefined;
  return {
    apiEndpoint: urls.base,
    apiTokens: {},
    integration: presentIntegration(urls, integration, owner!, false),
    ...(installation
      ? {
          installation: presentInstallation(urls, installation, await repo.countTargets(db, installation.id, 'space')),
        }
      : {}),
    secrets: integration.secrets ? await decryptSecrets(db, integration.secrets) : {},
    signingSecrets: {},
  };
}

export function integrationEventJobHandler(db: Db, runtime: IntegrationRuntime, urls: Urls): JobHandler {
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
        result = await runtime.invoke(
          {
            integration: integration.name,
            version: integration.version,
            organizationId: event.organization_id ?? integration.organization_id,
          },
          async () => integration.script,
          {
            event: JSON.parse(event.payload) as { eventId: string; type: string },
            environment: await environmentOf(db, urls, integration, event),
            deadlineMs: EVENT_DEADLINE_MS,
          },
        );
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
