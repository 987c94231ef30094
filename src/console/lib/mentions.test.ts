import { describe, expect, it } from 'vitest';
import { insertMention, mentionMarkdown, mentionQueryAt, mentionTarget } from './mentions';

describe('mentionQueryAt', () => {
  it('finds `@` and letters at the start or after whitespace, up to the caret', () => {
    expect(mentionQueryAt('@Bo', 3)).toEqual({ start: 0, end: 3, query: 'Bo' });
    expect(mentionQueryAt('Thanks @Bo', 10)).toEqual({ start: 7, end: 10, query: 'Bo' });
    expect(mentionQueryAt('Line one\n@ann', 13)).toEqual({ start: 9, end: 13, query: 'ann' });
    expect(mentionQueryAt('Hi @Zoë', 7)).toEqual({ start: 3, end: 7, query: 'Zoë' });
    expect(mentionQueryAt('Hi @o’Brien', 11)).toEqual({ start: 3, end: 11, query: 'o’Brien' });
  });

  it('takes the whole word when the caret is inside it', () => {
    expect(mentionQueryAt('Hi @Bob, see', 6)).toEqual({ start: 3, end: 7, query: 'Bob' });
  });

  it('ignores addresses, a lone `@`, a digit first, links already written and words ended by a space', () => {
    expect(mentionQueryAt('ann@example', 11)).toBeUndefined();
    expect(mentionQueryAt('Hi @', 4)).toBeUndefined();
    expect(mentionQueryAt('At @3pm', 7)).toBeUndefined();
    expect(mentionQueryAt('[@Bob Lee](/users/x)', 5)).toBeUndefined();
    expect(mentionQueryAt('@Bob ', 5)).toBeUndefined();
    expect(mentionQueryAt('@Bob', 0)).toBeUndefined();
  });

  it('gives up on a word too long to be a name', () => {
    expect(mentionQueryAt(`@${'a'.repeat(50)}`, 51)?.query).toHaveLength(50);
    expect(mentionQueryAt(`@${'a'.repeat(51)}`, 52)).toBeUndefined();
    expect(mentionQueryAt(`@${'a'.repeat(60)}`, 10)).toBeUndefined();
  });
});

describe('mentionMarkdown', () => {
  it('links to the user or the team, with the name as the text', () => {
    expect(mentionMarkdown('user', '01abc', 'Ann Lee')).toBe('[@Ann Lee](/users/01abc)');
    expect(mentionMarkdown('team', '01xyz', 'Writers')).toBe('[@Writers](/teams/01xyz)');
  });

  it('escapes what would break the link and keeps the name on one line', () => {
    expect(mentionMarkdown('user', 'id', 'A [b] *c*\n  d_e\\')).toBe('[@A \\[b\\] \\*c\\* d\\_e\\\\](/users/id)');
  });
});

describe('insertMention', () => {
  const bob = '[@Bob](/users/b1)';

  it('replaces the query with the mention and a space, the caret after the space', () => {
    const text = 'Hi @Bo';
    const edit = insertMention(text, { start: 3, end: 6 }, bob);
    expect(edit.text).toBe(`Hi ${bob} `);
    expect(edit.insert).toBe(`${bob} `);
    expect(edit.caret).toBe(edit.text.length);
  });

  it('keeps what follows, and a space already there', () => {
    const edit = insertMention('@Bo and @Al', { start: 0, end: 3 }, bob);
    expect(edit.text).toBe(`${bob} and @Al`);
    expect(edit.insert).toBe(bob);
    expect(edit.text.slice(0, edit.caret)).toBe(`${bob} `);

    const beforeLine = insertMention('@Bo\nnext', { start: 0, end: 3 }, bob);
    expect(beforeLine.text).toBe(`${bob} \nnext`);
    expect(beforeLine.caret).toBe(bob.length + 1);
  });
});

describe('mentionTarget', () => {
  it('reads the links mentions are written as, and nothing else', () => {
    expect(mentionTarget('/users/01abc')).toEqual({ kind: 'user', id: '01abc' });
    expect(mentionTarget('/teams/01_x-y')).toEqual({ kind: 'team', id: '01_x-y' });
    expect(mentionTarget('/users/01abc/spaces')).toBeUndefined();
    expect(mentionTarget('https://example.com/users/01abc')).toBeUndefined();
    expect(mentionTarget('/spaces/01abc')).toBeUndefined();
    expect(mentionTarget(undefined)).toBeUndefined();
  });
});
