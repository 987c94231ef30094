import { sql, type Expression, type RawBuilder } from 'kysely';
import type { Executor } from '../db.js';
import { MARK_END, MARK_START, type ParsedQuery } from './search-query.js';
import type { HighlightedPage, RankedPage, SearchDialect } from './search.js';

/**
 * PostgreSQL: a tsvector per page (title weight A, headings B, text D; migration 010's trigger computes it with the
 * text search configuration in search_state) under a GIN index. Ranked by ts_rank with weights D 0.1, C 0.2, B 0.4,
 * A 1.0, so a page whose title or a heading matches comes before pages that only mention the words.
 */

/**
 * Characters read as spaces before PostgreSQL's parser sees the text (as the trigger of migration 010 does), so
 * that "user@example.com" holds the words "user", "example" and "com" as on SQLite. One character for one: marks
 * that ts_headline puts in the translated text fall at the same offsets in the original.
 */
const WORD_BREAKS = '@./:-';
const BREAKS_RE = /[@./:-]/g;

const cfg = sql`(select language::regconfig from search_state where id = 1)`;

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

function translate(text: string): string {
  return text.replace(BREAKS_RE, ' ');
}

/** The marks of `marked` (ts_headline of translate(original)) put into `original`; undefined if they do not fit. */
function remark(marked: string, original: string): string | undefined {
  let out = '';
  let i = 0;
  for (const c of marked) {
    if (c === MARK_START || c === MARK_END) {
      out += c;
      continue;
    }
    const piece = original.slice(i, (i += c.length));
    if (translate(piece) !== c) return undefined;
    out += piece;
  }
  return i === original.length ? out : undefined;
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

  async highlight(db: Executor, query: ParsedQuery, pages: RankedPage[]): Promise<HighlightedPage[]> {
    if (!pages.length) return [];
    const q = await compile(db, query);
    const options = `HighlightAll=true, StartSel=${MARK_START}, StopSel=${MARK_END}`;
    const breaks = sql.lit(WORD_BREAKS);
    const spaces = sql.lit(' '.repeat(WORD_BREAKS.length));
    const mark = (column: string) =>
      q
        ? sql<string>`ts_headline(${cfg}, translate(${sql.ref(`p.${column}`)}, ${breaks}, ${spaces}), ${q}::tsquery, ${options})`
        : sql<string>`translate(${sql.ref(`p.${column}`)}, ${breaks}, ${spaces})`;
    const keys = pages.map((p) => sql`(${p.spaceId}, ${p.pageId})`);
    const rows = await sql<{
      space_id: string;
      page_id: string;
      title: string;
      anchors: string;
      headings: string;
      body: string;
      title_marked: string;
      headings_marked: string;
      body_marked: string;
    }>`
      select p.space_id, p.page_id, p.title, p.anchors, p.headings, p.body,
        ${mark('title')} as title_marked, ${mark('headings')} as headings_marked, ${mark('body')} as body_marked
      from search_pages p
      where (p.space_id, p.page_id) in (${sql.join(keys)})`.execute(db);
    return rows.rows.map((r) => ({
      spaceId: r.space_id,
      pageId: r.page_id,
      title: r.title,
      anchors: r.anchors,
      headings: r.headings,
      body: r.body,
      marked: {
        title: remark(r.title_marked, r.title) ?? r.title,
        headings: remark(r.headings_marked, r.headings) ?? r.headings,
        body: remark(r.body_marked, r.body) ?? r.body,
      },
    }));
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
