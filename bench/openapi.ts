// OpenAPI benchmark (part of `npm run bench`): a generated 5 MB OpenAPI 3.0 document (JSON; thousands of
// operations over shared, referencing schemas, like large public specifications) published with PUT
// …/openapi/{slug} and processed by the background job: time from the request to `complete` (a new version each
// round: the text differs), median of BENCH_ROUNDS, and the event loop's longest stall meanwhile (parsing and
// validation run in the worker pool). Then, cold: the first page of that version's reference, a search in it, the
// comparison of the last two versions, and one operation as a page block shows it. SQLite, and PostgreSQL too when BENCH_DATABASE_URL is set.
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { buildApp } from '../src/server/app.js';
import { largeSpec } from '../src/server/test/openapi-fixtures.js';
import { benchDatabase, median } from './setup.js';

const TOKEN = 'bench-openapi-token-0123456789abcdefghijklmnop';
const BYTES = Number(process.env.BENCH_OPENAPI_BYTES ?? 5 * 1024 * 1024);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);

const dialects: Array<'sqlite' | 'postgres'> = process.env.BENCH_DATABASE_URL ? ['sqlite', 'postgres'] : ['sqlite'];
const only = process.env.BENCH_DIALECT;
const spec = largeSpec(BYTES);
const operations = (spec.match(/"operationId"/g) ?? []).length;
for (const dialect of dialects) if (!only || only === dialect) await runDialect(dialect);

async function runDialect(dialect: 'sqlite' | 'postgres') {
  const { config, storage, owner, cleanup } = await benchDatabase(TOKEN, dialect);
  const { app } = await buildApp({ config, db: storage.db });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  const org = `/v1/orgs/${owner.organizationId}/openapi`;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON answers of several shapes
  async function call(method: string, p: string, body?: unknown): Promise<any> {
    const res = await fetch(base + p, {
      method,
      headers: {
        authorization: `Bearer ${TOKEN}`,
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const json: unknown = await res.json();
    if (!res.ok) throw new Error(`${method} ${p}: ${res.status} ${JSON.stringify(json)}`);
    return json;
  }
  async function publishOnce(round: number) {
    const text = spec.replace('"version":"1.0.0"', `"version":"1.0.${round}"`);
    const loop = monitorEventLoopDelay({ resolution: 5 });
    loop.enable();
    const started = performance.now();
    await call('PUT', `${org}/large`, { source: { text } });
    let state;
    do {
      await new Promise((r) => setTimeout(r, 20));
      state = await call('GET', `${org}/large`);
    } while (state.processingState !== 'complete');
    const ms = performance.now() - started;
    loop.disable();
    if (state.lastProcessErrorCode) throw new Error(`processing failed: ${JSON.stringify(state.lastProcessedErrors)}`);
    return { ms, stallMs: loop.max / 1e6 };
  }
  try {
    console.log(
      `\n[${dialect}] OpenAPI processing of a ${(spec.length / 1024 / 1024).toFixed(1)} MB document (${operations.toLocaleString('en')} operations), median of ${ROUNDS}:`,
    );
    await publishOnce(0); // warm-up: workers started, code compiled
    const runs = [];
    for (let i = 1; i <= ROUNDS; i++) runs.push(await publishOnce(i));
    console.log(
      `  PUT to processed      ${(median(runs.map((r) => r.ms)) / 1000).toFixed(2).padStart(6)} s   (longest event-loop stall ${Math.max(...runs.map((r) => r.stallMs)).toFixed(0)} ms)`,
    );
    const latest = await call('GET', `${org}/large/versions/latest`);
    let started = performance.now();
    const reference = await call('GET', `${org}/large/versions/${latest.id}/reference`);
    console.log(
      `  reference, page 1     ${((performance.now() - started) / 1000).toFixed(2).padStart(6)} s   (${reference.operations.length} of ${reference.total.toLocaleString('en')} operations)`,
    );
    started = performance.now();
    const found = await call('GET', `${org}/large/versions/${latest.id}/reference?q=resource%201234`);
    console.log(
      `  reference, search     ${((performance.now() - started) / 1000).toFixed(2).padStart(6)} s   (${found.count} matching)`,
    );
    const versions = await call('GET', `${org}/large/versions?limit=2`);
    started = performance.now();
    const compared = await call('GET', `${org}/large/compare?from=${versions.items[1].id}&to=${versions.items[0].id}`);
    console.log(
      `  compare two versions  ${((performance.now() - started) / 1000).toFixed(2).padStart(6)} s   (${compared.changed.length} changed)`,
    );
    started = performance.now();
    await call(
      'GET',
      `${org}/large/versions/${latest.id}/operation?path=${encodeURIComponent('/resources7/{id}')}&method=put`,
    );
    console.log(`  one operation, cold   ${((performance.now() - started) / 1000).toFixed(2).padStart(6)} s`);
  } finally {
    await app.close();
    await storage.close();
    await cleanup();
  }
}
