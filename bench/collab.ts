// Live collaboration benchmark (part of `npm run bench`; issue 28), on the compiled server as `npm start` runs it, in
// a process of its own (so that its memory is the server's alone), over loopback:
// - convergence: a paragraph typed by one editor until it is in another editor's document (median and p95 of ROUNDS),
//   two editors on one page of 84 KB (fastify's docs/Reference/Server.md, real documentation);
// - memory per open document: the server's resident set size with DOCS such pages open (one editor each), less
//   before, per document;
// - the page written: from an editor's last keystroke until the change request's page holds it (median of WRITES;
//   the server waits for a second without typing, then writes in the worker pool).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildServer } from '../scripts/build-server.mjs';
import { serverEnv, serverNodeArgs } from '../scripts/server-node-args.mjs';
import { collabClient, type CollabClient } from '../src/server/test/collab-client.js';
import { BENCH_ADMIN, freePort, jsonCaller, median } from './setup.js';

const TOKEN = 'bench-collab-token-0123456789abcdefghijklmnopqr';
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 40);
// Two editors on the first page and one on each other: 20 connections, the most one person may open on a process.
const DOCS = Number(process.env.BENCH_DOCS ?? 19);
const WRITES = Number(process.env.BENCH_WRITES ?? 5);
const markdown = fs.readFileSync(path.join('node_modules', 'fastify', 'docs', 'Reference', 'Server.md'), 'utf8');

const percentile = (values: number[], p: number) =>
  [...values].sort((a, b) => a - b)[Math.ceil((values.length * p) / 100) - 1]!;
const rss = (pid: number) =>
  Number(/^VmRSS:\s+(\d+) kB/m.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) * 1024;

const cache = path.resolve('node_modules/.cache');
fs.mkdirSync(cache, { recursive: true });
const built = fs.mkdtempSync(path.join(cache, 'ds-bench-collab-'));
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ds-bench-collab-'));
await buildServer(built);
const port = await freePort();
const child = spawn(process.execPath, [...serverNodeArgs(), path.join(built, 'server/main.js')], {
  env: {
    PATH: process.env.PATH,
    ...serverEnv(),
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    ADMIN_EMAIL: BENCH_ADMIN.email,
    ADMIN_PASSWORD: BENCH_ADMIN.password,
    ADMIN_TOKEN: TOKEN,
    LOG_LEVEL: 'warn',
  },
  stdio: ['ignore', 'ignore', 'inherit'],
});
const base = `http://127.0.0.1:${port}`;
const clients: CollabClient[] = [];
try {
  for (let ready = false; !ready;) {
    ready = await fetch(`${base}/v1/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (!ready) await new Promise((resolve) => setTimeout(resolve, 200));
  }
  const call = jsonCaller(base, TOKEN);
  const orgs = await call('GET', '/v1/orgs');
  const space = await call('POST', `/v1/orgs/${orgs.items[0].id}/spaces`, { title: 'Reference' });
  const seed = await call('POST', `/v1/spaces/${space.id}/change-requests`, { subject: 'Seed' });
  const made = await call('POST', `/v1/spaces/${space.id}/change-requests/${seed.id}/content?compat=false`, {
    changes: Array.from({ length: DOCS }, (_, i) => ({
      operation: 'insert_page',
      title: `Server ${i + 1}`,
      document: { markdown },
    })),
  });
  await call('POST', `/v1/spaces/${space.id}/change-requests/${seed.id}/merge`);
  const pageIds = (made.changes as Array<{ page: { id: string } }>).map((c) => c.page.id);
  const cr = await call('POST', `/v1/spaces/${space.id}/change-requests`, { subject: 'Edit' });
  const target = (pageId: string) => ({ spaceId: space.id as string, number: cr.number as number, pageId });
  const open = async (pageId: string) => {
    const client = collabClient(base, target(pageId), TOKEN);
    clients.push(client);
    await client.ready;
    return client;
  };

  // Convergence, two editors on the first page.
  const [a, b] = [await open(pageIds[0]!), await open(pageIds[0]!)];
  const converge: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    const text = `Round ${i} ${Math.random().toString(36).slice(2)}`;
    const t = performance.now();
    a.append(text);
    await b.until((m) => m.includes(text), 10_000);
    converge.push(performance.now() - t);
  }

  // The page written after typing stops.
  const written: number[] = [];
  for (let i = 0; i < WRITES; i++) {
    const text = `Written ${i} ${Math.random().toString(36).slice(2)}`;
    const t = performance.now();
    a.append(text);
    await a.saved();
    for (;;) {
      const page = await call(
        'GET',
        `/v1/spaces/${space.id}/change-requests/${cr.id}/content/page/${pageIds[0]}?format=markdown`,
      );
      if (String(page.markdown).includes(text)) break;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    written.push(performance.now() - t);
  }

  // Memory per open document: the other pages opened, one editor each.
  await new Promise((resolve) => setTimeout(resolve, 2000));
  const before = rss(child.pid!);
  for (const pageId of pageIds.slice(1)) await open(pageId);
  await new Promise((resolve) => setTimeout(resolve, 2000));
  const perDocument = (rss(child.pid!) - before) / (DOCS - 1);

  console.log(
    `Live collaboration: pages of ${(markdown.length / 1024).toFixed(0)} KB (fastify docs/Reference/Server.md), compiled server, loopback`,
  );
  console.log(
    `  convergence of two editors: median ${median(converge).toFixed(1)} ms, p95 ${percentile(converge, 95).toFixed(1)} ms (${ROUNDS} paragraphs)`,
  );
  console.log(
    `  page written after typing stops: median ${median(written).toFixed(0)} ms (${WRITES} times; 1 s pause included)`,
  );
  console.log(
    `  server memory per open document: ${(perDocument / 1024 / 1024).toFixed(2)} MiB RSS (${DOCS - 1} more documents open)`,
  );
} finally {
  for (const c of clients) c.destroy();
  child.kill('SIGTERM');
  await new Promise((resolve) => child.once('exit', resolve));
  fs.rmSync(built, { recursive: true, force: true });
  fs.rmSync(dataDir, { recursive: true, force: true });
}
