/**
 * Long loops over thousands of items (a merge of an import) would otherwise hold the event loop for their whole
 * run: awaiting cached reads only queues microtasks, and no other request is served in between. Awaiting
 * `breathe(i)` on every step lets timers and I/O run once every `every` steps.
 */
export function breathe(step: number, every = 256): Promise<void> | undefined {
  return step % every === every - 1 ? new Promise((resolve) => setImmediate(resolve)) : undefined;
}

/** Lets timers and I/O run (other requests are served) before going on. */
export function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/**
 * Time slices for a long loop whose steps cost unevenly (a page here, a batch of reads there): `await
 * slices.pause()` after each step yields to the event loop once the current slice has run for `budgetMs`, so no
 * other request waits much longer than that. Cheap enough to call on every step (it reads the clock every
 * `check` calls).
 */
export class TimeSlices {
  private started = performance.now();
  private calls = 0;

  constructor(
    private readonly budgetMs = 10,
    private readonly check = 32,
  ) {}

  pause(): Promise<void> | undefined {
    if (++this.calls % this.check !== 0) return undefined;
    return this.due();
  }

  /** Like pause, reading the clock now: after a step known to be long (a batch of reads). */
  due(): Promise<void> | undefined {
    if (performance.now() - this.started < this.budgetMs) return undefined;
    return yieldToEventLoop().then(() => {
      this.started = performance.now();
    });
  }
}
