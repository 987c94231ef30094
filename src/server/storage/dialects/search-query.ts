/**
 * What the search dialects take and give back, beside the dialect interface (search.ts): a query already read
 * into words and phrases (domain/search/query.ts reads what was typed).
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
