// Published-site benchmark (part of `npm run bench`): requests per second for one published page of a 1,000-page
// space with the cache warm, against the very same HTML served as a static file by @fastify/static, measured
// side by side in one run (alternating rounds), without and with compression, and the bytes on the wire; and the median time of a cold render (nothing cached: the page
// tree of the revision is read, the page rendered) and of a re-render after a structure change (tree cached).
import fs from 'node:fs';
import http from 'node:http';
import zlib from 'node:zlib';
import os from 'node:os';
import path from 'node:path';
import Fastify from 'fastify';
import fastifyStatic from '@fastify/static';
import autocannon from 'autocannon';
import { buildApp } from '../src/server/app.js';
import { PublishedSites } from '../src/server/domain/sites/published/dispatch.js';
import { benchDatabase, jsonCaller, median } from './setup.js';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 3);
const COLD = Number(process.env.BENCH_SITES_COLD ?? 30);
const TOKEN = 'bench-sites-token-0123456789abcdefghijklmnopq';

const { config, storage, owner, cleanup } = await benchDatabase(TOKEN);
const { app } = await buildApp({ config, db: storage.db });
await app.listen({ port: 0, host: '127.0.0.1' });
const portOf = (server: typeof app.server) => {
  const address = server.address();
  return typeof address === 'object' && address ? address.port : 0;
};
const base = `http://127.0.0.1:${portOf(app.server)}`;

const call = jsonCaller(base, TOKEN);

const paragraph = (i: number) => `Paragraph ${i} of this page, with **enough** words to look like [documentation](#).`;
const body = (n: number) =>
  ['## Overview', ...Array.from({ length: 6 }, (_, i) => paragraph(i + n)), '## Details', '- one\n- two\n- three'].join(
    '\n\n',
  );

console.log('\nSeeding a 1,000-page space and publishing a site of it…');
const org = owner.organizationId;
const space = await call('POST', `/v1/orgs/${org}/spaces`, { title: 'Thousand pages' });
const cr = await call('POST', `/v1/spaces/${space.id}/change-requests`, { subject: 'Seed' });
const pages: string[] = [];
for (let t = 0; t < 10; t++) {
  const top = await call('POST', `/v1/spaces/${space.id}/change-requests/${cr.id}/content?compat=false`, {
    changes: [{ operation: 'insert_page', title: `Chapter ${t}`, document: { markdown: body(t) } }],
  });
  const topId = top.changes[0].page.id as string;
  pages.push(topId);
  for (let c = 0; c < 99; c += 50) {
    const batch = Array.from({ length: Math.min(50, 99 - c) }, (_, k) => ({
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
const site = await call('POST', `/v1/orgs/${org}/sites`, { title: 'Bench site', spaces: [space.id] });
const published = (await call('POST', `/v1/orgs/${org}/sites/${site.id}/publish`)).urls.published as string;
const [siteSpace] = (await call('GET', `/v1/orgs/${org}/sites/${site.id}/site-spaces`)).items;
const target = await call('GET', `/v1/spaces/${space.id}/content/page/${pages[555]}`);
const pageUrl = `${published}/${siteSpace.path}/${target.path}`.replace(config.publicUrl, base);

const html = await (await fetch(pageUrl)).text();
if (!html.includes(`<h1>${target.title}</h1>`)) throw new Error('the published page did not render');
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ds-bench-static-'));
fs.writeFileSync(path.join(dir, 'page.html'), html);
// The static server has the compressed copies too (as a build would write them), so the compressed rounds compare
// like with like: bytes read from memory or disk, no compression per request on either side.
fs.writeFileSync(
  path.join(dir, 'page.html.br'),
  zlib.brotliCompressSync(html, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 9 } }),
);
fs.writeFileSync(path.join(dir, 'page.html.gz'), zlib.gzipSync(html, { level: 6 }));
const statics = Fastify();
await statics.register(fastifyStatic, { root: dir, preCompressed: true });
await statics.listen({ port: 0, host: '127.0.0.1' });
const staticUrl = `http://127.0.0.1:${portOf(statics.server)}/page.html`;

const COMPRESSED = { 'accept-encoding': 'br, gzip' };

async function throughput(url: string, headers: Record<string, string> = {}): Promise<number> {
  const result = await autocannon({ url, headers, connections: 10, duration: SECONDS });
  if (result.non2xx || result.errors) throw new Error(`${url}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  return result.requests.average;
}

/** An answer's size as sent (compressed when the server chose to) and as read. */
function wireBytes(url: string): Promise<{ wire: number; raw: number; encoding: string }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers: COMPRESSED }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const body = Buffer.concat(chunks);
          const encoding = res.headers['content-encoding'] ?? 'identity';
          const raw =
            encoding === 'br' ? zlib.brotliDecompressSync(body) : encoding === 'gzip' ? zlib.gunzipSync(body) : body;
          resolve({ wire: body.length, raw: raw.length, encoding });
        });
      })
      .on('error', reject);
  });
}

try {
  await throughput(pageUrl); // warm-up
  await throughput(staticUrl);
  const served: number[] = [];
  const file: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    served.push(await throughput(pageUrl));
    file.push(await throughput(staticUrl));
  }
  const ratio = median(served) / median(file);
  console.log(
    `\nPublished page of a 1,000-page space (${(html.length / 1024).toFixed(0)} kB of HTML): ${ROUNDS} rounds of ${SECONDS}s, 10 connections`,
  );
  console.log(
    `  published site, cache warm  median ${median(served).toFixed(0)} req/s   (${served.map((x) => x.toFixed(0)).join(', ')})`,
  );
  console.log(
    `  same HTML as a static file  median ${median(file).toFixed(0)} req/s   (${file.map((x) => x.toFixed(0)).join(', ')})`,
  );
  console.log(`  ratio site/static ${ratio.toFixed(2)}`);

  // With compression asked for (browsers always ask): both servers send brotli.
  const servedBr: number[] = [];
  const fileBr: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    servedBr.push(await throughput(pageUrl, COMPRESSED));
    fileBr.push(await throughput(staticUrl, COMPRESSED));
  }
  console.log(`\nThe same, compressed (accept-encoding: br, gzip)`);
  console.log(
    `  published site, cache warm  median ${median(servedBr).toFixed(0)} req/s   (${servedBr.map((x) => x.toFixed(0)).join(', ')})`,
  );
  console.log(
    `  same HTML as a static file  median ${median(fileBr).toFixed(0)} req/s   (${fileBr.map((x) => x.toFixed(0)).join(', ')})`,
  );
  const ratioBr = median(servedBr) / median(fileBr);
  console.log(`  ratio site/static ${ratioBr.toFixed(2)}   target ≥ 1.00   ${ratioBr >= 1 ? 'MET' : 'MISSED'}`);

  // Bytes on the wire: the page, and the stylesheet and script every page shares (fetched once, cached a year).
  const page = await wireBytes(pageUrl);
  const assets = [...html.matchAll(/(?:href|src)="(\/sites\/~assets\/[^"]+)"/g)].map((m) => m[1]!);
  console.log(
    `\nBytes on the wire for that page: ${(page.raw / 1024).toFixed(1)} kB of HTML, ${(page.wire / 1024).toFixed(1)} kB as ${page.encoding}`,
  );
  for (const asset of assets) {
    const bytes = await wireBytes(base + asset);
    console.log(
      `  ${asset.split('/').pop()}: ${(bytes.raw / 1024).toFixed(1)} kB, ${(bytes.wire / 1024).toFixed(1)} kB as ${bytes.encoding} (once per visitor)`,
    );
  }

  // Cold: a fresh renderer each time, so nothing is cached (the page tree of the revision is read and indexed).
  const segments = [siteSpace.path as string, ...(target.path as string).split('/')];
  const cold: number[] = [];
  for (let i = 0; i < COLD; i++) {
    const renderer = new PublishedSites(storage.db, config.publicUrl);
    const t = performance.now();
    const result = await renderer.serve({ siteId: site.id, segments });
    cold.push(performance.now() - t);
    if (result.kind !== 'html' || result.status !== 200) throw new Error('cold render failed');
  }
  // After a structure change the page is rendered again over HTTP, the revision's page tree still cached.
  const rerender: number[] = [];
  for (let i = 0; i < COLD; i++) {
    await call('PATCH', `/v1/orgs/${org}/sites/${site.id}`, { title: `Bench site ${i}` });
    const t = performance.now();
    const res = await fetch(pageUrl);
    await res.text();
    rerender.push(performance.now() - t);
  }
  console.log(`\nRendering that page: ${COLD} samples each`);
  console.log(`  cold render (nothing cached)               median ${median(cold).toFixed(1)} ms`);
  console.log(`  after a structure change (tree cached, HTTP) median ${median(rerender).toFixed(1)} ms`);
} finally {
  await statics.close();
  fs.rmSync(dir, { recursive: true, force: true });
  await app.close();
  await cleanup();
}
