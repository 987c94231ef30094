import { sql, type Kysely } from 'kysely';
import { isPostgres } from './dialect.js';

/**
 * Full-text search of the content of every space's current revision: one row per document page (its title, the
 * headings and the text of its sections), written by the application in the transaction that changes the space's
 * revision (see src/server/domain/search/indexer.ts). `search_spaces` records which revision each space's rows
 * describe; `search_state` the text search language the index was built with.
 *
 * The rows of existing spaces are not written here: that needs the content model (markdown parsing), which a
 * migration frozen in time must not import. At start, the server indexes every space whose indexed revision is
 * not its current one (all of them, the first time), before it listens; `npm run search:rebuild` does the same
 * from scratch.
 *
 * SQLite: an FTS5 table over `search_pages` (external content, kept in step by triggers), porter stemming.
 * PostgreSQL: a weighted tsvector column (title A, headings B, text D) computed by a trigger with the configured
 * text search configuration, and a GIN index.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  const pg = isPostgres(db);
  await db.schema
    .createTable('search_state')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('language', 'varchar(64)', (c) => c.notNull())
    .execute();
  await db.insertInto('search_state').values({ id: 1, language: 'english' }).execute();

  await db.schema
    .createTable('search_spaces')
    .addColumn('space_id', 'varchar(64)', (c) => c.primaryKey().references('spaces.id').onDelete('cascade'))
    .addColumn('revision_id', 'varchar(64)', (c) => c.notNull())
    .execute();

  // SQLite: an integer primary key, the rowid of the FTS5 rows (stable across VACUUM, unlike an implicit rowid).
  // PostgreSQL: the tsvector, and (space, page) as the key.
  await db.schema
    .createTable('search_pages')
    .$call((t) => (pg ? t : t.addColumn('id', 'integer', (c) => c.primaryKey())))
    .addColumn('space_id', 'varchar(64)', (c) => c.notNull().references('spaces.id').onDelete('cascade'))
    .addColumn('page_id', 'varchar(64)', (c) => c.notNull())
    /** Hash of the page version the row was made from. */
    .addColumn('version', 'varchar(64)', (c) => c.notNull())
    .addColumn('title', 'text', (c) => c.notNull())
    /** Per section, separated by U+001E: the heading anchors, the headings, the text (the first section has no heading). */
    .addColumn('anchors', 'text', (c) => c.notNull())
    .addColumn('headings', 'text', (c) => c.notNull())
    .addColumn('body', 'text', (c) => c.notNull())
    .$call((t) =>
      pg
        ? t.addColumn('tsv', sql`tsvector`).addPrimaryKeyConstraint('search_pages_pk', ['space_id', 'page_id'])
        : t.addUniqueConstraint('search_pages_page', ['space_id', 'page_id']),
    )
    .execute();

  if (pg) {
    await createPostgresTrigger(db);
    // fastupdate off: a new row goes into the index at once rather than into a pending list every search reads.
    await sql`create index search_pages_tsv on search_pages using gin (tsv) with (fastupdate = off)`.execute(db);
  } else {
    await createSqliteFts(db, ENGLISH);
  }
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  if (isPostgres(db)) {
    await db.schema.dropTable('search_pages').ifExists().execute();
    await sql`drop function if exists search_pages_tsv()`.execute(db);
  } else {
    await dropSqliteFts(db);
    await db.schema.dropTable('search_pages').ifExists().execute();
  }
  await db.schema.dropTable('search_spaces').ifExists().execute();
  await db.schema.dropTable('search_state').ifExists().execute();
}

/** Tokenizer of the FTS5 table: English (porter) stemming; SEARCH_LANGUAGE may change it at start. */
const ENGLISH = "porter unicode61 remove_diacritics 2 separators '$+<=>^`|~'";

/** The FTS5 table over search_pages and the triggers that keep it in step (as search-sqlite.ts recreates them). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function createSqliteFts(db: Kysely<any>, tokenizer: string): Promise<void> {
  await sql`create virtual table search_fts using fts5(title, headings, body,
    content = 'search_pages', content_rowid = 'id', tokenize = ${sql.lit(tokenizer)})`.execute(db);
  await sql`create trigger search_pages_insert after insert on search_pages begin
    insert into search_fts (rowid, title, headings, body) values (new.id, new.title, new.headings, new.body);
  end`.execute(db);
  await sql`create trigger search_pages_delete after delete on search_pages begin
    insert into search_fts (search_fts, rowid, title, headings, body)
      values ('delete', old.id, old.title, old.headings, old.body);
  end`.execute(db);
  await sql`create trigger search_pages_update after update on search_pages begin
    insert into search_fts (search_fts, rowid, title, headings, body)
      values ('delete', old.id, old.title, old.headings, old.body);
    insert into search_fts (rowid, title, headings, body) values (new.id, new.title, new.headings, new.body);
  end`.execute(db);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function dropSqliteFts(db: Kysely<any>): Promise<void> {
  for (const t of ['search_pages_insert', 'search_pages_delete', 'search_pages_update']) {
    await sql`drop trigger if exists ${sql.id(t)}`.execute(db);
  }
  await sql`drop table if exists search_fts`.execute(db);
}

/**
 * The tsvector of a row, computed by the database with the text search configuration in search_state, so that
 * every writer (the server, the rebuild command) weighs and stems alike.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function createPostgresTrigger(db: Kysely<any>): Promise<void> {
  // Characters PostgreSQL's parser reads inside e-mail addresses, hosts, URLs, file names and versions (one token,
  // "example.com"), which SQLite splits into words: read as spaces, so both find "example" in "user@example.com".
  const breaks = sql.lit('@./:-');
  const spaces = sql.lit('     ');
  await sql`create function search_pages_tsv() returns trigger language plpgsql as $$
    declare
      cfg regconfig;
    begin
      select language::regconfig into cfg from search_state where id = 1;
      new.tsv :=
        setweight(to_tsvector(cfg, translate(new.title, ${breaks}, ${spaces})), 'A') ||
        setweight(to_tsvector(cfg, translate(new.headings, ${breaks}, ${spaces})), 'B') ||
        setweight(to_tsvector(cfg, translate(new.body, ${breaks}, ${spaces})), 'D');
      return new;
    end
  $$`.execute(db);
  await sql`create trigger search_pages_tsv before insert or update of title, headings, body on search_pages
    for each row execute function search_pages_tsv()`.execute(db);
}
