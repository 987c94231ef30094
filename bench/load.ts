// Mixed-load benchmark (part of `npm run bench`): 200 connections for 60 s against the server in a child process
// (bench/stall-server.ts, the app as `npm start` runs it), on SQLite, and on PostgreSQL too when
// BENCH_DATABASE_URL is set. Each connection loops over a mix of what people do at once: reading a page's content,
// the page tree, change requests, a published page, a search (70 %), and opening a change request and editing a
// page, commenting, merging (30 %). The connections are opened before the clock starts (a steady load). Printed per
// kind of request: count, p50, p99 and max latency; how many took over 2 s and over 10 s; GET /v1/health sampled
// meanwhile; failures by status (a merge may meet a conflict: 409, what a user is shown too). Goal (issue 25): no
// request over 2 s (on SQLite, 56 to 582 per run waited over 10 s).
import { serverEnv, serverNodeArgs } from '../scripts/server-node-args.mjs';
import http from 'node:http';
import { Agent, request } from 'undici';
import { startStallServer } from './setup.js';

const SECONDS = Number(process.env.BENCH_LOAD_SECONDS ?? 60);
const CONNECTIONS = Number(process.env.BENCH_LOAD_CONNECTIONS ?? 200);
const SPACES = 8;

const dialects: Array<'sqlite' | 'postgres'> = process.env.BENCH_DATABASE_URL ? ['sqlite', 'postgres'] : ['sqlite'];
for (const dialect of dialects) {
  if (!process.env.BENCH_DIALECT || process.env.BENCH_DIALECT === dialect) await run(dialect);
}

async function run(dialect: 'sqlite' | 'postgres') {
  // With the options npm start gives node, unless BENCH_NODE_ARGS says others.
  const { child, started, base } = await startStallServer(process.env.BENCH_NODE_ARGS?.split(' ') ?? serverNodeArgs(), {
    ...serverEnv(),
    BENCH_SERVER_DIALECT: dialect,
  });
  const agent = new http.Agent({ keepAlive: true, maxSockets: CONNECTIONS });
  const auth = { authorization: `Bearer ${started.token}` };

  async function call(method: string, p: string, body?: unknown): Promise<{ status: number; json: unknown }> {
    const data = body ? JSON.stringify(body) : undefined;
    return new Promise((resolve, reject) => {
      const req = http.request(
        base + p,
        {
          method,
          agent,
          headers: {
            ...auth,
            ...(data ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(data) } : {}),
          },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => {
            const text = Buffer.concat(chunks).toString();
            resolve({ status: res.statusCode!, json: text.startsWith('{') ? JSON.parse(text) : undefined });
          });
          res.on('error', reject);
        },
      );
      req.on('error', reject);
      req.end(data);
    });
  }
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON answers of several shapes
  const ok = async (method: string, p: string, body?: unknown): Promise<any> => {
    const res = await call(method, p, body);
    if (res.status >= 300) throw new Error(`${method} ${p}: ${res.status} ${JSON.stringify(res.json)}`);
    return res.json;
  };

  // Seeding: spaces of 30 pages each, published on one site, with a change request per space to comment on.
  const spaces: Array<{ id: string; pages: string[]; cr: string }> = [];
  for (let s = 0; s < SPACES; s++) {
    const space = await ok('POST', `/v1/orgs/${started.org}/spaces`, { title: `Load ${s}` });
    const cr = await ok('POST', `/v1/spaces/${space.id}/change-requests`, { subject: 'Seed' });
    const made = await ok('POST', `/v1/spaces/${space.id}/change-requests/${cr.id}/content?compat=false`, {
      changes: Array.from({ length: 30 }, (_, i) => ({
        operation: 'insert_page',
        title: `Page ${s}.${i}`,
        document: { markdown: `## Part\n\nSome words about topic ${i} of space ${s}: install, configure, deploy.` },
      })),
    });
    await ok('POST', `/v1/spaces/${space.id}/change-requests/${cr.id}/merge`);
    const open = await ok('POST', `/v1/spaces/${space.id}/change-requests`, { subject: 'Discussion' });
    spaces.push({ id: space.id, pages: made.changes.map((c: { page: { id: string } }) => c.page.id), cr: open.id });
  }
  const site = await ok('POST', `/v1/orgs/${started.org}/sites`, {
    title: 'Load site',
    visibility: 'public',
    spaces: spaces.map((s) => s.id),
  });
  const published = (await ok('POST', `/v1/orgs/${started.org}/sites/${site.id}/publish`)).urls.published as string;
  const siteRoot = new URL(published).pathname;

  const latencies = new Map<string, number[]>();
  let failures = 0;
  const statuses = new Map<string, number>();
  const slowest: Array<{ name: string; ms: number; at: number }> = [];
  let begun = performance.now();
  /** One request, timed under `name`; its answer (a failure is counted, by kind and status). */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON answers of several shapes
  async function timed(name: string, method: string, p: string, body?: unknown): Promise<any> {
    const t = performance.now();
    let status = 0;
    let json: unknown;
    try {
      ({ status, json } = await call(method, p, body));
    } catch (err) {
      statuses.set(
        `${name} ${String(err).slice(0, 60)}`,
        (statuses.get(`${name} ${String(err).slice(0, 60)}`) ?? 0) + 1,
      );
    }
    const ms = performance.now() - t;
    let list = latencies.get(name);
    if (!list) latencies.set(name, (list = []));
    list.push(ms);
    if (ms > 2000) slowest.push({ name, ms, at: (t - begun) / 1000 });
    if (status >= 400 || status === 0) {
      failures++;
      if (status) statuses.set(`${name} ${status}`, (statuses.get(`${name} ${status}`) ?? 0) + 1);
      return undefined;
    }
    return json;
  }
  const pick = <T>(xs: T[]) => xs[Math.floor(Math.random() * xs.length)]!;
  const edit = (s: (typeof spaces)[number], cr: string, name: string) =>
    timed(name, 'POST', `/v1/spaces/${s.id}/change-requests/${cr}/content?compat=false`, {
      changes: [{ operation: 'update_page', page: pick(s.pages), document: { markdown: `Edited ${Math.random()}.` } }],
    });
  const actions: Array<[number, () => Promise<unknown>]> = [
    [
      20,
      () => {
        const s = pick(spaces);
        return timed('read page content', 'GET', `/v1/spaces/${s.id}/content/page/${pick(s.pages)}`);
      },
    ],
    [15, () => timed('read page tree', 'GET', `/v1/spaces/${pick(spaces).id}/content/pages`)],
    [10, () => timed('list change requests', 'GET', `/v1/spaces/${pick(spaces).id}/change-requests`)],
    [15, () => timed('published page', 'GET', `${siteRoot}/load-${Math.floor(Math.random() * SPACES)}`)],
    [10, () => timed('search', 'GET', `/v1/orgs/${started.org}/search?query=${pick(['install', 'deploy', 'topic'])}`)],
    [
      15,
      async () => {
        const s = pick(spaces);
        const cr = await timed('open change request', 'POST', `/v1/spaces/${s.id}/change-requests`, {
          subject: 'Edit',
        });
        if (cr) await edit(s, cr.id, 'edit a page');
      },
    ],
    [
      10,
      () => {
        const s = pick(spaces);
        return timed('comment', 'POST', `/v1/spaces/${s.id}/change-requests/${s.cr}/comments`, {
          body: { markdown: `A remark ${Math.random()}` },
        });
      },
    ],
    [
      5,
      async () => {
        const s = pick(spaces);
        const cr = await timed('open change request', 'POST', `/v1/spaces/${s.id}/change-requests`, {
          subject: 'Merge',
        });
        if (!cr || !(await edit(s, cr.id, 'edit a page'))) return;
        await timed('merge', 'POST', `/v1/spaces/${s.id}/change-requests/${cr.id}/merge`);
      },
    ],
  ];
  const weights = actions.reduce((sum, [w]) => sum + w, 0);
  const choose = () => {
    let r = Math.random() * weights;
    for (const action of actions) if ((r -= action[0]) < 0) return action[1];
    return actions[0]![1];
  };

  // Every connection is opened first (a request each), then the clock starts: the figures are of a steady load, not of
  // 200 connections opened at once.
  await Promise.all(Array.from({ length: CONNECTIONS }, () => ok('GET', '/v1/user')));
  const deadline = Date.now() + SECONDS * 1000;
  begun = performance.now();
  // GET /v1/health (never queued for admission) every 100 ms on a connection of its own: the event loop's delays.
  const healthAgent = new Agent({ connections: 1 });
  const health: Array<{ ms: number; at: number }> = [];
  const sampler = (async () => {
    while (Date.now() < deadline) {
      const t = performance.now();
      const res = await request(`${base}/v1/health`, { dispatcher: healthAgent });
      await res.body.text();
      health.push({ ms: performance.now() - t, at: (t - begun) / 1000 });
      await new Promise((r) => setTimeout(r, 100));
    }
  })();
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      while (Date.now() < deadline) await choose()();
    }),
  );
  await sampler;
  child.kill('SIGTERM');
  agent.destroy();
  await healthAgent.close();

  const q = (xs: number[], p: number) => xs[Math.min(xs.length - 1, Math.floor(p * xs.length))]!;
  const all = [...latencies.values()].flat().sort((a, b) => a - b);
  console.log(
    `\nMixed load on ${dialect}: ${CONNECTIONS} connections for ${SECONDS} s (${(all.length / SECONDS).toFixed(0)} requests/s, ${failures} failed)`,
  );
  for (const [name, xs] of [...latencies].sort()) {
    xs.sort((a, b) => a - b);
    console.log(
      `  ${name.padEnd(22)} ${String(xs.length).padStart(6)}   p50 ${q(xs, 0.5).toFixed(0).padStart(5)} ms   p99 ${q(xs, 0.99).toFixed(0).padStart(5)} ms   max ${q(xs, 1).toFixed(0).padStart(6)} ms`,
    );
  }
  const over = (ms: number) => all.filter((x) => x > ms).length;
  const worst = [...health].sort((a, b) => b.ms - a.ms).slice(0, 3);
  console.log(
    `  health while loaded: ${health.length} samples, max ${worst[0]?.ms.toFixed(0)} ms (${worst.map((h) => `${h.ms.toFixed(0)} ms at ${h.at.toFixed(1)} s`).join(', ')})`,
  );
  if (statuses.size) console.log(`  failed: ${[...statuses].map(([k, n]) => `${k} ×${n}`).join(', ')}`);
  if (slowest.length) {
    slowest.sort((a, b) => b.ms - a.ms);
    console.log(
      `  slowest: ${slowest
        .slice(0, 8)
        .map((x) => `${x.name} ${x.ms.toFixed(0)} ms (started at ${x.at.toFixed(1)} s)`)
        .join('; ')}`,
    );
  }
  console.log(
    `  all                    ${String(all.length).padStart(6)}   p50 ${q(all, 0.5).toFixed(0).padStart(5)} ms   p99 ${q(all, 0.99).toFixed(0).padStart(5)} ms   max ${q(all, 1).toFixed(0).padStart(6)} ms; over 2 s: ${over(2000)}, over 10 s: ${over(10_000)} (goal: none over 2 s)`,
  );
}
