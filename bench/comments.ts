// Comments benchmark (part of `npm run bench`): what the review screen's polling costs. The console polls an
// open change request's thread list (50 threads, with replies, reactions and anchors checked against the current
// content) every 3 seconds. Measured side by side in one run: throughput of that poll against GET of the change
// request itself, and how many open review screens one process could serve at that rate. SQLite, in-process.
import autocannon from 'autocannon';
import { buildApp } from '../src/server/app.js';
import { benchDatabase, median } from './setup.js';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 3);
const POLL_SECONDS = 3;
const TOKEN = 'bench-comments-token-0123456789abcdefghijklmnop';

const { config, storage, owner, cleanup } = await benchDatabase(TOKEN);
const app = await buildApp({ config, db: storage.db });
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

async function throughput(url: string): Promise<number> {
  const result = await autocannon({ url, headers: auth, connections: 10, duration: SECONDS });
  if (result.non2xx || result.errors) throw new Error(`${url}: ${result.non2xx} non-2xx, ${result.errors} errors`);
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
  await throughput(pollUrl); // warm-up
  await throughput(crUrl);
  const poll: number[] = [];
  const get: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    poll.push(await throughput(pollUrl));
    get.push(await throughput(crUrl));
  }
  const ratio = median(poll) / median(get);
  console.log(`\nReview screen polling: ${ROUNDS} rounds of ${SECONDS}s, 10 connections, interleaved`);
  console.log(
    `  GET …/comments?limit=50   median ${median(poll).toFixed(0)} req/s   (${poll.map((x) => x.toFixed(0)).join(', ')})`,
  );
  console.log(
    `  GET the change request    median ${median(get).toFixed(0)} req/s   (${get.map((x) => x.toFixed(0)).join(', ')})`,
  );
  console.log(`  ratio poll/get ${ratio.toFixed(2)}`);
  console.log(
    `  one process serves about ${Math.floor(median(poll) * POLL_SECONDS)} open review screens polling every ${POLL_SECONDS}s`,
  );
} finally {
  await app.close();
  await cleanup();
}
