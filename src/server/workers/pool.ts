import os from 'node:os';
import { MessageChannel } from 'node:worker_threads';
import { Piscina } from 'piscina';
import { ServiceUnavailableError } from '../domain/errors.js';
import { BACKGROUND_TASKS, runTask, type TaskName, type Tasks } from './tasks.js';
import { keyedSemaphore } from '../lib/semaphore.js';

/**
 * The worker threads for CPU-heavy work (markdown parsing, diffs, PDF and published-page rendering, imports, API
 * specifications), so one request's big input never stalls the event loop every other request shares. Two lanes
 * of threads: what a reader waits for (a published page, a diff, a page's blocks) and background work (processing
 * a specification, converting an import, a PDF, the search index, link maintenance): a tenant's long background
 * task never holds the thread another tenant's page needs. Each task gets a time limit counted from when a thread
 * takes it (time spent queued is not the task's doing), a limit on how long it may wait for one, and a heap limit;
 * a task past either limit is stopped (its worker is terminated and replaced) and the request answers 503. Tasks
 * whose input is small run inline: a worker round trip would cost more than the work.
 */
export interface WorkerPoolOptions {
  /** Threads of the readers' lane at most; they start on demand and stop when idle. */
  threads: number;
  /** Threads of the background lane at most. */
  backgroundThreads: number;
  /** Milliseconds a task may run once a thread has taken it, before it is stopped. */
  timeoutMs: number;
  /** Milliseconds a task may wait for a thread; past it, it answers 503 without running. */
  queueTimeoutMs: number;
  /** Input size (characters) under which a task runs inline. */
  inlineBelow: number;
  /** Tasks waiting for a thread at most, per lane; past it, requests answer 503 at once. */
  maxQueue: number;
  /** Heap of each worker, in MiB. */
  heapMb: number;
}

export function defaultWorkerOptions(): WorkerPoolOptions {
  const cores = os.availableParallelism();
  const threads = Math.max(1, Math.min(4, cores - 1));
  const backgroundThreads = Math.max(1, Math.min(4, Math.floor(cores / 2)));
  return {
    threads,
    backgroundThreads,
    timeoutMs: 10_000,
    queueTimeoutMs: 30_000,
    inlineBelow: 16 * 1024,
    maxQueue: threads * 32,
    heapMb: 512,
  };
}

/**
 * The young generation of each worker, in MiB. V8's default (48 MiB in each thread, on top of the main thread's)
 * filled up during an import's conversions and stayed resident: a 2,000-file import's peak RSS was 45 MB higher.
 * At 8 MiB, conversions of big batches promoted more and collected more often: a 1,000-page import took about 20 %
 * longer. 16 MiB keeps the peak as low and most of the speed (bench/import.ts).
 */
const WORKER_YOUNG_MB = 16;

type Input<K extends TaskName> = Parameters<Tasks[K]>[0];
type Output<K extends TaskName> = Awaited<ReturnType<Tasks[K]>>;
type Lane = 'reader' | 'background';

const RETRY_AFTER_SECONDS = 5;

/** Background threads one organization's tasks may hold at once: all but one, at least one. */
const organizationShare = (o: WorkerPoolOptions) => Math.max(1, o.backgroundThreads - 1);

/** A task refused for the queue: too many waiting, or waiting too long. */
const busy = () =>
  new ServiceUnavailableError('The server is busy with other work: try again shortly', RETRY_AFTER_SECONDS);

export class WorkerPool {
  private lanes: Partial<Record<Lane, Piscina>> = {};
  /** Tasks of each lane sent to it and not yet taken by a thread (the queue's length, counted here). */
  private waiting: Record<Lane, number> = { reader: 0, background: 0 };
  /** Tasks run in workers (not inline) since start: for tests and diagnostics. */
  offloaded = 0;
  private options: WorkerPoolOptions;

  constructor(options: Partial<WorkerPoolOptions> = {}) {
    this.options = { ...defaultWorkerOptions(), ...options };
    this.organizationShare = keyedSemaphore(organizationShare(this.options));
  }

  /** Changes the options; a lane already started is replaced (once its tasks are done) if its threads change. */
  configure(options: Partial<WorkerPoolOptions>): void {
    const before = this.options;
    this.options = { ...before, ...options };
    const { threads, backgroundThreads, maxQueue, heapMb } = this.options;
    if (backgroundThreads !== before.backgroundThreads) {
      this.organizationShare = keyedSemaphore(organizationShare(this.options));
    }
    if (maxQueue !== before.maxQueue || heapMb !== before.heapMb) {
      this.replace('reader');
      this.replace('background');
      return;
    }
    if (threads !== before.threads) this.replace('reader');
    if (backgroundThreads !== before.backgroundThreads) this.replace('background');
  }

  private replace(lane: Lane): void {
    const old = this.lanes[lane];
    delete this.lanes[lane];
    void old?.close();
  }

  private lane(lane: Lane): Piscina {
    return (this.lanes[lane] ??= new Piscina({
      filename: new URL('./entry.mjs', import.meta.url).href,
      // One thread kept per lane: with none (Piscina 5.3), once a running task was stopped and its worker ended,
      // the tasks queued behind it never got a new worker (found by the queue-time test in pool.test.ts).
      minThreads: 1,
      maxThreads: lane === 'reader' ? this.options.threads : this.options.backgroundThreads,
      idleTimeout: 30_000,
      maxQueue: this.options.maxQueue,
      resourceLimits: { maxOldGenerationSizeMb: this.options.heapMb, maxYoungGenerationSizeMb: WORKER_YOUNG_MB },
    }));
  }

  /** Background threads one organization's tasks may hold at once: all but one (at least one). */
  private organizationShare: ReturnType<typeof keyedSemaphore>;

  /** Whether a task of this input size would run inline. */
  runsInline(size: number): boolean {
    return size < this.options.inlineBelow;
  }

  /**
   * Runs `task` on `input`, whose size (characters or bytes) decides whether it goes to a worker, in its lane. Fails
   * with a 503 when the task runs longer than the time limit once started, waits longer than the queue limit for a
   * thread, needs more memory than a worker has, or the queue is full.
   */
  async run<K extends TaskName>(
    task: K,
    input: Input<K>,
    size: number,
    options: {
      timeoutMs?: number;
      /**
       * The organization the work is for. A background task of one organization waits for its own others once
       * they hold all but one of the lane's threads (organizationShare): four PDF exports of one organization
       * leave a thread to everyone else's specifications and exports. The wait counts against the queue limit.
       */
      organization?: string;
    } = {},
  ): Promise<Output<K>> {
    const timeoutMs = options.timeoutMs ?? this.options.timeoutMs;
    if (this.runsInline(size)) return (await runTask({ task, input })) as Output<K>;
    const lane: Lane = BACKGROUND_TASKS.has(task) ? 'background' : 'reader';
    // Past the queue's length, at once: the threads have all the work they can take.
    if (this.waiting[lane] >= this.options.maxQueue) {
      throw busy();
    }
    const pool = this.lane(lane);
    this.offloaded++;
    // The worker says when it takes the task (entry.mjs): the run's time limit starts then.
    const { port1: started, port2: startedInWorker } = new MessageChannel();
    const controller = new AbortController();
    let phase: 'queued' | 'running' = 'queued';
    this.waiting[lane]++;
    const leaveQueue = () => {
      if (phase !== 'queued') return;
      phase = 'running';
      this.waiting[lane]--;
    };
    let timer = setTimeout(() => controller.abort(), this.options.queueTimeoutMs);
    started.once('message', () => {
      leaveQueue();
      clearTimeout(timer);
      timer = setTimeout(() => controller.abort(), timeoutMs);
    });
    let release: (() => void) | undefined;
    try {
      if (lane === 'background' && options.organization) {
        const share = this.organizationShare;
        release = await share(options.organization, controller.signal);
      }
      return (await pool.run(
        { task, input, started: startedInWorker },
        // (Piscina's TransferList type is inferred from postMessage's last overload, which takes options.)
        { signal: controller.signal, transferList: [startedInWorker] as never },
      )) as Output<K>;
    } catch (err) {
      const e = err as { name?: string; code?: string; message?: string };
      const seconds = Math.round(timeoutMs / 100) / 10;
      if (e.name === 'AbortError' || e.name === 'TimeoutError') {
        // Stopped before a thread took it: it waited too long.
        if (phase === 'queued') throw busy();
        throw new ServiceUnavailableError(
          `Stopped after ${seconds} s: this content takes too long to process. ` +
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
      if (e.message === 'Task queue is at limit') throw busy();
      throw err;
    } finally {
      release?.();
      leaveQueue();
      clearTimeout(timer);
      started.close();
    }
  }

  /** Stops the workers (after their current tasks). */
  async close(): Promise<void> {
    const lanes = Object.values(this.lanes);
    this.lanes = {};
    await Promise.all(lanes.map((pool) => pool.close()));
  }
}

/** The process's pool; main.ts configures it from the environment and closes it on shutdown. */
export const workers = new WorkerPool();
