import type { Expression } from 'kysely';
import { isSqlite, type Executor } from '../db.js';
import type { ParsedQuery } from './search-query.js';
import { sqliteSearch } from './search-sqlite.js';
import { postgresSearch } from './search-postgres.js';

/**
 * The one search interface over both databases' full-text search: SQLite FTS5 (bm25) and PostgreSQL
 * (tsvector, ts_rank). The rows are written alike (repos/search.ts); these differ. Highlighting is not theirs:
 * domain/search/highlight.ts reads the texts, with the words stemmed as each database stems them (`stems`).
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
  /** The texts of these pages (title, anchors, headings, body), in any order; pages gone since are left out. */
  texts(db: Executor, pages: RankedPage[]): Promise<PageTexts[]>;
  /**
   * Pages whose texts are read in one call at most: SQLite reads on the event loop (one page, up to 500,000
   * characters, at a time); PostgreSQL's answer is parsed on it.
   */
  readonly textsAtOnce: number;
  /**
   * The stems of folded words as this database's search stems them in its language ('' for a word it drops, a
   * stop word): a function for one search, called a few times with batches of words.
   */
  stemmer(db: Executor): Promise<(words: string[]) => Promise<Map<string, string>>>;
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

export interface PageTexts {
  spaceId: string;
  pageId: string;
  title: string;
  anchors: string;
  headings: string;
  body: string;
}

export function searchDialect(db: Executor): SearchDialect {
  return isSqlite(db) ? sqliteSearch : postgresSearch;
}
