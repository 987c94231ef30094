import { describe, expect, it } from 'vitest';
import { FifoCache } from './fifo-cache.js';

describe('FifoCache', () => {
  it('drops the oldest entries first, keeping at most its size', () => {
    const cache = new FifoCache<number>(3);
    for (let i = 0; i < 5; i++) cache.set(`k${i}`, i);
    expect(cache.size).toBe(3);
    expect(['k0', 'k1', 'k2', 'k3', 'k4'].map((k) => cache.get(k))).toEqual([undefined, undefined, 2, 3, 4]);
    // Setting a key it holds replaces the value and evicts nothing.
    cache.set('k2', 20);
    expect(cache.size).toBe(3);
    expect(cache.get('k2')).toBe(20);
    cache.set('k5', 5);
    expect(cache.has('k2')).toBe(false);
    expect(cache.has('k3')).toBe(true);
  });

  it('keeps the weights it holds under its bound, the oldest out first, and nothing heavier than the bound', () => {
    const cache = new FifoCache<string>(100, 10);
    cache.set('a', 'a', 4);
    cache.set('b', 'b', 4);
    cache.set('c', 'c', 4);
    expect([cache.has('a'), cache.has('b'), cache.has('c')]).toEqual([false, true, true]);
    expect(cache.weight).toBe(8);
    cache.set('d', 'd', 9);
    expect(cache.size).toBe(1);
    expect(cache.weight).toBe(9);
    cache.set('huge', 'huge', 11);
    expect(cache.has('huge')).toBe(false);
    expect(cache.get('d')).toBe('d');
  });

  it('stays in insertion order across many evictions', () => {
    const cache = new FifoCache<number>(1000);
    for (let i = 0; i < 50_000; i++) cache.set(`k${i}`, i);
    expect(cache.size).toBe(1000);
    expect(cache.get('k48999')).toBeUndefined();
    expect(cache.get('k49000')).toBe(49_000);
    expect(cache.get('k49999')).toBe(49_999);
  });

  it('keeps working once its size is one', () => {
    const cache = new FifoCache<string>(1);
    for (const key of ['a', 'b', 'c']) cache.set(key, key);
    expect(cache.get('c')).toBe('c');
    expect(cache.size).toBe(1);
  });
});
