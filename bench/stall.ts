// Stall benchmark (part of `npm run bench`): does one request's heavy work hold up everybody else's? GET
// /v1/health latency (sequential requests from another process) while the server is idle, against while it
// takes the worst writes and exports a client can send: a 440 KB page body of the shape micromark parses
// slowest (lists alternating with paragraphs; it is stopped at the worker time limit) and PDF downloads of change
// requests holding a 240 KB table (each one not cached yet). Reports p50 and p99 of each, side by side in one run.
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { median } from './setup.js';

const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 300);
const PDFS = Number(process.env.BENCH_PDFS ?? 4);

const child = spawn(process.execPath, ['--import', 'tsx', 'bench/stall-server.ts'], {
  stdio: ['ignore', 'pipe', 'inherit'],
});
const line = await new Promise<string>((resolve, reject) => {
  createInterface({ input: child.stdout! }).once('line', resolve);
  child.once('exit', (code) => reject(new Error(`bench server exited with ${code}`)));
});
const info = JSON.parse(line) as { port: number; token: string; org: string };
const base = `http://127.0.0.1:${info.port}`;
const headers = { authorization: `Bearer ${info.token}`, 'content-type': 'application/json' };

async function api(method: string, path: string, body?: unknown) {
  const res = await fetch(base + path, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

const quantile = (xs: number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))]!;
};

async function healthLatencies(n: number, until?: () => boolean): Promise<number[]> {
  const out: number[] = [];
  while (out.length < n || (until && !until())) {
    const t = performance.now();
    const res = await fetch(`${base}/v1/health`);
    await res.arrayBuffer();
    if (!res.ok) throw new Error(`health: ${res.status}`);
    out.push(performance.now() - t);
    await new Promise((r) => setTimeout(r, 10));
  }
  return out;
}

try {
  console.log('Stall benchmark: seeding change requests with a 240 KB table…');
  const table =
    '| Name | Value | Notes |\n|---|---|---|\n' +
    Array.from({ length: 9000 }, (_, i) => `| row ${i} | ${i * 7} | note ${i % 13} |`).join('\n');
  const space = (await api('POST', `/v1/orgs/${info.org}/spaces`, { title: 'Stall' })).body;
  const crs: string[] = [];
  for (let i = 0; i < PDFS; i++) {
    const cr = (await api('POST', `/v1/spaces/${space.id}/change-requests`, { subject: `Table ${i}` })).body;
    const res = await api('POST', `/v1/spaces/${space.id}/change-requests/${cr.id}/content`, {
      changes: [{ operation: 'insert_page', title: `Table ${i}`, document: { markdown: table } }],
    });
    if (res.status !== 200) throw new Error(`seeding: ${res.status} ${JSON.stringify(res.body)}`);
    crs.push(cr.id);
  }
  const writeCr = (await api('POST', `/v1/spaces/${space.id}/change-requests`, { subject: 'Worst write' })).body;
  const worst = Array.from({ length: 36_000 }, (_, i) => (i % 2 ? `- item ${i}` : `Text ${i}`)).join('\n\n');

  await healthLatencies(50); // warm-up
  const idle = await healthLatencies(SAMPLES);

  let busy = true;
  const outcomes: string[] = [];
  const pdfStatuses: number[] = [];
  const load = (async () => {
    const timed = async (label: string, run: () => Promise<number>) => {
      const t = performance.now();
      const status = await run();
      outcomes.push(`${label}: ${status} in ${((performance.now() - t) / 1000).toFixed(1)} s`);
    };
    await Promise.all([
      timed('worst-case page write', async () => {
        const res = await api('POST', `/v1/spaces/${space.id}/change-requests/${writeCr.id}/content`, {
          changes: [{ operation: 'insert_page', title: 'Worst', document: { markdown: worst } }],
        });
        return res.status;
      }),
      (async () => {
        for (const cr of crs) {
          await timed('PDF of a 240 KB table', async () => {
            const res = await fetch(`${base}/v1/spaces/${space.id}/change-requests/${cr}/pdf/download`, { headers });
            await res.arrayBuffer();
            pdfStatuses.push(res.status);
            return res.status;
          });
        }
      })(),
    ]);
    busy = false;
  })();
  const loaded = await healthLatencies(SAMPLES, () => !busy);
  await load;

  const ms = (x: number) => `${x.toFixed(1)} ms`;
  console.log(`\nGET /v1/health, sequential, SQLite (${idle.length} idle samples, ${loaded.length} under load)`);
  console.log(`  idle         p50 ${ms(median(idle))}   p99 ${ms(quantile(idle, 0.99))}`);
  console.log(`  under load   p50 ${ms(median(loaded))}   p99 ${ms(quantile(loaded, 0.99))}`);
  const p99 = quantile(loaded, 0.99);
  console.log(`  p99 under load ${ms(p99)}   target < 50 ms   ${p99 < 50 ? 'MET' : 'MISSED'}`);
  for (const o of outcomes) console.log(`  ${o}`);
  // The worst write is stopped at the worker time limit (its 503 is the point); every PDF must still be served,
  // the write's thread being a reader's and the PDFs' a background one.
  const served = pdfStatuses.filter((status) => status === 200).length;
  console.log(
    `  PDFs served ${served} of ${pdfStatuses.length}   target all   ${served === pdfStatuses.length ? 'MET' : 'MISSED'}`,
  );
} finally {
  child.kill('SIGTERM');
}
