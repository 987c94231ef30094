// Shared by the benchmarks: a fresh SQLite database (or a fresh PostgreSQL schema) with its owner.
import net from 'node:net';
import http from 'node:http';
import crypto from 'node:crypto';
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { openStorage, migrate, type Db } from '../src/server/storage/db.js';
import { RevisionReader, RevisionWriter, ROOT, revisionOfSpace } from '../src/server/domain/content/model.js';
import { findSpace, insertRevision, updateSpace } from '../src/server/storage/repos/spaces.js';
import { newId } from '../src/server/lib/ids.js';
import { nowIso } from '../src/server/lib/time.js';
import { bootstrapOwner } from '../src/server/domain/auth/service.js';
import type { Config } from '../src/server/config.js';
import { serverEnv, serverNodeArgs } from '../scripts/server-node-args.mjs';

/** The owner of a benchmark's database, who signs in to the console in the browser benchmarks. */
export const BENCH_ADMIN = { email: 'bench@example.com', password: 'bench-password' };

/**
 * A fresh database with its owner, migrated. `postgres` uses BENCH_DATABASE_URL, in a schema of its own that
 * `cleanup` drops.
 */
export async function benchDatabase(token: string, dialect: 'sqlite' | 'postgres' = 'sqlite') {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ds-bench-'));
  const config: Config = {
    port: 0,
    host: '127.0.0.1',
    dataDir: dir,
    storage: { kind: 'sqlite', file: path.join(dir, 'bench.sqlite') },
    publicUrl: 'http://127.0.0.1',
    admin: { ...BENCH_ADMIN, token },
    signup: 'closed',
    logLevel: 'silent',
    sessionTtlSeconds: 3600,
    trustProxy: false,
    allowPrivateFetch: false,
    samlIdpInitiatedProviders: [],
    requestTimeoutSeconds: 30,
    dnsServers: [],
    workers: { timeoutSeconds: 10 },
  };
  let dropSchema = async () => {};
  if (dialect === 'postgres') {
    const url = process.env.BENCH_DATABASE_URL;
    if (!url) throw new Error('BENCH_DATABASE_URL is not set');
    const schema = `bench_${crypto.randomBytes(6).toString('hex')}`;
    await onPostgres(url, `create schema ${schema}`);
    config.storage = { kind: 'postgres', url, schema };
    dropSchema = () => onPostgres(url, `drop schema ${schema} cascade`);
  }
  const storage = openStorage(config.storage);
  await migrate(storage);
  const owner = (await bootstrapOwner(storage.db, config))!;
  const cleanup = async () => {
    await storage.close();
    await dropSchema();
    fs.rmSync(dir, { recursive: true, force: true });
  };
  return { config, storage, owner, cleanup };
}

export async function onPostgres(url: string, statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

/** The 99th percentile of `xs`. */
export const p99 = (xs: number[]) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * 0.99))]!;

/**
 * GET `base`/v1/health every `sampleMs` until `until` settles, one request at a time on a kept-alive connection (a
 * blocked server must not pile up thousands of connections); the latency of each, in ms. A request that takes
 * longer than `sampleMs` also stands for the samples that could not be sent meanwhile, each as long as it would
 * have waited (as HdrHistogram corrects coordinated omission), so a stall weighs in the p99 for its length.
 */
export async function sampleHealthUntil(base: string, until: Promise<unknown>, sampleMs: number): Promise<number[]> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const times: number[] = [];
  let done = false;
  void until.finally(() => (done = true));
  while (!done) {
    const t = performance.now();
    await new Promise<void>((resolve, reject) => {
      http
        .get(`${base}/v1/health`, { agent }, (res) => {
          res.resume();
          res.once('end', resolve);
        })
        .once('error', reject);
    });
    const ms = performance.now() - t;
    times.push(ms);
    for (let missed = ms - sampleMs; missed > 0; missed -= sampleMs) times.push(missed);
    await new Promise((r) => setTimeout(r, Math.max(0, sampleMs - ms)));
  }
  agent.destroy();
  return times;
}

export const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

/**
 * Writes `sections` × (1 + `perSection`) pages into a space as one new revision, made current: straight into the
 * database with the content model's writer, not through the API, so 100,000 pages take seconds, not an hour. Section
 * `s` has the slug `section-{s}`, its page `i` the slug `page-{i}`.
 */
export async function seedPages(
  db: Db,
  spaceId: string,
  userId: string,
  sections: number,
  perSection: number,
): Promise<void> {
  const space = (await findSpace(db, spaceId))!;
  const head = await revisionOfSpace(db, spaceId, space.revision_id);
  const writer = new RevisionWriter(new RevisionReader(db, head));
  const at = nowIso();
  const version = (title: string, slug: string, description?: string) =>
    writer.addObject({
      type: 'document',
      title,
      slug,
      ...(description ? { description } : {}),
      createdAt: at,
      updatedAt: at,
    });
  const tops: string[] = [];
  for (let s = 0; s < sections; s++) {
    const sectionId = newId();
    tops.push(sectionId);
    const children: string[] = [];
    for (let i = 0; i < perSection; i++) {
      const id = newId();
      children.push(id);
      const v = version(`Page ${s}.${i}`, `page-${i}`, i % 4 === 0 ? `What page ${i} of section ${s} is about` : '');
      writer.setEntry(id, { v, p: sectionId, c: [] });
    }
    writer.setEntry(sectionId, { v: version(`Section ${s}`, `section-${s}`), p: null, c: children });
  }
  writer.setEntry(ROOT, { c: tops } as never);
  await db.transaction().execute(async (tx) => {
    const roots = await (await writer.prepare()).write(tx);
    const id = newId();
    await insertRevision(tx, {
      id,
      space_id: spaceId,
      parents: JSON.stringify([head.id]),
      type: 'edits',
      created_by: userId,
      created_at: nowIso(),
      pages_root: roots.pages_root,
      files_root: roots.files_root,
      variables: head.variables,
      change_request_id: null,
    });
    await updateSpace(tx, spaceId, { revision_id: id });
  });
}

/** A JSON caller of the API at `base` with `token`: answers the parsed body, throws on a non-2xx answer. */
export function jsonCaller(base: string, token: string) {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON answers of several shapes
  return async (method: string, p: string, body?: unknown): Promise<any> => {
    const res = await fetch(base + p, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`${method} ${p}: ${res.status} ${text.slice(0, 500)}`);
    return text ? JSON.parse(text) : undefined;
  };
}

/** bench/stall-server.ts in a child process (`nodeArgs` before it, `env` added): once it prints its port. */
export async function startStallServer(nodeArgs: string[] = [], env: Record<string, string> = {}) {
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', ...nodeArgs, 'bench/stall-server.ts'], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, ...env },
  });
  const started = JSON.parse(
    await new Promise<string>((resolve, reject) => {
      createInterface({ input: child.stdout! }).on('line', (l) => l.startsWith('{') && resolve(l));
      child.once('exit', (code) => reject(new Error(`bench server exited with ${code}`)));
    }),
  ) as { port: number; token: string; org: string };
  return { child, started, base: `http://127.0.0.1:${started.port}` };
}

/** A free TCP port of the loopback interface. */
export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** A number of bytes from /proc/<pid>/status (VmHWM is the peak resident set size the kernel saw). */
export function procStatus(pid: number, field: 'VmHWM' | 'VmRSS'): number {
  const m = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
  return Number(m?.[1] ?? 0) * 1024;
}

/**
 * The compiled server (built into `built` by scripts/build-server.mjs) as `npm start` runs it, in a process of its
 * own that does nothing else (its RSS is the server's alone), on a fresh database (PostgreSQL: one of its own,
 * dropped after), with the bench owner's `token` and `env` added. Answers its address, its process and a function
 * that stops it and removes its data.
 */
export async function startCompiledServer(
  dialect: 'sqlite' | 'postgres',
  built: string,
  token: string,
  env: Record<string, string> = {},
) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ds-bench-server-data-'));
  let databaseUrl: string | undefined;
  let dropDatabase = async () => {};
  if (dialect === 'postgres') {
    const url = new URL(process.env.BENCH_DATABASE_URL!);
    const name = `bench_${crypto.randomBytes(6).toString('hex')}`;
    await onPostgres(url.href, `create database ${name}`);
    databaseUrl = Object.assign(new URL(url.href), { pathname: `/${name}` }).href;
    dropDatabase = () => onPostgres(url.href, `drop database ${name} with (force)`);
  }
  const port = await freePort();
  const child = spawn(process.execPath, [...serverNodeArgs(), path.join(built, 'server/main.js')], {
    env: {
      PATH: process.env.PATH,
      // As npm start sets it (glibc's allocator).
      ...serverEnv(),
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
      ADMIN_EMAIL: BENCH_ADMIN.email,
      ADMIN_PASSWORD: BENCH_ADMIN.password,
      ADMIN_TOKEN: token,
      LOG_LEVEL: 'warn',
      ...env,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const base = `http://127.0.0.1:${port}`;
  const exited = new Promise<never>((_, reject) =>
    child.once('exit', (code) => reject(new Error(`the benchmark's server exited (${code})`))),
  );
  exited.catch(() => {});
  for (let ready = false; !ready;) {
    ready = await Promise.race([
      fetch(`${base}/v1/health`).then(
        (r) => r.ok,
        () => false,
      ),
      exited,
    ]);
    if (!ready) await new Promise((resolve) => setTimeout(resolve, 200));
  }
  const stop = async () => {
    if (child.exitCode === null) {
      child.kill('SIGTERM');
      await new Promise((resolve) => child.once('exit', resolve));
    }
    await dropDatabase();
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
  return { base, child, stop };
}
