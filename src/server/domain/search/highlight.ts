import type { TextRange } from '../../../shared/contract/search.js';
import type { ParsedQuery } from './query.js';

/**
 * Which words of a found page to highlight, in bounded time. The database decides which pages match and in what
 * order; this only points at the words that made them match. The databases' own highlighters cannot be bounded:
 * FTS5's highlight() costs the square of the matches (a page repeating a word 70,000 times took 2.9 s, during
 * which every other request waited), and PostgreSQL's ts_headline reads the whole page for every result.
 *
 * Here the text is read once, left to right, as the search reads it: words are runs of letters, digits and marks
 * (query.ts), folded (lower case, accents removed) and stemmed by the database's own rules (`Stems`, from the
 * dialect: the Porter stemmer FTS5 uses, or PostgreSQL's dictionaries). A word is highlighted when its stem is the
 * stem of a query word, or, for the prefix being typed, when it starts with it. What one page costs is bounded:
 * - at most MARKS_PER_PAGE_MAX highlighted words (the title and headings first, then the text in order);
 * - at most STEMS_PER_PAGE_MAX different words looked up; the rest of the page is not highlighted;
 * - only words that begin as a query word begins are looked up (a stem keeps the start of its word), so a page of
 *   other words costs one pass of a regular expression.
 */
export const MARKS_PER_PAGE_MAX = 500;
export const STEMS_PER_PAGE_MAX = 2000;

/** Folded words to their stems ('' for a word the language drops, a stop word): the dialect's stemmer. */
export type Stems = (words: string[]) => Promise<Map<string, string>>;

const WORD = /[\p{L}\p{N}][\p{L}\p{N}\p{M}]*/gu;
const MARKS = /\p{M}/gu;

/** Lower case, accents removed: the words FTS5's unicode61 (remove_diacritics) compares. */
export function fold(word: string): string {
  const lower = word.toLowerCase();
  // Most words have nothing to remove: skip the normalization then.
  return /^[\x20-\x7e]*$/.test(lower) ? lower : lower.normalize('NFD').replace(MARKS, '').normalize('NFC');
}

interface Matcher {
  /** Stems of the whole words of the query. */
  stems: Set<string>;
  /** The prefix being typed, folded, and its stem. */
  prefixes: Array<{ word: string; stem: string }>;
  /** First letters of the query's words: only words starting with one can match. */
  initials: Set<string>;
}

async function matcherOf(query: ParsedQuery, stems: Stems): Promise<Matcher> {
  const words = [...new Set(query.terms.flatMap((t) => t.words.map(fold)))];
  const stemmed = await stems(words);
  const matcher: Matcher = { stems: new Set(), prefixes: [], initials: new Set() };
  for (const term of query.terms) {
    term.words.forEach((w, i) => {
      const word = fold(w);
      const stem = stemmed.get(word) ?? word;
      matcher.initials.add(word[0]!);
      if (stem) matcher.initials.add(stem[0]!);
      if (term.prefix && i === term.words.length - 1) matcher.prefixes.push({ word, stem: stem || word });
      else if (stem) matcher.stems.add(stem);
    });
  }
  return matcher;
}

/**
 * A page's highlights: for each of `columns` (title, headings, text), the ranges of the words that match `query`,
 * in order, within the bounds above.
 */
export async function highlightPage(columns: string[], query: ParsedQuery, stems: Stems): Promise<TextRange[][]> {
  const matcher = await matcherOf(query, stems);
  const known = new Map<string, boolean>();
  let budget = MARKS_PER_PAGE_MAX;
  const out: TextRange[][] = [];
  for (const text of columns) {
    const ranges: TextRange[] = [];
    out.push(ranges);
    if (budget <= 0 || known.size >= STEMS_PER_PAGE_MAX) continue;
    // Candidates are collected, their new words looked up in one call, then kept or dropped in order.
    let pending: Array<{ start: number; end: number; word: string }> = [];
    let unknown = new Set<string>();
    const settle = async () => {
      if (unknown.size) {
        const looked = await stems([...unknown]);
        for (const word of unknown) known.set(word, matches(matcher, word, looked.get(word) ?? word));
        unknown = new Set();
      }
      for (const c of pending) {
        if (budget > 0 && known.get(c.word)) {
          ranges.push({ start: c.start, end: c.end });
          budget--;
        }
      }
      pending = [];
    };
    WORD.lastIndex = 0;
    for (let m = WORD.exec(text); m; m = WORD.exec(text)) {
      const raw = m[0];
      if (!matcher.initials.has(fold(raw[0]!))) continue;
      const word = fold(raw);
      const seen = known.get(word);
      if (seen === false) continue;
      if (seen === undefined && !unknown.has(word)) {
        if (known.size + unknown.size >= STEMS_PER_PAGE_MAX) break;
        unknown.add(word);
      }
      pending.push({ start: m.index, end: m.index + raw.length, word });
      if (pending.length >= budget || unknown.size >= 256) {
        await settle();
        if (budget <= 0) break;
      }
    }
    await settle();
  }
  return out;
}

function matches(matcher: Matcher, word: string, stem: string): boolean {
  if (stem && matcher.stems.has(stem)) return true;
  return matcher.prefixes.some((p) => word.startsWith(p.word) || (stem !== '' && stem.startsWith(p.stem)));
}
