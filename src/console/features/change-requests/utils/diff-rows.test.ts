import { describe, expect, it } from 'vitest';
import { diffRows } from './diff-rows';

const block = (id: string, kind = 'unchanged') => ({ id, kind });

describe('diffRows', () => {
  const blocks = [block('a'), block('b'), block('c'), block('d', 'modified'), block('e'), block('f'), block('g')];

  it('folds long unchanged runs, keeping one neighbour of each change', () => {
    expect(diffRows(blocks).map((row) => (row.type === 'fold' ? row.blocks.map((b) => b.id) : row.block.id))).toEqual([
      ['a', 'b'],
      'c',
      'd',
      'e',
      ['f', 'g'],
    ]);
  });

  it('never folds a pinned block (one with threads), splitting the run around it', () => {
    const rows = diffRows(blocks, new Set(['a', 'g']));
    expect(rows.map((row) => (row.type === 'fold' ? row.blocks.map((b) => b.id) : row.block.id))).toEqual([
      'a',
      'b',
      'c',
      'd',
      'e',
      'f',
      'g',
    ]);
    const longer = [...'abcdef'].map((id) => block(id));
    expect(
      diffRows(longer, new Set(['c'])).map((row) => (row.type === 'fold' ? row.blocks.map((b) => b.id) : row.block.id)),
    ).toEqual([['a', 'b'], 'c', ['d', 'e', 'f']]);
  });
});
