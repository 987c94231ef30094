import { describe, expect, it } from 'vitest';
import { getSchema } from '@tiptap/core';
import { editorExtensions } from '../../../shared/editor/markdown-blocks';
import { FIND_MATCHES_MAX, findMatches } from './find';

const schema = getSchema(editorExtensions());
const doc = (content: unknown[]) => schema.nodeFromJSON({ type: 'doc', content });
const text = (t: string, marks?: unknown[]) => ({ type: 'text', text: t, ...(marks ? { marks } : {}) });

describe('find in the page', () => {
  it('finds text across marks and objects, ignoring case, at the positions of the document', () => {
    const page = doc([
      { type: 'paragraph', content: [text('Say '), text('Hel', [{ type: 'bold' }]), text('lo world')] },
      { type: 'paragraph', content: [text('hello'), { type: 'hardBreak' }, text('HELLO')] },
    ]);
    const found = findMatches(page, 'hello');
    expect(found.map(({ from, to }) => page.textBetween(from, to))).toEqual(['Hello', 'hello', 'HELLO']);
    // Nothing matches across blocks, or across an object in the text.
    expect(findMatches(page, 'world hello')).toEqual([]);
    expect(findMatches(page, 'hellohello')).toEqual([]);
    expect(findMatches(page, '')).toEqual([]);
  });

  it('stops at FIND_MATCHES_MAX matches', () => {
    const page = doc([{ type: 'paragraph', content: [text('a'.repeat(FIND_MATCHES_MAX * 3))] }]);
    expect(findMatches(page, 'a')).toHaveLength(FIND_MATCHES_MAX);
  });
});
