/**
 * A counting semaphore for one process: `acquire` waits (in arrival order) until fewer than `max` holders remain,
 * and answers the release function (idempotent). An abort of `signal` while waiting rejects with its reason and
 * leaves the queue.
 */
export function semaphore(max: number): (signal: AbortSignal) => Promise<() => void> {
  let inFlight = 0;
  const waiting: Array<() => void> = [];
  return async (signal) => {
    if (inFlight >= max) {
      await new Promise<void>((resolve, reject) => {
        const wake = () => {
          signal.removeEventListener('abort', onAbort);
          resolve();
        };
        const onAbort = () => {
          const i = waiting.indexOf(wake);
          if (i >= 0) waiting.splice(i, 1);
          reject(signal.reason as Error);
        };
        waiting.push(wake);
        signal.addEventListener('abort', onAbort, { once: true });
      });
    }
    inFlight += 1;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      inFlight -= 1;
      waiting.shift()?.();
    };
  };
}

/**
 * A semaphore per key (an organization, say), each with `max` holders; a key's semaphore exists only while it has
 * holders or waiters, so the map stays as small as the work in flight.
 */
export function keyedSemaphore(max: number): (key: string, signal: AbortSignal) => Promise<() => void> {
  const byKey = new Map<string, { acquire: ReturnType<typeof semaphore>; users: number }>();
  return async (key, signal) => {
    let entry = byKey.get(key);
    if (!entry) {
      entry = { acquire: semaphore(max), users: 0 };
      byKey.set(key, entry);
    }
    const current = entry;
    current.users += 1;
    const done = () => {
      current.users -= 1;
      if (current.users === 0 && byKey.get(key) === current) byKey.delete(key);
    };
    let release: () => void;
    try {
      release = await current.acquire(signal);
    } catch (err) {
      done();
      throw err;
    }
    let released = false;
    return () => {
      if (released) return;
      released = true;
      release();
      done();
    };
  };
}
