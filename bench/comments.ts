// Comments benchmark (part of `npm run bench`): what the review screen's polling costs. The console polls an
// open change request's thread list (50 threads, with replies, reactions and anchors checked against the current
// content) every 3 seconds; the browser revalidates each poll with the ETag of the last answer, which is answered
// 304 while no one wrote to the threads. Measured side by side in one run: throughput of that poll (unchanged, with
// If-None-Match; and a full answer, without) against GET of the change request itself, and how many open review
// screens one process could serve at that rate. SQLite, in-process.
import autocannon from 'autocannon';
import { buildApp } from '../src/server/app.js';
import { benchDatabase, median } from './setup.js';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 3);
const POLL_SECONDS = 3;
const TOKEN = 'bench-comments-token-0123456789abcdefghijklmnop';

const { config, storage, owner, cleanup } = await benchDatabase(TOKEN);
const { app } = await buildApp({ config, db: storage.db });
await app.listen({ port: 0, host: '127.0.0.1' });
const address = app.server.address();
const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
const auth = { authorization: `Bearer ${TOKEN}` };

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON answers of several shapes
async function call(method: string, p: string, body?: unknown): Promise<any> {
  const res = await fetch(base + p, {
    method,
    headers: { ...auth, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const json: unknown = await res.json();
  if (!res.ok) throw new Error(`${method} ${p}: ${res.status} ${JSON.stringify(json)}`);
  return json;
}

/** Requests per second, every one answered with `status` (10 connections, SECONDS long). */
async function throughput(url: string, headers: Record<string, string> = {}, status = 200): Promise<number> {
  const result = await autocannon({ url, headers: { ...auth, ...headers }, connections: 10, duration: SECONDS });
  const codes = Object.entries(result.statusCodeStats ?? {});
  const others = codes.filter(([code]) => Number(code) !== status).reduce((n, [, s]) => n + (s?.count ?? 0), 0);
  if (others || result.errors || !codes.length) {
    throw new Error(`${url}: ${others} answers other than ${status}, ${result.errors} errors`);
  }
  return result.requests.average;
}

try {
  console.log('\nSeeding a change request with 20 pages and 200 comment threads…');
  const space = await call('POST', `/v1/orgs/${owner.organizationId}/spaces`, { title: 'Comments' });
  const cr = await call('POST', `/v1/spaces/${space.id}/change-requests`, { subject: 'Busy review' });
  const crBase = `/v1/spaces/${space.id}/change-requests/${cr.id}`;
  const made = await call('POST', `${crBase}/content?compat=false`, {
    changes: Array.from({ length: 20 }, (_, i) => ({
      operation: 'insert_page',
      title: `Page ${i}`,
      document: { markdown: Array.from({ length: 10 }, (_, b) => `Block ${b} of page ${i}.`).join('\n\n') },
    })),
  });
  const pages: Array<{ id: string; blocks: string[] }> = [];
  for (const change of made.changes as Array<{ page: { id: string } }>) {
    const page = await call('GET', `${crBase}/content/page/${change.page.id}`);
    pages.push({ id: change.page.id, blocks: page.document.nodes.map((n: { key: string }) => n.key) });
  }
  for (let i = 0; i < 200; i++) {
    const page = pages[i % pages.length]!;
    const comment = await call('POST', `${crBase}/comments`, {
      page: page.id,
      node: page.blocks[i % page.blocks.length],
      body: { markdown: `Comment ${i}: is this **right**?` },
    });
    if (i % 2) await call('POST', `${crBase}/comments/${comment.id}/replies`, { body: { markdown: 'Yes.' } });
    if (i % 3) await call('PUT', `${crBase}/comments/${comment.id}`, { addedReactions: ['👍'] });
  }

  const pollUrl = `${base}${crBase}/comments?limit=50`;
  const crUrl = `${base}${crBase}`;
  const etag = (await fetch(pollUrl, { headers: auth })).headers.get('etag');
  if (!etag) throw new Error('the thread list answered no ETag');
  const unchanged = { 'if-none-match': etag };
  await throughput(pollUrl, unchanged, 304); // warm-up
  await throughput(pollUrl);
  await throughput(crUrl);
  const poll: number[] = [];
  const full: number[] = [];
  const get: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    poll.push(await throughput(pollUrl, unchanged, 304));
    full.push(await throughput(pollUrl));
    get.push(await throughput(crUrl));
  }
  const ratio = median(poll) / median(get);
  const row = (label: string, xs: number[]) =>
    console.log(
      `  ${label.padEnd(44)} median ${median(xs).toFixed(0)} req/s   (${xs.map((x) => x.toFixed(0)).join(', ')})`,
    );
  console.log(`\nReview screen polling: ${ROUNDS} rounds of ${SECONDS}s, 10 connections, interleaved`);
  row('GET …/comments?limit=50, unchanged (304)', poll);
  row('GET …/comments?limit=50, full answer (200)', full);
  row('GET the change request', get);
  console.log(`  ratio unchanged poll/get ${ratio.toFixed(2)}   target ≥ 0.50   ${ratio >= 0.5 ? 'MET' : 'MISSED'}`);
  console.log(`  ratio full answer/get ${(median(full) / median(get)).toFixed(2)}`);
  console.log(
    `  one process serves about ${Math.floor(median(poll) * POLL_SECONDS)} open review screens polling every ${POLL_SECONDS}s` +
      ` while threads are quiet, ${Math.floor(median(full) * POLL_SECONDS)} if every poll found a change`,
  );
} finally {
  await app.close();
  await cleanup();
}
