import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import {
  CompiledQuery,
  Kysely,
  Migrator,
  PostgresDialect,
  SqliteAdapter,
  SqliteDialect,
  sql,
  type RawBuilder,
  type Transaction,
} from 'kysely';
import type { StorageConfig } from '../config.js';
import type { Database } from './schema.js';
import { migrationProvider } from './migrations/index.js';

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

/** What Kysely's SQLite driver calls on a prepared statement. */
interface DriverStatement {
  readonly reader: boolean;
  all(parameters: readonly unknown[]): unknown[];
  run(parameters: readonly unknown[]): SQLite.RunResult;
  iterate(parameters: readonly unknown[]): IterableIterator<unknown>;
}

/**
 * A prepared statement whose rows are read as arrays and built into objects by a constructor compiled for its
 * columns. better-sqlite3 builds each row object property by property through V8's API, which for a row of 30
 * columns costs as much as the query; the compiled literal costs a tenth of that and makes objects of one
 * shape, which the code reading them then reads faster too. Duplicate column names keep the last value, as
 * better-sqlite3's own rows do. The columns are those of the schema the statement was prepared on: the cache is
 * emptied after migrations (the only DDL that changes columns; search's rebuild recreates its table alike).
 */
function fastRows(statement: SQLite.Statement): DriverStatement {
  if (!statement.reader) return statement as unknown as DriverStatement;
  const compile = () => {
    const fields = statement.columns().map((c, i) => `${JSON.stringify(c.name)}: r[${i}]`);
    // The column names go in quoted by JSON.stringify.
    return { width: fields.length, build: new Function('r', `return { ${fields.join(', ')} };`) as RowBuilder };
  };
  let row = compile();
  const raw = statement.raw(true);
  // A row of another width: the schema changed under a cached statement (a test migrating step by step).
  const built = (r: unknown[]) => {
    if (r.length !== row.width) row = compile();
    return row.build(r);
  };
  return {
    reader: true,
    all: (parameters) => (raw.all(parameters) as unknown[][]).map(built),
    run: (parameters) => raw.run(parameters),
    *iterate(parameters) {
      for (const r of raw.iterate(parameters) as IterableIterator<unknown[]>) yield built(r);
    },
  };
}

type RowBuilder = (r: unknown[]) => unknown;

/**
 * Kysely prepares every query anew; on better-sqlite3 preparing costs about as much as running a simple
 * query. Queries are few and repeat, so prepared statements are kept by SQL text (a bounded map), each with
 * its compiled row constructor (fastRows).
 */
function withStatementCache(database: SQLite.Database, max = 500) {
  const cache = new Map<string, DriverStatement>();
  const prepare = database.prepare.bind(database);
  const proxy = new Proxy(database, {
    get(target, prop, receiver) {
      if (prop !== 'prepare') return Reflect.get(target, prop, receiver) as unknown;
      return (source: string) => {
        let statement = cache.get(source);
        if (!statement) {
          if (cache.size >= max) cache.delete(cache.keys().next().value!);
          statement = fastRows(prepare(source));
          cache.set(source, statement);
        }
        return statement;
      };
    },
  });
  return { database: proxy, clear: () => cache.clear() };
}

/** Empties a SQLite storage's statement cache (see fastRows), by its Kysely instance. */
const statementCaches = new WeakMap<Db, () => void>();

export function openStorage(config: StorageConfig): Storage {
  if (config.kind === 'sqlite') {
    if (config.file !== ':memory:') fs.mkdirSync(path.dirname(path.resolve(config.file)), { recursive: true });
    const database = new SQLite(config.file);
    database.pragma('journal_mode = WAL');
    database.pragma('foreign_keys = ON');
    database.pragma('busy_timeout = 5000');
    database.pragma('synchronous = NORMAL');
    // SQLite's lower() folds ASCII only; PostgreSQL's folds all of Unicode. Searches must match alike.
    database.function('lower', { deterministic: true }, (value: unknown) =>
      typeof value === 'string' ? value.toLowerCase() : value,
    );
    const statements = withStatementCache(database);
    const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: statements.database }) });
    statementCaches.set(db, statements.clear);
    return { db, kind: 'sqlite', close: () => db.destroy() };
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
 * storage's schema, since the migrator looks for them across all schemas otherwise.
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
export function transaction<T>(db: Db, fn: (tx: Tx) => Promise<T>): Promise<T> {
  return db.transaction().execute(fn);
}

export async function ping(db: Db): Promise<void> {
  await sql`select 1`.execute(db);
}
