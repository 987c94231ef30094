import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import crypto from 'node:crypto';
import { describe, inject, vi } from 'vitest';
import type { Config, StorageConfig } from '../config.js';
import { Migrator } from 'kysely';
import { openStorage, type Storage } from '../storage/db.js';
import { migrationProvider } from '../storage/migrations/index.js';
import { buildApp, type AppDeps } from '../app.js';
import { bootstrapOwner } from '../domain/auth/service.js';
import { workers } from '../workers/pool.js';
import type { Role } from '../../shared/contract/common.js';
import { databaseUrl, onServer } from './postgres.js';

/**
 * The integration suite runs on SQLite always, and on PostgreSQL too when TEST_DATABASE_URL is set. vitest.config.ts
 * runs each database as a project of its own, naming it in TEST_DIALECTS.
 */
export const DIALECTS: Array<'sqlite' | 'postgres'> = process.env.TEST_DIALECTS
  ? (process.env.TEST_DIALECTS.split(',') as Array<'sqlite' | 'postgres'>)
  : process.env.TEST_DATABASE_URL
    ? ['sqlite', 'postgres']
    : ['sqlite'];

/** `describe` once per database. */
export function describeEachDialect(name: string, fn: (dialect: 'sqlite' | 'postgres') => void): void {
  for (const dialect of DIALECTS) describe(`${name} [${dialect}]`, () => fn(dialect));
}

// The worker threads of test servers run the tasks compiled by global-setup.ts (see workers/entry.mjs).
process.env.DOCSPACE_WORKER_TASKS = path.join(inject('serverBuild'), 'server/workers/tasks.js');
// A task's time limit is production's 10 s only where a test sets it (workers.test.ts, pool.test.ts): on a loaded
// 2-core machine running four suites at once, parsing 10,000 blocks can take longer than that without anything
// being wrong.
export const TEST_WORKER_TIMEOUT_MS = 60_000;
workers.configure({ timeoutMs: TEST_WORKER_TIMEOUT_MS, queueTimeoutMs: 2 * TEST_WORKER_TIMEOUT_MS });

/**
 * Runs `fn` with the clock (Date only) `ms` ahead and standing still, for a step whose timestamps must come after
 * the previous step's: the test servers run in the test's process, so they read this clock too. Timers are not
 * faked, so requests and their time limits run as usual.
 */
export async function withClockAhead<T>(ms: number, fn: () => Promise<T>): Promise<T> {
  const ahead = Date.now() + ms;
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(ahead);
  try {
    return await fn();
  } finally {
    vi.useRealTimers();
  }
}

export const OWNER_EMAIL = 'owner@example.com';
export const OWNER_PASSWORD = 'owner-password-1';
/** The password of every account `server.member()` signs up. */
export const MEMBER_PASSWORD = 'a-good-password';
/** Integrations' settings of the suites that run scripts: their endpoints on a host of their own. */
export const INTEGRATIONS_ON_OWN_HOST = {
  egress: true,
  egressAllow: [],
  processesMax: 16,
  heapMb: 128,
  origin: 'http://integrations.test',
};
export const OWNER_TOKEN = 'test-owner-token-0123456789abcdefghijklmnop';

export interface ApiResponse<T = any> {
  status: number;
  body: T;
  headers: Headers;
}

export interface TestUser {
  id: string;
  email: string;
  token: string;
}

export interface TestServer {
  url: string;
  storage: Storage;
  config: Config;
  owner: TestUser;
  /** The owner's first organization. */
  orgId: string;
  request<T = any>(
    method: string,
    path: string,
    opts?: { token?: string | null; body?: unknown; rawBody?: string; headers?: Record<string, string> },
  ): Promise<ApiResponse<T>>;
  /** Runs the background jobs that are due now, and those already running, to their end. */
  drainJobs(): Promise<void>;
  /** Follows the verification link mailed to `email` (an account signed up by the test itself). */
  verifyEmail(email: string): Promise<void>;
  /** The newest message of `kind` to `email` in the owner's outbox (a server without SMTP keeps them there). */
  heldMail(email: string, kind: string): Promise<{ id: string; subject: string; text: string; state: string }>;
  /**
   * A new account (through the real sign-up endpoint), its address verified by following the mailed link (read from
   * the owner's outbox) unless `verify: false` or the server has SMTP (then the test reads its own mail).
   */
  signup(prefix?: string, opts?: { verify?: boolean }): Promise<TestUser>;
  /** A new account that joins `orgId` with `role` through an invite link made by the owner. */
  member(role: Role | null, orgId?: string): Promise<TestUser>;
  close(): Promise<void>;
}

/**
 * A fresh database for `dialect`, migrated to the latest schema unless `empty`: a copy of the SQLite file, or a
 * PostgreSQL database cloned from the template, that global-setup.ts migrated once for the whole run. `drop`
 * removes the SQLite file; the run's PostgreSQL databases are dropped together when it ends.
 */
/**
 * A new empty database (dropped by `drop`), with a migrator over it, brought to migration `name`: for testing what a
 * later migration does to the rows it finds.
 */
export async function storageAtMigration(
  dialect: 'sqlite' | 'postgres',
  name: string,
): Promise<{ storage: Storage; drop: () => Promise<void>; migrator: Migrator }> {
  const fresh = await storageFor(dialect, { empty: true });
  const storage = openStorage(fresh.storage);
  const migrator = new Migrator({ db: storage.db, provider: migrationProvider, migrationTableSchema: storage.schema });
  const { error } = await migrator.migrateTo(name);
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return { storage, drop: fresh.drop, migrator };
}

/** A fresh database of the latest schema, opened (`close` closes it and drops it): a suite's own storage. */
export async function openFreshStorage(
  dialect: 'sqlite' | 'postgres',
): Promise<{ storage: Storage; close: () => Promise<void> }> {
  const fresh = await storageFor(dialect);
  const storage = openStorage(fresh.storage);
  return {
    storage,
    close: async () => {
      await storage.close();
      await fresh.drop();
    },
  };
}

export async function storageFor(
  dialect: 'sqlite' | 'postgres',
  { empty = false }: { empty?: boolean } = {},
): Promise<{ storage: StorageConfig; drop: () => Promise<void> }> {
  const name = crypto.randomBytes(6).toString('hex');
  if (dialect === 'sqlite') {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ds-test-'));
    const file = path.join(dir, 'test.sqlite');
    if (!empty) fs.copyFileSync(inject('sqliteTemplate'), file);
    return {
      storage: { kind: 'sqlite', file },
      drop: async () => fs.rmSync(dir, { recursive: true, force: true }),
    };
  }
  const url = process.env.TEST_DATABASE_URL!;
  const database = `${inject('postgresPrefix')}${name}`;
  await onServer(url, (client) =>
    client.query(`create database ${database}${empty ? '' : ` template ${inject('postgresTemplate')}`}`),
  );
  return { storage: { kind: 'postgres', url: databaseUrl(url, database) }, drop: async () => {} };
}

export async function startTestServer(
  dialect: 'sqlite' | 'postgres',
  overrides: Partial<Config> = {},
  appOverrides: Partial<Pick<AppDeps, 'openApi' | 'jobs'>> = {},
): Promise<TestServer> {
  const { storage: storageConfig, drop } = await storageFor(dialect);
  const config: Config = {
    port: 0,
    host: '127.0.0.1',
    dataDir: os.tmpdir(),
    storage: storageConfig,
    publicUrl: 'http://docs.test',
    admin: { email: OWNER_EMAIL, password: OWNER_PASSWORD, token: OWNER_TOKEN },
    signup: 'open',
    logLevel: 'silent',
    sessionTtlSeconds: 3600,
    trustProxy: false,
    allowPrivateFetch: false,
    samlIdpInitiatedProviders: [],
    requestTimeoutSeconds: 30,
    dnsServers: [],
    workers: { timeoutSeconds: 10 },
    // Test servers sign up hundreds of accounts: a cheap scrypt (about 2 ms, not 70). secrets.test.ts keeps the
    // production strength tested.
    passwordHashCost: 10,
    ...overrides,
  };
  // Already migrated (storageFor).
  const storage = openStorage(config.storage);
  const { app, jobs } = await buildApp({
    config,
    db: storage.db,
    consoleRoot: path.join(os.tmpdir(), 'no-console-here'),
    checkResponses: true,
    ...appOverrides,
  });
  const owner = await bootstrapOwner(storage.db, config);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;

  const request: TestServer['request'] = async (method, p, opts = {}) => {
    const headers: Record<string, string> = { ...(opts.headers ?? {}) };
    const token = opts.token === undefined ? OWNER_TOKEN : opts.token;
    if (token) headers.authorization = `Bearer ${token}`;
    let body: string | undefined = opts.rawBody;
    if (opts.body !== undefined) {
      body = JSON.stringify(opts.body);
      headers['content-type'] ??= 'application/json';
    }
    const res = await fetch(url + p, { method, headers, body });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      // not JSON: keep the text
    }
    return { status: res.status, body: parsed as never, headers: res.headers };
  };

  const meRes = await request('GET', '/v1/user');
  const ownerUser: TestUser = { id: meRes.body.id, email: OWNER_EMAIL, token: OWNER_TOKEN };
  let counter = 0;
  const signup: TestServer['signup'] = async (prefix = 'user', opts = {}) => {
    counter += 1;
    const email = `${prefix}${counter}-${crypto.randomBytes(3).toString('hex')}@example.com`;
    const res = await request('POST', '/v1/auth/signup', {
      token: null,
      body: { email, password: MEMBER_PASSWORD, displayName: `${prefix} ${counter}` },
    });
    if (res.status !== 201) throw new Error(`signup failed: ${res.status} ${JSON.stringify(res.body)}`);
    if (opts.verify !== false && !config.smtp) await verifyFromOutbox(email);
    return { id: res.body.user.id, email, token: res.body.token };
  };

  /**
   * Follows the verification link mailed to `email`, read as the instance owner reads it without SMTP (the outbox):
   * accounts of the suites have verified addresses, as people who follow their mail do.
   */
  const heldMail: TestServer['heldMail'] = async (email, kind) => {
    const list = await request('GET', `/v1/instance/outbox?to=${encodeURIComponent(email)}`);
    const item = list.body.items.find((m: { kind: string }) => m.kind === kind);
    if (!item) throw new Error(`no ${kind} mail to ${email}`);
    return (await request('GET', `/v1/instance/outbox/${item.id}`)).body;
  };
  const verifyFromOutbox = async (email: string) => {
    const message = await heldMail(email, 'verify-email');
    const secret = /\/verify-email#(\S+)/.exec(message.text)?.[1];
    const res = await request('POST', '/v1/auth/verify-email', { token: null, body: { token: secret } });
    if (res.status !== 200) throw new Error(`verification failed: ${res.status} ${JSON.stringify(res.body)}`);
  };

  const member: TestServer['member'] = async (role, orgId = owner!.organizationId) => {
    const user = await signup(role ?? 'guest');
    const link = await request('POST', `/v1/orgs/${orgId}/link-invites`, { body: { role } });
    if (link.status !== 201) throw new Error(`invite failed: ${link.status} ${JSON.stringify(link.body)}`);
    const joined = await request('POST', `/v1/orgs/${orgId}/invites/${link.body.id}`, { token: user.token });
    if (joined.status !== 200) throw new Error(`join failed: ${joined.status} ${JSON.stringify(joined.body)}`);
    return user;
  };

  return {
    url,
    storage,
    config,
    owner: ownerUser,
    orgId: owner!.organizationId,
    request,
    drainJobs: async () => jobs?.drain(),
    heldMail,
    verifyEmail: verifyFromOutbox,
    signup,
    member,
    close: async () => {
      await app.close();
      await storage.close();
      await drop();
    },
  };
}
