import { describe, expect, it } from 'vitest';
import { LruCache } from './lru-cache.js';

describe('LruCache', () => {
  it('drops the least recently used entry first, counting reads as uses', () => {
    const cache = new LruCache<number>(3);
    cache.set('a', 1);
    cache.set('b', 2);
    cache.set('c', 3);
    expect(cache.get('a')).toBe(1); // a is now the most recent
    cache.set('d', 4); // drops b
    expect(cache.get('b')).toBeUndefined();
    cache.set('e', 5); // drops c
    expect(cache.get('c')).toBeUndefined();
    expect([cache.get('a'), cache.get('d'), cache.get('e')]).toEqual([1, 4, 5]);
    cache.set('f', 6); // drops a (read before d and e)
    expect(cache.get('a')).toBeUndefined();
    expect(cache.size).toBe(3);
    // A peek is not a use: d, peeked, is still the next to go.
    expect(cache.peek('d')).toBe(4);
    cache.set('g', 7);
    expect(cache.peek('d')).toBeUndefined();
    expect(cache.peek('e')).toBe(5);
  });

  it('bounds the total weight, never keeps a value heavier than the bound, and restarts after emptying', () => {
    const cache = new LruCache<string>(100, 10, (v) => v.length);
    cache.set('a', 'xxxx');
    cache.set('b', 'xxxx');
    cache.set('c', 'xxxx'); // 12 > 10: drops a
    expect(cache.get('a')).toBeUndefined();
    cache.set('big', 'x'.repeat(11));
    expect(cache.get('big')).toBeUndefined();
    cache.set('d', 'x'.repeat(10)); // drops b and c
    expect(cache.size).toBe(1);
    cache.clear();
    cache.set('e', 'xxxx');
    cache.set('f', 'xxxxxxx'); // drops e
    expect(cache.get('e')).toBeUndefined();
    expect(cache.get('f')).toBe('xxxxxxx');
  });

  it('keeps the most recent entries through 200,000 new ones in a 20,000-entry cache', () => {
    const cache = new LruCache<number>(20_000);
    for (let i = 0; i < 200_000; i++) {
      cache.set(`k${i}`, i);
      cache.get(`k${i - 10}`);
    }
    expect(cache.size).toBe(20_000);
    expect(cache.get('k199999')).toBe(199_999);
    expect(cache.get('k0')).toBeUndefined();
  });
});
