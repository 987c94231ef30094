/**
 * A map bounded by its number of entries that drops the oldest entry first, for values that never go stale
 * (content-addressed objects, digests of keys).
 *
 * The oldest key comes from one iterator kept for the cache's life, never from a new `keys()` each time: a new
 * iterator starts at the front of V8's hash table and steps over every slot deleted since its last compaction, so
 * a full cache taking new entries cost O(size) per entry (100,000 new entries into a full 50,000-entry cache
 * took 3 s). The kept iterator never goes back over those slots: everything behind it has been evicted.
 */
export class FifoCache<V> {
  private readonly map = new Map<string, V>();
  private order: Iterator<string> = this.map.keys();

  constructor(private readonly maxEntries: number) {}

  get(key: string): V | undefined {
    return this.map.get(key);
  }

  has(key: string): boolean {
    return this.map.has(key);
  }

  set(key: string, value: V): void {
    if (!this.map.has(key)) {
      while (this.map.size >= this.maxEntries) {
        let oldest = this.order.next();
        // An iterator that reached the end (the cache emptied) stays done: begin another.
        if (oldest.done) oldest = (this.order = this.map.keys()).next();
        if (oldest.done) break; // nothing to drop (a cache of size 0)
        this.map.delete(oldest.value as string);
      }
    }
    this.map.set(key, value);
  }

  get size(): number {
    return this.map.size;
  }
}
