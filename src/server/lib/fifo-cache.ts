/**
 * A map bounded by its number of entries (and optionally their total weight) that drops the oldest entry first, for values that never go stale
 * (content-addressed objects, digests of keys).
 *
 * The oldest key comes from one iterator kept for the cache's life, never from a new `keys()` each time: a new
 * iterator starts at the front of V8's hash table and steps over every slot deleted since its last compaction, so
 * a full cache taking new entries cost O(size) per entry (100,000 new entries into a full 50,000-entry cache
 * took 3 s). The kept iterator never goes back over those slots: everything behind it has been evicted.
 */
export class FifoCache<V> {
  private readonly map = new Map<string, { value: V; weight: number }>();
  private order: Iterator<string> = this.map.keys();
  private total = 0;

  /** At most `maxEntries` entries, and at most `maxWeight` in all of the weights given to `set` (bytes, say). */
  constructor(
    private readonly maxEntries: number,
    private readonly maxWeight = Number.POSITIVE_INFINITY,
  ) {}

  get(key: string): V | undefined {
    return this.map.get(key)?.value;
  }

  has(key: string): boolean {
    return this.map.has(key);
  }

  /** Keeps `value` under `key`, weighing `weight`; one heavier than the whole cache may hold is not kept. */
  set(key: string, value: V, weight = 1): void {
    if (weight > this.maxWeight) return;
    const old = this.map.get(key);
    if (old) this.total -= old.weight;
    else {
      while (this.map.size >= this.maxEntries || this.total + weight > this.maxWeight) {
        let oldest = this.order.next();
        // An iterator that reached the end (the cache emptied) stays done: begin another.
        if (oldest.done) oldest = (this.order = this.map.keys()).next();
        if (oldest.done) break; // nothing to drop (a cache of size 0)
        this.total -= this.map.get(oldest.value as string)!.weight;
        this.map.delete(oldest.value as string);
      }
    }
    this.map.set(key, { value, weight });
    this.total += weight;
  }

  get size(): number {
    return this.map.size;
  }

  /** The weights of the entries kept, together. */
  get weight(): number {
    return this.total;
  }
}
