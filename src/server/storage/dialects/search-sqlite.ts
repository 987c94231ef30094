import { sql, type Expression } from 'kysely';
import type { Executor } from '../db.js';
import { stemmer as porter } from 'stemmer';
import type { ParsedQuery } from './search-query.js';
import { LruCache } from '../../lib/lru-cache.js';
import { ENGLISH_STOP_WORDS } from './stopwords.js';
import { storedLanguage } from '../repos/search.js';
import type { PageTexts, RankedPage, SearchDialect } from './search.js';

/** Stems by the Porter algorithm, as FTS5's `porter` tokenizer has them; stop words are left out of queries. */
const englishStems = new LruCache<string>(50_000);
function englishStem(word: string): string {
  if (ENGLISH_STOP_WORDS.has(word)) return '';
  let stem = englishStems.get(word);
  if (stem === undefined) englishStems.set(word, (stem = porter(word)));
  return stem;
}

/**
 * SQLite: an FTS5 table (`search_fts`) over search_pages. Ranked by bm25 with the title weighing 10, headings 4 and
 * text 1, so a page whose title or a heading matches comes before pages that only mention the words.
 */
const WEIGHTS = sql`10.0, 4.0, 1.0`;

/**
 * The FTS5 tokenizers by language: porter stemming (English) over unicode61, or none (`simple`). ASCII symbols
 * separate words as punctuation does ("$100" holds the word "100"; unicode61 alone keeps symbols in words).
 * Migration 010 creates the table with the English one; recreateFts below must stay the same as it.
 */
export const SQLITE_TOKENIZERS: Record<string, string> = {
  english: "porter unicode61 remove_diacritics 2 separators '$+<=>^`|~'",
  simple: "unicode61 remove_diacritics 2 separators '$+<=>^`|~'",
};

/**
 * The FTS5 query: each term a quoted string (a phrase when it has several words), a prefix marked `*`, ANDed. In
 * English, single words that are stop words are left out, as PostgreSQL does ('' when nothing is left).
 */
export function toFts5(query: ParsedQuery, language = 'simple'): string {
  const stop = language === 'english' ? ENGLISH_STOP_WORDS : undefined;
  // Words hold letters, digits and marks only, so they need no escaping; the quotes make each a string, never an
  // operator (`AND`, `NEAR`) or a column filter (`title:`).
  return query.terms
    .filter((t) => !(stop && t.words.length === 1 && stop.has(t.words[0]!)))
    .map((t) => `"${t.words.join(' ')}"${t.prefix ? '*' : ''}`)
    .join(' ');
}

async function matchOf(db: Executor, query: ParsedQuery): Promise<string> {
  return toFts5(query, await storedLanguage(db));
}

export const sqliteSearch: SearchDialect = {
  async rank(db: Executor, query: ParsedQuery, spaceIds: Expression<unknown>, offset: number, limit: number) {
    const match = await matchOf(db, query);
    if (!match) return { pages: [], total: 0 };
    // CROSS JOIN keeps FTS5 as the outer loop: one pass over the matches, never one MATCH per page of the spaces.
    const rows = await sql<{ id: number; space_id: string; page_id: string; total: number }>`
      select id, space_id, page_id, count(*) over () as total from (
        select p.id, p.space_id, p.page_id, bm25(search_fts, ${WEIGHTS}) as score
        from search_fts cross join search_pages p on p.id = search_fts.rowid
        where search_fts match ${match} and p.space_id in (${spaceIds})
      )
      order by score, space_id, page_id
      limit ${limit} offset ${offset}`.execute(db);
    let total = rows.rows[0]?.total;
    if (total === undefined) {
      const count = await sql<{ n: number }>`
        select count(*) as n from search_fts cross join search_pages p on p.id = search_fts.rowid
        where search_fts match ${match} and p.space_id in (${spaceIds})`.execute(db);
      total = count.rows[0]?.n ?? 0;
    }
    return {
      pages: rows.rows.map((r) => ({ spaceId: r.space_id, pageId: r.page_id, rowId: r.id })),
      total: Number(total),
    };
  },

  textsAtOnce: 1,

  async texts(db: Executor, pages: RankedPage[]): Promise<PageTexts[]> {
    const ids = pages.flatMap((p) => (p.rowId === undefined ? [] : [p.rowId]));
    if (!ids.length) return [];
    const rows = await sql<PageTexts>`
      select space_id as spaceId, page_id as pageId, title, anchors, headings, body
      from search_pages where id in (${sql.join(ids)})`.execute(db);
    return rows.rows;
  },

  async stemmer(db: Executor) {
    const english = (await storedLanguage(db)) === 'english';
    return async (words: string[]) => new Map(words.map((w) => [w, english ? englishStem(w) : w]));
  },

  async checkLanguage(_db: Executor, language: string) {
    if (SQLITE_TOKENIZERS[language]) return undefined;
    return `SQLite searches in ${Object.keys(SQLITE_TOKENIZERS).join(' or ')} (no stemming); other languages need PostgreSQL`;
  },

  async retokenize(db: Executor, language: string) {
    await recreateFts(db, SQLITE_TOKENIZERS[language]!);
    // External content: the index is rebuilt from search_pages as it is.
    await sql`insert into search_fts (search_fts) values ('rebuild')`.execute(db);
  },
};

/** Drops and creates the FTS5 table and its triggers with another tokenizer (the same shape as migration 010). */
async function recreateFts(db: Executor, tokenizer: string): Promise<void> {
  for (const t of ['search_pages_insert', 'search_pages_delete', 'search_pages_update']) {
    await sql`drop trigger if exists ${sql.id(t)}`.execute(db);
  }
  await sql`drop table if exists search_fts`.execute(db);
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
