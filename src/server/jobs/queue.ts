import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../storage/db.js';
import * as repo from '../storage/repos/jobs.js';
import { newId } from '../lib/ids.js';
import { nowIso } from '../lib/time.js';

/**
 * The job queue, stored in the database so that any server process can run a job and a crash loses none: a job
 * is leased while it runs and its lease is renewed as long as its process lives; once a lease runs out, any
 * process claims the job again. A handler must therefore be safe to run twice (see jobs/openapi.ts).
 */

export interface JobHandler {
  /** Runs the job. Throwing retries it later (up to `attempts` times in all), then `giveUp` is called. */
  run(payload: unknown, job: repo.JobRow): Promise<void>;
  /** Called once the job failed `attempts` times, to record the failure where users see it. */
  giveUp?(payload: unknown, error: unknown): Promise<void>;
  attempts?: number;
  /** Delay before trying again after the `attempts`-th failure; linear (`retryMs` × attempts) unless given. */
  retryDelayMs?(attempts: number): number;
  /** Releases what the handler keeps between jobs (open connections) once the queue stopped. */
  close?(): Promise<void>;
}

export interface JobQueueOptions {
  /** Milliseconds a claim lasts without renewal. */
  leaseMs?: number;
  /** Milliseconds between looks for work when idle. */
  pollMs?: number;
  /** Jobs this process runs at once, of the kinds without a limit of their own in `kindLimits`. */
  concurrency?: number;
  /** Jobs of a kind this process runs at once, besides the others (imports: IMPORTS_IN_FLIGHT_MAX). */
  kindLimits?: Record<string, number>;
  /** Delay before a failed job is tried again, times the attempts so far. */
  retryMs?: number;
  /** The clock deciding which jobs are due and when a retry is (tests move it instead of waiting). */
  now?: () => number;
}

class GaveUp extends Error {}

const DEFAULTS = {
  leaseMs: 60_000,
  pollMs: 1_000,
  concurrency: 2,
  kindLimits: {} as Record<string, number>,
  retryMs: 5_000,
  now: Date.now,
};

/** Makes the queues of this process look for work now (after a job was queued and committed). */
export function wakeJobQueues(): void {
  for (const queue of running) queue.wake();
}

/** Queues started in this process: enqueue wakes them so that a job starts at once, not at the next poll. */
const running = new Set<JobQueue>();

export class JobQueue {
  private readonly worker = `${process.pid}-${newId()}`;
  private readonly options: typeof DEFAULTS;
  private timer: NodeJS.Timeout | undefined;
  private active = new Set<Promise<void>>();
  /** Jobs running now, by kind. */
  private running = new Map<string, number>();
  private stopped = true;
  private looking = false;

  constructor(
    private readonly db: Db,
    private readonly handlers: Record<string, JobHandler>,
    private readonly log: FastifyBaseLogger,
    options: JobQueueOptions = {},
  ) {
    this.options = { ...DEFAULTS, ...options };
  }

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    running.add(this);
    this.schedule(0);
  }

  /**
   * Stops claiming jobs and waits up to `waitMs` for those running to end; one still running after that is
   * claimed again by a process once its lease runs out.
   */
  async stop(waitMs = 5_000): Promise<void> {
    this.stopped = true;
    running.delete(this);
    clearTimeout(this.timer);
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<void>((resolve) => (timer = setTimeout(resolve, waitMs)));
    await Promise.race([Promise.allSettled([...this.active]), timeout]);
    clearTimeout(timer);
    await Promise.allSettled(Object.values(this.handlers).map((h) => h.close?.()));
  }

  /** Looks for work now. */
  wake(): void {
    if (!this.stopped) this.schedule(0);
  }

  /** Runs every job ready now, and returns when none is left (tests and tools). */
  async drain(): Promise<void> {
    for (;;) {
      const job = await this.claim();
      if (!job) {
        // The queue's own look may have claimed a job it has not started yet (its claim answered, not its start):
        // wait for it to start, then for it to end.
        if (this.looking) {
          await new Promise((resolve) => setTimeout(resolve, 5));
          continue;
        }
        if (this.active.size === 0) return;
        await Promise.race([...this.active]);
        continue;
      }
      await this.track(job);
    }
  }

  private schedule(ms: number): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.look(), ms);
    this.timer.unref();
  }

  private async look(): Promise<void> {
    if (this.stopped || this.looking) return;
    this.looking = true;
    try {
      while (!this.stopped) {
        const kinds = this.kindsWithRoom();
        if (!kinds.length) break;
        const job = await this.claim(kinds);
        if (!job) break;
        void this.track(job);
      }
    } catch (err) {
      this.log.error({ err }, 'claiming a job failed');
    } finally {
      this.looking = false;
      if (!this.stopped) this.schedule(this.options.pollMs);
    }
  }

  /** The kinds of job this process has room to run one more of now. */
  private kindsWithRoom(): string[] {
    const { concurrency, kindLimits } = this.options;
    let general = 0;
    for (const [kind, n] of this.running) if (kindLimits[kind] === undefined) general += n;
    return Object.keys(this.handlers).filter((kind) =>
      kindLimits[kind] === undefined ? general < concurrency : (this.running.get(kind) ?? 0) < kindLimits[kind],
    );
  }

  private claim(kinds = Object.keys(this.handlers)): Promise<repo.JobRow | undefined> {
    const now = this.options.now();
    return repo.claimJob(
      this.db,
      kinds,
      this.worker,
      new Date(now).toISOString(),
      new Date(now + this.options.leaseMs).toISOString(),
    );
  }

  private track(job: repo.JobRow): Promise<void> {
    this.running.set(job.kind, (this.running.get(job.kind) ?? 0) + 1);
    const p = this.execute(job)
      .catch((err: unknown) => this.log.error({ err, job: job.id }, 'recording the end of a job failed'))
      .finally(() => {
        this.running.set(job.kind, this.running.get(job.kind)! - 1);
        this.active.delete(p);
        this.wake();
      });
    this.active.add(p);
    return p;
  }

  private async execute(job: repo.JobRow): Promise<void> {
    const handler = this.handlers[job.kind]!;
    const renew = setInterval(
      () =>
        void repo
          .extendJobLease(
            this.db,
            job.id,
            this.worker,
            new Date(this.options.now() + this.options.leaseMs).toISOString(),
          )
          .catch((err: unknown) => this.log.warn({ err, job: job.id }, 'renewing a job lease failed')),
      Math.max(10, Math.floor(this.options.leaseMs / 3)),
    );
    renew.unref();
    const payload: unknown = JSON.parse(job.payload);
    const attempts = handler.attempts ?? 3;
    try {
      // Claimed more often than it may run: its earlier runs ended with their process (a crash, a hang), so
      // running it again would end the same way.
      if (job.attempts > attempts) throw new GaveUp(`stopped after ${attempts} attempts whose process ended`);
      await handler.run(payload, job);
      await repo.finishJob(this.db, job.id, this.worker, { state: 'done' }, null, nowIso());
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      if (job.attempts >= attempts || err instanceof GaveUp) {
        this.log.error({ err, job: job.id, kind: job.kind }, 'job failed for good');
        await handler.giveUp?.(payload, err).catch((e: unknown) => this.log.error({ err: e }, 'giving up failed'));
        await repo.finishJob(this.db, job.id, this.worker, { state: 'failed' }, message, nowIso());
      } else {
        this.log.warn({ err, job: job.id, kind: job.kind, attempt: job.attempts }, 'job failed; it will be retried');
        const delayMs = handler.retryDelayMs?.(job.attempts) ?? this.options.retryMs * job.attempts;
        const runAfter = new Date(this.options.now() + delayMs).toISOString();
        await repo.finishJob(this.db, job.id, this.worker, { state: 'queued', runAfter }, message, nowIso());
      }
    } finally {
      clearInterval(renew);
    }
  }
}
