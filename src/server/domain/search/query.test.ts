import { describe, expect, it } from 'vitest';
import { parseQuery, PREFIX_MIN, SEARCH_TERMS_MAX } from './query.js';
import { toFts5 } from '../../storage/dialects/search-sqlite.js';

describe('search queries', () => {
  it('reads words, lower-cased, the last one (of 3+ characters) also as a prefix', () => {
    expect(parseQuery('Install Kube').terms).toEqual([
      { words: ['install'], prefix: false },
      { words: ['kube'], prefix: true },
    ]);
    expect(parseQuery('ku').terms).toEqual([{ words: ['ku'], prefix: false }]);
    expect('kub'.length).toBe(PREFIX_MIN);
  });

  it('reads quoted phrases; an unclosed quote runs to the end; a query ending with a phrase has no prefix', () => {
    expect(parseQuery('"quick brown" fox').terms).toEqual([
      { words: ['quick', 'brown'], prefix: false },
      { words: ['fox'], prefix: true },
    ]);
    expect(parseQuery('fox "quick brown').terms).toEqual([
      { words: ['fox'], prefix: false },
      { words: ['quick', 'brown'], prefix: false },
    ]);
  });

  it('treats operators and syntax as plain words or separators, and unicode letters as words', () => {
    expect(parseQuery('a AND b NEAR(c) -d title:e f*').terms.map((t) => t.words[0])).toEqual([
      'a',
      'and',
      'b',
      'near',
      'c',
      'd',
      'title',
      'e',
      'f',
    ]);
    expect(parseQuery('Ünïcode 設定 مرحبا').terms.map((t) => t.words[0])).toEqual(['ünïcode', '設定', 'مرحبا']);
    for (const empty of ['"', '""', '*', '-', ':', '()', '🙂', '   ', '"  "', '\u0301']) {
      expect(parseQuery(empty).terms, JSON.stringify(empty)).toEqual([]);
    }
  });

  it('keeps a bounded number of distinct terms, the last one included', () => {
    const words = Array.from({ length: 40 }, (_, i) => `word${i}`);
    const { terms } = parseQuery(words.join(' '));
    expect(terms).toHaveLength(SEARCH_TERMS_MAX);
    expect(terms.at(-1)).toEqual({ words: ['word39'], prefix: true });
    expect(parseQuery('same same same').terms).toEqual([
      { words: ['same'], prefix: false },
      { words: ['same'], prefix: true },
    ]);
  });

  it('becomes an FTS5 query of quoted strings only; in English without stop words outside phrases', () => {
    expect(toFts5(parseQuery('"quick brown" AND near:fox'))).toBe('"quick brown" "and" "near" "fox"*');
    expect(toFts5(parseQuery('"the fox" and the hound'), 'english')).toBe('"the fox" "hound"*');
    expect(toFts5(parseQuery('the'), 'english')).toBe('');
  });
});
