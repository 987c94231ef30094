/**
 * The nodes of the content trie (domain/content/tree.ts) as they are stored in the objects table
 * (repos/objects.ts `nodeStore`), content-addressed by their hash.
 */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** A leaf lists its entries sorted by key; a branch has 16 children (by the next hex digit of the key hash). */
export type TrieNode = { l: Array<[string, Json]> } | { c: Array<string | null>; n: number };

export interface NodeStore {
  get(hash: string): Promise<TrieNode>;
  /** Several nodes in one read; throws when one is missing. */
  getMany(hashes: string[]): Promise<Map<string, TrieNode>>;
  /** Stores nodes; a node that exists already (same hash) is left as it is. */
  putMany(nodes: Map<string, TrieNode>): Promise<void>;
}
