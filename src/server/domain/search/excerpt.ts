import type { TextRange } from '../../../shared/contract/search.js';
import { SECTION_SEPARATOR } from './extract.js';

/**
 * Sections and excerpts of the highlighted text (highlight.ts gives the ranges: sorted, apart). Excerpts are plain
 * text: a client renders the ranges itself (escaping the text), so a page's text can never become markup in a
 * search result. Every function here is linear in the text and its ranges.
 */

/** One column holding a value per section: each section's text with its own ranges (`ranges` sorted). */
export function splitSections(text: string, ranges: TextRange[]): Array<{ text: string; ranges: TextRange[] }> {
  const out: Array<{ text: string; ranges: TextRange[] }> = [];
  let from = 0;
  let next = 0;
  for (const part of text.split(SECTION_SEPARATOR)) {
    const to = from + part.length;
    const own: TextRange[] = [];
    while (next < ranges.length && ranges[next]!.start < from) next++;
    while (next < ranges.length && ranges[next]!.end <= to) {
      const r = ranges[next++]!;
      own.push({ start: r.start - from, end: r.end - from });
    }
    out.push({ text: part, ranges: own });
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
  // The window of `length` characters that holds the most ranges, starting LEAD characters before one of them:
  // the ranges are sorted, so the window's last range only moves forward (one pass).
  let bestStart = 0;
  let bestCount = -1;
  let first = 0;
  let last = 0;
  for (const r of ranges) {
    const start = Math.max(0, r.start - LEAD);
    while (first < ranges.length && ranges[first]!.start < start) first++;
    if (last < first) last = first;
    while (last < ranges.length && ranges[last]!.end <= start + length) last++;
    const count = last - first;
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
    const firstRange = ranges[firstIndexEndingAfter(ranges, start)];
    if (space >= 0 && space < end && (!firstRange || space < firstRange.start)) start = space + 1;
  }
  if (end < text.length) {
    const space = text.lastIndexOf(' ', end);
    const lastRange = ranges[firstIndexStartingAtOrAfter(ranges, end) - 1];
    if (space > start && (!lastRange || space >= lastRange.end)) end = space;
  }
  const prefix = start > 0 ? '…' : '';
  const suffix = end < text.length ? '…' : '';
  const shift = prefix.length - start;
  const kept: TextRange[] = [];
  for (let i = firstIndexStartingAtOrAfter(ranges, start); i < ranges.length && ranges[i]!.end <= end; i++) {
    kept.push({ start: ranges[i]!.start + shift, end: ranges[i]!.end + shift });
  }
  return { text: `${prefix}${text.slice(start, end)}${suffix}`, ranges: kept };
}

/** The first of the sorted `ranges` that ends after `at` (binary search; `ranges.length` when none). */
function firstIndexEndingAfter(ranges: TextRange[], at: number): number {
  let lo = 0;
  let hi = ranges.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (ranges[mid]!.end > at) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/** The first of the sorted `ranges` that starts at or after `at` (binary search; `ranges.length` when none). */
function firstIndexStartingAtOrAfter(ranges: TextRange[], at: number): number {
  let lo = 0;
  let hi = ranges.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (ranges[mid]!.start >= at) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}
