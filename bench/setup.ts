// Shared by the benchmarks: a fresh SQLite database with its owner, and the app over it.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openStorage, migrate } from '../src/server/storage/db.js';
import { bootstrapOwner } from '../src/server/domain/auth/service.js';
import type { Config } from '../src/server/config.js';

export async function benchDatabase(token: string) {
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
  const storage = openStorage(config.storage);
  await migrate(storage);
  const owner = (await bootstrapOwner(storage.db, config))!;
  const cleanup = async () => {
    await storage.close();
    fs.rmSync(dir, { recursive: true, force: true });
  };
  return { config, storage, owner, cleanup };
}

export const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};
