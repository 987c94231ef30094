import { describe, expect, it } from 'vitest';
import { ANCHOR_ALIASES_MAX, mergedAnchorAliases, nextAnchorAliases, withAnchorAliases } from './anchors.js';
import type { Block } from './blocks.js';

const heading = (id: string, text: string): Block => ({ id, type: 'heading', markdown: `## ${text}` });
const paragraph = (id: string, text: string): Block => ({ id, type: 'paragraph', markdown: text });

describe('anchor aliases', () => {
  it('keeps the id of a reworded or renumbered heading, by its block, and only the latest ones', () => {
    expect(nextAnchorAliases([heading('h', 'Setup')], [heading('h', 'Set up')], undefined)).toEqual({ setup: 'h' });
    // Renumbered: the first of two headings of the same text goes, and the second, `setup-1`, is `setup` now.
    expect(
      nextAnchorAliases([heading('n', 'Setup'), heading('h', 'Setup')], [heading('h', 'Setup')], undefined),
    ).toEqual({ 'setup-1': 'h' });
    // An id another heading has now is that heading's: no alias takes it.
    expect(
      nextAnchorAliases([heading('h', 'Setup')], [heading('n', 'Setup'), heading('h', 'Setup')], undefined),
    ).toBeUndefined();
    // Paragraph edits change nothing; a removed heading takes its aliases with it.
    expect(
      nextAnchorAliases([heading('h', 'A'), paragraph('p', 'x')], [heading('h', 'A'), paragraph('p', 'y')], {
        old: 'h',
      }),
    ).toEqual({ old: 'h' });
    expect(nextAnchorAliases([heading('h', 'A')], [paragraph('p', 'x')], { old: 'h' })).toBeUndefined();
    let blocks = [heading('h', 'Title 0')];
    let aliases: Record<string, string> | undefined;
    for (let i = 1; i <= ANCHOR_ALIASES_MAX + 10; i++) {
      const next = [heading('h', `Title ${i}`)];
      aliases = nextAnchorAliases(blocks, next, aliases);
      blocks = next;
    }
    expect(Object.keys(aliases!)).toHaveLength(ANCHOR_ALIASES_MAX);
    expect(aliases).toHaveProperty(`title-${ANCHOR_ALIASES_MAX + 9}`);
    expect(aliases).not.toHaveProperty('title-0');
  });

  it('merges both sides’ aliases, and gives each to its heading once in the rendered page', () => {
    const blocks = [heading('a', 'Alpha'), heading('b', 'Beta')];
    expect(mergedAnchorAliases({ one: 'a', gone: 'x' }, { two: 'b', alpha: 'b' }, blocks)).toEqual({
      one: 'a',
      two: 'b',
    });
    const html = '<h2 id="alpha">Alpha</h2><p id="taken"></p><h2 id="beta" class="x">Beta</h2>';
    expect(withAnchorAliases(html, { one: 'a', two: 'b', taken: 'b', 'q"x': 'a' }, blocks)).toBe(
      '<h2 id="alpha"><span id="q&#x22;x"></span><span id="one"></span>Alpha</h2><p id="taken"></p>' +
        '<h2 id="beta" class="x"><span id="two"></span>Beta</h2>',
    );
  });
});
