import type { Expression } from 'kysely';
import { isSqlite, type Executor } from '../db.js';
import type { ParsedQuery } from './search-query.js';
import { sqliteSearch } from './search-sqlite.js';
import { postgresSearch } from './search-postgres.js';

/**
 * The one search interface over both databases' full-text search: SQLite FTS5 (bm25) and PostgreSQL
 * (tsvector, ts_rank, ts_headline). The rows are written alike (repos/search.ts); these differ.
 */
export interface SearchDialect {
  /**
   * Pages of the spaces `spaceIds` (a subquery of space ids) that match every term, best first (ties by space and
   * page id, so pages are stable), from `offset`; with the number of matching pages.
   */
  rank(
    db: Executor,
    query: ParsedQuery,
    spaceIds: Expression<unknown>,
    offset: number,
    limit: number,
  ): Promise<{ pages: RankedPage[]; total: number }>;
  /** The rows of these pages with the query's matches marked (MARK_START/MARK_END) in title, headings and body. */
  highlight(db: Executor, query: ParsedQuery, pages: RankedPage[]): Promise<HighlightedPage[]>;
  /** Whether this database can search in `language` (SEARCH_LANGUAGE); the reason when it cannot. */
  checkLanguage(db: Executor, language: string): Promise<string | undefined>;
  /** Re-tokenizes every row for `language` (the stored language is changed by the caller). */
  retokenize(db: Executor, language: string): Promise<void>;
}

export interface RankedPage {
  spaceId: string;
  pageId: string;
  /** SQLite: the row id, to find the row again. */
  rowId?: number;
}

export interface HighlightedPage {
  spaceId: string;
  pageId: string;
  title: string;
  anchors: string;
  headings: string;
  body: string;
  /** The same texts with marks, as the database's highlighter made them (see excerpt.ts). */
  marked: { title: string; headings: string; body: string };
}

export function searchDialect(db: Executor): SearchDialect {
  return isSqlite(db) ? sqliteSearch : postgresSearch;
}
