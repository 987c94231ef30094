/**
 * A bounded least-recently-used map, by number of entries and optionally by total weight (bytes, say). Its users
 * (published sites, page trees) cache only values computed from immutable inputs (a revision id, a site version,
 * ...) under keys made of those inputs, so an entry is never stale: a change produces new inputs, hence a new key,
 * and the old entry just ages out. Nothing here has to be shared between processes.
 */
export class LruCache<V> {
  private readonly map = new Map<string, { value: V; weight: number }>();
  private total = 0;
  /**
   * The least recently used key comes from one iterator kept for the cache's life (see FifoCache): a new `keys()`
   * each time steps over every slot deleted since V8 last compacted the table. Entries used again are moved to the
   * end (deleted and set), so the kept iterator meets them again there, in their new order.
   */
  private order: Iterator<string> = this.map.keys();

  constructor(
    private readonly maxEntries: number,
    private readonly maxWeight = Number.POSITIVE_INFINITY,
    private readonly weigh: (value: V) => number = () => 1,
  ) {}

  get(key: string): V | undefined {
    const hit = this.map.get(key);
    if (!hit) return undefined;
    this.map.delete(key);
    this.map.set(key, hit);
    return hit.value;
  }

  /** The value of `key`, leaving its place in the order as it is (a look that is not a use). */
  peek(key: string): V | undefined {
    return this.map.get(key)?.value;
  }

  set(key: string, value: V): void {
    const weight = this.weigh(value);
    if (weight > this.maxWeight) return;
    const old = this.map.get(key);
    if (old) {
      this.total -= old.weight;
      this.map.delete(key);
    }
    this.map.set(key, { value, weight });
    this.total += weight;
    while (this.map.size > this.maxEntries || this.total > this.maxWeight) {
      let next = this.order.next();
      if (next.done) next = (this.order = this.map.keys()).next();
      if (next.done) break;
      const oldest = next.value as string;
      this.total -= this.map.get(oldest)!.weight;
      this.map.delete(oldest);
    }
  }

  get size(): number {
    return this.map.size;
  }

  clear(): void {
    this.map.clear();
    this.total = 0;
  }
}
