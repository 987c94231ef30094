// Integrations sandbox benchmark (part of `npm run bench`), issue 31: the supervised workerd runtime
// (src/server/workers/sandbox). (a) cold start: a new process for an integration and organization until its first
// answer; (b) a warm event, median and p95; (c) the same warm events of organization B while organization A's
// script spins in an endless loop (until its deadline kills its process), measured side by side with (b): one
// organization's loop must not slow another's events.
import { IntegrationRuntime } from '../src/server/workers/sandbox/runtime.js';
import { median } from './setup.js';

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
} finally {
  await runtime.close();
}
