import { afterAll, beforeAll, expect, it } from 'vitest';
import pino from 'pino';
import { describeEachDialect, openFreshStorage } from '../test/harness.js';
import type { Storage } from '../storage/db.js';
import { enqueueJob, jobsOfKey } from '../storage/repos/jobs.js';
import { JobQueue, type JobHandler } from './queue.js';
import { purgeOnce } from './purge.js';

const log = pino({ level: 'silent' });

describeEachDialect('job queue', (dialect) => {
  let storage: Storage;
  let close: () => Promise<void>;
  beforeAll(async () => {
    ({ storage, close } = await openFreshStorage(dialect));
  });
  afterAll(() => close());

  const enqueue = (kind: string, key: string, payload: unknown) =>
    enqueueJob(
      storage.db,
      { id: `${key}-${Math.random()}`, kind, key, payload: JSON.stringify(payload) },
      new Date().toISOString(),
    );

  it('runs a job once, even with several processes draining at once, with the latest payload of a queued key', async () => {
    const seen: unknown[] = [];
    const handler: JobHandler = {
      run: async (payload) => {
        seen.push(payload);
        await new Promise((r) => setTimeout(r, 20));
      },
    };
    await enqueue('count', 'a', { n: 1 });
    await enqueue('count', 'a', { n: 2 }); // still queued: replaces the payload
    await enqueue('count', 'b', { n: 3 });
    const queues = [1, 2, 3].map(() => new JobQueue(storage.db, { count: handler }, log));
    await Promise.all(queues.map((q) => q.drain()));
    expect(seen).toHaveLength(2);
    expect(seen).toEqual(expect.arrayContaining([{ n: 2 }, { n: 3 }]));
    expect((await jobsOfKey(storage.db, 'count', 'a')).map((j) => j.state)).toEqual(['done']);
  });

  it('retries a failing job later, then gives up after its attempts and says so', async () => {
    let runs = 0;
    const gaveUp: unknown[] = [];
    const handler: JobHandler = {
      attempts: 2,
      run: async () => {
        runs++;
        throw new Error('the service is down');
      },
      giveUp: async (payload, error) => {
        gaveUp.push([payload, (error as Error).message]);
      },
    };
    await enqueue('flaky', 'x', { id: 'x' });
    let clock = Date.now();
    const queue = new JobQueue(storage.db, { flaky: handler }, log, { retryMs: 300, now: () => clock });
    await queue.drain();
    expect(runs).toBe(1);
    clock += 299;
    await queue.drain();
    expect(runs).toBe(1); // not due again before 300 ms
    clock += 51;
    await queue.drain();
    expect(runs).toBe(2);
    expect(gaveUp).toEqual([[{ id: 'x' }, 'the service is down']]);
    const [job] = await jobsOfKey(storage.db, 'flaky', 'x');
    expect(job).toMatchObject({ state: 'failed', attempts: 2, last_error: 'the service is down' });

    // Finished jobs go once a week old.
    await storage.db.updateTable('jobs').set({ updated_at: '2020-01-01T00:00:00.000Z' }).execute();
    await purgeOnce(storage.db);
    expect(await storage.db.selectFrom('jobs').selectAll().execute()).toEqual([]);
  });

  it("runs a group's jobs one at a time across processes, and a kind with a limit of its own within it", async () => {
    const running = new Map<string, number>();
    const most = new Map<string, number>();
    const order: string[] = [];
    const count = (name: string, by: number) => {
      running.set(name, (running.get(name) ?? 0) + by);
      most.set(name, Math.max(most.get(name) ?? 0, running.get(name)!));
    };
    const handler: JobHandler = {
      run: async (payload) => {
        const { group, n } = payload as { group: string; n: number };
        count(group, 1);
        count('all', 1);
        order.push(`${group}${n}`);
        await new Promise((r) => setTimeout(r, 60));
        count(group, -1);
        count('all', -1);
      },
    };
    const now = new Date().toISOString();
    for (const [group, n] of [
      ['a', 1],
      ['a', 2],
      ['a', 3],
      ['b', 1],
    ] as const) {
      await enqueueJob(
        storage.db,
        {
          id: `grouped-${group}${n}`,
          kind: 'grouped',
          key: `${group}${n}`,
          payload: JSON.stringify({ group, n }),
          group_key: group,
        },
        now,
      );
    }
    // Two processes, each running two of this kind at once.
    const queues = [1, 2].map(
      () => new JobQueue(storage.db, { grouped: handler }, log, { pollMs: 10, kindLimits: { grouped: 2 } }),
    );
    for (const q of queues) q.start();
    for (let i = 0; i < 200 && order.length < 4; i++) await new Promise((r) => setTimeout(r, 20));
    await Promise.all(queues.map((q) => q.drain()));
    await Promise.all(queues.map((q) => q.stop()));
    expect(order).toHaveLength(4);
    // Group a's three jobs never overlapped, and b's did not wait for all of them.
    expect(most.get('a')).toBe(1);
    expect(order.indexOf('b1')).toBeLessThan(3);
    expect(most.get('all')).toBeGreaterThan(1);

    // One process with a limit of one for the kind: its jobs of different groups run one after the other.
    most.clear();
    for (const group of ['c', 'd', 'e']) {
      await enqueueJob(
        storage.db,
        {
          id: `limited-${group}`,
          kind: 'grouped',
          key: `l-${group}`,
          payload: JSON.stringify({ group, n: 0 }),
          group_key: group,
        },
        new Date().toISOString(),
      );
    }
    const single = new JobQueue(storage.db, { grouped: handler }, log, { pollMs: 10, kindLimits: { grouped: 1 } });
    single.start();
    for (let i = 0; i < 200 && order.length < 7; i++) await new Promise((r) => setTimeout(r, 20));
    await single.stop();
    expect(order).toHaveLength(7);
    expect(most.get('all')).toBe(1);
  });
});
