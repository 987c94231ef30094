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
