// Siblings benchmark (part of `npm run bench`): what one more page costs beside 10,000 siblings, against beside 10,
// measured side by side (alternating rounds) on SQLite: inserting a page into a change request (its slug must be
// free among its siblings; its parent's list of pages grows by one), and merging that change request. Goal
// (issue 25): linear in the work, so the ratios stay near 1, not the 13–15× found before. The pages are written
// straight into the database (bench/setup.ts, seedPages): 10,000 pages in one folder, and 10 in another space.
import { buildApp } from '../src/server/app.js';
import { benchDatabase, median, seedPages, jsonCaller } from './setup.js';

const TOKEN = 'bench-siblings-token-0123456789abcdefghijklmn';
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 9);
const MANY = Number(process.env.BENCH_SIBLINGS ?? 10_000);

const { config, storage, owner, cleanup } = await benchDatabase(TOKEN);
const { app } = await buildApp({ config: { ...config, requestTimeoutSeconds: 3600 }, db: storage.db });
await app.listen({ port: 0, host: '127.0.0.1' });
const address = app.server.address();
const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
const userId = (await storage.db.selectFrom('users').select('id').executeTakeFirstOrThrow()).id;

const call = jsonCaller(base, TOKEN);

/** A space of one folder holding `n` pages; answers the space and the folder's id. */
async function folderOf(n: number): Promise<{ spaceId: string; folderId: string }> {
  const space = await call('POST', `/v1/orgs/${owner.organizationId}/spaces`, { title: `${n} siblings` });
  await seedPages(storage.db, space.id, userId, 1, n);
  const pages = await call('GET', `/v1/spaces/${space.id}/content/pages`);
  return { spaceId: space.id, folderId: pages.pages[0].id };
}

/** One page inserted beside the folder's pages (same title as one of them), then merged: both timed, in ms. */
async function round(target: { spaceId: string; folderId: string }, k: number) {
  const cr = await call('POST', `/v1/spaces/${target.spaceId}/change-requests`, { subject: `Insert ${k}` });
  let t = performance.now();
  await call('POST', `/v1/spaces/${target.spaceId}/change-requests/${cr.id}/content?compat=false`, {
    changes: [{ operation: 'insert_page', title: 'Page 0.5', into: target.folderId, document: { markdown: 'New.' } }],
  });
  const insert = performance.now() - t;
  t = performance.now();
  await call('POST', `/v1/spaces/${target.spaceId}/change-requests/${cr.id}/merge`);
  return { insert, merge: performance.now() - t };
}

try {
  const many = await folderOf(MANY);
  const few = await folderOf(10);
  await round(many, 0);
  await round(few, 0);
  const manyRuns: Array<{ insert: number; merge: number }> = [];
  const fewRuns: Array<{ insert: number; merge: number }> = [];
  for (let k = 1; k <= ROUNDS; k++) {
    manyRuns.push(await round(many, k));
    fewRuns.push(await round(few, k));
  }
  const m = (runs: typeof manyRuns, key: 'insert' | 'merge') => median(runs.map((r) => r[key]));
  console.log(`\nOne page beside ${MANY.toLocaleString('en')} siblings and beside 10 (medians of ${ROUNDS}, SQLite):`);
  for (const key of ['insert', 'merge'] as const) {
    console.log(
      `  ${key.padEnd(7)} ${m(manyRuns, key).toFixed(1).padStart(7)} ms beside ${MANY.toLocaleString('en')}   ${m(fewRuns, key).toFixed(1).padStart(6)} ms beside 10   ratio ${(m(manyRuns, key) / m(fewRuns, key)).toFixed(2)}`,
    );
  }
} finally {
  await app.close();
  await cleanup();
}
