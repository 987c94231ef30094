import crypto from 'node:crypto';
import { TimeSlices } from '../../lib/yield.js';
import { FifoCache } from '../../lib/fifo-cache.js';
import type { Json, NodeStore, TrieNode } from '../../storage/trie-nodes.js';

/**
 * A persistent, content-addressed map (a hash array mapped trie) from string keys to JSON values. A revision's
 * pages and files are such maps: a change writes only the nodes on the paths to the changed keys, so unchanged
 * pages are shared between revisions, never copied, and two revisions are compared by skipping every subtree
 * whose hash is equal. The cost of a revision and of a diff grows with what changed, not with the space.
 *
 * The shape is canonical (it depends only on the set of entries, never on the history of edits), so equal
 * maps have equal root hashes.
 */
export type { Json, NodeStore, TrieNode } from '../../storage/trie-nodes.js';

/** Entries a leaf holds at most before it splits into a branch. */
export const LEAF_MAX = 32;
const MAX_DEPTH = 40; // sha1 has 40 hex digits: a leaf at this depth holds colliding keys, however many

/** JSON with object keys sorted, so that equal values always hash alike. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) {
    // A list of strings (a page's 10,000 children, say) is written as JSON writes it: natively, in one call.
    if (value.every((x) => typeof x === 'string')) return JSON.stringify(value);
    return `[${value.map(canonicalJson).join(',')}]`;
  }
  if (value && typeof value === 'object') {
    const keys = Object.keys(value).filter((k) => (value as Record<string, unknown>)[k] !== undefined);
    keys.sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/**
 * Whether two JSON values have the same canonical JSON, without writing it: comparing a page's entry that lists
 * 10,000 children wrote two 250 KB strings each time (in every diff and merge of that parent).
 */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!jsonEqual(a[i], b[i])) return false;
    return true;
  }
  const x = a as Record<string, unknown>;
  const y = b as Record<string, unknown>;
  const keys = Object.keys(x).filter((k) => x[k] !== undefined);
  if (keys.length !== Object.keys(y).filter((k) => y[k] !== undefined).length) return false;
  for (const k of keys) if (!jsonEqual(x[k], y[k])) return false;
  return true;
}

export function hashOf(value: unknown): string {
  return crypto.createHash('sha256').update(canonicalJson(value)).digest('base64url').slice(0, 32);
}

// A key's path is asked for at every level of every update: computed once per key (a bounded cache).
const PATHS_MAX = 100_000;
const paths = new FifoCache<string>(PATHS_MAX);

function keyPath(key: string): string {
  let path = paths.get(key);
  if (path === undefined) {
    path = crypto.createHash('sha1').update(key).digest('hex');
    paths.set(key, path);
  }
  return path;
}

function digit(key: string, depth: number): number {
  return parseInt(keyPath(key)[depth]!, 16);
}

/**
 * Entries with their keys' paths, each looked up once for a whole update or build, not once per level: 100,000
 * keys overflow the paths cache, which then computed every path again at every level (a second of a merge's time).
 */
async function withPaths<V>(entries: Iterable<[string, V]>, slices: TimeSlices): Promise<Array<[string, V, string]>> {
  const out: Array<[string, V, string]> = [];
  for (const [key, value] of entries) {
    out.push([key, value, keyPath(key)]);
    const pause = slices.pause();
    if (pause) await pause;
  }
  return out;
}

function isLeaf(node: TrieNode): node is { l: Array<[string, Json]> } {
  return 'l' in node;
}

function sizeOf(node: TrieNode): number {
  return isLeaf(node) ? node.l.length : node.n;
}

export class Trie {
  constructor(private readonly store: NodeStore) {}

  async get(root: string | null, key: string): Promise<Json | undefined> {
    let hash = root;
    for (let depth = 0; hash; depth++) {
      const node = await this.store.get(hash);
      if (isLeaf(node)) return node.l.find(([k]) => k === key)?.[1];
      hash = node.c[digit(key, depth)] ?? null;
    }
    return undefined;
  }

  /**
   * The values of `keys` that the trie holds, read a level at a time: one batch of nodes per level for all the keys,
   * not one read per key and level (a thousand pages' entries, say, for one level of a page's branch).
   */
  async getMany(root: string | null, keys: Iterable<string>): Promise<Map<string, Json>> {
    const out = new Map<string, Json>();
    let pending = new Map<string, string[]>(root ? [[root, [...new Set(keys)]]] : []);
    for (let depth = 0; pending.size; depth++) {
      const nodes = await this.store.getMany([...pending.keys()]);
      const next = new Map<string, string[]>();
      for (const [hash, wanted] of pending) {
        const node = nodes.get(hash)!;
        if (isLeaf(node)) {
          for (const key of wanted) {
            const found = node.l.find(([k]) => k === key);
            if (found) out.set(key, found[1]);
          }
          continue;
        }
        for (const key of wanted) {
          const child = node.c[digit(key, depth)];
          if (!child) continue;
          const under = next.get(child);
          if (under) under.push(key);
          else next.set(child, [key]);
        }
      }
      pending = next;
    }
    return out;
  }

  /**
   * Every entry, in the trie's order (children by digit, leaves by key). The nodes are read a level at a time,
   * each level in one batch, not one read per node.
   */
  async entries(root: string | null, slices = new TimeSlices()): Promise<Array<[string, Json]>> {
    if (!root) return [];
    const nodes = new Map<string, TrieNode>();
    for (let level = [root]; level.length;) {
      const found = await this.store.getMany(level.filter((h) => !nodes.has(h)));
      const next: string[] = [];
      for (const [hash, node] of found) {
        nodes.set(hash, node);
        if (!isLeaf(node)) for (const child of node.c) if (child) next.push(child);
        const pause = slices.pause();
        if (pause) await pause;
      }
      level = next;
    }
    const out: Array<[string, Json]> = [];
    const stack = [root];
    for (let hash = stack.pop(); hash !== undefined; hash = stack.pop()) {
      const node = nodes.get(hash)!;
      if (isLeaf(node)) for (const entry of node.l) out.push(entry);
      else for (let i = node.c.length - 1; i >= 0; i--) if (node.c[i]) stack.push(node.c[i]!);
      const pause = slices.pause();
      if (pause) await pause;
    }
    return out;
  }

  async size(root: string | null): Promise<number> {
    return root ? sizeOf(await this.store.get(root)) : 0;
  }

  /**
   * Applies `changes` (a value sets the key, `null` removes it) and returns the new root, or null for an
   * empty map. Only new nodes are written.
   */
  async update(root: string | null, changes: Map<string, Json | null>): Promise<string | null> {
    const prepared = await this.prepare(root, changes);
    await this.store.putMany(prepared.nodes);
    return prepared.root;
  }

  /** What `update` would write, without writing it: the new root and its new nodes. */
  async prepare(
    root: string | null,
    changes: Map<string, Json | null>,
  ): Promise<{ root: string | null; nodes: Map<string, TrieNode> }> {
    const written = new Map<string, TrieNode>();
    const slices = new TimeSlices();
    const result = await this.apply(root, 0, await withPaths(changes, slices), written, slices);
    // Nodes made and then superseded within this update (split, then collapsed) are not kept.
    const reachable = new Map<string, TrieNode>();
    const visit = (hash: string | null) => {
      const node = hash ? written.get(hash) : undefined;
      if (!hash || !node || reachable.has(hash)) return;
      reachable.set(hash, node);
      if (!isLeaf(node)) node.c.forEach(visit);
    };
    visit(result);
    return { root: result, nodes: reachable };
  }

  private async apply(
    hash: string | null,
    depth: number,
    changes: Array<[string, Json | null, string]>,
    written: Map<string, TrieNode>,
    slices: TimeSlices,
  ): Promise<string | null> {
    if (!changes.length) return hash;
    await slices.pause();
    const node: TrieNode = hash ? await this.load(hash, written) : { l: [] };
    let next: TrieNode;
    if (isLeaf(node)) {
      const map = new Map(node.l);
      for (const [k, v] of changes) {
        if (v === null) map.delete(k);
        else map.set(k, v);
        const pause = slices.pause();
        if (pause) await pause;
      }
      if (map.size <= LEAF_MAX || depth >= MAX_DEPTH) {
        next = { l: [...map].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)) };
      } else {
        // Too many entries: split into a branch, one child per next digit.
        return this.build([...map], depth, written, slices);
      }
    } else {
      const groups = new Map<number, Array<[string, Json | null, string]>>();
      for (const change of changes) {
        const d = parseInt(change[2][depth]!, 16);
        const group = groups.get(d);
        if (group) group.push(change);
        else groups.set(d, [change]);
        const pause = slices.pause();
        if (pause) await pause;
      }
      const children = [...node.c];
      for (const [d, group] of groups) {
        children[d] = await this.apply(children[d] ?? null, depth + 1, group, written, slices);
      }
      const sizes = await Promise.all(children.map(async (c) => (c ? sizeOf(await this.load(c, written)) : 0)));
      const n = sizes.reduce((a, b) => a + b, 0);
      if (n <= LEAF_MAX) {
        // Few enough entries again: collapse into a leaf, so the shape stays canonical.
        const entries = (await Promise.all(children.map((c) => this.collect(c, written)))).flat();
        return this.build(entries, depth, written, slices);
      }
      next = { c: children, n };
    }
    if (isLeaf(next) && next.l.length === 0) return null;
    return this.write(next, written);
  }

  /** A node written in this update (not stored yet) or a stored one. */
  private load(hash: string, written: Map<string, TrieNode>): Promise<TrieNode> {
    const node = written.get(hash);
    return node ? Promise.resolve(node) : this.store.get(hash);
  }

  private async collect(hash: string | null, written: Map<string, TrieNode>): Promise<Array<[string, Json]>> {
    if (!hash) return [];
    const node = await this.load(hash, written);
    if (isLeaf(node)) return node.l;
    return (await Promise.all(node.c.map((h) => this.collect(h, written)))).flat();
  }

  /**
   * Builds the canonical subtree for `entries` at `depth`, pausing for the event loop once a slice is spent: the
   * 100,000 pages a merge adds to a small space are built (and hashed) here at once, seconds of work.
   */
  private async build(
    entries: Array<[string, Json]>,
    depth: number,
    written: Map<string, TrieNode>,
    slices: TimeSlices,
  ): Promise<string | null> {
    return this.buildWithPaths(await withPaths(entries, slices), depth, written, slices);
  }

  private async buildWithPaths(
    entries: Array<[string, Json, string]>,
    depth: number,
    written: Map<string, TrieNode>,
    slices: TimeSlices,
  ): Promise<string | null> {
    if (!entries.length) return null;
    await slices.pause();
    if (entries.length <= LEAF_MAX || depth >= MAX_DEPTH) {
      const leaf = entries.map(([key, value]): [string, Json] => [key, value]);
      return this.write({ l: leaf.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)) }, written);
    }
    const buckets: Array<Array<[string, Json, string]>> = Array.from({ length: 16 }, () => []);
    for (const entry of entries) {
      buckets[parseInt(entry[2][depth]!, 16)]!.push(entry);
      const pause = slices.pause();
      if (pause) await pause;
    }
    const children: Array<string | null> = [];
    for (const bucket of buckets) children.push(await this.buildWithPaths(bucket, depth + 1, written, slices));
    return this.write({ c: children, n: entries.length }, written);
  }

  private async entryMap(root: string | null, slices: TimeSlices): Promise<Map<string, Json>> {
    const map = new Map<string, Json>();
    for (const [key, value] of await this.entries(root, slices)) {
      map.set(key, value);
      const pause = slices.pause();
      if (pause) await pause;
    }
    return map;
  }

  private write(node: TrieNode, written: Map<string, TrieNode>): string {
    const hash = hashOf(node);
    written.set(hash, node);
    return hash;
  }

  /**
   * Keys whose values differ between two maps (absent = undefined), skipping equal subtrees. Cached nodes are read
   * without a pause (awaiting them queues only microtasks): the walk pauses for the event loop once a slice is spent.
   */
  async diff(
    a: string | null,
    b: string | null,
    slices = new TimeSlices(),
  ): Promise<Array<{ key: string; before?: Json; after?: Json }>> {
    if (a === b) return [];
    await slices.pause();
    const [na, nb] = await Promise.all([a ? this.store.get(a) : null, b ? this.store.get(b) : null]);
    if (na && nb && !isLeaf(na) && !isLeaf(nb)) {
      const parts = await Promise.all(na.c.map((ca, i) => this.diff(ca ?? null, nb.c[i] ?? null, slices)));
      return parts.flat();
    }
    const before = await this.entryMap(a, slices);
    const after = await this.entryMap(b, slices);
    const out: Array<{ key: string; before?: Json; after?: Json }> = [];
    for (const [key, value] of before) {
      const pause = slices.pause();
      if (pause) await pause;
      const other = after.get(key);
      if (other === undefined) out.push({ key, before: value });
      else if (!jsonEqual(other, value)) out.push({ key, before: value, after: other });
    }
    for (const [key, value] of after) {
      const pause = slices.pause();
      if (pause) await pause;
      if (!before.has(key)) out.push({ key, after: value });
    }
    return out;
  }
}

/** A store in memory, for tests and for computing a tree before it is written. */
export class MemoryNodeStore implements NodeStore {
  readonly nodes = new Map<string, TrieNode>();
  async get(hash: string): Promise<TrieNode> {
    const node = this.nodes.get(hash);
    if (!node) throw new Error(`No tree node ${hash}`);
    return node;
  }
  async getMany(hashes: string[]): Promise<Map<string, TrieNode>> {
    return new Map(await Promise.all(hashes.map(async (h) => [h, await this.get(h)] as const)));
  }
  async putMany(nodes: Map<string, TrieNode>): Promise<void> {
    for (const [h, n] of nodes) this.nodes.set(h, n);
  }
}
