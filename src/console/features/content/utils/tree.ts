import type { Collection, Space } from '../../../../shared/contract';

export interface CollectionNode {
  type: 'collection';
  collection: Collection;
  children: TreeNode[];
}
export interface SpaceNode {
  type: 'space';
  space: Space;
}
export type TreeNode = CollectionNode | SpaceNode;

/**
 * The content tree under `rootId` (the organization root when absent): at each level collections first, then
 * spaces, each in the server's order (by position). Items whose parent is not visible hang at the root.
 */
export function buildTree(collections: Collection[], spaces: Space[], rootId?: string): TreeNode[] {
  const known = new Set(collections.map((collection) => collection.id));
  const parentOf = (parent: string | undefined) => (parent && known.has(parent) ? parent : undefined);
  const collectionsBy = groupBy(collections, (collection) => parentOf(collection.parent));
  const spacesBy = groupBy(spaces, (space) => parentOf(space.parent));
  const seen = new Set<string>();

  const level = (parent: string | undefined): TreeNode[] => [
    ...(collectionsBy.get(parent) ?? [])
      .filter((collection) => !seen.has(collection.id))
      .map((collection): CollectionNode => {
        seen.add(collection.id); // a cycle in bad data must not loop forever
        return { type: 'collection', collection, children: level(collection.id) };
      }),
    ...(spacesBy.get(parent) ?? []).map((space): SpaceNode => ({ type: 'space', space })),
  ];
  return level(rootId);
}

function groupBy<T>(items: T[], key: (item: T) => string | undefined): Map<string | undefined, T[]> {
  const groups = new Map<string | undefined, T[]>();
  for (const item of items) {
    const k = key(item);
    const group = groups.get(k);
    if (group) group.push(item);
    else groups.set(k, [item]);
  }
  return groups;
}

/** The collections from the root down to `collectionId` (included), for breadcrumbs. */
export function ancestry(collections: Collection[], collectionId: string | undefined): Collection[] {
  const byId = new Map(collections.map((collection) => [collection.id, collection]));
  const path: Collection[] = [];
  let current = collectionId ? byId.get(collectionId) : undefined;
  while (current && !path.includes(current)) {
    path.unshift(current);
    current = current.parent ? byId.get(current.parent) : undefined;
  }
  return path;
}

/** Ids of the collections inside `collectionId`, at any depth. */
export function descendantCollectionIds(collections: Collection[], collectionId: string): Set<string> {
  const result = new Set<string>();
  let frontier = [collectionId];
  while (frontier.length > 0) {
    const next = collections
      .filter((c) => c.parent !== undefined && frontier.includes(c.parent) && !result.has(c.id))
      .map((c) => c.id);
    next.forEach((id) => result.add(id));
    frontier = next;
  }
  return result;
}

/** What deleting a collection takes with it: its nested collections and the spaces in any of them. */
export function contentsOf(collections: Collection[], spaces: Space[], collectionId: string) {
  const nested = descendantCollectionIds(collections, collectionId);
  const all = new Set([collectionId, ...nested]);
  return { collections: nested.size, spaces: spaces.filter((space) => space.parent && all.has(space.parent)).length };
}

/** Collections in tree order with their depth, for choosing a destination. */
export function flattenCollections(collections: Collection[]): { collection: Collection; depth: number }[] {
  const result: { collection: Collection; depth: number }[] = [];
  const walk = (nodes: TreeNode[], depth: number) => {
    for (const node of nodes) {
      if (node.type !== 'collection') continue;
      result.push({ collection: node.collection, depth });
      walk(node.children, depth + 1);
    }
  };
  walk(buildTree(collections, []), 0);
  return result;
}

/** The neighbours of an item among siblings of the same kind, for "move up" and "move down". */
export function neighbours<T extends { id: string; parent?: string }>(items: T[], item: T) {
  const siblings = items.filter((other) => other.parent === item.parent);
  const index = siblings.findIndex((other) => other.id === item.id);
  return { previous: index > 0 ? siblings[index - 1] : undefined, next: siblings[index + 1] };
}

export function plural(count: number, one: string, many = `${one}s`): string {
  return `${count} ${count === 1 ? one : many}`;
}
