// `npm run bench`: measurements side by side in one run, reported as medians and ratios. Not part of npm test.
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import autocannon from 'autocannon';
import { median } from './setup.js';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 3);

interface Round {
  rps: number;
  /** CPU time of the server process per request, in µs. */
  cpuUs: number;
}

/** One round of load on `url`: throughput, and the server's CPU time per request (read from the bare server). */
async function round(url: string, headers: Record<string, string>, cpuUrl: string): Promise<Round> {
  const cpu = async () => ((await (await fetch(cpuUrl)).json()) as { us: number }).us;
  const before = await cpu();
  const result = await autocannon({ url, headers, connections: 10, duration: SECONDS });
  const used = (await cpu()) - before;
  if (result.non2xx || result.errors) throw new Error(`${url}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  return { rps: result.requests.average, cpuUs: used / result.requests.total };
}

async function latencyMs(url: string, headers: Record<string, string>, n: number): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    const res = await fetch(url, { headers });
    await res.arrayBuffer();
    if (!res.ok) throw new Error(`${url}: ${res.status}`);
    out.push(performance.now() - t);
  }
  return out;
}

console.log('Seeding 50,000 spaces in a fresh SQLite database…');
const child = spawn(process.execPath, ['--import', 'tsx', 'bench/server.ts'], { stdio: ['ignore', 'pipe', 'inherit'] });
const line = await new Promise<string>((resolve, reject) => {
  createInterface({ input: child.stdout! }).once('line', resolve);
  child.once('exit', (code) => reject(new Error(`bench server exited with ${code}`)));
});
const info = JSON.parse(line) as { real: number; bare: number; token: string; org: string; spaceId: string };
const auth = { authorization: `Bearer ${info.token}` };

try {
  // 1. GET /v1/spaces/{id} against the bare route, alternating rounds. Throughput on a shared machine swings with
  // other load, so each round's ratio is taken against its neighbour, and CPU time per request is measured too.
  const realUrl = `http://127.0.0.1:${info.real}/v1/spaces/${info.spaceId}`;
  const bareUrl = `http://127.0.0.1:${info.bare}/bare/${info.spaceId}`;
  const cpuUrl = `http://127.0.0.1:${info.bare}/cpu`;
  await round(realUrl, auth, cpuUrl); // warm-up
  await round(bareUrl, {}, cpuUrl);
  const real: Round[] = [];
  const bare: Round[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    real.push(await round(realUrl, auth, cpuUrl));
    bare.push(await round(bareUrl, {}, cpuUrl));
  }
  const rps = (rs: Round[]) => rs.map((r) => r.rps);
  const cpu = (rs: Round[]) => rs.map((r) => r.cpuUs);
  const pairRatio = median(real.map((r, i) => r.rps / bare[i]!.rps));
  const cpuRatio = median(cpu(bare)) / median(cpu(real));
  const list = (xs: number[], digits = 0) => xs.map((x) => x.toFixed(digits)).join(', ');
  console.log(`\nGET /v1/spaces/{spaceId}: ${ROUNDS} rounds of ${SECONDS}s each, 10 connections, alternating`);
  console.log(`  real endpoint  median ${median(rps(real)).toFixed(0)} req/s   (${list(rps(real))})`);
  console.log(`  bare Fastify   median ${median(rps(bare)).toFixed(0)} req/s   (${list(rps(bare))})`);
  console.log(`  CPU per request: real median ${median(cpu(real)).toFixed(1)} µs (${list(cpu(real), 1)})`);
  console.log(`                   bare median ${median(cpu(bare)).toFixed(1)} µs (${list(cpu(bare), 1)})`);
  console.log(`  ratio real/bare, throughput of neighbouring rounds (median): ${pairRatio.toFixed(2)}`);
  console.log(
    `  ratio real/bare, CPU per request (bare/real): ${cpuRatio.toFixed(2)}   target ≥ 0.80   ${cpuRatio >= 0.8 ? 'MET' : 'MISSED'}`,
  );

  // 2. GET /v1/orgs/{id}/spaces: page 1 against page 500 (limit 100 over 50,000 spaces).
  const listUrl = `http://127.0.0.1:${info.real}/v1/orgs/${info.org}/spaces?limit=100`;
  let cursor: string | undefined;
  for (let page = 1; page < 500; page++) {
    const res = await fetch(cursor ? `${listUrl}&page=${encodeURIComponent(cursor)}` : listUrl, { headers: auth });
    const body = (await res.json()) as { next?: { page: string } };
    cursor = body.next?.page;
    if (!cursor) throw new Error(`list ended at page ${page}`);
  }
  const page500Url = `${listUrl}&page=${encodeURIComponent(cursor!)}`;
  const p1: number[] = [];
  const p500: number[] = [];
  for (let i = 0; i < 10; i++) {
    p1.push(...(await latencyMs(listUrl, auth, 20)));
    p500.push(...(await latencyMs(page500Url, auth, 20)));
  }
  const pageRatio = median(p500) / median(p1);
  console.log(`\nGET /v1/orgs/{organizationId}/spaces, 50,000 spaces, limit 100: 200 requests each, interleaved`);
  console.log(`  page 1    median ${median(p1).toFixed(2)} ms`);
  console.log(`  page 500  median ${median(p500).toFixed(2)} ms`);
  console.log(`  ratio page500/page1 ${pageRatio.toFixed(2)}   target ≤ 1.50   ${pageRatio <= 1.5 ? 'MET' : 'MISSED'}`);
} finally {
  child.kill('SIGTERM');
}
