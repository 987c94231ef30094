import os from 'node:os';
import { Piscina } from 'piscina';
import { ServiceUnavailableError } from '../domain/errors.js';
import { runTask, type TaskName, type Tasks } from './tasks.js';

/**
 * The worker-thread pool for CPU-heavy work (markdown parsing, diffs, PDF and published-page rendering), so one
 * request's big input never stalls the event loop every other request shares. Each task gets a time limit and a
 * heap limit; a task past either is stopped (its worker is terminated and replaced) and the request answers 503.
 * Tasks whose input is small run inline: a worker round trip would cost more than the work.
 */
export interface WorkerPoolOptions {
  /** Worker threads at most; they start on demand and stop when idle. */
  threads: number;
  /** Milliseconds a task may run (queueing included) before it is stopped. */
  timeoutMs: number;
  /** Input size (characters) under which a task runs inline. */
  inlineBelow: number;
  /** Tasks waiting for a thread at most; past it, requests answer 503 at once. */
  maxQueue: number;
  /** Heap of each worker, in MiB. */
  heapMb: number;
}

export function defaultWorkerOptions(): WorkerPoolOptions {
  const threads = Math.max(1, Math.min(4, os.availableParallelism() - 1));
  return { threads, timeoutMs: 10_000, inlineBelow: 16 * 1024, maxQueue: threads * 32, heapMb: 512 };
}

type Input<K extends TaskName> = Parameters<Tasks[K]>[0];
type Output<K extends TaskName> = Awaited<ReturnType<Tasks[K]>>;

const RETRY_AFTER_SECONDS = 5;

export class WorkerPool {
  private pool: Piscina | undefined;
  /** Tasks run in workers (not inline) since start: for tests and diagnostics. */
  offloaded = 0;

  constructor(private options: WorkerPoolOptions = defaultWorkerOptions()) {}

  /** Changes the options; a pool already started is replaced (once its tasks are done) if its threads change. */
  configure(options: Partial<WorkerPoolOptions>): void {
    const before = this.options;
    this.options = { ...before, ...options };
    const { threads, maxQueue, heapMb } = this.options;
    if (threads === before.threads && maxQueue === before.maxQueue && heapMb === before.heapMb) return;
    const old = this.pool;
    this.pool = undefined;
    void old?.close();
  }

  /** Whether a task of this input size would run inline. */
  runsInline(size: number): boolean {
    return size < this.options.inlineBelow;
  }

  /**
   * Runs `task` on `input`, whose size (characters or bytes) decides whether it goes to a worker. Fails with a
   * 503 when the task takes longer than the time limit, needs more memory than a worker has, or the queue is full.
   */
  async run<K extends TaskName>(
    task: K,
    input: Input<K>,
    size: number,
    options: { timeoutMs?: number } = {},
  ): Promise<Output<K>> {
    const timeoutMs = options.timeoutMs ?? this.options.timeoutMs;
    if (this.runsInline(size)) return (await runTask({ task, input })) as Output<K>;
    const pool = (this.pool ??= new Piscina({
      filename: new URL('./entry.mjs', import.meta.url).href,
      minThreads: 0,
      maxThreads: this.options.threads,
      idleTimeout: 30_000,
      maxQueue: this.options.maxQueue,
      resourceLimits: { maxOldGenerationSizeMb: this.options.heapMb },
    }));
    this.offloaded++;
    try {
      return (await pool.run({ task, input }, { signal: AbortSignal.timeout(timeoutMs) })) as Output<K>;
    } catch (err) {
      const e = err as { name?: string; code?: string; message?: string };
      const seconds = Math.round(timeoutMs / 100) / 10;
      if (e.name === 'AbortError' || e.name === 'TimeoutError') {
        throw new ServiceUnavailableError(
          `Stopped after ${seconds} s: this content takes too long to process (the server may also be busy). ` +
            'Make it smaller, for example by splitting the page, or try again later',
          RETRY_AFTER_SECONDS,
        );
      }
      if (e.code === 'ERR_WORKER_OUT_OF_MEMORY') {
        throw new ServiceUnavailableError(
          `Stopped: processing this content needs more than ${this.options.heapMb} MiB. Make it smaller`,
          RETRY_AFTER_SECONDS,
        );
      }
      if (e.message === 'Task queue is at limit') {
        throw new ServiceUnavailableError('The server is busy with other work: try again shortly', RETRY_AFTER_SECONDS);
      }
      throw err;
    }
  }

  /** Stops the workers (after their current tasks). */
  async close(): Promise<void> {
    const pool = this.pool;
    this.pool = undefined;
    await pool?.close();
  }
}

/** The process's pool; main.ts configures it from the environment and closes it on shutdown. */
export const workers = new WorkerPool();
