import type { ParsedQuery, SearchTerm } from '../../storage/dialects/search-query.js';

/**
 * What a search query means, whatever was typed. The text is read as words and quoted phrases; nothing else is
 * syntax, so no input can make a full-text query the database refuses:
 *
 * - a word is a run of letters, digits and combining marks (Unicode); everything else separates words, and is
 *   dropped (`AND`, `NEAR`, `-`, `*`, `:` are words or separators like any other text);
 * - `"several words"` is a phrase: its words next to each other, in that order; an unclosed quote runs to the end;
 * - every word and phrase must match (in the title, a heading or the text of the page), stemmed by the search
 *   language ("configure" finds "configuring");
 * - the last word, when it is not in a phrase and has PREFIX_MIN characters or more, also matches as the start of a
 *   longer word ("kube" finds "kubernetes"), for search as you type.
 *
 * Each database turns this into its own syntax from these words only (storage/dialects/search-*.ts).
 */
export type { ParsedQuery, SearchTerm } from '../../storage/dialects/search-query.js';

/** Words and phrases a query keeps; any more are ignored. */
export const SEARCH_TERMS_MAX = 16;
/** Words in one phrase at most. */
export const PHRASE_WORDS_MAX = 16;
/** Characters from which the last word also matches as a prefix: shorter prefixes match too much to rank. */
export const PREFIX_MIN = 3;

const WORD = /[\p{L}\p{N}][\p{L}\p{N}\p{M}]*/gu;

function wordsOf(text: string): string[] {
  return (text.normalize('NFC').match(WORD) ?? []).map((w) => w.toLowerCase());
}

/** Terms of a query; none when it holds no word (the search then finds nothing). */
export function parseQuery(input: string): ParsedQuery {
  const terms: SearchTerm[] = [];
  const parts = input.split('"');
  let lastBare: SearchTerm | undefined;
  parts.forEach((part, i) => {
    const words = wordsOf(part);
    if (!words.length) return;
    if (i % 2 === 1) {
      // Inside quotes (an unclosed quote runs to the end).
      terms.push({ words: words.slice(0, PHRASE_WORDS_MAX), prefix: false });
      lastBare = undefined;
    } else {
      for (const word of words) {
        lastBare = { words: [word], prefix: false };
        terms.push(lastBare);
      }
    }
  });
  // The last word typed, when the query ends with it (not with a phrase).
  if (lastBare && terms.at(-1) === lastBare && lastBare.words[0]!.length >= PREFIX_MIN) lastBare.prefix = true;
  const kept = dedupe(terms);
  if (kept.length > SEARCH_TERMS_MAX) {
    // Keep the last term (it may be the prefix being typed) with the first ones.
    return { terms: [...kept.slice(0, SEARCH_TERMS_MAX - 1), kept.at(-1)!] };
  }
  return { terms: kept };
}

/** The same word twice adds nothing; a prefix term stays (it is the one being typed). */
function dedupe(terms: SearchTerm[]): SearchTerm[] {
  const seen = new Set<string>();
  return terms.filter((t) => {
    const key = `${t.prefix ? '*' : ''}${t.words.join(' ')}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

export function isEmptyQuery(query: ParsedQuery): boolean {
  return query.terms.length === 0;
}
