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

/** When the event loop was first seen busy in its current turn, while a check-phase marker is pending. */
let heldSince = 0;
let markerPending = false;

/**
 * How long the event loop has been held, as far as callers of this function can tell: the first call of a stretch
 * starts the clock and schedules a marker for the loop's next check phase; until the marker runs, the loop has not
 * turned, so the time since is time every other request waited. Shared by every caller, so a stretch made of many
 * short calls (a transaction writing thousands of rows in parts of 200, a part per call) is measured whole.
 */
function heldFor(): number {
  const now = performance.now();
  if (!markerPending) {
    markerPending = true;
    heldSince = now;
    setImmediate(() => {
      markerPending = false;
    });
    return 0;
  }
  return now - heldSince;
}

/**
 * Time slices for a long loop whose steps cost unevenly (a page here, a batch of reads there): `await
 * slices.pause()` after each step yields to the event loop once it has been held for `budgetMs` (by this loop or by
 * whatever ran before it in the same turn), so no other request waits much longer than that. Cheap enough to call
 * on every step (it reads the clock every `check` calls).
 */
export class TimeSlices {
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
    if (heldFor() < this.budgetMs) return undefined;
    return yieldToEventLoop();
  }
}

/**
 * `items` in parts of `size`, pausing for the event loop between parts once a slice of time is spent: a merge of
 * 100,000 pages writes their rows in one transaction, and SQLite answers each part synchronously, so without pauses
 * no other request (not even the health check) was answered for seconds.
 */
export async function* slicedParts<T>(items: T[], size: number, slices = new TimeSlices()): AsyncGenerator<T[]> {
  for (let i = 0; i < items.length; i += size) {
    if (i > 0) await slices.due();
    yield items.slice(i, i + size);
  }
}
