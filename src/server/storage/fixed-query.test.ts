import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDialect, openFreshStorage } from '../test/harness.js';
import { fixedQuery, type Storage } from './db.js';

/** fixedQuery compiles its SQL once per database kind and runs it with each call's own parameters. */
describeEachDialect('fixedQuery', (dialect) => {
  let storage: Storage;
  let close: () => Promise<void>;

  beforeAll(async () => {
    ({ storage, close } = await openFreshStorage(dialect));
  });
  afterAll(() => close());

  it('gives each call the rows of its own parameters, also inside a transaction', async () => {
    const pair = fixedQuery((a: string, b: string) => sql<{ a: string; b: string }>`select ${a} as a, ${b} as b`);
    expect(await pair(storage.db, 'x', '1')).toEqual([{ a: 'x', b: '1' }]);
    expect(await pair(storage.db, 'y', '2')).toEqual([{ a: 'y', b: '2' }]);
    await storage.db.transaction().execute(async (tx) => {
      expect(await pair(tx, 'z', '3')).toEqual([{ a: 'z', b: '3' }]);
    });
  });

  it('refuses a template that uses its parameters out of order or twice, before running anything', async () => {
    const swapped = fixedQuery((a: string, b: string) => sql<{ v: string }>`select ${b} as v union all select ${a}`);
    await expect(swapped(storage.db, 'p', 'q')).rejects.toThrow(/each parameter once, in order/);
    const twice = fixedQuery((a: string) => sql<{ v: string }>`select ${a} as v union all select ${a}`);
    await expect(twice(storage.db, 'p')).rejects.toThrow(/each parameter once, in order/);
  });
});
