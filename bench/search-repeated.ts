// Search over pages that repeat one word (part of `npm run bench`): the attack of issue 25. A space of PAGES pages
// of about 500,000 characters (the largest a page may be), each one word repeated in sections under headings, is
// searched for that word over HTTP, as an anonymous reader of a public site or a member would. Every match is
// highlighted by the database; the server turns the marks into excerpts. Meanwhile another client asks
// `/v1/health` every 10 ms, as every other tenant's requests would: their latency (p99 and max) and the event
// loop's longest stall say whether one tenant's search holds up the others. Median of ROUNDS searches.
// SQLite, and PostgreSQL too when BENCH_DATABASE_URL is set (a fresh schema, dropped after; BENCH_DIALECT picks one).
// Goal: health p99 ≤ 50 ms and no stall over 50 ms, whatever the pages hold.
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { strToU8, zipSync, type Zippable } from 'fflate';
import { buildApp } from '../src/server/app.js';
import { workers } from '../src/server/workers/pool.js';
import { PAGE_MARKDOWN_MAX } from '../src/shared/contract/constants.js';
import { benchDatabase, median } from './setup.js';

const TOKEN = 'bench-search-repeated-token-0123456789abcdef';
const PAGES = Number(process.env.BENCH_REPEATED_PAGES ?? 20);
const SECTIONS = 50;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const WORD = 'needle';

/** A page of PAGE_MARKDOWN_MAX characters at most: SECTIONS headings, each over the word repeated. */
function page(n: number): string {
  const head = `# Page ${n}\n\n`;
  const perSection = Math.floor((PAGE_MARKDOWN_MAX - head.length - 200) / SECTIONS);
  let out = head;
  for (let s = 0; s < SECTIONS; s++) {
    const heading = `## Part ${s}\n\n`;
    const words = Math.floor((perSection - heading.length - 2) / (WORD.length + 1));
    out += `${heading}${`${WORD} `.repeat(words).trimEnd()}\n\n`;
  }
  return out;
}

const files: Zippable = {};
files['SUMMARY.md'] = strToU8(
  `# Summary\n\n${Array.from({ length: PAGES }, (_, i) => `* [Page ${i}](page-${i}.md)`).join('\n')}\n`,
);
for (let i = 0; i < PAGES; i++) files[`page-${i}.md`] = strToU8(page(i));
const zip = zipSync(files);

const dialects: Array<'sqlite' | 'postgres'> = process.env.BENCH_DATABASE_URL ? ['sqlite', 'postgres'] : ['sqlite'];
const only = process.env.BENCH_DIALECT;
const results: string[] = [];
for (const dialect of dialects) if (!only || only === dialect) await runDialect(dialect);
console.log(
  `\nSearch for a word repeated over ${PAGES} pages of ${PAGE_MARKDOWN_MAX.toLocaleString('en')} characters:`,
);
for (const line of results) console.log(line);

async function runDialect(dialect: 'sqlite' | 'postgres') {
  const { config, storage, owner, cleanup } = await benchDatabase(TOKEN, dialect);
  // Importing 10 MB of pages is not what is measured: time enough for it on a busy machine.
  workers.configure({ timeoutMs: 120_000 });
  const { app } = await buildApp({ config, db: storage.db });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;

  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON answers of several shapes
  async function call(method: string, p: string, body?: unknown, type = 'application/json'): Promise<any> {
    const res = await fetch(base + p, {
      method,
      headers: { authorization: `Bearer ${TOKEN}`, ...(body !== undefined ? { 'content-type': type } : {}) },
      body: body === undefined ? undefined : body instanceof Uint8Array ? Buffer.from(body) : JSON.stringify(body),
    });
    const json: unknown = await res.json();
    if (!res.ok) throw new Error(`${method} ${p}: ${res.status} ${JSON.stringify(json).slice(0, 500)}`);
    return json;
  }

  try {
    console.log(`\n[${dialect}] Importing ${PAGES} pages (${(zip.length / 1024).toFixed(0)} KiB zipped)…`);
    const space = await call('POST', `/v1/orgs/${owner.organizationId}/spaces`, { title: 'Repeated' });
    await call('POST', `/v1/spaces/${space.id}/content/import?source=zip`, zip, 'application/zip');
    const search = `/v1/spaces/${space.id}/search?query=${WORD}&limit=${PAGES}`;
    const first = await call('GET', search);
    if (first.items.length !== PAGES) throw new Error(`expected ${PAGES} hits, got ${first.items.length}`);

    const times: number[] = [];
    const health: number[] = [];
    let stall = 0;
    for (let round = 0; round < ROUNDS; round++) {
      const loop = monitorEventLoopDelay({ resolution: 5 });
      loop.enable();
      let searching = true;
      const sampler = (async () => {
        while (searching) {
          const t = performance.now();
          await fetch(`${base}/v1/health`).then((r) => r.arrayBuffer());
          health.push(performance.now() - t);
          await new Promise((resolve) => setTimeout(resolve, 10));
        }
      })();
      const started = performance.now();
      await call('GET', search);
      times.push(performance.now() - started);
      searching = false;
      await sampler;
      loop.disable();
      stall = Math.max(stall, loop.max / 1e6);
    }
    health.sort((a, b) => a - b);
    const p99 = health[Math.min(health.length - 1, Math.floor(health.length * 0.99))]!;
    const line = `  [${dialect}] search ${median(times).toFixed(0).padStart(6)} ms (median of ${ROUNDS})   /v1/health meanwhile: p99 ${p99.toFixed(1)} ms, max ${health.at(-1)!.toFixed(1)} ms (${health.length} samples)   longest stall ${stall.toFixed(0)} ms`;
    console.log(line);
    results.push(line);
  } finally {
    await app.close();
    await cleanup();
  }
}
