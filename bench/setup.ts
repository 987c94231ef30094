// Shared by the benchmarks: a fresh SQLite database (or a fresh PostgreSQL schema) with its owner.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { openStorage, migrate } from '../src/server/storage/db.js';
import { bootstrapOwner } from '../src/server/domain/auth/service.js';
import type { Config } from '../src/server/config.js';

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
    admin: { email: 'bench@example.com', password: 'bench-password', token },
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

async function onPostgres(url: string, statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

export const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};
