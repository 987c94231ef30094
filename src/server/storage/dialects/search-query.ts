/**
 * What the search dialects take and give back, beside the dialect interface (search.ts): a query already read
 * into words and phrases (domain/search/query.ts reads what was typed), and the marks the databases put around
 * matched words (domain/search/excerpt.ts turns them into ranges).
 */
export interface SearchTerm {
  /** One word, or the words of a phrase. */
  words: string[];
  /** The last word matches as a prefix. */
  prefix: boolean;
}

export interface ParsedQuery {
  terms: SearchTerm[];
}

/**
 * The database marks the words a query matched (FTS5 highlight(), PostgreSQL ts_headline()) with two control
 * characters that extracted text never holds.
 */
export const MARK_START = '\u0002';
export const MARK_END = '\u0003';
