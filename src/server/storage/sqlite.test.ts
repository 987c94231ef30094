import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { openSqlite, type SqliteStorage } from './sqlite.js';

/** The SQLite driver's two connections: reads are not held up by another request's transaction. */
const opened: Array<{ storage: SqliteStorage; dir: string }> = [];
afterEach(async () => {
  for (const { storage, dir } of opened.splice(0)) {
    await storage.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

async function open() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ds-sqlite-'));
  const storage = openSqlite(path.join(dir, 'db.sqlite'));
  opened.push({ storage, dir });
  await sql`create table t (id integer primary key, v text)`.execute(storage.db);
  await sql`insert into t (v) values ('committed')`.execute(storage.db);
  return storage.db;
}

/** A transaction that writes, then stays open until `done` is called. */
function holdTransaction(db: SqliteStorage['db']) {
  let done!: () => void;
  const finish = new Promise<void>((resolve) => (done = resolve));
  let started!: () => void;
  const begun = new Promise<void>((resolve) => (started = resolve));
  const tx = db.transaction().execute(async (t) => {
    await sql`insert into t (v) values ('uncommitted')`.execute(t);
    started();
    await finish;
    // Inside the transaction its own write is visible.
    return (await sql<{ n: number }>`select count(*) as n from t`.execute(t)).rows[0]!.n;
  });
  return { begun, done, tx };
}

const values = async (db: SqliteStorage['db']) =>
  (await sql<{ v: string }>`select v from t order by id`.execute(db)).rows.map((r) => r.v);

describe('SQLite storage', () => {
  it('answers a read at once while another transaction holds the writing connection, with what was committed', async () => {
    const db = await open();
    const held = holdTransaction(db);
    await held.begun;
    // Kysely's own driver would wait here until the transaction ended (it never would: the test holds it).
    expect(await values(db)).toEqual(['committed']);
    held.done();
    expect(await held.tx).toBe(2);
    expect(await values(db)).toEqual(['committed', 'uncommitted']);
  });

  it('makes a write wait for the transaction holding the writing connection, then applies it', async () => {
    const db = await open();
    const held = holdTransaction(db);
    await held.begun;
    let written = false;
    const write = sql`insert into t (v) values ('after')`.execute(db).then(() => (written = true));
    await new Promise((r) => setTimeout(r, 50));
    expect(written).toBe(false);
    held.done();
    await Promise.all([held.tx, write]);
    expect(await values(db)).toEqual(['committed', 'uncommitted', 'after']);
  });

  it('makes a read of a table the transaction holding the writing connection created wait for it', async () => {
    const db = await open();
    let created!: () => void;
    const begun = new Promise<void>((resolve) => (created = resolve));
    let finish!: () => void;
    const done = new Promise<void>((resolve) => (finish = resolve));
    const tx = db.transaction().execute(async (t) => {
      await sql`create table fresh (id integer primary key)`.execute(t);
      await sql`insert into fresh (id) values (1)`.execute(t);
      created();
      await done;
    });
    await begun;
    // The reading connection cannot prepare it (no such table there yet): the read waits, then finds the row.
    const read = sql<{ n: number }>`select count(*) as n from fresh`.execute(db);
    finish();
    await tx;
    expect((await read).rows[0]!.n).toBe(1);
  });

  it('runs transactions one after the other, a rolled-back one leaving nothing, savepoints included', async () => {
    const db = await open();
    const failing = db.transaction().execute(async (t) => {
      await sql`insert into t (v) values ('rolled back')`.execute(t);
      await new Promise((r) => setTimeout(r, 20));
      throw new Error('no');
    });
    const second = (async () => {
      const t = await db.startTransaction().execute();
      await sql`insert into t (v) values ('second')`.execute(t);
      const nested = await t.savepoint('inner').execute();
      await sql`insert into t (v) values ('undone')`.execute(nested);
      await nested.rollbackToSavepoint('inner').execute();
      await t.commit().execute();
    })();
    await expect(failing).rejects.toThrow('no');
    await second;
    expect(await values(db)).toEqual(['committed', 'second']);
  });

  it('copies the log into the database file on a thread of its own, not in the commits', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ds-sqlite-'));
    const file = path.join(dir, 'db.sqlite');
    const storage = openSqlite(file);
    opened.push({ storage, dir });
    const db = storage.db;
    await sql`create table big (id integer primary key, v text)`.execute(db);
    const before = fs.statSync(file).size;
    // About 8 MB of rows: 2,000 pages of log, past SQLite's own threshold (1,000), in one commit.
    await db.transaction().execute(async (t) => {
      for (let i = 0; i < 200; i++) await sql`insert into big (v) values (${'x'.repeat(40_000)})`.execute(t);
    });
    // The commit left it in the log; the checkpointer brings it into the file within moments.
    expect(fs.statSync(file).size).toBe(before);
    const deadline = Date.now() + 10_000;
    while (fs.statSync(file).size < 8_000_000 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect(fs.statSync(file).size).toBeGreaterThan(8_000_000);
  });

  it('streams rows, on an in-memory database too (one connection)', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ds-sqlite-'));
    const storage = openSqlite(':memory:');
    opened.push({ storage, dir });
    const db = storage.db;
    await sql`create table t (id integer primary key, v text)`.execute(db);
    await sql`insert into t (v) values ('a'), ('b')`.execute(db);
    const rows: string[] = [];
    for await (const row of db
      .selectFrom('t' as never)
      .select(sql<string>`v`.as('v'))
      .stream()) {
      rows.push((row as { v: string }).v);
    }
    expect(rows).toEqual(['a', 'b']);
    const held = holdTransaction(db);
    await held.begun;
    // No second connection to read from: the read waits for the transaction.
    const read = values(db);
    held.done();
    expect(await read).toEqual(['a', 'b', 'uncommitted']);
    await held.tx;
  });
});
