// Page-tree benchmark (part of `npm run bench`): `GET /v1/spaces/{id}/content/pages` of a 100,000-page space
// (1,000 sections of 99 pages), on SQLite, and on PostgreSQL too when BENCH_DATABASE_URL is set (a fresh schema,
// dropped after). Each round gives the space a new revision (a change request renaming one page, merged), then
// measures side by side: the first request for that revision (built), the same again (cached), with
// `If-None-Match` (304), the size of the answer raw and gzipped, and GET /v1/health latency while the first
// request is built against the same sampling at idle, and the server's resident memory (Linux) before and at most
// during that first request.
//
// The server runs in a child process (this file with BENCH_PAGES_SERVER set), so the sampling client is never
// blocked by the server's work. The 100,000 pages are written straight into the database (one revision built with
// the content model's writer), not through the API: seeding takes seconds, not an hour.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import zlib from 'node:zlib';
import { createInterface } from 'node:readline';
import crypto from 'node:crypto';
import pg from 'pg';
import { buildApp } from '../src/server/app.js';
import { openStorage, migrate, type Db } from '../src/server/storage/db.js';
import { bootstrapOwner } from '../src/server/domain/auth/service.js';
import { benchDatabase, median, p99, sampleHealthUntil, seedPages } from './setup.js';

const TOKEN = 'bench-pages-token-0123456789abcdefghijklmnopq';
const SECTIONS = Number(process.env.BENCH_SECTIONS ?? 1000);
const PER_SECTION = Number(process.env.BENCH_PER_SECTION ?? 99);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
/** Cached and 304 requests per round. */
const REPEATS = Number(process.env.BENCH_REPEATS ?? 5);
const SAMPLE_MS = 20;
// A slow first build (seconds, before the cache) must be measured, not cut off by the server's request timeout.
const LONG = { requestTimeoutSeconds: 3600 };

if (process.env.BENCH_PAGES_SERVER) await serve(process.env.BENCH_PAGES_SERVER as 'sqlite' | 'postgres');
else await main();

/** Child process: the app over a fresh database with one seeded space; prints its port and ids, serves until SIGTERM. */
async function serve(dialect: 'sqlite' | 'postgres') {
  let db: Db;
  let config: Awaited<ReturnType<typeof benchDatabase>>['config'];
  let cleanup: () => Promise<void>;
  if (dialect === 'sqlite') {
    const bench = await benchDatabase(TOKEN);
    config = { ...bench.config, ...LONG };
    db = bench.storage.db;
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
    config = { ...sqlite.config, ...LONG, storage: { kind: 'postgres' as const, url, schema } };
    const storage = openStorage(config.storage);
    await migrate(storage);
    await bootstrapOwner(storage.db, config);
    db = storage.db;
    cleanup = async () => {
      await storage.close();
      const c = new pg.Client({ connectionString: url });
      await c.connect();
      await c.query(`drop schema ${schema} cascade`);
      await c.end();
    };
  }
  const { app } = await buildApp({ config, db });
  const auth = { authorization: `Bearer ${TOKEN}` };
  const orgs = (await app.inject({ method: 'GET', url: '/v1/orgs', headers: auth })).json<{
    items: [{ id: string }];
  }>();
  const created = await app.inject({
    method: 'POST',
    url: `/v1/orgs/${orgs.items[0].id}/spaces`,
    headers: auth,
    payload: { title: 'Pages bench' },
  });
  const spaceId = created.json<{ id: string }>().id;
  const userId = (await db.selectFrom('users').select('id').executeTakeFirstOrThrow()).id;
  const t = performance.now();
  await seedPages(db, spaceId, userId, SECTIONS, PER_SECTION);
  const seedSeconds = (performance.now() - t) / 1000;
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  console.log(
    JSON.stringify({ port: typeof address === 'object' && address ? address.port : 0, spaceId, seedSeconds }),
  );
  process.on('SIGTERM', async () => {
    await app.close();
    await cleanup();
    process.exit(0);
  });
}

async function main() {
  const dialects: Array<'sqlite' | 'postgres'> = process.env.BENCH_DATABASE_URL ? ['sqlite', 'postgres'] : ['sqlite'];
  const only = process.env.BENCH_DIALECT; // one of them only
  for (const dialect of dialects) if (!only || only === dialect) await runDialect(dialect);
}

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
  ms: number;
}

async function runDialect(dialect: 'sqlite' | 'postgres') {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', ...(process.env.BENCH_NODE_ARGS?.split(' ') ?? []), 'bench/pages.ts'],
    { stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, BENCH_PAGES_SERVER: dialect } },
  );
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const line = await new Promise<string>((resolve, reject) => {
    // The first line that is JSON (with BENCH_NODE_ARGS=--trace-gc, say, the server prints other lines too).
    const lines = createInterface({ input: child.stdout! });
    lines.on('line', (l) => {
      if (l.startsWith('{')) resolve(l);
      else if (process.env.BENCH_ECHO) console.log(l);
    });
    child.once('exit', (code) => reject(new Error(`bench server exited with ${code}`)));
  });
  const started = JSON.parse(line) as { port: number; spaceId: string; seedSeconds: number };
  const base = `http://127.0.0.1:${started.port}`;
  const spaceId = started.spaceId;
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

  /** One request, its raw (undecoded) body and how long until its last byte, in ms. */
  function get(p: string, headers: Record<string, string> = {}): Promise<Answer> {
    const t = performance.now();
    return new Promise((resolve, reject) => {
      http
        .get(`${base}${p}`, { agent, headers: { authorization: `Bearer ${TOKEN}`, ...headers } }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.once('end', () =>
            resolve({
              status: res.statusCode!,
              headers: res.headers,
              body: Buffer.concat(chunks),
              ms: performance.now() - t,
            }),
          );
        })
        .once('error', reject);
    });
  }
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

  const sampleHealth = (until: Promise<unknown>) => sampleHealthUntil(base, until, SAMPLE_MS);
  /** The server's resident memory in MB (Linux), or NaN. */
  const rssMb = () => {
    try {
      const kb = /VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${child.pid}/status`, 'utf8'))?.[1];
      return kb ? Number(kb) / 1024 : NaN;
    } catch {
      return NaN;
    }
  };
  /** The highest resident memory seen every SAMPLE_MS until `until` settles. */
  async function peakRss(until: Promise<unknown>): Promise<number> {
    let done = false;
    void until.finally(() => (done = true));
    let peak = rssMb();
    while (!done) {
      await new Promise((r) => setTimeout(r, SAMPLE_MS));
      peak = Math.max(peak, rssMb());
    }
    return peak;
  }
  const count = (nodes: Array<{ pages?: unknown[] }>): number =>
    nodes.reduce((n, node) => n + 1 + count((node.pages ?? []) as Array<{ pages?: unknown[] }>), 0);
  const pagesPath = `/v1/spaces/${spaceId}/content/pages`;
  const expected = SECTIONS * (PER_SECTION + 1);

  try {
    console.log(
      `\nGET …/content/pages of a ${expected.toLocaleString('en')}-page space [${dialect}] (seeded in ${started.seedSeconds.toFixed(1)} s)`,
    );
    const first: number[] = [];
    const cached: number[] = [];
    const cachedGzip: number[] = [];
    const notModified: number[] = [];
    const raw: number[] = [];
    const gzipped: number[] = [];
    const idle: number[] = [];
    const during: number[] = [];
    const rssBefore: number[] = [];
    const rssPeak: number[] = [];
    const firstPage = (await call('GET', `${pagesPath}`)).pages[0].pages[0].id as string;
    for (let round = 0; round < ROUNDS; round++) {
      // A new revision: a change request renames one page, merged.
      const cr = await call('POST', `/v1/spaces/${spaceId}/change-requests`, { subject: `Round ${round}` });
      await call('POST', `/v1/spaces/${spaceId}/change-requests/${cr.id}/content?compat=false`, {
        changes: [{ operation: 'update_page', page: firstPage, title: `Renamed in round ${round}` }],
      });
      await call('POST', `/v1/spaces/${spaceId}/change-requests/${cr.id}/merge`);

      idle.push(...(await sampleHealth(new Promise((r) => setTimeout(r, 2000)))));
      // The first request of the revision, as a browser asks (gzip accepted).
      rssBefore.push(rssMb());
      const built = get(pagesPath, { 'accept-encoding': 'gzip' });
      const [samples, peak] = await Promise.all([sampleHealth(built), peakRss(built)]);
      rssPeak.push(peak);
      const a = await built;
      if (a.status !== 200) throw new Error(`first request: ${a.status} ${a.body.toString()}`);
      first.push(a.ms);
      during.push(...samples);

      const plain: Answer[] = [];
      const zipped: Answer[] = [];
      const revalidated: Answer[] = [];
      for (let i = 0; i < REPEATS; i++) {
        plain.push(await get(pagesPath));
        zipped.push(await get(pagesPath, { 'accept-encoding': 'gzip' }));
        const etag = zipped[zipped.length - 1]!.headers.etag;
        if (etag) revalidated.push(await get(pagesPath, { 'accept-encoding': 'gzip', 'if-none-match': etag }));
      }
      cached.push(median(plain.map((x) => x.ms)));
      cachedGzip.push(median(zipped.map((x) => x.ms)));
      if (revalidated.length) notModified.push(median(revalidated.map((x) => x.ms)));
      if (revalidated.some((x) => x.status !== 304 || x.body.length))
        throw new Error('If-None-Match did not answer 304');

      // The answers are complete and alike, whatever the encoding.
      const body = plain[0]!.body;
      const zip = zipped[0]!;
      const decoded = zip.headers['content-encoding'] === 'gzip' ? zlib.gunzipSync(zip.body) : zip.body;
      if (!decoded.equals(body)) throw new Error('the gzipped answer differs from the plain one');
      const total = count((JSON.parse(body.toString()) as { pages: Array<{ pages?: unknown[] }> }).pages);
      if (total !== expected) throw new Error(`the answer holds ${total} pages, expected ${expected}`);
      raw.push(body.length);
      gzipped.push(zip.headers['content-encoding'] === 'gzip' ? zip.body.length : zlib.gzipSync(body).length);
      console.log(
        `  round ${round + 1}: first ${a.ms.toFixed(0)} ms, cached ${cached[round]!.toFixed(1)} ms (gzip ${cachedGzip[round]!.toFixed(1)} ms)` +
          `${revalidated.length ? `, 304 ${notModified[round]!.toFixed(1)} ms` : ', no ETag'}` +
          `, health during first max ${Math.max(...samples).toFixed(0)} ms p99 ${p99(samples).toFixed(0)} ms (${samples.length} samples)` +
          `, RSS ${rssBefore[round]!.toFixed(0)} → peak ${peak.toFixed(0)} MB`,
      );
    }
    const mb = (n: number) => `${(n / 1e6).toFixed(1)} MB`;
    console.log(`  first request (built):    median ${median(first).toFixed(0)} ms`);
    console.log(`  cached, identity:         median ${median(cached).toFixed(1)} ms`);
    console.log(`  cached, gzip:             median ${median(cachedGzip).toFixed(1)} ms`);
    console.log(
      `  If-None-Match (304):      ${notModified.length ? `median ${median(notModified).toFixed(1)} ms` : 'no ETag'}`,
    );
    console.log(
      `  size: raw ${mb(median(raw))}, gzipped ${mb(median(gzipped))} (${((median(gzipped) / median(raw)) * 100).toFixed(1)} %)`,
    );
    console.log(
      `  server RSS:               before the first request ${median(rssBefore).toFixed(0)} MB, peak during it ${median(rssPeak).toFixed(0)} MB (+${median(rssPeak.map((p, i) => p - rssBefore[i]!)).toFixed(0)} MB)`,
    );
    console.log(
      `  /v1/health idle:          median ${median(idle).toFixed(1)} ms, p99 ${p99(idle).toFixed(1)} ms, max ${Math.max(...idle).toFixed(1)} ms`,
    );
    console.log(
      `  /v1/health during first:  median ${median(during).toFixed(1)} ms, p99 ${p99(during).toFixed(1)} ms, max ${Math.max(...during).toFixed(1)} ms`,
    );
  } finally {
    agent.destroy();
    child.kill('SIGTERM');
    await exited;
  }
}
