import type { TextRange } from '../../../shared/contract/search.js';
import { SECTION_SEPARATOR } from './extract.js';
import { MARK_END, MARK_START } from '../../storage/dialects/search-query.js';

/**
 * Highlights and excerpts. The database marks the words a query matched (FTS5 highlight(), PostgreSQL
 * ts_headline()) with two control characters that extracted text never holds; they are turned here into ranges
 * over the plain text. Excerpts are plain text too: a client renders the ranges itself (escaping the text), so a
 * page's text can never become markup in a search result.
 */
export { MARK_END, MARK_START };

/**
 * Ranges of the marked words in `marked`, which is `original` with marks added. Undefined when the marks do not
 * fit the original text (then nothing is highlighted rather than the wrong words).
 */
export function marksOf(marked: string, original: string): TextRange[] | undefined {
  const ranges: TextRange[] = [];
  let plain = '';
  let open = -1;
  for (let i = 0; i < marked.length; i++) {
    const c = marked[i]!;
    if (c === MARK_START) open = plain.length;
    else if (c === MARK_END) {
      if (open >= 0 && plain.length > open) ranges.push({ start: open, end: plain.length });
      open = -1;
    } else plain += c;
  }
  return plain === original ? mergeRanges(ranges) : undefined;
}

/** Sorted, overlapping or touching ranges joined. */
function mergeRanges(ranges: TextRange[]): TextRange[] {
  const out: TextRange[] = [];
  for (const r of [...ranges].sort((a, b) => a.start - b.start)) {
    const last = out.at(-1);
    if (last && r.start <= last.end) last.end = Math.max(last.end, r.end);
    else out.push({ ...r });
  }
  return out;
}

/** One column holding a value per section: each section's text with its own ranges. */
export function splitSections(text: string, ranges: TextRange[]): Array<{ text: string; ranges: TextRange[] }> {
  const out: Array<{ text: string; ranges: TextRange[] }> = [];
  let from = 0;
  for (const part of text.split(SECTION_SEPARATOR)) {
    const to = from + part.length;
    out.push({
      text: part,
      ranges: ranges
        .filter((r) => r.start >= from && r.end <= to)
        .map((r) => ({ start: r.start - from, end: r.end - from })),
    });
    from = to + SECTION_SEPARATOR.length;
  }
  return out;
}

/** Characters of an excerpt at most (before the ellipses). */
export const EXCERPT_LENGTH = 240;
/** Context kept before the first highlighted word of an excerpt. */
const LEAD = 60;

/**
 * An excerpt of `text` of about EXCERPT_LENGTH characters, cut between words, around the part with the most
 * highlighted words (the start of the text when nothing is highlighted); `…` marks a cut.
 */
export function excerpt(
  text: string,
  ranges: TextRange[],
  length = EXCERPT_LENGTH,
): { text: string; ranges: TextRange[] } {
  if (text.length <= length) return { text, ranges };
  // The window of `length` characters that holds the most ranges, starting LEAD characters before one of them.
  let bestStart = 0;
  let bestCount = -1;
  for (const r of ranges) {
    const start = Math.max(0, r.start - LEAD);
    const count = ranges.filter((o) => o.start >= start && o.end <= start + length).length;
    if (count > bestCount) {
      bestCount = count;
      bestStart = start;
    }
  }
  let start = bestStart;
  let end = Math.min(text.length, start + length);
  if (end === text.length) start = Math.max(0, end - length);
  // Cut between words: move the start forward to after a space, the end back to before one.
  if (start > 0) {
    const space = text.indexOf(' ', start);
    const firstRange = ranges.find((r) => r.end > start);
    if (space >= 0 && space < end && (!firstRange || space < firstRange.start)) start = space + 1;
  }
  if (end < text.length) {
    const space = text.lastIndexOf(' ', end);
    const lastRange = [...ranges].reverse().find((r) => r.start < end);
    if (space > start && (!lastRange || space >= lastRange.end)) end = space;
  }
  const prefix = start > 0 ? '…' : '';
  const suffix = end < text.length ? '…' : '';
  const shift = prefix.length - start;
  return {
    text: `${prefix}${text.slice(start, end)}${suffix}`,
    ranges: ranges
      .filter((r) => r.start >= start && r.end <= end)
      .map((r) => ({ start: r.start + shift, end: r.end + shift })),
  };
}
