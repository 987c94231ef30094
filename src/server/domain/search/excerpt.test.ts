import { describe, expect, it } from 'vitest';
import type { TextRange } from '../../../shared/contract/search.js';
import { excerpt, splitSections } from './excerpt.js';
import { SECTION_SEPARATOR } from './extract.js';
import { fold, highlightPage, MARKS_PER_PAGE_MAX, STEMS_PER_PAGE_MAX, type Stems } from './highlight.js';
import { parseQuery } from './query.js';

/** The words of `text` at `ranges`. */
const at = (text: string, ranges: TextRange[]) => ranges.map((r) => text.slice(r.start, r.end));
/** Stems as SQLite's English search has them (the Porter algorithm, stop words dropped); counts its calls. */
function english() {
  const calls: string[][] = [];
  const stems: Stems = async (words) => {
    calls.push(words);
    const { stemmer } = await import('stemmer');
    const stop = new Set(['the', 'a', 'is']);
    return new Map(words.map((w) => [w, stop.has(w) ? '' : stemmer(w)]));
  };
  return { stems, calls };
}

describe('highlights and excerpts', () => {
  it('highlights the words whose stems match, the prefix being typed, never stop words', async () => {
    const { stems } = english();
    const text = 'Configure the server, then configuring is done. Kubernetes: the Kube way. Café, CAFE!';
    const [ranges] = await highlightPage([text], parseQuery('the configure kube'), stems);
    expect(at(text, ranges!)).toEqual(['Configure', 'configuring', 'Kubernetes', 'Kube']);
    const [accents] = await highlightPage([text], parseQuery('cafés'), stems);
    expect(at(text, accents!)).toEqual(['Café', 'CAFE']);
    // A phrase's words are highlighted where they are.
    const [phrase] = await highlightPage([text], parseQuery('"kube way"'), stems);
    expect(at(text, phrase!)).toEqual(['Kube', 'way']);
    expect(fold('Ÿèś')).toBe('yes');
  });

  it('bounds the work of a page: marks, words looked up, only words that may match', async () => {
    const { stems, calls } = english();
    // A word repeated 70,000 times: the first MARKS_PER_PAGE_MAX are highlighted, title first.
    const body = 'needle '.repeat(70_000);
    const [title, rest] = await highlightPage(['A needle', body], parseQuery('needle'), stems);
    expect(title).toHaveLength(1);
    expect(rest).toHaveLength(MARKS_PER_PAGE_MAX - 1);
    // Every word different and starting as the query does: at most STEMS_PER_PAGE_MAX looked up.
    calls.length = 0;
    const words = Array.from({ length: 10_000 }, (_, i) => `n${i.toString(36)}x`).join(' ');
    await highlightPage([words], parseQuery('needle'), stems);
    const looked = calls.flat();
    expect(looked.length).toBeLessThanOrEqual(STEMS_PER_PAGE_MAX + 1);
    // Words that cannot match are never looked up.
    calls.length = 0;
    await highlightPage(['other words entirely '.repeat(1000)], parseQuery('needle'), stems);
    expect(calls.flat()).toEqual(['needle']);
  });

  it('splits a column into its sections, each with its own ranges', () => {
    const text = `intro${SECTION_SEPARATOR}alpha beta${SECTION_SEPARATOR}gamma`;
    const b = text.indexOf('beta');
    const g = text.indexOf('gamma');
    expect(
      splitSections(text, [
        { start: b, end: b + 4 },
        { start: g, end: g + 5 },
      ]),
    ).toEqual([
      { text: 'intro', ranges: [] },
      { text: 'alpha beta', ranges: [{ start: 6, end: 10 }] },
      { text: 'gamma', ranges: [{ start: 0, end: 5 }] },
    ]);
  });

  it('cuts long text around the matches, between words, with ellipses, ranges moved along', () => {
    const words = Array.from({ length: 200 }, (_, i) => `w${i}`);
    words[120] = 'needle';
    const text = words.join(' ');
    const at = text.indexOf('needle');
    const cut = excerpt(text, [{ start: at, end: at + 6 }], 100);
    expect(cut.text.startsWith('…')).toBe(true);
    expect(cut.text.endsWith('…')).toBe(true);
    expect(cut.text.length).toBeLessThanOrEqual(102);
    expect(cut.ranges).toHaveLength(1);
    expect(cut.text.slice(cut.ranges[0]!.start, cut.ranges[0]!.end)).toBe('needle');
    // Whole words only.
    expect(
      cut.text
        .slice(1, -1)
        .split(' ')
        .every((w) => /^(w\d+|needle)$/.test(w)),
    ).toBe(true);
    // Short text stays whole; without matches, an excerpt is the start of the text.
    expect(excerpt('short', [], 100)).toEqual({ text: 'short', ranges: [] });
    expect(excerpt(text, [], 50).text.startsWith('w0 w1')).toBe(true);
  });

  it('finds the densest window in one pass: the same excerpt as counting every window', () => {
    const text = Array.from({ length: 3000 }, (_, i) => (i % 7 === 0 || (i > 2000 && i < 2040) ? 'hit' : 'word')).join(
      ' ',
    );
    const ranges: TextRange[] = [];
    for (let i = text.indexOf('hit'); i >= 0; i = text.indexOf('hit', i + 1)) ranges.push({ start: i, end: i + 3 });
    const cut = excerpt(text, ranges, 100);
    // The run of 'hit' (words 2001 to 2039) is the densest part.
    const hits = cut.text.match(/hit/g)!.length;
    expect(hits).toBeGreaterThan(15);
    expect(at(cut.text, cut.ranges).every((w) => w === 'hit')).toBe(true);
    expect(cut.ranges.length).toBe(hits);
  });
});
