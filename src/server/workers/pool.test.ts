import { afterEach, describe, expect, it } from 'vitest';
import { DomainError } from '../domain/errors.js';
import { splitBlocks } from '../domain/content/blocks.js';
import { WorkerPool } from './pool.js';

/** A body micromark needs seconds for: lists alternating with paragraphs (its cost grows with their square). */
function slowBody(blocks: number): string {
  return Array.from({ length: blocks }, (_, i) => (i % 2 ? `- item ${i}` : `Paragraph ${i}`)).join('\n\n');
}

const pools: WorkerPool[] = [];
function pool(options: ConstructorParameters<typeof WorkerPool>[0]) {
  const p = new WorkerPool(options);
  pools.push(p);
  return p;
}
afterEach(async () => {
  await Promise.all(pools.splice(0).map((p) => p.close()));
});

const base = {
  threads: 1,
  backgroundThreads: 1,
  timeoutMs: 20_000,
  queueTimeoutMs: 60_000,
  inlineBelow: 0,
  maxQueue: 4,
  heapMb: 256,
};

describe('worker pool', () => {
  it('runs a task in a worker thread and answers what the inline function answers', async () => {
    const workers = pool(base);
    const markdown = '# Title\n\nSome *text*.\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n- one\n- two\n';
    expect(await workers.run('splitBlocks', markdown, markdown.length)).toEqual(splitBlocks(markdown));
    expect(workers.offloaded).toBe(1);
    const pdf = await workers.run('renderPdf', { title: 'T', pages: [{ title: 'P', depth: 0, markdown }] }, 1);
    expect(Buffer.from(pdf).subarray(0, 5).toString()).toBe('%PDF-');
  });

  it('runs small inputs inline', async () => {
    const workers = pool({ ...base, inlineBelow: 1000 });
    expect(await workers.run('splitBlocks', 'hello', 5)).toEqual([{ type: 'paragraph', markdown: 'hello' }]);
    expect(workers.offloaded).toBe(0);
  });

  it('stops a task past its time limit with a 503, and the next task still runs', async () => {
    const workers = pool({ ...base, timeoutMs: 300 });
    const body = slowBody(20_000);
    const started = Date.now();
    const error = await workers.run('splitBlocks', body, body.length).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DomainError);
    expect((error as DomainError).status).toBe(503);
    expect((error as DomainError).message).toMatch(/Stopped after 0\.3 s/);
    // Stopped, not waited for: parsing this body takes many seconds.
    expect(Date.now() - started).toBeLessThan(5000);
    // The worker was terminated; its replacement starts within the usual limit.
    workers.configure({ timeoutMs: 20_000 });
    expect(await workers.run('splitBlocks', 'after', 5)).toEqual([{ type: 'paragraph', markdown: 'after' }]);
  });

  it("counts a task's time limit from when a thread takes it, not while it waits for one", async () => {
    const workers = pool({ ...base, timeoutMs: 400 });
    const body = slowBody(20_000);
    // The first task holds the only reader thread until it is stopped; the second waits that long, then runs.
    const first = workers.run('splitBlocks', body, body.length).catch((e: unknown) => e);
    const second = workers.run('splitBlocks', 'queued', 6);
    expect(((await first) as DomainError).status).toBe(503);
    expect(await second).toEqual([{ type: 'paragraph', markdown: 'queued' }]);
  });

  it('answers 503 to a task that waits for a thread past the queue limit, without running it', async () => {
    const workers = pool({ ...base, timeoutMs: 3000, queueTimeoutMs: 200 });
    const body = slowBody(20_000);
    const first = workers.run('splitBlocks', body, body.length).catch((e: unknown) => e);
    const waited = await workers.run('splitBlocks', 'queued', 6).catch((e: unknown) => e);
    expect((waited as DomainError).status).toBe(503);
    expect((waited as DomainError).message).toMatch(/busy/);
    expect(((await first) as DomainError).status).toBe(503);
  });

  it("runs background work in a lane of its own: a long one does not hold a reader's page", async () => {
    const workers = pool({ ...base, timeoutMs: 3000 });
    const body = slowBody(20_000);
    let backgroundSettled = false;
    // Indexing a huge page for search (background) takes the background thread for seconds...
    const background = workers
      .run('extractSections', [body], body.length)
      .catch((e: unknown) => e)
      .finally(() => (backgroundSettled = true));
    // ...while a reader's page is split at once on the readers' thread.
    expect(await workers.run('splitBlocks', 'a reader', 8)).toEqual([{ type: 'paragraph', markdown: 'a reader' }]);
    expect(backgroundSettled).toBe(false);
    expect(((await background) as DomainError).status).toBe(503);
  });

  it('answers 503 at once when the queue is full', async () => {
    const workers = pool({ ...base, timeoutMs: 1500, maxQueue: 1 });
    const body = slowBody(20_000);
    const running = workers.run('splitBlocks', body, body.length).catch((e: unknown) => e);
    const queued = workers.run('splitBlocks', body, body.length).catch((e: unknown) => e);
    const refused = await workers.run('splitBlocks', body, body.length).catch((e: unknown) => e);
    expect((refused as DomainError).status).toBe(503);
    expect((refused as DomainError).message).toMatch(/busy/);
    expect(((await running) as DomainError).status).toBe(503);
    expect(((await queued) as DomainError).status).toBe(503);
  });

  it("leaves a background thread to other organizations while one organization's tasks hold the rest", async () => {
    const workers = pool({ ...base, backgroundThreads: 2, timeoutMs: 600 });
    const body = slowBody(20_000);
    // Both threads started first (two tasks at once, of no organization): a thread starting on a busy machine can
    // take longer than the time limit below.
    const warm = slowBody(600);
    await Promise.all([1, 2].map(() => workers.run('extractSections', [warm], warm.length, { timeoutMs: 20_000 })));
    let settledA = 0;
    // Two long tasks of organization A: the second waits for the first (A may hold one thread of two)...
    const a = [1, 2].map(() =>
      workers
        .run('extractSections', [body], body.length, { organization: 'org-a' })
        .catch((e: unknown) => e)
        .finally(() => settledA++),
    );
    // ...so organization B's task takes the other thread at once, before either of A's is stopped.
    expect(await workers.run('extractSections', ['# B\n\nquick'], 12, { organization: 'org-b' })).toHaveLength(1);
    expect(settledA).toBe(0);
    for (const result of await Promise.all(a)) expect((result as DomainError).status).toBe(503);
  });
});
