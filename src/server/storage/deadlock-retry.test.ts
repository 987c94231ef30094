import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDialect, openFreshStorage } from '../test/harness.js';
import { transactionRetryingDeadlocks, type Storage } from './db.js';

/** A transaction PostgreSQL rolled back as a deadlock's victim runs again; any other failure does not. */
describeEachDialect('transactionRetryingDeadlocks', (dialect) => {
  let storage: Storage;
  let close: () => Promise<void>;

  beforeAll(async () => {
    ({ storage, close } = await openFreshStorage(dialect));
  });
  afterAll(() => close());

  it('runs a deadlock victim again, up to its attempts, and nothing else', async () => {
    let runs = 0;
    const answer = await transactionRetryingDeadlocks(storage.db, async (tx) => {
      runs++;
      const [row] = (await sql<{ n: number }>`select ${runs} as n`.execute(tx)).rows;
      if (runs < 3) throw Object.assign(new Error('deadlock detected'), { code: '40P01' });
      return Number(row!.n);
    });
    expect([answer, runs]).toEqual([3, 3]);

    runs = 0;
    const always = transactionRetryingDeadlocks(storage.db, async () => {
      runs++;
      throw Object.assign(new Error('deadlock detected'), { code: '40P01' });
    });
    await expect(always).rejects.toThrow('deadlock detected');
    expect(runs).toBe(3);

    runs = 0;
    const other = transactionRetryingDeadlocks(storage.db, async () => {
      runs++;
      throw Object.assign(new Error('unique violation'), { code: '23505' });
    });
    await expect(other).rejects.toThrow('unique violation');
    expect(runs).toBe(1);
  });
});
