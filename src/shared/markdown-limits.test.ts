import { describe, expect, it } from 'vitest';
import { markdownNestingDepth, tooDeeplyNested, MARKDOWN_DEPTH_MAX } from './markdown-limits.js';

describe('markdownNestingDepth', () => {
  it('counts blockquote and list markers, and indentation before nested list markers', () => {
    expect(markdownNestingDepth('')).toBe(0);
    expect(markdownNestingDepth('Just a paragraph.\n\nAnother.')).toBe(0);
    expect(markdownNestingDepth('> quoted')).toBe(1);
    expect(markdownNestingDepth('> > > three')).toBe(3);
    expect(markdownNestingDepth('>>>>')).toBe(4);
    expect(markdownNestingDepth('- a\n  - b\n    - c')).toBe(3);
    expect(markdownNestingDepth('1. one\n   2. two')).toBe(2);
    expect(markdownNestingDepth('> - quoted list\n>   - nested')).toBe(3);
  });

  it('does not count code: fenced blocks, indented code and continuation text', () => {
    const fenced = '```\n' + '> '.repeat(100) + '\n' + ' '.repeat(200) + '- x\n```\nafter';
    expect(markdownNestingDepth(fenced)).toBe(0);
    expect(markdownNestingDepth('    ' + ' '.repeat(100) + 'deeply indented code')).toBe(0);
    expect(markdownNestingDepth('~~~js\n> not a quote\n~~~\n> a quote')).toBe(1);
  });

  it('reads the pathological inputs of the issue as far past the limit, quickly', () => {
    expect(markdownNestingDepth('>'.repeat(50_000))).toBe(50_000);
    const list = Array.from({ length: 600 }, (_, i) => `${'  '.repeat(i)}- item ${i}`).join('\n');
    expect(markdownNestingDepth(list)).toBe(600);
    expect(tooDeeplyNested(list)).toBe(true);
    expect(tooDeeplyNested('>'.repeat(MARKDOWN_DEPTH_MAX))).toBe(false);
    expect(tooDeeplyNested('>'.repeat(MARKDOWN_DEPTH_MAX + 1))).toBe(true);
  });
});
