import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import SQLite from 'better-sqlite3';
import {
  CompiledQuery,
  Kysely,
  SelectQueryNode,
  SqliteDialect,
  type DatabaseConnection,
  type Driver,
  type QueryResult,
} from 'kysely';
import type { Database } from './schema.js';

/** What the driver calls on a prepared statement. */
interface DriverStatement {
  readonly reader: boolean;
  /** Whether the statement leaves the database as it is (a read): it may then run on the reading connection. */
  readonly readonly: boolean;
  all(parameters: readonly unknown[]): unknown[];
  run(parameters: readonly unknown[]): SQLite.RunResult;
  iterate(parameters: readonly unknown[]): IterableIterator<unknown>;
}

type RowBuilder = (r: unknown[]) => unknown;

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
    readonly: statement.readonly,
    all: (parameters) => (raw.all(parameters) as unknown[][]).map(built),
    run: (parameters) => raw.run(parameters),
    *iterate(parameters) {
      for (const r of raw.iterate(parameters) as IterableIterator<unknown[]>) yield built(r);
    },
  };
}

/**
 * Kysely prepares every query anew; on better-sqlite3 preparing costs about as much as running a simple
 * query. Queries are few and repeat, so prepared statements are kept by SQL text (a bounded map), each with
 * its compiled row constructor (fastRows).
 */
class Statements {
  private cache = new Map<string, DriverStatement>();

  constructor(
    readonly database: SQLite.Database,
    private readonly max = 500,
  ) {}

  /** The statement prepared for `source`, if it is kept (nothing is prepared). */
  kept(source: string): DriverStatement | undefined {
    return this.cache.get(source);
  }

  get(source: string): DriverStatement {
    let statement = this.cache.get(source);
    if (!statement) {
      if (this.cache.size >= this.max) this.cache.delete(this.cache.keys().next().value!);
      statement = fastRows(this.database.prepare(source));
      this.cache.set(source, statement);
    }
    return statement;
  }

  clear(): void {
    this.cache.clear();
  }
}

function execute(statements: Statements, query: CompiledQuery): QueryResult<never> {
  return run(statements.get(query.sql), query);
}

function run(statement: DriverStatement, { parameters }: CompiledQuery): QueryResult<never> {
  if (statement.reader) return { rows: statement.all(parameters) as never[] };
  const { changes, lastInsertRowid } = statement.run(parameters);
  return { numAffectedRows: BigInt(changes), insertId: BigInt(lastInsertRowid), rows: [] };
}

/** One holder at a time of the writing connection, in the order they asked. */
class Mutex {
  private tail: Promise<void> = Promise.resolve();
  held = false;

  async lock(): Promise<() => void> {
    let release!: () => void;
    const previous = this.tail;
    this.tail = new Promise<void>((resolve) => (release = resolve));
    await previous;
    this.held = true;
    return () => {
      this.held = false;
      release();
    };
  }
}

/**
 * SQLite's driver, with two connections to one file: the one every write and transaction uses, and a read-only one
 * for reads that arrive while a transaction holds the first. Kysely's own driver has one connection behind a
 * mutex, so a long transaction (the merge of an import of 100,000 pages, seconds) made every other request wait for
 * it, even /v1/health and the reads of published pages. A query outside a transaction runs on the writing
 * connection when it is free (better-sqlite3 is synchronous: it runs whole, nothing else between), as before; when
 * a transaction holds that connection, a read runs at once on the reading one (in WAL mode it sees what was last
 * committed, as a query outside the transaction would), and a write waits its turn. Writes still take turns, as
 * SQLite's one writer requires.
 */
class SharedSqliteDriver implements Driver {
  private readonly mutex = new Mutex();

  constructor(
    private readonly writer: Statements,
    private readonly reader: Statements | undefined,
  ) {}

  async init(): Promise<void> {}

  async acquireConnection(): Promise<DatabaseConnection> {
    return new RoutedConnection(this.writer, this.reader, this.mutex);
  }

  async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await (connection as RoutedConnection).pin();
    await connection.executeQuery(CompiledQuery.raw('begin'));
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('commit'));
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('rollback'));
  }

  async savepoint(connection: DatabaseConnection, name: string): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw(`savepoint ${quoteName(name)}`));
  }

  async rollbackToSavepoint(connection: DatabaseConnection, name: string): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw(`rollback to ${quoteName(name)}`));
  }

  async releaseSavepoint(connection: DatabaseConnection, name: string): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw(`release ${quoteName(name)}`));
  }

  async releaseConnection(connection: DatabaseConnection): Promise<void> {
    (connection as RoutedConnection).unpin();
  }

  async destroy(): Promise<void> {
    this.reader?.database.close();
    this.writer.database.close();
  }
}

const quoteName = (name: string) => `"${name.replaceAll('"', '""')}"`;

/**
 * A connection as Kysely sees it: in a transaction (pinned), every query runs on the writing connection it holds;
 * outside one, each query goes where it can run now (see SharedSqliteDriver).
 */
class RoutedConnection implements DatabaseConnection {
  private release: (() => void) | undefined;

  constructor(
    private readonly writer: Statements,
    private readonly reader: Statements | undefined,
    private readonly mutex: Mutex,
  ) {}

  async pin(): Promise<void> {
    this.release ??= await this.mutex.lock();
  }

  unpin(): void {
    const release = this.release;
    this.release = undefined;
    release?.();
  }

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    if (this.release || !this.mutex.held) return execute(this.writer, query) as QueryResult<R>;
    const read = this.readable(query.sql);
    if (read) return run(read, query) as QueryResult<R>;
    const release = await this.mutex.lock();
    try {
      return execute(this.writer, query) as QueryResult<R>;
    } finally {
      release();
    }
  }

  /**
   * The statement on the reading connection, when `sql` only reads. A write the writing connection already knows
   * is not prepared there too. A statement the reading connection cannot prepare (a table the transaction holding
   * the writing one created) waits for the writing connection.
   */
  private readable(sql: string): DriverStatement | undefined {
    if (!this.reader) return undefined;
    const known = this.writer.kept(sql);
    if (known && !(known.reader && known.readonly)) return undefined;
    let statement: DriverStatement;
    try {
      statement = this.reader.get(sql);
    } catch {
      return undefined;
    }
    return statement.reader && statement.readonly ? statement : undefined;
  }

  /** Rows one at a time: the writing connection is held meanwhile (better-sqlite3 runs nothing else on a
   * connection while a statement of it is being iterated). */
  async *streamQuery<R>(query: CompiledQuery): AsyncIterableIterator<QueryResult<R>> {
    if (!SelectQueryNode.is(query.query)) throw new Error('SQLite streams select queries only');
    const release = this.release ? undefined : await this.mutex.lock();
    try {
      for (const row of this.writer.get(query.sql).iterate(query.parameters)) yield { rows: [row as R] };
    } finally {
      release?.();
    }
  }
}

/** The checkpointer's thread: a script of its own (eval), so that it needs no build step. */
const CHECKPOINTER = `
const { workerData, parentPort } = require('node:worker_threads');
const Database = require(workerData.module);
const db = new Database(workerData.file, { fileMustExist: true });
const checkpoint = () => {
  try {
    db.pragma('wal_checkpoint(PASSIVE)');
  } catch {
    // Busy or closing: the next turn tries again.
  }
};
const timer = setInterval(checkpoint, workerData.everyMs);
parentPort.once('message', () => {
  clearInterval(timer);
  // The last connection to close checkpoints the whole log and removes it.
  db.close();
  parentPort.postMessage('closed');
});
`;

/**
 * Copies the write-ahead log into the database file on a thread of its own, every `everyMs`, in PASSIVE mode (it
 * never waits for, nor blocks, a reader or the writer). SQLite's own automatic checkpoint runs inside the commit
 * that crosses 1,000 pages of log, on the event loop: it cost a third of all commit time in a run of edits and
 * held the loop for 50 ms after a large merge. Closing it (after the other connections) makes it the last
 * connection, whose close checkpoints everything.
 */
function startCheckpointer(file: string, everyMs = 500): { close(): Promise<void> } {
  const worker = new Worker(CHECKPOINTER, {
    eval: true,
    workerData: { file, everyMs, module: createRequire(import.meta.url).resolve('better-sqlite3') },
  });
  worker.unref();
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  return {
    close: async () => {
      const closed = new Promise<void>((resolve) => worker.once('message', () => resolve()));
      worker.postMessage('close');
      await Promise.race([closed, exited]);
      await worker.terminate();
    },
  };
}

export interface SqliteStorage {
  db: Kysely<Database>;
  /** Empties the statement caches (after migrations: see fastRows). */
  clearStatements(): void;
  close(): Promise<void>;
}

/**
 * Opens the SQLite database `file` (WAL, foreign keys, the Unicode lower() PostgreSQL has) with its two
 * connections; an in-memory or temporary database, or one that cannot be in WAL mode, has the writing one only.
 */
export function openSqlite(file: string): SqliteStorage {
  const memory = file === ':memory:' || file === '';
  if (!memory) fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  const writer = new SQLite(file);
  const wal = writer.pragma('journal_mode = WAL', { simple: true }) === 'wal';
  writer.pragma('foreign_keys = ON');
  writer.pragma('busy_timeout = 5000');
  writer.pragma('synchronous = NORMAL');
  // Only in WAL mode do reads go on beside a transaction; otherwise a large one locks readers out (and a read
  // would wait for it on the event loop, up to busy_timeout).
  const reader = memory || !wal ? undefined : new SQLite(file, { readonly: true });
  // Checkpoints off the event loop (see startCheckpointer); a log that grew large is cut back when it restarts.
  const checkpointer = reader && startCheckpointer(path.resolve(file));
  if (checkpointer) {
    writer.pragma('wal_autocheckpoint = 0');
    writer.pragma(`journal_size_limit = ${64 * 1024 * 1024}`);
  }
  reader?.pragma('busy_timeout = 5000');
  for (const database of [writer, reader]) {
    // SQLite's lower() folds ASCII only; PostgreSQL's folds all of Unicode. Searches must match alike.
    database?.function('lower', { deterministic: true }, (value: unknown) =>
      typeof value === 'string' ? value.toLowerCase() : value,
    );
  }
  const statements = { writer: new Statements(writer), reader: reader && new Statements(reader) };
  const driver = new SharedSqliteDriver(statements.writer, statements.reader);
  class Dialect extends SqliteDialect {
    override createDriver(): Driver {
      return driver;
    }
  }
  const db = new Kysely<Database>({ dialect: new Dialect({ database: writer }) });
  return {
    db,
    clearStatements: () => {
      statements.writer.clear();
      statements.reader?.clear();
    },
    close: async () => {
      await db.destroy();
      await checkpointer?.close();
    },
  };
}
