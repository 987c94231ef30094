// Write-soak benchmark (part of `npm run bench`): five minutes of writes on SQLite. 16 clients each edit their own
// page in their own change request (a new body each time, a few kB), merging it every 50 edits and starting a new
// one, against the server in a child process (bench/stall-server.ts, the app as `npm start` runs it). Printed every
// 30 s: edits per second in that window and the server's resident memory (Linux, /proc); then the memory after 45 s
// idle (the server gives memory back after 30 s without requests: a full, compacting collection). Goal (issue 25): memory bounded (it went 269 → 986 MB, not released idle) and throughput steady (it halved).
import fs from 'node:fs';
import { jsonCaller, startStallServer } from './setup.js';

const SECONDS = Number(process.env.BENCH_SOAK_SECONDS ?? 300);
const WINDOW = Number(process.env.BENCH_SOAK_WINDOW ?? 30);
const IDLE = Number(process.env.BENCH_SOAK_IDLE ?? 45);
const CLIENTS = Number(process.env.BENCH_SOAK_CLIENTS ?? 16);
const MERGE_EVERY = 50;

const { child, started, base } = await startStallServer();

/** The server's resident memory in MB (Linux). */
function rssMb(): number {
  const status = fs.readFileSync(`/proc/${child.pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
}

const call = jsonCaller(base, started.token);

const words = ['install', 'configure', 'server', 'client', 'token', 'deploy', 'page', 'section', 'update', 'space'];
const bodyOf = (n: number) =>
  Array.from(
    { length: 12 },
    (_, p) =>
      `## Part ${p}\n\n` +
      Array.from({ length: 40 }, (_, w) => words[(n * 7 + p * 3 + w) % words.length]).join(' ') +
      ` (edit ${n}).`,
  ).join('\n\n');

let edits = 0;
let failures = 0;
let stop = false;

async function client(k: number) {
  const space = await call('POST', `/v1/orgs/${started.org}/spaces`, { title: `Soak ${k}` });
  let cr = await call('POST', `/v1/spaces/${space.id}/change-requests`, { subject: 'Soak' });
  const made = await call('POST', `/v1/spaces/${space.id}/change-requests/${cr.id}/content?compat=false`, {
    changes: [{ operation: 'insert_page', title: `Page ${k}`, document: { markdown: bodyOf(0) } }],
  });
  const pageId = made.changes[0].page.id as string;
  let n = 0;
  while (!stop) {
    n++;
    try {
      await call('POST', `/v1/spaces/${space.id}/change-requests/${cr.id}/content?compat=false`, {
        changes: [{ operation: 'update_page', page: pageId, document: { markdown: bodyOf(n * CLIENTS + k) } }],
      });
      edits++;
      if (n % MERGE_EVERY === 0) {
        await call('POST', `/v1/spaces/${space.id}/change-requests/${cr.id}/merge`);
        cr = await call('POST', `/v1/spaces/${space.id}/change-requests`, { subject: 'Soak' });
      }
    } catch (err) {
      failures++;
      if (failures < 5) console.error(String(err));
    }
  }
}

const samples: string[] = [];
const startMb = rssMb();
console.log(
  `\nWrite soak: ${CLIENTS} clients editing for ${SECONDS} s (SQLite); server memory at start ${startMb.toFixed(0)} MB`,
);
const clients = Array.from({ length: CLIENTS }, (_, k) => client(k));
let last = 0;
for (let t = WINDOW; t <= SECONDS; t += WINDOW) {
  await new Promise((r) => setTimeout(r, WINDOW * 1000));
  const line = `  ${String(t).padStart(4)} s  ${((edits - last) / WINDOW).toFixed(0).padStart(5)} edits/s   memory ${rssMb().toFixed(0).padStart(5)} MB`;
  last = edits;
  samples.push(line);
  console.log(line);
}
stop = true;
await Promise.all(clients);
const endMb = rssMb();
await new Promise((r) => setTimeout(r, IDLE * 1000));
const idleMb = rssMb();
console.log(
  `  memory: start ${startMb.toFixed(0)} MB, end ${endMb.toFixed(0)} MB, after ${IDLE} s idle ${idleMb.toFixed(0)} MB; ${edits} edits, ${failures} failed`,
);
child.kill('SIGTERM');
