import { afterAll, beforeAll, expect, it } from 'vitest';
import pino from 'pino';
import { describeEachDialect, storageFor } from '../test/harness.js';
import { openStorage, type Storage } from '../storage/db.js';
import { enqueueJob, jobsOfKey } from '../storage/repos/jobs.js';
import { JobQueue, type JobHandler } from './queue.js';
import { purgeOnce } from './purge.js';

const log = pino({ level: 'silent' });

describeEachDialect('job queue', (dialect) => {
  let storage: Storage;
  let drop: () => Promise<void>;
  beforeAll(async () => {
    const made = await storageFor(dialect);
    drop = made.drop;
    storage = openStorage(made.storage);
  });
  afterAll(async () => {
    await storage.close();
    await drop();
  });

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
});
