import { describe, expect, it } from 'vitest';
import { blocksToMarkdown, markdownCost, MAX_WORD_EDITS, parseBlocks, similarity, type Block } from './blocks.js';

/** Ids b1, b2, ... in call order. */
function counter(prefix = 'b'): () => string {
  let n = 0;
  return () => `${prefix}${++n}`;
}

const parse = (markdown: string, previous: Block[] = [], newId = counter()) => parseBlocks(markdown, previous, newId);
const shape = (blocks: Block[]) => blocks.map((b) => [b.type, b.markdown]);

describe('parseBlocks: splitting', () => {
  it('splits headings, paragraphs and lists into their exact source text', () => {
    const md =
      '# Title\n\nFirst *paragraph*\nwrapped on two lines.\n\n- one\n- two\n  - nested\n\n1. first\n2. second\n';
    expect(shape(parse(md))).toEqual([
      ['heading', '# Title'],
      ['paragraph', 'First *paragraph*\nwrapped on two lines.'],
      ['list', '- one\n- two\n  - nested'],
      ['list', '1. first\n2. second'],
    ]);
  });

  it('keeps setext headings, loose lists and thematic breaks whole', () => {
    const md = 'Title\n=====\n\n- a\n\n- b\n\n***\n';
    expect(shape(parse(md))).toEqual([
      ['heading', 'Title\n====='],
      ['list', '- a\n\n- b'],
      ['thematicBreak', '***'],
    ]);
  });

  it('keeps a fenced code block with blank lines inside as one block', () => {
    const md = 'Before.\n\n```ts\nconst a = 1;\n\n\nconst b = 2;\n```\n\nAfter.';
    expect(shape(parse(md))).toEqual([
      ['paragraph', 'Before.'],
      ['code', '```ts\nconst a = 1;\n\n\nconst b = 2;\n```'],
      ['paragraph', 'After.'],
    ]);
  });

  it('keeps the indentation of indented code and of indented blocks', () => {
    const md = '    indented code\n    second line\n\n  - a\n  - b\n\n   indented paragraph';
    const blocks = parse(md);
    expect(shape(blocks)).toEqual([
      ['code', '    indented code\n    second line'],
      ['list', '  - a\n  - b'],
      ['paragraph', '   indented paragraph'],
    ]);
    // Without its first indentation the list's second item would become a nested list.
    expect(shape(parse(blocksToMarkdown(blocks)))).toEqual(shape(blocks));
  });

  it('splits GFM tables, task lists and strikethrough', () => {
    const md = '| a | b |\n| - | - |\n| 1 | 2 |\n\n- [ ] todo\n- [x] done\n\n~~gone~~ text';
    expect(shape(parse(md))).toEqual([
      ['table', '| a | b |\n| - | - |\n| 1 | 2 |'],
      ['list', '- [ ] todo\n- [x] done'],
      ['paragraph', '~~gone~~ text'],
    ]);
  });

  it('keeps blockquotes whole, with their lazy lines and nested blocks', () => {
    const md = '> quoted\nlazy line\n>\n> - item\n\nNext.';
    expect(shape(parse(md))).toEqual([
      ['blockquote', '> quoted\nlazy line\n>\n> - item'],
      ['paragraph', 'Next.'],
    ]);
  });

  it('keeps HTML (with blank lines inside a comment) and definitions as blocks', () => {
    const md = '<!-- a\n\ncomment -->\n\n<div>x</div>\n\n[ref]: https://example.com';
    expect(shape(parse(md))).toEqual([
      ['html', '<!-- a\n\ncomment -->'],
      ['html', '<div>x</div>'],
      ['definition', '[ref]: https://example.com'],
    ]);
  });

  it('keeps a definition with what follows it without a blank line, as that is read in its paragraph', () => {
    expect(shape(parse('[r]: /u\n-\n\n[s]: /v\nSetext\n===\n\n[t]: /w\n\n- item'))).toEqual([
      ['paragraph', '[r]: /u\n-'],
      ['heading', '[s]: /v\nSetext\n==='],
      ['definition', '[t]: /w'],
      ['list', '- item'],
    ]);
  });

  it('reads frontmatter as ordinary markdown', () => {
    expect(shape(parse('---\ntitle: x\n---\n\nBody'))).toEqual([
      ['thematicBreak', '---'],
      ['heading', 'title: x\n---'],
      ['paragraph', 'Body'],
    ]);
  });

  it('trims trailing whitespace of blocks but keeps hard breaks inside them', () => {
    const md = 'Line one  \nline two   \n\t\n\n# Heading   \n\n   \n';
    expect(shape(parse(md))).toEqual([
      ['paragraph', 'Line one  \nline two'],
      ['heading', '# Heading'],
    ]);
  });

  it('reads CRLF and CR input like LF input', () => {
    const lf = '# Title\n\nOne\ntwo\n\n```\ncode\n\nmore\n```\n';
    const expected = shape(parse(lf));
    expect(shape(parse(lf.replace(/\n/g, '\r\n')))).toEqual(expected);
    expect(shape(parse(lf.replace(/\n/g, '\r')))).toEqual(expected);
    expect(parse(lf.replace(/\n/g, '\r\n')).every((b) => !b.markdown.includes('\r'))).toBe(true);
  });

  it('ignores a leading byte-order mark', () => {
    expect(shape(parse('\uFEFF# Title\n\nText'))).toEqual([
      ['heading', '# Title'],
      ['paragraph', 'Text'],
    ]);
  });

  it('gives no blocks for empty or blank input', () => {
    expect(parse('')).toEqual([]);
    expect(parse('  \n\n\t\r\n')).toEqual([]);
  });

  it('gives each new block an id from newId, in order', () => {
    expect(parse('a\n\nb\n\nc').map((b) => b.id)).toEqual(['b1', 'b2', 'b3']);
  });
});

describe('parseBlocks: id stability', () => {
  const page =
    '# Guide\n\nIntro paragraph about the product.\n\nSecond paragraph with details.\n\nClosing words here.\n';
  const original = parse(page, [], counter('old'));
  const ids = original.map((b) => b.id);

  it('keeps every id when nothing changed', () => {
    expect(parse(page, original, counter('new'))).toEqual(original);
  });

  it('keeps ids when a paragraph is inserted at the top', () => {
    const blocks = parse(`New opening paragraph.\n\n${page}`, original, counter('new'));
    expect(blocks.map((b) => b.id)).toEqual(['new1', ...ids]);
  });

  it('keeps ids when a block in the middle is deleted', () => {
    const md = blocksToMarkdown(original.filter((_, i) => i !== 2));
    expect(parse(md, original, counter('new')).map((b) => b.id)).toEqual([ids[0], ids[1], ids[3]]);
  });

  it('keeps the id of a paragraph whose one word was edited', () => {
    const md = page.replace('Second paragraph with details.', 'Second paragraph with more details.');
    const blocks = parse(md, original, counter('new'));
    expect(blocks.map((b) => b.id)).toEqual(ids);
    expect(blocks[2]!.markdown).toBe('Second paragraph with more details.');
  });

  it('keeps the id of a paragraph rewritten in place (one block replaced by one of its type)', () => {
    const md = page.replace('Second paragraph with details.', 'Totally unrelated sentence now.');
    expect(parse(md, original, counter('new')).map((b) => b.id)).toEqual([ids[0], ids[1], ids[2], ids[3]]);
  });

  it('gives a new id to a rewritten paragraph when the gap does not hold as many blocks as before', () => {
    const md = page.replace('Second paragraph with details.', 'Totally unrelated sentence now.\n\nAnd one more.');
    expect(parse(md, original, counter('new')).map((b) => b.id)).toEqual([ids[0], ids[1], 'new1', 'new2', ids[3]]);
  });

  it('keeps ids when two paragraphs are swapped', () => {
    const swapped = [original[0]!, original[2]!, original[1]!, original[3]!];
    const blocks = parse(blocksToMarkdown(swapped), original, counter('new'));
    expect(blocks).toEqual(swapped);
  });

  it('gives the copy of a duplicated paragraph a new id', () => {
    const md = blocksToMarkdown([...original.slice(0, 2), original[1]!, ...original.slice(2)]);
    const blocks = parse(md, original, counter('new'));
    expect(blocks.map((b) => b.id)).toEqual([ids[0], ids[1], 'new1', ids[2], ids[3]]);
  });

  it('keeps every id when blocks with repeated texts move, using each old id once', () => {
    const previous = parse('One.\n\n---\n\nTwo.\n\n---\n\nThree.');
    const blocks = parse('Three.\n\n---\n\nOne.\n\n---\n\nTwo.', previous, counter('new'));
    expect(blocks.map((b) => b.id).sort()).toEqual(previous.map((b) => b.id).sort());
    expect(blocks.map((b) => b.markdown)).toEqual(['Three.', '---', 'One.', '---', 'Two.']);
    expect(blocks.every((b) => previous.find((old) => old.id === b.id)!.markdown === b.markdown)).toBe(true);
  });

  it('keeps the ids of a long page rewritten block for block, and gives new ones when the shape changes', () => {
    const text = (prefix: string, i: number) => `${prefix} ${i} ` + `${prefix}${i} `.repeat(10).trim();
    const previous = parse(Array.from({ length: 150 }, (_, i) => text('old', i)).join('\n\n'));
    const same = parse(Array.from({ length: 150 }, (_, i) => text('new', i)).join('\n\n'), previous, counter('new'));
    expect(same.map((b) => b.id)).toEqual(previous.map((b) => b.id));
    const longer = parse(Array.from({ length: 151 }, (_, i) => text('new', i)).join('\n\n'), previous, counter('new'));
    expect(longer.map((b) => b.id)).toEqual(Array.from({ length: 151 }, (_, i) => `new${i + 1}`));
  });

  it('never pairs an edited block with an old block of another type', () => {
    const previous = parse('Intro.\n\nSome text here');
    const blocks = parse('Intro.\n\n# Some text here', previous, counter('new'));
    expect(blocks.map((b) => b.id)).toEqual(['b1', 'new1']);
  });

  it('pairs edited blocks in order within the gap they sit in', () => {
    const previous = parse('# A\n\nalpha beta gamma delta\n\nepsilon zeta eta theta\n\n# B\n\niota kappa lambda mu');
    const md = '# A\n\nalpha beta gamma DELTA\n\nepsilon zeta eta THETA\n\n# B\n\niota kappa lambda MU';
    expect(parse(md, previous, counter('new')).map((b) => b.id)).toEqual(['b1', 'b2', 'b3', 'b4', 'b5']);
  });

  it('uses an old id at most once', () => {
    const previous = parse('alpha beta gamma delta');
    const blocks = parse('alpha beta gamma delta!\n\nalpha beta gamma delta?', previous, counter('new'));
    expect(blocks.map((b) => b.id)).toEqual(['b1', 'new1']);
  });
});

describe('similarity', () => {
  it('is shared characters over the longer length', () => {
    expect(similarity('same', 'same')).toBe(1);
    expect(similarity('one two', 'one six')).toBeCloseTo(4 / 7);
    expect(similarity('abc', 'xyz')).toBe(0);
    expect(similarity('ab ab', 'ab ab cdefgh')).toBeCloseTo(5 / 12);
  });

  it('is 0 for texts more than MAX_WORD_EDITS tokens apart', () => {
    const a = Array.from({ length: MAX_WORD_EDITS }, (_, i) => `a${i}`).join(' ');
    const b = Array.from({ length: MAX_WORD_EDITS }, (_, i) => `b${i}`).join(' ');
    expect(similarity(a, b)).toBe(0);
  });
});

describe('blocksToMarkdown', () => {
  it('joins blocks with a blank line and ends with a newline', () => {
    const blocks = parse('# T\n\n\n\nText');
    expect(blocksToMarkdown(blocks)).toBe('# T\n\nText\n');
    expect(blocksToMarkdown([])).toBe('');
  });

  it('round-trips: parsing the joined markdown gives the same blocks', () => {
    const docs = [
      '# Title\nParagraph right under.\n- list\n- items\n> quote\n\n```\nfenced\n\n\ncode\n```\nafter fence\n***\n',
      '  - indented\n  - list\n\n    code after list\n\nText\n\n| h |\n|---|\n| r |\nlazy row\n\n<!--\n\n-->\n[a]: /x',
      'Setext\n---\n1) one\n2) two\n\n- [ ] task\n* star list\n\n+ plus list\n\n~~~\nunclosed tilde fence\n\n',
      'Hard  \nbreak   \r\n\r\n> a\r\n> b\r\n\r\n<div>\r\nhtml\r\n</div>\r\nafter html',
      '[r]: /u\n-\n[s]: /v\n    not code\n\n> q\n    lazy\n[t]:\n/w\n1.',
    ];
    for (const doc of docs) {
      const blocks = parse(doc);
      expect(blocks.length).toBeGreaterThan(2);
      expect(parse(blocksToMarkdown(blocks), blocks, counter('new'))).toEqual(blocks);
    }
  });

  it('round-trips documents built from tricky fragments and separators', () => {
    const fragments = [
      '# H',
      'text',
      '- a\n- b',
      '* c',
      '1. one',
      '> q',
      '```\ncode\n\nx\n```',
      '    code',
      '| a |\n|---|\n| 1 |',
    ];
    fragments.push(
      '***',
      '<div>\nx\n</div>',
      '<!-- c -->',
      '[r]: /u',
      '  - a\n  - b',
      '   p',
      'S\n===',
      '~~~\nopen',
      '-',
      '>',
      '1.',
    );
    const separators = ['\n', '\n\n', '\n\n\n', '\n  \n', '\n '];
    let seed = 7;
    const pick = <T>(items: T[]): T => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return items[seed % items.length]!;
    };
    for (let doc = 0; doc < 100; doc++) {
      let md = pick(fragments);
      for (let i = 0; i < 4; i++) md += pick(separators) + pick(fragments);
      const blocks = parse(md);
      expect(parse(blocksToMarkdown(blocks), blocks, counter('new')), md).toEqual(blocks);
    }
  });
});

describe('markdownCost', () => {
  it('is the length of plain prose, and grows with the square of the nesting of each line', () => {
    const prose = 'A paragraph of text.\n\nAnother one.';
    expect(markdownCost(prose)).toBe(prose.length);
    expect(markdownCost('> quoted')).toBe('> quoted'.length + 16);
    expect(markdownCost('- item\n  - nested')).toBe('- item\n  - nested'.length + 16 + 16 * 4);
    const deep = `${'> '.repeat(32)}line`;
    expect(markdownCost(deep)).toBe(deep.length + 16 * 32 * 32);
  });
});
