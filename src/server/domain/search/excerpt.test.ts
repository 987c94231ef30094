import { describe, expect, it } from 'vitest';
import { excerpt, MARK_END, MARK_START, marksOf, splitSections } from './excerpt.js';
import { SECTION_SEPARATOR } from './extract.js';

const m = (s: string) => s.replaceAll('[', MARK_START).replaceAll(']', MARK_END);

describe('highlights and excerpts', () => {
  it('turns the database marks into ranges of the plain text', () => {
    const original = 'Configure the server, then configuring is done.';
    const ranges = marksOf(m('[Configure] the server, then [configuring] is done.'), original)!;
    expect(ranges.map((r) => original.slice(r.start, r.end))).toEqual(['Configure', 'configuring']);
    // Marks that do not fit the text highlight nothing rather than the wrong words.
    expect(marksOf(m('[Something] else'), original)).toBeUndefined();
  });

  it('splits a column into its sections, each with its own ranges', () => {
    const text = `intro${SECTION_SEPARATOR}alpha beta${SECTION_SEPARATOR}gamma`;
    const marked = m(`intro${SECTION_SEPARATOR}alpha [beta]${SECTION_SEPARATOR}[gamma]`);
    expect(splitSections(text, marksOf(marked, text)!)).toEqual([
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
});
