import { describe, expect, it } from 'vitest';
import { collectWhenIdle, fullCollection } from './idle-gc.js';

describe('collectWhenIdle', () => {
  it('collects once the server has been quiet after requests, and not again until more come', () => {
    let clock = 0;
    let collections = 0;
    const idle = collectWhenIdle({ quietMs: 30_000, collect: () => collections++, now: () => clock });
    try {
      clock = 100_000;
      idle.check();
      expect(collections).toBe(0); // never busy: nothing to give back
      // Requests keep coming, 10 s apart: no collection meanwhile.
      for (let i = 0; i < 6; i++) {
        idle.noteRequest();
        clock += 10_000;
        idle.check();
      }
      expect(collections).toBe(0);
      clock += 20_000; // 30 s since the last request
      idle.check();
      expect(collections).toBe(1);
      clock += 60_000;
      idle.check();
      expect(collections).toBe(1);
      idle.noteRequest();
      clock += 29_999;
      idle.check();
      expect(collections).toBe(1);
      clock += 1;
      idle.check();
      expect(collections).toBe(2);
    } finally {
      idle.stop();
    }
  });

  it('finds V8 full collection without the command-line flag, and it runs', () => {
    const gc = fullCollection();
    expect(typeof gc).toBe('function');
    gc!();
  });
});
