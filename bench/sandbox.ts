// Integrations sandbox benchmark (part of `npm run bench`), issue 31: the supervised workerd runtime
// (src/server/workers/sandbox). (a) cold start: a new process for an integration and organization until its first
// answer; (b) a warm event, median and p95; (c) the same warm events of organization B while organization A's
// script spins in an endless loop (until its deadline kills its process), measured side by side with (b): one
// organization's loop must not slow another's events; (d) the resident memory of one warm runtime process;
// (e) events per second through the job queue, end to end: tasks stored as `POST …/tasks` stores them, claimed,
// dispatched with their environment and tokens to the script, and recorded, for one organization (delivered one at a
// time, by design) and for four at once. SQLite, in process.
import { IntegrationRuntime } from '../src/server/workers/sandbox/runtime.js';
import { buildApp } from '../src/server/app.js';
import { transaction } from '../src/server/storage/db.js';
import { queueIntegrationEvent } from '../src/server/domain/integrations/delivery.js';
import { benchDatabase, median, procStatus } from './setup.js';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 200);
const SCRIPT = `export default {
  async fetch(request) {
    const form = await request.formData();
    const event = JSON.parse(form.get('event'));
    if (event.type === 'spin') while (true) {}
    return Response.json({ ok: event.eventId });
  },
};`;

const p95 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length * 0.95)]!;
let n = 0;
const event = (type = 'installation_setup', deadlineMs = 5_000) => ({
  event: { eventId: `e${++n}`, type },
  environment: {},
  deadlineMs,
});

const runtime = new IntegrationRuntime({ processesMax: 8 });
const key = (organizationId: string) => ({ integration: 'bench', version: 1, organizationId });
try {
  const colds: number[] = [];
  for (let i = 0; i < 5; i++) {
    const t = performance.now();
    await runtime.invoke(key(`cold-${i}`), async () => SCRIPT, event());
    colds.push(performance.now() - t);
  }
  await runtime.invoke(key('b'), async () => SCRIPT, event());
  const timed = async () => {
    const t = performance.now();
    await runtime.invoke(key('b'), async () => SCRIPT, event());
    return performance.now() - t;
  };
  const quiet: number[] = [];
  const during: number[] = [];
  // Side by side: rounds alternate between B alone and B while A spins (A's deadline kills it; it restarts).
  for (let round = 0; round < 4; round++) {
    for (let i = 0; i < ROUNDS / 4; i++) quiet.push(await timed());
    const spinning = runtime.invoke(key('a'), async () => SCRIPT, event('spin', 2_000)).catch(() => undefined);
    const until = performance.now() + 1_500;
    while (performance.now() < until && during.length < ((round + 1) * ROUNDS) / 4) during.push(await timed());
    await spinning;
  }
  const ms = (x: number) => `${x.toFixed(1)} ms`;
  console.log(`sandbox: cold start to first answer, median ${ms(median(colds))} (5 processes)`);
  console.log(`sandbox: warm event, median ${ms(median(quiet))}, p95 ${ms(p95(quiet))} (${quiet.length})`);
  console.log(
    `sandbox: warm event of B while A's script spins, median ${ms(median(during))}, p95 ${ms(p95(during))} ` +
      `(${during.length}; ×${(median(during) / median(quiet)).toFixed(2)} of quiet)`,
  );
  const warm = runtime.processes().find((p) => p.key.organizationId === 'b');
  if (warm?.pid)
    console.log(`sandbox: one warm runtime process, RSS ${(procStatus(warm.pid, 'VmRSS') / 2 ** 20).toFixed(0)} MB`);
} finally {
  await runtime.close();
}

const EVENTS = Number(process.env.BENCH_EVENTS ?? 200);
const TOKEN = 'bench-sandbox-token-0123456789abcdefghijklmnop';
const { config, storage, owner, cleanup } = await benchDatabase(TOKEN);
const { app } = await buildApp({ config, db: storage.db });
await app.ready();
try {
  const call = async (method: string, url: string, body?: unknown) => {
    const res = await app.inject({
      method: method as 'POST',
      url,
      headers: { authorization: `Bearer ${TOKEN}` },
      ...(body ? { payload: body as object } : {}),
    });
    if (res.statusCode >= 300) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body}`);
    return res.json() as Record<string, unknown>;
  };
  const organizations = [owner.organizationId];
  for (let i = 1; i < 4; i++)
    organizations.push((await call('POST', '/v1/orgs', { title: `Bench ${i}` })).id as string);
  await call('POST', '/v1/integrations/bench-queue', {
    title: 'Bench queue',
    description: 'Counts tasks',
    scopes: [],
    script: SCRIPT,
    organization: owner.organizationId,
    visibility: 'unlisted',
  });
  for (const organization of organizations)
    await call('POST', '/v1/integrations/bench-queue/installations', { organization });
  const delivered = async () =>
    Number(
      (
        await storage.db
          .selectFrom('integration_events')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('status', '!=', 'pending')
          .where('payload', 'like', '%"task"%')
          .executeTakeFirstOrThrow()
      ).n,
    );
  /** Tasks queued as each organization's own (a script's installation token would do the same), until all are delivered. */
  const throughput = async (orgs: string[]) => {
    const before = await delivered();
    const t = performance.now();
    for (let i = 0; i < EVENTS; i++) {
      const organizationId = orgs[i % orgs.length]!;
      await transaction(storage.db, (tx) =>
        queueIntegrationEvent(tx, {
          integration: 'bench-queue',
          installationId: null,
          organizationId,
          payload: { type: 'task', task: { i } },
        }),
      );
    }
    while ((await delivered()) < before + EVENTS) await new Promise((r) => setTimeout(r, 5));
    return EVENTS / ((performance.now() - t) / 1000);
  };
  const one = await throughput([owner.organizationId]);
  const four = await throughput(organizations);
  console.log(
    `sandbox: events through the queue, one organization ${one.toFixed(0)}/s (one at a time), four ${four.toFixed(0)}/s (${EVENTS} each)`,
  );
} finally {
  await app.close();
  await cleanup();
}
