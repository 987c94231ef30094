// Import benchmark (part of `npm run bench`): a generated GitBook-style zip of 1,000 pages (20 groups in SUMMARY.md,
// each of an overview and 7 chapters of 6 pages; every page ~1.5 KB of markdown with a table, code, links to other
// pages and an image among 10), uploaded to POST …/content/import: into a space (a change request created, edited
// and merged in one transaction) and into a change request. Total time of the request and pages per second, median
// of BENCH_ROUNDS, and the event loop's longest stall meanwhile (conversion runs in the worker pool, in batches).
// SQLite, and PostgreSQL too when BENCH_DATABASE_URL is set (a fresh schema, dropped after; BENCH_DIALECT picks one).
// Then a docs zip of 2,000 files with 200 MB of images (1,500 pages, 500 screenshots of 400 KB, each page showing
// one), written to disk and uploaded from there to the compiled server as `npm start` runs it, in a process of its own
// (a database of its own): pages per second, and that process's peak RSS as the kernel counts it (VmHWM), which must
// stay under 300 MB.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import crypto from 'node:crypto';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { strToU8, Zip, ZipDeflate, ZipPassThrough, zipSync, type Zippable } from 'fflate';
import { buildApp } from '../src/server/app.js';
import { benchDatabase, median, procStatus, startCompiledServer } from './setup.js';
import { buildServer } from '../scripts/build-server.mjs';

const TOKEN = 'bench-import-token-0123456789abcdefghijklmnop';
const GROUPS = Number(process.env.BENCH_GROUPS ?? 20);
const CHAPTERS = 7;
const PAGES_PER_CHAPTER = 6;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const IMAGES = 10;

/** A 1×1 PNG, with a byte of its own so that each image is a different file. */
const png = (n: number) =>
  Uint8Array.from([
    ...Buffer.from(
      'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
      'base64',
    ),
    n,
  ]);

function body(title: string, n: number, links: string[], image: string): string {
  return `# ${title}

This page (number ${n}) explains one part of the product. It links to ${links.map((l, i) => `[a neighbour](${l}${i ? '#usage' : ''})`).join(' and ')}.

## Usage

1. Open the **settings** of the workspace.
2. Choose \`Advanced\`, then *Integrations*.
3. Save, and check the result below.

![Diagram ${n}](${image})

| Option | Default | Meaning |
| --- | --- | --- |
| \`timeout\` | 30 | Seconds before giving up |
| \`retries\` | 3 | Attempts after the first |

\`\`\`ts
export function configure(options: { timeout: number; retries: number }) {
  return { ...options, page: ${n} };
}
\`\`\`

> **Note** Changes apply to every member of the organization, at once.

- Related: [the overview](../README.md)
- See also the [changelog](https://example.com/changelog).
`;
}

/** The zip and its page count. */
function generate(): { zip: Uint8Array; pages: number } {
  const files: Zippable = {};
  const summary: string[] = ['# Table of contents', ''];
  let n = 0;
  for (let i = 0; i < IMAGES; i++) files[`.gitbook/assets/diagram-${i}.png`] = png(i);
  for (let g = 0; g < GROUPS; g++) {
    const group = `part-${String(g + 1).padStart(2, '0')}`;
    summary.push(`## Part ${g + 1}`, '');
    summary.push(`* [Overview of part ${g + 1}](${group}/README.md)`);
    files[`${group}/README.md`] = strToU8(
      body(`Overview of part ${g + 1}`, n++, [`chapter-1/README.md`], `../.gitbook/assets/diagram-${g % IMAGES}.png`),
    );
    for (let c = 0; c < CHAPTERS; c++) {
      const chapter = `${group}/chapter-${c + 1}`;
      summary.push(`  * [Chapter ${g + 1}.${c + 1}](${chapter}/README.md)`);
      files[`${chapter}/README.md`] = strToU8(
        body(`Chapter ${g + 1}.${c + 1}`, n++, ['page-1.md', '../README.md'], `../../.gitbook/assets/diagram-${c}.png`),
      );
      for (let p = 0; p < PAGES_PER_CHAPTER; p++) {
        summary.push(`    * [Topic ${g + 1}.${c + 1}.${p + 1}](${chapter}/page-${p + 1}.md)`);
        const next = p + 1 < PAGES_PER_CHAPTER ? `page-${p + 2}.md` : 'README.md';
        files[`${chapter}/page-${p + 1}.md`] = strToU8(
          body(
            `Topic ${g + 1}.${c + 1}.${p + 1}`,
            n++,
            [next, '../README.md'],
            `../../.gitbook/assets/diagram-${p}.png`,
          ),
        );
      }
    }
    summary.push('');
  }
  files['SUMMARY.md'] = strToU8(summary.join('\n'));
  return { zip: zipSync(files, { level: 6 }), pages: n };
}

const LARGE_PAGES = 1500;
const LARGE_IMAGES = Number(process.env.BENCH_LARGE_IMAGES ?? 500);
const LARGE_IMAGE_BYTES = 400 * 1024;

/** The large zip, written to a file as it is made (never held in memory); its path and size. */
async function generateLarge(): Promise<{ file: string; bytes: number }> {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'ds-bench-zip-')), 'docs.zip');
  const out = fs.createWriteStream(file);
  let pending: Promise<void> = Promise.resolve();
  let waiting = false;
  const zip = new Zip((err, chunk, final) => {
    if (err) throw err;
    // Written as it comes, waiting for the disk when it falls behind (the zip is never held in memory).
    if (!out.write(chunk) && !waiting) {
      waiting = true;
      pending = new Promise((resolve) =>
        out.once('drain', () => {
          waiting = false;
          resolve();
        }),
      );
    }
    if (final) out.end();
  });
  const header = Buffer.from(
    'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
    'base64',
  );
  for (let i = 0; i < LARGE_IMAGES; i++) {
    // A screenshot's worth of bytes that do not compress, stored as zips store images.
    const entry = new ZipPassThrough(`.gitbook/assets/screen-${i}.png`);
    zip.add(entry);
    entry.push(Buffer.concat([header, crypto.randomBytes(LARGE_IMAGE_BYTES - header.length)]), true);
    await pending;
  }
  const summary = ['# Table of contents', ''];
  for (let n = 0; n < LARGE_PAGES; n++) {
    const name = `guide/page-${n}.md`;
    summary.push(`* [Topic ${n}](${name})`);
    const entry = new ZipDeflate(name, { level: 6 });
    zip.add(entry);
    entry.push(
      strToU8(
        body(
          `Topic ${n}`,
          n,
          [`page-${(n + 1) % LARGE_PAGES}.md`],
          `../.gitbook/assets/screen-${n % LARGE_IMAGES}.png`,
        ),
      ),
      true,
    );
  }
  const toc = new ZipDeflate('SUMMARY.md', { level: 6 });
  zip.add(toc);
  toc.push(strToU8(summary.join('\n')), true);
  zip.end();
  await new Promise<void>((resolve, reject) => {
    out.on('finish', resolve);
    out.on('error', reject);
  });
  return { file, bytes: fs.statSync(file).size };
}

const dialects: Array<'sqlite' | 'postgres'> = process.env.BENCH_DATABASE_URL ? ['sqlite', 'postgres'] : ['sqlite'];
const only = process.env.BENCH_DIALECT;
const generated = process.env.BENCH_LARGE_ONLY ? { zip: new Uint8Array(), pages: 0 } : generate();
// BENCH_LARGE_ONLY=1: the large import alone (its memory is what is being studied).
if (!process.env.BENCH_LARGE_ONLY)
  for (const dialect of dialects) if (!only || only === dialect) await runDialect(dialect);
if (process.env.BENCH_LARGE !== '0') {
  const large = await generateLarge();
  // Inside the checkout, so that the compiled files find the packages in node_modules.
  const cache = path.resolve('node_modules/.cache');
  fs.mkdirSync(cache, { recursive: true });
  const built = fs.mkdtempSync(path.join(cache, 'ds-bench-server-'));
  try {
    await buildServer(built);
    for (const dialect of dialects) if (!only || only === dialect) await runLarge(dialect, large, built);
  } finally {
    fs.rmSync(path.dirname(large.file), { recursive: true, force: true });
    fs.rmSync(built, { recursive: true, force: true });
  }
}

/**
 * The large import's server: the compiled server as `npm start` runs it, in a process of its own (from TypeScript
 * through tsx, each worker thread would load tsx and compile the sources again).
 */
function startLarge(dialect: 'sqlite' | 'postgres', built: string) {
  return startCompiledServer(dialect, built, TOKEN, {
    // For a study of where the memory goes (e.g. a --require that logs process.memoryUsage()).
    ...(process.env.BENCH_LARGE_NODE_OPTIONS ? { NODE_OPTIONS: process.env.BENCH_LARGE_NODE_OPTIONS } : {}),
    // A 2,000-file import takes longer than the default two minutes on a slow machine.
    IMPORT_TIME_LIMIT_SECONDS: '600',
  });
}

async function runLarge(dialect: 'sqlite' | 'postgres', large: { file: string; bytes: number }, built: string) {
  const { base, child, stop } = await startLarge(dialect, built);
  const headers = { authorization: `Bearer ${TOKEN}` };
  try {
    const orgs = (await (await fetch(`${base}/v1/orgs`, { headers })).json()) as { items: Array<{ id: string }> };
    const space = (await (
      await fetch(`${base}/v1/orgs/${orgs.items[0]!.id}/spaces`, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json' },
        body: JSON.stringify({ title: 'Large import' }),
      })
    ).json()) as { id: string };
    // The worker threads started as any earlier import or published page would have started them: what is
    // measured next is the large import's own memory on top of a server that has run before.
    const warm = zipSync({
      'README.md': strToU8('# Warm\n\nA page.\n'),
      'SUMMARY.md': strToU8('* [Warm](README.md)\n'),
    });
    const warmed = await fetch(`${base}/v1/spaces/${space.id}/content/import?source=zip`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/zip' },
      body: Buffer.from(warm),
    });
    if (!warmed.ok) throw new Error(`warm-up import: ${warmed.status} ${await warmed.text()}`);
    const before = procStatus(child.pid!, 'VmRSS');
    const started = performance.now();
    const res = await fetch(`${base}/v1/spaces/${space.id}/content/import?source=zip`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/zip' },
      body: Readable.toWeb(fs.createReadStream(large.file)) as ReadableStream,
      duplex: 'half',
    } as RequestInit);
    const answer = (await res.json()) as { importedResources?: number };
    const ms = performance.now() - started;
    if (!res.ok) throw new Error(`large import: ${res.status} ${JSON.stringify(answer)}`);
    const peak = procStatus(child.pid!, 'VmHWM');
    const mb = (n: number) => (n / 1024 / 1024).toFixed(0);
    console.log(
      `\n[${dialect}] Import of a 2,000-file docs zip (${LARGE_PAGES} pages, ${LARGE_IMAGES} images, ${mb(large.bytes)} MB), once, the compiled server in a process of its own:\n` +
        `  ${(ms / 1000).toFixed(1).padStart(6)} s   ${((LARGE_PAGES / ms) * 1000).toFixed(0).padStart(5)} pages/s   peak RSS ${mb(peak)} MB (idle before it ${mb(before)} MB, so the import's own ${mb(peak - before)} MB; limit 300 MB)   ${answer.importedResources} resources`,
    );
  } finally {
    await stop();
  }
}

async function runDialect(dialect: 'sqlite' | 'postgres') {
  const { config, storage, owner, cleanup } = await benchDatabase(TOKEN, dialect);
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
    if (!res.ok) throw new Error(`${method} ${p}: ${res.status} ${JSON.stringify(json)}`);
    return json;
  }

  async function importOnce(into: 'space' | 'change request') {
    const space = await call('POST', `/v1/orgs/${owner.organizationId}/spaces`, { title: 'Imported' });
    let path = `/v1/spaces/${space.id}/content/import?source=zip`;
    if (into === 'change request') {
      const cr = await call('POST', `/v1/spaces/${space.id}/change-requests`, {});
      path = `/v1/spaces/${space.id}/change-requests/${cr.id}/content/import?source=zip`;
    }
    const loop = monitorEventLoopDelay({ resolution: 5 });
    loop.enable();
    const started = performance.now();
    const result = await call('POST', path, generated.zip, 'application/zip');
    const ms = performance.now() - started;
    loop.disable();
    const pages = (await call('GET', `/v1/spaces/${space.id}/imports?limit=1`)).items[0];
    if (pages.status !== 'completed') throw new Error(`import ${pages.status}: ${pages.message}`);
    return { ms, resources: result.importedResources as number, stallMs: loop.max / 1e6 };
  }

  try {
    console.log(
      `\n[${dialect}] Import of a ${generated.pages.toLocaleString('en')}-page zip (${(generated.zip.length / 1024).toFixed(0)} KiB), median of ${ROUNDS}:`,
    );
    await importOnce('change request'); // warm-up: workers started, code compiled
    for (const into of ['space', 'change request'] as const) {
      const runs = [];
      for (let i = 0; i < ROUNDS; i++) runs.push(await importOnce(into));
      const ms = median(runs.map((r) => r.ms));
      const stall = Math.max(...runs.map((r) => r.stallMs));
      console.log(
        `  into a ${into.padEnd(15)} ${(ms / 1000).toFixed(2).padStart(6)} s   ${((generated.pages / ms) * 1000).toFixed(0).padStart(5)} pages/s   (${runs[0]!.resources} resources; longest event-loop stall ${stall.toFixed(0)} ms)`,
      );
    }
  } finally {
    await app.close();
    await cleanup();
  }
}
