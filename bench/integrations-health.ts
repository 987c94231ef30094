// Integrations' limits under load (part of `npm run bench`, issue 31): while one organization's integration
// script spins in an endless loop, allocates without bound, or fetches 127.0.0.1 (renders of its block, back to
// back), GET /v1/health is sampled every 20 ms; its latency is compared with the same sampling at idle, side by side
// in one run. Goal: health p99 under 50 ms meanwhile. The server runs in a child process (this file with
// BENCH_SANDBOX_SERVER set), so the sampling client is never blocked by it.
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { buildApp } from '../src/server/app.js';
import { benchDatabase, median, p99, sampleHealthUntil } from './setup.js';

const TOKEN = 'bench-sandbox-health-token-0123456789abcdefgh';
const SAMPLE_MS = 20;
const WINDOW_MS = Number(process.env.BENCH_WINDOW_MS ?? 8000);

// Renders: `spin` loops until its deadline kills its process, `allocate` grows its heap until it dies, `fetch`
// asks for 127.0.0.1 (refused), `hello` answers at once.
const SCRIPT = `export default {
  async fetch(request) {
    const form = await request.formData();
    const event = JSON.parse(form.get('event'));
    if (event.type !== 'ui_render') return new Response('', { status: 406 });
    if (event.componentId === 'spin') for (;;) {}
    if (event.componentId === 'allocate') { const kept = []; for (;;) kept.push(new Array(1e6).fill(kept.length)); }
    if (event.componentId === 'fetch') {
      try { await fetch('http://127.0.0.1:9/'); } catch (err) { return Response.json({ element: { type: 'block', children: [String(err)] } }); }
    }
    return Response.json({ element: { type: 'block', children: ['hello'] }, state: {}, props: event.props });
  },
};`;

if (process.env.BENCH_SANDBOX_SERVER) await serve();
else await main();

async function serve() {
  const bench = await benchDatabase(TOKEN);
  const { app } = await buildApp({
    config: {
      ...bench.config,
      integrations: { egress: true, egressAllow: [], processesMax: 16, heapMb: 64 },
    },
    db: bench.storage.db,
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  console.log(JSON.stringify({ port: typeof address === 'object' && address ? address.port : 0 }));
  process.on('SIGTERM', async () => {
    await app.close();
    await bench.cleanup();
    process.exit(0);
  });
}

async function main() {
  const child = spawn(process.execPath, ['--import', 'tsx', 'bench/integrations-health.ts'], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, BENCH_SANDBOX_SERVER: '1' },
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`bench server exited with ${code}`)));
  });
  const base = `http://127.0.0.1:${(JSON.parse(line) as { port: number }).port}`;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON answers of several shapes
  const call = async (method: string, p: string, body?: unknown): Promise<any> => {
    const res = await fetch(base + p, {
      method,
      headers: { authorization: `Bearer ${TOKEN}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    const text = await res.text();
    return { status: res.status, body: text ? (JSON.parse(text) as unknown) : undefined };
  };

  const sampleHealth = (ms: number) => sampleHealthUntil(base, new Promise((r) => setTimeout(r, ms)), SAMPLE_MS);

  try {
    const orgs = (await call('GET', '/v1/orgs')).body as { items: Array<{ id: string }> };
    const org = orgs.items[0]!.id;
    const space = (await call('POST', `/v1/orgs/${org}/spaces`, { title: 'Bench' })).body as { id: string };
    const published = await call('POST', '/v1/integrations/limits', {
      title: 'Limits',
      description: 'Loops, allocates, fetches loopback',
      scopes: [],
      script: SCRIPT,
      organization: org,
      visibility: 'private',
      blocks: [{ id: 'hello', title: 'Hello' }],
    });
    if (published.status !== 200) throw new Error(`publish: ${JSON.stringify(published.body)}`);
    const installed = (await call('POST', '/v1/integrations/limits/installations', { organization: org })).body as {
      id: string;
    };
    await call('POST', `/v1/integrations/limits/installations/${installed.id}/spaces`, { space: space.id });
    const render = (componentId: string) =>
      call('POST', '/v1/integrations/limits/render', {
        componentId,
        props: {},
        context: { type: 'document', spaceId: space.id, editable: false },
      });
    const warm = await render('hello');
    if (warm.status !== 200) throw new Error(`render: ${JSON.stringify(warm.body)}`);

    console.log('\nHealth while an integration misbehaves (GET /v1/health every 20 ms; goal: p99 under 50 ms)');
    const rows: Array<[string, number[], string]> = [];
    const idle = await sampleHealth(WINDOW_MS);
    rows.push(['idle', idle, '']);
    for (const kind of ['spin', 'allocate', 'fetch']) {
      // Renders of the misbehaving component back to back for the whole window, one after the other.
      let stop = false;
      const answers: number[] = [];
      const hammer = (async () => {
        while (!stop) answers.push((await render(kind)).status);
      })();
      const during = await sampleHealth(WINDOW_MS);
      stop = true;
      await hammer;
      const byStatus = [...new Set(answers)].map((s) => `${answers.filter((a) => a === s).length}× ${s}`).join(', ');
      rows.push([kind, during, `renders answered ${byStatus}`]);
    }
    for (const [name, times, note] of rows) {
      console.log(
        `  ${name.padEnd(9)} health median ${median(times).toFixed(1)} ms, p99 ${p99(times).toFixed(1)} ms ` +
          `(×${(p99(times) / p99(idle)).toFixed(2)} of idle) over ${times.length} samples${note ? `; ${note}` : ''}`,
      );
    }
    const after = await render('hello');
    console.log(`  then a render of the same integration: ${after.status}`);
  } finally {
    child.kill('SIGTERM');
    await exited;
  }
}
