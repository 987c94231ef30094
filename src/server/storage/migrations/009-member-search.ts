import { sql, type Kysely } from 'kysely';
import { isPostgres } from './dialect.js';

/** Key of the transaction-level advisory lock under which the pg_trgm extension is looked for and created. */
const PG_TRGM_LOCK_KEY = 4_611_686_019;

/**
 * Member search (a case-insensitive part of the display name or e-mail) served by a trigram index instead of
 * a scan of every member's user. Trigrams answer fragments of 3 characters or more; shorter ones still scan.
 *
 * PostgreSQL: pg_trgm GIN indexes on exactly the expressions the search compares, `lower(display_name)` and
 * `email` (stored lower-cased), which LIKE '%…%' uses as they are.
 *
 * SQLite: an FTS5 table with the trigram tokenizer, holding each user's lower-cased name and e-mail, kept in step
 * with `users` by triggers. Its rows are keyed by `user_search_rows.id`, not by the rowid of `users`: VACUUM may
 * renumber the rowids of a table without an INTEGER PRIMARY KEY. The triggers call `lower()`, which the server's
 * connections define as JavaScript's (as the search does); the tokenizer folds case as well, so rows written by
 * another client (the sqlite3 shell, whose lower() folds ASCII only) are still found by their letters.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  if (isPostgres(db)) {
    // Test suites and benchmarks run migrations in throwaway schemas at once: the extension is created once,
    // in `public` (not in a schema dropped later, which would take every index using it along), under a lock.
    await sql`select pg_advisory_xact_lock(${PG_TRGM_LOCK_KEY})`.execute(db);
    let schema = await pgTrgmSchema(db);
    if (!schema) {
      try {
        await sql`create extension if not exists pg_trgm with schema public`.execute(db);
      } catch (e) {
        throw new Error(
          `the PostgreSQL extension pg_trgm (member search) could not be created: ${(e as Error).message}. ` +
            'Run `CREATE EXTENSION pg_trgm;` in this database as a superuser, then start again',
          { cause: e },
        );
      }
      schema = (await pgTrgmSchema(db))!;
    }
    // fastupdate off: a new user goes into the index at once, not into a pending list that every search reads
    // through until a vacuum merges it (and that makes the planner cost the index above a scan meanwhile).
    const ops = sql`${sql.id(schema)}.gin_trgm_ops`;
    await sql`create index users_display_name_trgm on users
      using gin (lower(display_name) ${ops}) with (fastupdate = off)`.execute(db);
    await sql`create index users_email_trgm on users using gin (email ${ops}) with (fastupdate = off)`.execute(db);
    return;
  }

  await sql`create table user_search_rows (
    id integer primary key,
    user_id varchar(64) not null unique
  )`.execute(db);
  await sql`create virtual table user_search using fts5(name, email, tokenize = 'trigram')`.execute(db);
  await sql`create trigger users_search_insert after insert on users begin
    insert into user_search_rows (user_id) values (new.id);
    insert into user_search (rowid, name, email)
      values ((select id from user_search_rows where user_id = new.id), lower(new.display_name), lower(new.email));
  end`.execute(db);
  await sql`create trigger users_search_update after update of id, display_name, email on users begin
    update user_search_rows set user_id = new.id where user_id = old.id;
    update user_search set name = lower(new.display_name), email = lower(new.email)
      where rowid = (select id from user_search_rows where user_id = new.id);
  end`.execute(db);
  await sql`create trigger users_search_delete after delete on users begin
    delete from user_search where rowid = (select id from user_search_rows where user_id = old.id);
    delete from user_search_rows where user_id = old.id;
  end`.execute(db);
  // The users already there.
  await sql`insert into user_search_rows (user_id) select id from users order by id`.execute(db);
  await sql`insert into user_search (rowid, name, email)
    select r.id, lower(u.display_name), lower(u.email) from user_search_rows r join users u on u.id = r.user_id`.execute(
    db,
  );
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function pgTrgmSchema(db: Kysely<any>): Promise<string | undefined> {
  const r = await sql<{ schema: string }>`select n.nspname as schema from pg_extension e
    join pg_namespace n on n.oid = e.extnamespace where e.extname = 'pg_trgm'`.execute(db);
  return r.rows[0]?.schema;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  if (isPostgres(db)) {
    // The extension stays: other schemas of the database may use it.
    await db.schema.dropIndex('users_email_trgm').ifExists().execute();
    await db.schema.dropIndex('users_display_name_trgm').ifExists().execute();
    return;
  }
  for (const t of ['users_search_delete', 'users_search_update', 'users_search_insert']) {
    await sql`drop trigger if exists ${sql.id(t)}`.execute(db);
  }
  await sql`drop table if exists user_search`.execute(db);
  await sql`drop table if exists user_search_rows`.execute(db);
}
