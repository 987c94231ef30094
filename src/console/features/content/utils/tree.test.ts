import { describe, expect, it } from 'vitest';
import type { Collection, Space } from '../../../../shared/contract';
import { ancestry, buildTree, contentsOf, descendantCollectionIds, flattenCollections, neighbours } from './tree';

const collection = (id: string, parent?: string): Collection => ({
  object: 'collection',
  id,
  title: id,
  organization: 'org',
  parent,
  defaultLevel: 'inherit',
  urls: { location: '', app: '' },
  permissions: { view: true, admin: true, viewInviteLinks: true, create: true },
});

const space = (id: string, parent?: string): Space => ({
  object: 'space',
  id,
  title: id,
  emoji: '',
  visibility: 'private',
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  mergeRules: { type: 'inherit' },
  organization: 'org',
  parent,
  revision: 'r',
  defaultLevel: 'inherit',
  comments: 0,
  changeRequests: 0,
  changeRequestsOpen: 0,
  changeRequestsDraft: 0,
  urls: { location: '', app: '' },
  permissions: {
    view: true,
    access: true,
    admin: true,
    viewInviteLinks: true,
    edit: true,
    triggerGitSync: false,
    comment: true,
    merge: true,
    review: true,
    installIntegration: false,
  },
});

const label = (nodes: ReturnType<typeof buildTree>): unknown =>
  nodes.map((node) => (node.type === 'collection' ? { [node.collection.id]: label(node.children) } : node.space.id));

describe('buildTree', () => {
  it('puts collections before spaces at each level and keeps the server order', () => {
    const collections = [collection('guides'), collection('api'), collection('advanced', 'guides')];
    const spaces = [space('root-b'), space('intro', 'guides'), space('root-a'), space('deep', 'advanced')];
    expect(label(buildTree(collections, spaces))).toEqual([
      { guides: [{ advanced: ['deep'] }, 'intro'] },
      { api: [] },
      'root-b',
      'root-a',
    ]);
  });

  it('builds the subtree of one collection', () => {
    const collections = [collection('guides'), collection('advanced', 'guides')];
    expect(label(buildTree(collections, [space('intro', 'guides')], 'guides'))).toEqual([{ advanced: [] }, 'intro']);
  });

  it('hangs items whose parent is not visible at the root, and survives a cycle', () => {
    const collections = [collection('a', 'b'), collection('b', 'a'), collection('orphan', 'hidden')];
    expect(label(buildTree(collections, [space('lost', 'hidden')]))).toEqual([{ orphan: [] }, 'lost']);
  });
});

describe('collection helpers', () => {
  const collections = [collection('a'), collection('b', 'a'), collection('c', 'b'), collection('d')];

  it('ancestry lists the path from the root', () => {
    expect(ancestry(collections, 'c').map((c) => c.id)).toEqual(['a', 'b', 'c']);
    expect(ancestry(collections, undefined)).toEqual([]);
  });

  it('descendants are found at any depth', () => {
    expect([...descendantCollectionIds(collections, 'a')].sort()).toEqual(['b', 'c']);
    expect(descendantCollectionIds(collections, 'd').size).toBe(0);
  });

  it('contentsOf counts what a deletion takes along', () => {
    const spaces = [space('x', 'a'), space('y', 'c'), space('z', 'd'), space('root')];
    expect(contentsOf(collections, spaces, 'a')).toEqual({ collections: 2, spaces: 2 });
  });

  it('flattenCollections gives tree order with depth', () => {
    expect(flattenCollections(collections).map(({ collection: c, depth }) => `${c.id}:${depth}`)).toEqual([
      'a:0',
      'b:1',
      'c:2',
      'd:0',
    ]);
  });

  it('neighbours are siblings under the same parent', () => {
    const spaces = [space('one'), space('inside', 'a'), space('two'), space('three')];
    const { previous, next } = neighbours(spaces, spaces[2]!);
    expect(previous?.id).toBe('one');
    expect(next?.id).toBe('three');
    expect(neighbours(spaces, spaces[1]!)).toEqual({ previous: undefined, next: undefined });
  });
});
