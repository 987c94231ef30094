import { sql, type Expression, type RawBuilder } from 'kysely';
import type { Executor } from '../db.js';
import { LruCache } from '../../lib/lru-cache.js';
import type { ParsedQuery } from './search-query.js';
import type { PageTexts, RankedPage, SearchDialect } from './search.js';

/**
 * PostgreSQL: a tsvector per page (title weight A, headings B, text D; migration 010's trigger computes it with the
 * text search configuration in search_state) under a GIN index. Ranked by ts_rank with weights D 0.1, C 0.2, B 0.4,
 * A 1.0, so a page whose title or a heading matches comes before pages that only mention the words.
 */

const cfg = sql`(select language::regconfig from search_state where id = 1)`;

/**
 * Stems of words by language and word, as PostgreSQL gave them: a pure function of the two, so any process may keep
 * them. Highlighting asks for the query's words and each page's candidates: without this, a search of twenty pages
 * made forty to eighty queries, each waiting for a connection of the pool under load (searches took twice as long
 * as any other request, over 2 s at the start of the mixed-load bench).
 */
const stems = new LruCache<string>(50_000);

/** The tsquery of the parsed query: each term through the functions that never fail on their input. */
function tsquery(query: ParsedQuery): RawBuilder<unknown> {
  const parts = query.terms.map((t) => {
    const text = t.words.join(' ');
    if (t.words.length > 1) return sql`phraseto_tsquery(${cfg}, ${text})`;
    // A quoted lexeme with a prefix mark: the word holds letters, digits and marks only, never a quote.
    if (t.prefix) return sql`to_tsquery(${cfg}, ${`'${text}':*`})`;
    return sql`plainto_tsquery(${cfg}, ${text})`;
  });
  return sql.join(parts, sql` && `);
}

/** The query as tsquery text (stemmed, stop words gone), or '' when nothing is left to search for. */
async function compile(db: Executor, query: ParsedQuery): Promise<string> {
  const r = await sql<{ q: string }>`select (${tsquery(query)})::text as q`.execute(db);
  return r.rows[0]?.q ?? '';
}

export const postgresSearch: SearchDialect = {
  async rank(db: Executor, query: ParsedQuery, spaceIds: Expression<unknown>, offset: number, limit: number) {
    const q = await compile(db, query);
    if (!q) return { pages: [], total: 0 };
    const rows = await sql<{ space_id: string; page_id: string; total: number }>`
      select p.space_id, p.page_id, count(*) over () as total
      from search_pages p
      where p.tsv @@ ${q}::tsquery and p.space_id in (${spaceIds})
      order by ts_rank(p.tsv, ${q}::tsquery) desc, p.space_id, p.page_id
      limit ${limit} offset ${offset}`.execute(db);
    let total = rows.rows[0]?.total;
    if (total === undefined) {
      const count = await sql<{ n: number }>`select count(*) as n from search_pages p
        where p.tsv @@ ${q}::tsquery and p.space_id in (${spaceIds})`.execute(db);
      total = count.rows[0]?.n ?? 0;
    }
    return { pages: rows.rows.map((r) => ({ spaceId: r.space_id, pageId: r.page_id })), total: Number(total) };
  },

  textsAtOnce: 4,

  async texts(db: Executor, pages: RankedPage[]): Promise<PageTexts[]> {
    if (!pages.length) return [];
    const keys = pages.map((p) => sql`(${p.spaceId}, ${p.pageId})`);
    const rows = await sql<PageTexts>`
      select p.space_id as "spaceId", p.page_id as "pageId", p.title, p.anchors, p.headings, p.body
      from search_pages p
      where (p.space_id, p.page_id) in (${sql.join(keys)})`.execute(db);
    return rows.rows;
  },

  async stemmer(db: Executor) {
    const found = await sql<{ language: string }>`select language from search_state where id = 1`.execute(db);
    const language = found.rows[0]?.language ?? 'simple';
    return async (words: string[]) => {
      const out = new Map<string, string>();
      const unknown: string[] = [];
      for (const word of words) {
        const stem = stems.get(`${language}\u0000${word}`);
        if (stem === undefined) unknown.push(word);
        else out.set(word, stem);
      }
      if (!unknown.length) return out;
      // A word's lexeme in the configuration the index uses; none for a stop word.
      const rows = await sql<{ word: string; stem: string | null }>`
        select w.word, (select min(lexeme) from unnest(to_tsvector(${language}::regconfig, w.word))) as stem
        from unnest(${unknown}::text[]) as w(word)`.execute(db);
      for (const r of rows.rows) {
        stems.set(`${language}\u0000${r.word}`, r.stem ?? '');
        out.set(r.word, r.stem ?? '');
      }
      return out;
    };
  },

  async checkLanguage(db: Executor, language: string) {
    const r = await sql<{ n: number }>`select count(*) as n from pg_ts_config where cfgname = ${language}`.execute(db);
    if (Number(r.rows[0]?.n ?? 0) > 0) return undefined;
    const known = await sql<{ name: string }>`select cfgname as name from pg_ts_config order by cfgname`.execute(db);
    return `PostgreSQL has no text search configuration "${language}" (it has ${known.rows.map((k) => k.name).join(', ')})`;
  },

  async retokenize(db: Executor) {
    // The trigger computes each row's tsvector again with the language now in search_state.
    await sql`update search_pages set title = title`.execute(db);
  },
};
