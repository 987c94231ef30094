import { describe, expect, it } from 'vitest';
import { MAX_WORD_EDITS, type Block } from './blocks.js';
import { diffBlocks, diffWords, mergeBlocks, resolveBlock, type BlockChange } from './merge.js';
import { InvalidError } from '../errors.js';

const p = (id: string, markdown = `Text of ${id}.`, type = 'paragraph'): Block => ({ id, type, markdown });
const ids = (blocks: Block[]) => blocks.map((b) => b.id);
const texts = (blocks: Block[]) => blocks.map((b) => b.markdown);
/** Replaces the text of block `id`. */
const edit = (blocks: Block[], id: string, markdown: string) =>
  blocks.map((b) => (b.id === id ? { ...b, markdown } : b));
const without = (blocks: Block[], id: string) => blocks.filter((b) => b.id !== id);
const insertAfter = (blocks: Block[], anchor: string | null, ...added: Block[]) => {
  const at = anchor === null ? 0 : blocks.findIndex((b) => b.id === anchor) + 1;
  return [...blocks.slice(0, at), ...added, ...blocks.slice(at)];
};

const base = [p('a'), p('b'), p('c'), p('d')];

/** Both word-level rebuilds of a modified change. */
function rebuild(change: Extract<BlockChange, { kind: 'modified' }>) {
  return {
    before: change.words
      .filter((w) => w.op !== 'insert')
      .map((w) => w.text)
      .join(''),
    after: change.words
      .filter((w) => w.op !== 'delete')
      .map((w) => w.text)
      .join(''),
  };
}

describe('diffBlocks', () => {
  it('reports unchanged, added, removed and modified blocks by id', () => {
    const after = [p('a'), p('x', 'New paragraph.'), edit([p('c')], 'c', 'Text of c, edited.')[0]!, p('d')];
    expect(diffBlocks(base, after)).toEqual([
      { kind: 'unchanged', id: 'a', markdown: 'Text of a.' },
      { kind: 'removed', id: 'b', markdown: 'Text of b.' },
      { kind: 'added', id: 'x', markdown: 'New paragraph.' },
      {
        kind: 'modified',
        id: 'c',
        before: 'Text of c.',
        after: 'Text of c, edited.',
        words: [
          { op: 'equal', text: 'Text of c' },
          { op: 'insert', text: ', edited' },
          { op: 'equal', text: '.' },
        ],
      },
      { kind: 'unchanged', id: 'd', markdown: 'Text of d.' },
    ]);
  });

  it('places a removed first block first, and consecutive removed blocks in their order', () => {
    const changes = diffBlocks(base, [p('c'), p('y')]);
    expect(changes.map((c) => `${c.kind}:${c.id}`)).toEqual([
      'removed:a',
      'removed:b',
      'unchanged:c',
      'removed:d',
      'added:y',
    ]);
  });

  it('places a removed block after its predecessor even when that block moved', () => {
    const changes = diffBlocks(base, [p('d'), p('a'), p('c')]);
    expect(changes.map((c) => `${c.kind}:${c.id}`)).toEqual(['unchanged:d', 'unchanged:a', 'removed:b', 'unchanged:c']);
  });

  it('gives word ops whose equal+delete text rebuilds before and equal+insert text rebuilds after', () => {
    const pairs: Array<[string, string]> = [
      ['The quick brown fox jumps.', 'The quick red fox leaps over.'],
      ['- one\n- two\n- three', '- one\n- 2\n- three\n- four'],
      ['Spaces   and\ttabs  here', 'Spaces and tabs\there!'],
      ['```js\nconst a = 1;\n```', '```ts\nconst a: number = 1;\n\n```'],
      ['', 'All new'],
      ['Gone entirely', ''],
    ];
    for (const [before, after] of pairs) {
      const [change] = diffBlocks([p('x', before)], [p('x', after)]);
      expect(change?.kind).toBe('modified');
      if (change?.kind !== 'modified') continue;
      expect(rebuild(change)).toEqual({ before, after });
      expect(change.words.every((w) => w.text !== '')).toBe(true);
      expect(change.words.some((w) => w.op === 'equal') || before === '' || after === '').toBe(true);
    }
  });

  it('marks only the changed words', () => {
    expect(diffWords('one two three', 'one 2 three')).toEqual([
      { op: 'equal', text: 'one ' },
      { op: 'delete', text: 'two' },
      { op: 'insert', text: '2' },
      { op: 'equal', text: ' three' },
    ]);
  });

  it('shows texts more than MAX_WORD_EDITS tokens apart as replaced whole', () => {
    const before = Array.from({ length: MAX_WORD_EDITS }, (_, i) => `a${i}`).join(' ');
    const after = Array.from({ length: MAX_WORD_EDITS }, (_, i) => `b${i}`).join(' ');
    expect(diffWords(before, after)).toEqual([
      { op: 'delete', text: before },
      { op: 'insert', text: after },
    ]);
  });

  it('reports nothing but unchanged blocks for equal lists, and all added for an empty before', () => {
    expect(diffBlocks(base, base).every((c) => c.kind === 'unchanged')).toBe(true);
    expect(diffBlocks([], base).map((c) => c.kind)).toEqual(['added', 'added', 'added', 'added']);
    expect(diffBlocks(base, []).map((c) => `${c.kind}:${c.id}`)).toEqual([
      'removed:a',
      'removed:b',
      'removed:c',
      'removed:d',
    ]);
  });
});

describe('mergeBlocks: block versions', () => {
  it('merges edits to different blocks cleanly', () => {
    const ours = edit(base, 'a', 'Ours edited a.');
    const theirs = edit(base, 'c', 'Theirs edited c.');
    expect(mergeBlocks(base, ours, theirs)).toEqual({
      blocks: [p('a', 'Ours edited a.'), p('b'), p('c', 'Theirs edited c.'), p('d')],
      conflicts: [],
    });
  });

  it('takes the only side that changed a block, in either direction', () => {
    const changed = edit(base, 'b', 'Changed b.');
    expect(texts(mergeBlocks(base, base, changed).blocks)).toEqual(texts(changed));
    expect(texts(mergeBlocks(base, changed, base).blocks)).toEqual(texts(changed));
  });

  it('reports one conflict when both sides edit a block differently, keeping ours in the result', () => {
    const ours = edit(base, 'b', 'Ours b.');
    const theirs = edit(edit(base, 'b', 'Theirs b.'), 'd', 'Theirs d.');
    const result = mergeBlocks(base, ours, theirs);
    expect(result.conflicts).toEqual([{ blockId: 'b', base: 'Text of b.', ours: 'Ours b.', theirs: 'Theirs b.' }]);
    expect(texts(result.blocks)).toEqual(['Text of a.', 'Ours b.', 'Text of c.', 'Theirs d.']);
  });

  it('merges the same edit made on both sides without conflict', () => {
    const both = edit(base, 'c', 'Same edit.');
    expect(mergeBlocks(base, both, both)).toEqual({ blocks: both, conflicts: [] });
  });

  it('keeps the block type of the version it takes', () => {
    const theirs = base.map((b) => (b.id === 'a' ? { id: 'a', type: 'heading', markdown: '# A' } : b));
    expect(mergeBlocks(base, base, theirs).blocks[0]).toEqual({ id: 'a', type: 'heading', markdown: '# A' });
  });

  it('applies a deletion when the other side left the block unchanged, in either direction', () => {
    expect(ids(mergeBlocks(base, without(base, 'b'), base).blocks)).toEqual(['a', 'c', 'd']);
    expect(ids(mergeBlocks(base, base, without(base, 'b')).blocks)).toEqual(['a', 'c', 'd']);
    expect(mergeBlocks(base, base, without(base, 'b')).conflicts).toEqual([]);
  });

  it('drops a block deleted on both sides', () => {
    const result = mergeBlocks(base, without(base, 'c'), without(without(base, 'c'), 'a'));
    expect(result).toEqual({ blocks: [p('b'), p('d')], conflicts: [] });
  });

  it('reports ours deleting a block theirs edited as a conflict, keeping theirs in the result', () => {
    const result = mergeBlocks(base, without(base, 'b'), edit(base, 'b', 'Theirs b.'));
    expect(result.conflicts).toEqual([{ blockId: 'b', base: 'Text of b.', ours: null, theirs: 'Theirs b.' }]);
    expect(texts(result.blocks)).toEqual(['Text of a.', 'Theirs b.', 'Text of c.', 'Text of d.']);
  });

  it('reports theirs deleting a block ours edited as a conflict, keeping ours in the result', () => {
    const result = mergeBlocks(base, edit(base, 'c', 'Ours c.'), without(base, 'c'));
    expect(result.conflicts).toEqual([{ blockId: 'c', base: 'Text of c.', ours: 'Ours c.', theirs: null }]);
    expect(texts(result.blocks)).toEqual(['Text of a.', 'Text of b.', 'Ours c.', 'Text of d.']);
  });

  it('lists several conflicts in result order', () => {
    const ours = edit(edit(base, 'd', 'Ours d.'), 'a', 'Ours a.');
    const theirs = edit(without(base, 'a'), 'd', 'Theirs d.');
    expect(mergeBlocks(base, ours, theirs).conflicts.map((c) => c.blockId)).toEqual(['a', 'd']);
  });
});

describe('mergeBlocks: added blocks', () => {
  it('keeps blocks added on either side after their preceding block', () => {
    const ours = insertAfter(base, 'a', p('o1'));
    const theirs = insertAfter(base, 'c', p('t1'), p('t2'));
    expect(ids(mergeBlocks(base, ours, theirs).blocks)).toEqual(['a', 'o1', 'b', 'c', 't1', 't2', 'd']);
  });

  it('puts insertions at the same spot on both sides ours first, then theirs, without conflict', () => {
    const ours = insertAfter(base, 'b', p('o1'), p('o2'));
    const theirs = insertAfter(base, 'b', p('t1'));
    const result = mergeBlocks(base, ours, theirs);
    expect(ids(result.blocks)).toEqual(['a', 'b', 'o1', 'o2', 't1', 'c', 'd']);
    expect(result.conflicts).toEqual([]);
  });

  it('puts insertions at the start on both sides ours first, then theirs', () => {
    const ours = insertAfter(base, null, p('o1'));
    const theirs = insertAfter(base, null, p('t1'));
    expect(ids(mergeBlocks(base, ours, theirs).blocks)).toEqual(['o1', 't1', 'a', 'b', 'c', 'd']);
  });

  it('places an insertion after a block the other side deleted right after the nearest surviving block', () => {
    const ours = without(base, 'b');
    const theirs = insertAfter(base, 'b', p('t1'));
    expect(ids(mergeBlocks(base, ours, theirs).blocks)).toEqual(['a', 't1', 'c', 'd']);
    expect(ids(mergeBlocks(base, theirs, ours).blocks)).toEqual(['a', 't1', 'c', 'd']);
  });

  it('places an insertion after a deleted first block at the start', () => {
    const ours = without(base, 'a');
    const theirs = insertAfter(base, 'a', p('t1'));
    expect(ids(mergeBlocks(base, ours, theirs).blocks)).toEqual(['t1', 'b', 'c', 'd']);
  });

  it('keeps the same new id added on both sides with the same text once', () => {
    const ours = insertAfter(base, 'a', p('n', 'Shared new block.'));
    const theirs = insertAfter(base, 'c', p('n', 'Shared new block.'));
    const result = mergeBlocks(base, ours, theirs);
    expect(ids(result.blocks)).toEqual(['a', 'n', 'b', 'c', 'd']);
    expect(result.conflicts).toEqual([]);
  });

  it('reports the same new id added with different texts as a conflict without base', () => {
    const result = mergeBlocks(base, [...base, p('n', 'Ours n.')], [...base, p('n', 'Theirs n.')]);
    expect(result.conflicts).toEqual([{ blockId: 'n', base: null, ours: 'Ours n.', theirs: 'Theirs n.' }]);
    expect(texts(result.blocks).at(-1)).toBe('Ours n.');
  });

  it('handles long runs of added and removed blocks', () => {
    const many = Array.from({ length: 20_000 }, (_, i) => p(`n${i}`));
    expect(ids(mergeBlocks([], [], many).blocks)).toEqual(ids(many));
    expect(diffBlocks(many, []).map((c) => c.id)).toEqual(ids(many));
  });

  it('merges into and from empty pages', () => {
    expect(mergeBlocks([], [], [p('t1')]).blocks).toEqual([p('t1')]);
    expect(mergeBlocks([], [p('o1')], [p('t1')]).blocks).toEqual([p('o1'), p('t1')]);
    expect(mergeBlocks(base, [], base)).toEqual({ blocks: [], conflicts: [] });
  });
});

describe('mergeBlocks: order', () => {
  it("keeps ours' order when ours reordered", () => {
    const ours = [p('c'), p('a'), p('b'), p('d')];
    const theirs = edit(base, 'a', 'Theirs a.');
    expect(mergeBlocks(base, ours, theirs)).toEqual({
      blocks: [p('c'), p('a', 'Theirs a.'), p('b'), p('d')],
      conflicts: [],
    });
  });

  it("takes theirs' order when only theirs reordered, with ours' edit", () => {
    const ours = edit(base, 'b', 'Ours b.');
    const theirs = [p('a'), p('d'), p('b'), p('c')];
    expect(mergeBlocks(base, ours, theirs)).toEqual({
      blocks: [p('a'), p('d'), p('b', 'Ours b.'), p('c')],
      conflicts: [],
    });
  });

  it("keeps ours' order when both sides reordered", () => {
    const ours = [p('b'), p('a'), p('c'), p('d')];
    const theirs = [p('a'), p('b'), p('d'), p('c')];
    expect(ids(mergeBlocks(base, ours, theirs).blocks)).toEqual(['b', 'a', 'c', 'd']);
  });

  it('judges order on the blocks a side kept: deletions alone do not reorder', () => {
    const ours = without(base, 'a');
    const theirs = [p('b'), p('a'), p('d'), p('c')];
    expect(ids(mergeBlocks(base, ours, theirs).blocks)).toEqual(['b', 'd', 'c']);
  });

  it('keeps insertions after their anchor when the anchor moved', () => {
    const ours = insertAfter(base, 'a', p('o1'));
    const theirs = [p('b'), p('c'), p('a'), p('d')];
    expect(ids(mergeBlocks(base, ours, theirs).blocks)).toEqual(['b', 'c', 'a', 'o1', 'd']);
  });

  it("places a conflict kept from ours after its predecessor in ours when theirs' order is used", () => {
    const ours = edit(base, 'b', 'Ours b.');
    const theirs = [p('d'), p('c'), p('a')];
    const result = mergeBlocks(base, ours, theirs);
    expect(ids(result.blocks)).toEqual(['d', 'c', 'a', 'b']);
    expect(result.conflicts).toEqual([{ blockId: 'b', base: 'Text of b.', ours: 'Ours b.', theirs: null }]);
  });

  it('is deterministic and symmetric in content for non-conflicting changes', () => {
    const ours = insertAfter(edit(base, 'a', 'Ours a.'), 'd', p('o1'));
    const theirs = without(edit(base, 'c', 'Theirs c.'), 'b');
    const one = mergeBlocks(base, ours, theirs);
    expect(mergeBlocks(base, ours, theirs)).toEqual(one);
    expect(mergeBlocks(base, theirs, ours)).toEqual(one);
    expect(texts(one.blocks)).toEqual(['Ours a.', 'Theirs c.', 'Text of d.', 'Text of o1.']);
  });
});

describe('resolveBlock', () => {
  const ours = edit(base, 'b', 'Ours b.');
  const theirs = edit(base, 'b', 'Theirs b.');
  const merged = mergeBlocks(base, ours, theirs);
  const conflict = merged.conflicts[0]!;
  const newId = () => 'fresh';

  it("replaces the conflicting block with theirs' or ours' text, keeping its id and place", () => {
    expect(resolveBlock(merged.blocks, conflict, { keep: 'theirs' }, newId)).toEqual(theirs);
    expect(resolveBlock(merged.blocks, conflict, { keep: 'ours' }, newId)).toEqual(ours);
  });

  it('removes the block when the kept side deleted it', () => {
    const result = mergeBlocks(base, without(base, 'b'), theirs);
    expect(resolveBlock(result.blocks, result.conflicts[0]!, { keep: 'ours' }, newId)).toEqual(without(base, 'b'));
  });

  it('parses given markdown: its type is read, several blocks stay several, blank removes', () => {
    expect(resolveBlock(merged.blocks, conflict, { markdown: '## Merged\n\nBoth ideas.' }, newId)).toEqual([
      p('a'),
      { id: 'b', type: 'heading', markdown: '## Merged' },
      { id: 'fresh', type: 'paragraph', markdown: 'Both ideas.' },
      p('c'),
      p('d'),
    ]);
    expect(resolveBlock(merged.blocks, conflict, { markdown: ' \n' }, newId)).toEqual(without(base, 'b'));
  });

  it('rejects a conflict whose block is not in the list', () => {
    expect(() => resolveBlock(without(merged.blocks, 'b'), conflict, { keep: 'ours' }, newId)).toThrow(InvalidError);
  });
});
