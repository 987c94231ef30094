import { describe, expect, it } from 'vitest';
import { TimeSlices } from './yield.js';

/** Busy for `ms` milliseconds, synchronously. */
function spin(ms: number) {
  const end = performance.now() + ms;
  while (performance.now() < end);
}

describe('TimeSlices', () => {
  it('yields once the event loop has been held for its budget, counting short calls of other slices together', async () => {
    let turned = false;
    setImmediate(() => (turned = true));
    // Twenty calls of 2 ms, each with slices of its own (as a loop calling a repository twenty times does).
    let yields = 0;
    let firstYieldAt = -1;
    for (let i = 0; i < 20; i++) {
      spin(2);
      const pause = new TimeSlices(10).due();
      if (pause) {
        if (firstYieldAt < 0) firstYieldAt = i;
        yields++;
        await pause;
      }
    }
    expect(turned).toBe(true);
    expect(yields).toBeGreaterThanOrEqual(2);
    // The first pause came once 10 ms were spent (by the sixth call at the latest: 2 ms each), not at the end.
    expect(firstYieldAt).toBeGreaterThanOrEqual(0);
    expect(firstYieldAt).toBeLessThanOrEqual(5);
  });

  it('does not yield while the loop turns on its own', async () => {
    const slices = new TimeSlices(10);
    for (let i = 0; i < 5; i++) {
      await new Promise((r) => setImmediate(r));
      expect(slices.due()).toBeUndefined();
    }
  });
});
