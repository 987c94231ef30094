import { describe, expect, it } from 'vitest';
import { Trie, MemoryNodeStore, LEAF_MAX, canonicalJson, jsonEqual } from './tree.js';

function build(n: number, prefix = 'page') {
  return new Map(Array.from({ length: n }, (_, i) => [`${prefix}-${i}`, { v: `version-${i}`, o: i }]));
}

describe('persistent trie', () => {
  it('stores, reads and lists entries; an empty map is null', async () => {
    const trie = new Trie(new MemoryNodeStore());
    expect(await trie.update(null, new Map())).toBeNull();
    const root = await trie.update(null, build(500));
    expect(await trie.size(root)).toBe(500);
    expect(await trie.get(root, 'page-123')).toEqual({ v: 'version-123', o: 123 });
    expect(await trie.get(root, 'page-999')).toBeUndefined();
    expect((await trie.entries(root)).length).toBe(500);
  });

  it('has a canonical shape: the same entries give the same root, whatever the history', async () => {
    const trie = new Trie(new MemoryNodeStore());
    const all = await trie.update(null, build(300));
    let stepwise: string | null = null;
    for (const [k, v] of build(300)) stepwise = await trie.update(stepwise, new Map([[k, v]]));
    expect(stepwise).toBe(all);
    // Adding then removing 200 keys comes back to the same root (branches collapse back into leaves).
    const grown = await trie.update(all, build(200, 'extra'));
    const shrunk = await trie.update(grown, new Map([...build(200, 'extra').keys()].map((k) => [k, null])));
    expect(shrunk).toBe(all);
    const small = await trie.update(null, build(LEAF_MAX));
    const bigger = await trie.update(small, build(LEAF_MAX + 1));
    const back = await trie.update(bigger, new Map([[`page-${LEAF_MAX}`, null]]));
    expect(back).toBe(small);
  });

  it('writes only the nodes on the paths to changed keys (structural sharing)', async () => {
    const store = new MemoryNodeStore();
    const trie = new Trie(store);
    const root = await trie.update(null, build(10_000));
    const before = store.nodes.size;
    const changed = await trie.update(
      root,
      new Map(Array.from({ length: 10 }, (_, i) => [`page-${i * 997}`, { v: 'edited', o: i }])),
    );
    const added = store.nodes.size - before;
    expect(added).toBeGreaterThan(0);
    expect(added).toBeLessThanOrEqual(10 * 4); // at most one node per level on each changed path
    expect(await trie.get(changed, 'page-997')).toEqual({ v: 'edited', o: 1 });
    expect(await trie.get(root, 'page-997')).toEqual({ v: 'version-997', o: 997 });
  });

  it('diffs two maps: added, removed and changed keys only', async () => {
    const trie = new Trie(new MemoryNodeStore());
    const a = await trie.update(null, build(2000));
    const b = await trie.update(
      a,
      new Map<string, any>([
        ['page-5', null],
        ['page-6', { v: 'changed', o: 6 }],
        ['new-page', { v: 'new', o: 0 }],
      ]),
    );
    const diff = await trie.diff(a, b);
    expect(diff.sort((x, y) => x.key.localeCompare(y.key))).toEqual([
      { key: 'new-page', after: { v: 'new', o: 0 } },
      { key: 'page-5', before: { v: 'version-5', o: 5 } },
      { key: 'page-6', before: { v: 'version-6', o: 6 }, after: { v: 'changed', o: 6 } },
    ]);
    expect(await trie.diff(a, a)).toEqual([]);
    expect((await trie.diff(null, a)).length).toBe(2000);
  });

  it('hashes values canonically, whatever their key order', () => {
    expect(canonicalJson({ b: 1, a: [{ d: 1, c: 2 }] })).toBe(canonicalJson({ a: [{ c: 2, d: 1 }], b: 1 }));
  });
});

describe('jsonEqual', () => {
  it('agrees with comparing canonical JSON, key order and undefined keys included', () => {
    const values: unknown[] = [
      null,
      0,
      1,
      '1',
      true,
      false,
      [],
      {},
      [1, 2],
      [2, 1],
      ['a', 'b'],
      { a: 1, b: [1, { c: 'x' }] },
      { b: [1, { c: 'x' }], a: 1 },
      { a: 1, b: [1, { c: 'y' }] },
      { a: 1, b: [1, { c: 'x' }], d: undefined },
      { a: 1 },
      { a: [1] },
      { c: Array.from({ length: 1000 }, (_, i) => `p${i}`), p: null, v: 'h' },
      { c: Array.from({ length: 1000 }, (_, i) => `p${i === 999 ? 'x' : i}`), p: null, v: 'h' },
    ];
    for (const a of values) {
      for (const b of values) expect([a, b, jsonEqual(a, b)]).toEqual([a, b, canonicalJson(a) === canonicalJson(b)]);
    }
  });
});
