// Content benchmark (part of `npm run bench`): the cost of a change request (create, edit 10 pages, merge) in
// a 10,000-page space against the same in a 100-page space, measured interleaved in one run, and the median
// latency of reading one page of the large space. SQLite, in-process server, sequential requests.
import { buildApp } from '../src/server/app.js';
import { benchDatabase, median } from './setup.js';

const ROUNDS = Number(process.env.BENCH_CONTENT_ROUNDS ?? 15);
const TOKEN = 'bench-content-token-0123456789abcdefghijklmnop';

const { config, storage, owner, cleanup } = await benchDatabase(TOKEN);
const { app } = await buildApp({ config, db: storage.db });
await app.listen({ port: 0, host: '127.0.0.1' });
const address = app.server.address();
const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;

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

const paragraph = (i: number) => `Paragraph ${i} of this page, with enough words to look like documentation text.`;
const body = (n: number) => ['# Title', ...Array.from({ length: 5 }, (_, i) => paragraph(i + n))].join('\n\n');

/** A space with `tops` top-level pages of `children` subpages each, built through change requests. */
async function seed(tops: number, children: number): Promise<{ spaceId: string; pages: string[] }> {
  const space = await call('POST', `/v1/orgs/${owner.organizationId}/spaces`, {
    title: `${tops * (children + 1)} pages`,
  });
  const cr = await call('POST', `/v1/spaces/${space.id}/change-requests`, { subject: 'Seed' });
  const pages: string[] = [];
  for (let t = 0; t < tops; t++) {
    const top = await call('POST', `/v1/spaces/${space.id}/change-requests/${cr.id}/content?compat=false`, {
      changes: [{ operation: 'insert_page', title: `Section ${t}`, document: { markdown: body(t) } }],
    });
    const topId = top.changes[0].page.id as string;
    pages.push(topId);
    for (let c = 0; c < children; c += 50) {
      const batch = Array.from({ length: Math.min(50, children - c) }, (_, k) => ({
        operation: 'insert_page',
        title: `Page ${t}.${c + k}`,
        into: topId,
        document: { markdown: body(c + k) },
      }));
      const made = await call('POST', `/v1/spaces/${space.id}/change-requests/${cr.id}/content?compat=false`, {
        changes: batch,
      });
      pages.push(...made.changes.map((ch: { page: { id: string } }) => ch.page.id));
    }
  }
  await call('POST', `/v1/spaces/${space.id}/change-requests/${cr.id}/merge`);
  return { spaceId: space.id, pages };
}

/** Create a change request, edit 10 pages spread over the space, merge it: milliseconds. */
async function cycle(space: { spaceId: string; pages: string[] }, round: number): Promise<number> {
  const started = performance.now();
  const cr = await call('POST', `/v1/spaces/${space.spaceId}/change-requests`, { subject: `Round ${round}` });
  const step = Math.floor(space.pages.length / 10);
  const changes = Array.from({ length: 10 }, (_, k) => ({
    operation: 'update_page',
    page: space.pages[(k * step + round) % space.pages.length],
    document: { markdown: body(round * 10 + k) + `\n\nEdited in round ${round}.` },
  }));
  await call('POST', `/v1/spaces/${space.spaceId}/change-requests/${cr.id}/content`, { changes });
  await call('POST', `/v1/spaces/${space.spaceId}/change-requests/${cr.id}/merge`);
  return performance.now() - started;
}

console.log('\nSeeding a 100-page and a 10,000-page space through the API…');
const small = await seed(10, 9);
const large = await seed(100, 99);
await cycle(small, 0);
await cycle(large, 0);
const smallTimes: number[] = [];
const largeTimes: number[] = [];
for (let r = 1; r <= ROUNDS; r++) {
  smallTimes.push(await cycle(small, r));
  largeTimes.push(await cycle(large, r));
}
const ratio = median(largeTimes) / median(smallTimes);
console.log(`\nChange request (create, edit 10 pages, merge): ${ROUNDS} rounds each, interleaved`);
console.log(`  100-page space     median ${median(smallTimes).toFixed(1)} ms`);
console.log(`  10,000-page space  median ${median(largeTimes).toFixed(1)} ms`);
console.log(`  ratio large/small ${ratio.toFixed(2)}   target ≤ 2.00   ${ratio <= 2 ? 'MET' : 'MISSED'}`);

const reads: number[] = [];
for (let i = 0; i < 300; i++) {
  const page = large.pages[(i * 7919) % large.pages.length]!;
  const t = performance.now();
  await call('GET', `/v1/spaces/${large.spaceId}/content/page/${page}?format=markdown`);
  reads.push(performance.now() - t);
}
console.log(`\nGET /v1/spaces/{spaceId}/content/page/{pageId} in the 10,000-page space: 300 reads`);
console.log(`  median ${median(reads).toFixed(2)} ms`);

await app.close();
await cleanup();
