import pg from 'pg';
import {
  CompiledQuery,
  Kysely,
  Migrator,
  PostgresDialect,
  SqliteAdapter,
  sql,
  type RawBuilder,
  type Transaction,
} from 'kysely';
import type { StorageConfig } from '../config.js';
import type { Database } from './schema.js';
import { migrationProvider } from './migrations/index.js';
import { openSqlite } from './sqlite.js';

export type Db = Kysely<Database>;
export type Tx = Transaction<Database>;
/** A handle that queries run on: the database, or a transaction its caller owns. */
export type Executor = Db | Tx;

export interface Storage {
  db: Db;
  kind: 'sqlite' | 'postgres';
  /** PostgreSQL schema the tables live in, when not the default one. */
  schema?: string;
  close(): Promise<void>;
}

/** A unique constraint (or primary key) refused a write, on PostgreSQL (23505) or SQLite. */
export function isUniqueViolation(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}

/** Whether queries on `db` run on SQLite (for the few that differ by database, as indexes of search do). */
export function isSqlite(db: Executor): boolean {
  return db.getExecutor().adapter instanceof SqliteAdapter;
}

/**
 * A query of the hot path (authentication runs on every request), compiled once per database kind: Kysely
 * compiles a `sql` template on every call, which for these costs about a tenth of running them. `build` must use
 * each of its parameters once, in the order it takes them (checked on the first compile).
 */
export function fixedQuery<R, P extends unknown[]>(build: (...params: P) => RawBuilder<R>) {
  const texts: { sqlite?: string; postgres?: string } = {};
  return async (db: Executor, ...params: P): Promise<R[]> => {
    const kind = isSqlite(db) ? 'sqlite' : 'postgres';
    let text = texts[kind];
    if (text === undefined) {
      const compiled = build(...params).compile(db);
      const inOrder =
        compiled.parameters.length === params.length && compiled.parameters.every((v, i) => v === params[i]);
      if (!inOrder) throw new Error('fixedQuery: the template must use each parameter once, in order');
      text = texts[kind] = compiled.sql;
    }
    return (await db.executeQuery<R>(CompiledQuery.raw(text, params))).rows;
  };
}

// PostgreSQL returns BIGINT counts as strings; counts here always fit in a JS number.
pg.types.setTypeParser(20, (v) => Number(v));

/** Empties a SQLite storage's statement caches (see sqlite.ts), by its Kysely instance. */
const statementCaches = new WeakMap<Db, () => void>();

export function openStorage(config: StorageConfig): Storage {
  if (config.kind === 'sqlite') {
    const { db, clearStatements, close } = openSqlite(config.file);
    statementCaches.set(db, clearStatements);
    return { db, kind: 'sqlite', close };
  }
  const pool = new pg.Pool({
    connectionString: config.url,
    max: 10,
    // A test suite isolates itself in its own schema.
    options: config.schema ? `-c search_path=${config.schema}` : undefined,
  });
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  return { db, kind: 'postgres', schema: config.schema, close: () => db.destroy() };
}

/**
 * Applies every pending migration; throws with the failing migration's name. Several processes may start at
 * once: Kysely's migration lock makes one apply and the others wait. The bookkeeping tables are named in the
 * storage's schema, since the migrator looks for them across all schemas otherwise. On SQLite, run it before the
 * process serves anything: Kysely's lock there counts on one reserved connection, and this process's other
 * queries would run between the migration's statements (see sqlite.ts).
 */
export async function migrate(storage: Pick<Storage, 'db' | 'schema'>): Promise<void> {
  const { db, schema } = storage;
  const migrator = new Migrator({ db, provider: migrationProvider, migrationTableSchema: schema });
  const { error, results } = await migrator.migrateToLatest();
  statementCaches.get(db)?.();
  const failed = results?.find((r) => r.status === 'Error');
  if (error) {
    throw new Error(`Migration ${failed?.migrationName ?? ''} failed: ${String((error as Error).message ?? error)}`);
  }
}

/** Key of the PostgreSQL advisory lock held while a process migrates and bootstraps. */
const STARTUP_LOCK_KEY = 4_611_686_018;

/**
 * Runs start-up work (migrations, the first owner) in one process at a time. On PostgreSQL, several processes
 * started at once on one database take a session advisory lock on one connection: the first migrates and
 * creates the owner, the others wait, then find nothing left to do. SQLite serializes writers itself.
 */
export async function withStartupLock<T>(storage: Storage, fn: (db: Db) => Promise<T>): Promise<T> {
  if (storage.kind !== 'postgres') return fn(storage.db);
  return storage.db.connection().execute(async (db) => {
    await sql`select pg_advisory_lock(${STARTUP_LOCK_KEY})`.execute(db);
    try {
      return await fn(db);
    } finally {
      await sql`select pg_advisory_unlock(${STARTUP_LOCK_KEY})`.execute(db);
    }
  });
}

/**
 * Runs `fn` in a transaction. On SQLite, writes are serialized by the database itself (one writer); on
 * PostgreSQL, callers that read-then-write take row locks with `forUpdate()` where it matters.
 */
export async function transaction<T>(db: Db, fn: (tx: Tx) => Promise<T>): Promise<T> {
  const hooks: Array<() => void> = [];
  const result = await db.transaction().execute((tx) => {
    commitHooks.set(tx, hooks);
    return fn(tx);
  });
  for (const hook of hooks) hook();
  return result;
}

const commitHooks = new WeakMap<Executor, Array<() => void>>();

/** PostgreSQL's "deadlock detected": one of the two transactions was rolled back, and may be run again. */
export function isDeadlock(err: unknown): boolean {
  return typeof err === 'object' && err !== null && (err as { code?: unknown }).code === '40P01';
}

/**
 * `transaction(db, fn)`, run again (at most `attempts` times in all) when PostgreSQL chose it as a deadlock's victim:
 * for a transaction that takes many rows' locks through cascades (deleting an organization) while background work
 * (jobs) writes rows that reference them.
 */
export async function transactionRetryingDeadlocks<T>(db: Db, fn: (tx: Tx) => Promise<T>, attempts = 3): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await transaction(db, fn);
    } catch (err) {
      if (attempt >= attempts || !isDeadlock(err)) throw err;
    }
  }
}

/**
 * Runs `fn` once what `db` wrote is committed: after the transaction of `transaction()` it belongs to commits (never
 * if it rolls back), or at once for writes made outside a transaction. E.g. waking the job queue for a job just
 * enqueued: a look before the commit would find nothing.
 */
export function afterCommit(db: Executor, fn: () => void): void {
  const hooks = commitHooks.get(db);
  if (hooks) hooks.push(fn);
  else if (!db.isTransaction) fn();
  else setTimeout(fn, 25).unref(); // a transaction opened elsewhere: its commit is not seen, so look a moment later
}

export async function ping(db: Db): Promise<void> {
  await sql`select 1`.execute(db);
}
