// Merge benchmark (part of `npm run bench`): merging a change request that adds 10,000 pages (what an import of a
// large documentation set produces: 100 sections of 99 pages), on SQLite, and on PostgreSQL too when
// BENCH_DATABASE_URL is set (a fresh schema, dropped after). The space moved on since the change request started
// (another change request added a page), so the merge is three-way. While the merge runs, GET /v1/health is sent
// every 20 ms; its latency is compared with the same sampling at idle.
//
// BENCH_MERGE_PROFILE=DIR writes a CPU profile of each merge request there (see profileMerges).
//
// The server runs in a child process (this file with BENCH_MERGE_SERVER set), so the sampling client is never
// blocked by the server's work. The change request is built through the API, 50 operations per request.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import inspector from 'node:inspector';
import path from 'node:path';
import { createInterface } from 'node:readline';
import crypto from 'node:crypto';
import pg from 'pg';
import { buildApp } from '../src/server/app.js';
import { openStorage, migrate } from '../src/server/storage/db.js';
import { bootstrapOwner } from '../src/server/domain/auth/service.js';
import { CHANGES_MAX } from '../src/shared/contract/content.js';
import { benchDatabase, median, p99, sampleHealthUntil } from './setup.js';

const TOKEN = 'bench-merge-token-0123456789abcdefghijklmnopq';
const SECTIONS = Number(process.env.BENCH_SECTIONS ?? 100);
const PER_SECTION = Number(process.env.BENCH_PER_SECTION ?? 99);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const SAMPLE_MS = 20;
// A slow merge (minutes, before the fix) must be measured, not cut off by the server's request timeout.
const LONG = { requestTimeoutSeconds: 3600 };

if (process.env.BENCH_MERGE_SERVER) await serve(process.env.BENCH_MERGE_SERVER as 'sqlite' | 'postgres');
else await main();

/** Child process: the app over a fresh database; prints its port, serves until SIGTERM. */
async function serve(dialect: 'sqlite' | 'postgres') {
  let app: Awaited<ReturnType<typeof buildApp>>['app'];
  let cleanup: () => Promise<void>;
  if (dialect === 'sqlite') {
    const bench = await benchDatabase(TOKEN);
    ({ app } = await buildApp({ config: { ...bench.config, ...LONG }, db: bench.storage.db }));
    cleanup = bench.cleanup;
  } else {
    const url = process.env.BENCH_DATABASE_URL!;
    const schema = `bench_${crypto.randomBytes(6).toString('hex')}`;
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`create schema ${schema}`);
    await admin.end();
    const sqlite = await benchDatabase(TOKEN); // for its config; the database used is PostgreSQL
    await sqlite.cleanup();
    const config = { ...sqlite.config, ...LONG, storage: { kind: 'postgres' as const, url, schema } };
    const storage = openStorage(config.storage);
    await migrate(storage);
    await bootstrapOwner(storage.db, config);
    ({ app } = await buildApp({ config, db: storage.db }));
    cleanup = async () => {
      await storage.close();
      const c = new pg.Client({ connectionString: url });
      await c.connect();
      await c.query(`drop schema ${schema} cascade`);
      await c.end();
    };
  }
  if (process.env.BENCH_MERGE_PROFILE) profileMerges(app, process.env.BENCH_MERGE_PROFILE);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  console.log(JSON.stringify({ port: typeof address === 'object' && address ? address.port : 0 }));
  process.on('SIGTERM', async () => {
    await app.close();
    await cleanup();
    process.exit(0);
  });
}

/**
 * BENCH_MERGE_PROFILE=DIR: a CPU profile of each merge request (from its arrival to its answer), written to DIR as
 * merge-N.cpuprofile (open it in Chrome's DevTools), to find what a large merge spends its time on, and the event
 * loop's stalls over 30 ms meanwhile as merge-N.stalls.json ([end, length] in the profile's microseconds).
 */
function profileMerges(app: Awaited<ReturnType<typeof buildApp>>['app'], dir: string) {
  const session = new inspector.Session();
  session.connect();
  const post = (method: string, params?: object) =>
    new Promise<unknown>((resolve, reject) =>
      session.post(method, params, (err, result) => (err ? reject(err) : resolve(result))),
    );
  let n = 0;
  // Each stall of the event loop over 30 ms, as [end, length] in µs of the profile's clock (both are monotonic
  // microseconds), so that the samples taken during it can be told apart from busy stretches that did pause.
  let stalls: Array<[number, number]> = [];
  let last = 0;
  const now = () => Number(process.hrtime.bigint() / 1000n);
  const watch = setInterval(() => {
    const t = now();
    if (last && t - last > 35_000) stalls.push([t, t - last - 5_000]);
    last = t;
  }, 5);
  watch.unref();
  // The profiler runs from the start, so that starting it (hundreds of milliseconds) is not counted as a stall of
  // the merge; it restarts after each merge it writes.
  const start = async () => {
    await post('Profiler.enable');
    await post('Profiler.setSamplingInterval', { interval: 200 });
    await post('Profiler.start');
  };
  const started = start();
  app.addHook('onRequest', async (request) => {
    if (!request.url.endsWith('/merge')) return;
    await started;
    stalls = [];
  });
  app.addHook('onResponse', async (request) => {
    if (!request.url.endsWith('/merge')) return;
    const { profile } = (await post('Profiler.stop')) as { profile: unknown };
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, `merge-${++n}.cpuprofile`), JSON.stringify(profile));
    fs.writeFileSync(path.join(dir, `merge-${n}.stalls.json`), JSON.stringify(stalls));
    await start();
  });
}

async function main() {
  const dialects: Array<'sqlite' | 'postgres'> = process.env.BENCH_DATABASE_URL ? ['sqlite', 'postgres'] : ['sqlite'];
  const only = process.env.BENCH_DIALECT; // one of them only
  for (const dialect of dialects) if (!only || only === dialect) await runDialect(dialect);
}

async function runDialect(dialect: 'sqlite' | 'postgres') {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', ...(process.env.BENCH_NODE_ARGS?.split(' ') ?? []), 'bench/merge.ts'],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
      env: { ...process.env, BENCH_MERGE_SERVER: dialect },
    },
  );
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`bench server exited with ${code}`)));
  });
  const base = `http://127.0.0.1:${(JSON.parse(line) as { port: number }).port}`;

  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON answers of several shapes
  async function call(method: string, p: string, body?: unknown): Promise<any> {
    const res = await fetch(base + p, {
      method,
      headers: { authorization: `Bearer ${TOKEN}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    const json: unknown = await res.json();
    if (!res.ok) throw new Error(`${method} ${p}: ${res.status} ${JSON.stringify(json)}`);
    return json;
  }
  const edit = (spaceId: string, crId: string, changes: unknown[]) =>
    call('POST', `/v1/spaces/${spaceId}/change-requests/${crId}/content?compat=false`, { changes });

  const sampleHealth = (until: Promise<unknown>) => sampleHealthUntil(base, until, SAMPLE_MS);

  try {
    const me = await call('GET', '/v1/user');
    const orgs = await call('GET', '/v1/orgs');
    const org = (orgs.items?.[0]?.id ?? me.organizations?.[0]?.id) as string;
    const pages = SECTIONS * (PER_SECTION + 1);
    console.log(`\nMerge of a change request adding ${pages.toLocaleString('en')} pages [${dialect}]`);
    const merges: number[] = [];
    const idle: number[] = [];
    const during: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const space = await call('POST', `/v1/orgs/${org}/spaces`, { title: `Merge bench ${round}` });
      const big = await call('POST', `/v1/spaces/${space.id}/change-requests`, { subject: 'Import' });
      const small = await call('POST', `/v1/spaces/${space.id}/change-requests`, { subject: 'Meanwhile' });
      const seeded = performance.now();
      const sections: string[] = [];
      for (let s = 0; s < SECTIONS; s += CHANGES_MAX) {
        const batch = Array.from({ length: Math.min(CHANGES_MAX, SECTIONS - s) }, (_, i) => ({
          operation: 'insert_page',
          type: 'document',
          title: `Section ${s + i}`,
          document: { markdown: `# Section ${s + i}\n\nAbout this section.` },
        }));
        const res = await edit(space.id, big.id, batch);
        sections.push(...(res.changes as Array<{ page: { id: string } }>).map((c) => c.page.id));
      }
      const children = sections.flatMap((into, s) =>
        Array.from({ length: PER_SECTION }, (_, i) => ({
          operation: 'insert_page',
          type: 'document',
          into,
          title: `Page ${s}.${i}`,
          document: { markdown: `# Page ${s}.${i}\n\nFirst paragraph of page ${i}.\n\n- a list\n- of items` },
        })),
      );
      for (let i = 0; i < children.length; i += CHANGES_MAX)
        await edit(space.id, big.id, children.slice(i, i + CHANGES_MAX));
      // The space moves on meanwhile: the merge is three-way.
      await edit(space.id, small.id, [{ operation: 'insert_page', type: 'document', title: 'Meanwhile' }]);
      await call('POST', `/v1/spaces/${space.id}/change-requests/${small.id}/merge`);
      const seedSeconds = (performance.now() - seeded) / 1000;

      idle.push(...(await sampleHealth(new Promise((r) => setTimeout(r, 2000)))));
      const t = performance.now();
      const merge = call('POST', `/v1/spaces/${space.id}/change-requests/${big.id}/merge`).then(
        () => performance.now() - t,
      );
      const samples = await sampleHealth(merge);
      const ms = await merge;
      merges.push(ms);
      during.push(...samples);

      // The result is complete: every page of the import is in the space.
      const content = await call('GET', `/v1/spaces/${space.id}/content`);
      const count = (nodes: Array<{ pages?: unknown[] }>): number =>
        nodes.reduce((n, node) => n + 1 + count((node.pages ?? []) as Array<{ pages?: unknown[] }>), 0);
      const total = count(content.pages);
      if (total !== pages + 1) throw new Error(`the space holds ${total} pages, expected ${pages + 1}`);
      console.log(
        `  round ${round + 1}: seeded in ${seedSeconds.toFixed(1)}s, merge ${(ms / 1000).toFixed(2)}s, health during merge max ${Math.max(...samples).toFixed(0)} ms p99 ${p99(samples).toFixed(0)} ms (${samples.length} samples)`,
      );
    }
    console.log(
      `  merge median ${(median(merges) / 1000).toFixed(2)} s   target ≤ 5 s   ${median(merges) <= 5000 ? 'MET' : 'MISSED'}`,
    );
    console.log(
      `  /v1/health idle:         median ${median(idle).toFixed(1)} ms, p99 ${p99(idle).toFixed(1)} ms, max ${Math.max(...idle).toFixed(1)} ms`,
    );
    console.log(
      `  /v1/health during merge: median ${median(during).toFixed(1)} ms, p99 ${p99(during).toFixed(1)} ms, max ${Math.max(...during).toFixed(1)} ms`,
    );
  } finally {
    child.kill('SIGTERM');
    await exited;
  }
}
