import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStorage, migrate, type Storage } from '../../storage/db.js';
import { getObjects } from '../../storage/repos/objects.js';
import { ROOT, RevisionReader, RevisionWriter, type PageEntry, type PageVersion, type RevisionRow } from './model.js';

/** The tree as it was built before walkTree (recursively, from every entry and version at once). */
interface Expected {
  id: string;
  path: string;
  pages: Expected[];
}
function expectedTree(rootIds: string[], all: Map<string, PageEntry>, versions: Map<string, PageVersion>): Expected[] {
  const build = (id: string, parentPath: string, depth: number): Expected | undefined => {
    const entry = all.get(id);
    const version = entry && versions.get(entry.v);
    if (!entry || !version || depth > 100) return undefined;
    const path = version.type === 'group' ? parentPath : parentPath ? `${parentPath}/${version.slug}` : version.slug;
    return { id, path, pages: entry.c.flatMap((c) => build(c, path, depth + 1) ?? []) };
  };
  return rootIds.flatMap((id) => build(id, '', 0) ?? []);
}

describe('RevisionReader.walkTree', () => {
  let storage: Storage;
  let revision: RevisionRow;
  let expected: Expected[];
  const SECTIONS = 12;
  const PER_SECTION = 900; // 10,800 pages: several read-ahead batches, more than a cached walk reads

  beforeAll(async () => {
    storage = openStorage({ kind: 'sqlite', file: ':memory:' });
    await migrate(storage);
    const empty: RevisionRow = {
      id: 'r0',
      space_id: 's',
      parents: '[]',
      type: 'edits',
      created_by: null,
      created_at: '2024-01-01T00:00:00.000Z',
      pages_root: null,
      files_root: null,
      variables: '{}',
      change_request_id: null,
    };
    const writer = new RevisionWriter(new RevisionReader(storage.db, empty));
    const at = '2024-01-01T00:00:00.000Z';
    const version = (type: PageVersion['type'], slug: string) =>
      writer.addObject({ type, title: slug, slug, createdAt: at, updatedAt: at });
    const tops: string[] = [];
    for (let s = 0; s < SECTIONS; s++) {
      const id = `section-${s}`;
      tops.push(id);
      const children = Array.from({ length: PER_SECTION }, (_, i) => `page-${s}-${i}`);
      // Every third section is a group: it gives no segment to its pages' paths.
      writer.setEntry(id, { v: version(s % 3 === 0 ? 'group' : 'document', id), p: null, c: children });
      for (const child of children) writer.setEntry(child, { v: version('document', child), p: id, c: [] });
    }
    // A link with subpages; a page whose version is missing, with a subpage; a child with no entry.
    writer.setEntry('link', { v: version('link', 'link'), p: null, c: ['under-link'] });
    writer.setEntry('under-link', { v: version('document', 'under-link'), p: 'link', c: [] });
    writer.setEntry('lost', { v: 'no-such-object', p: null, c: ['under-lost'] });
    writer.setEntry('under-lost', { v: version('document', 'under-lost'), p: 'lost', c: [] });
    // A chain deeper than the tree keeps (pages below depth 100 are left out).
    const chain = Array.from({ length: 110 }, (_, i) => `deep-${i}`);
    chain.forEach((id, i) =>
      writer.setEntry(id, {
        v: version('document', `d${i}`),
        p: i ? chain[i - 1]! : null,
        c: i < 109 ? [chain[i + 1]!] : [],
      }),
    );
    const rootIds = [...tops, 'link', 'lost', 'missing-entry', 'deep-0'];
    writer.setEntry(ROOT, { c: rootIds } as never);
    const roots = await writer.commit();
    revision = { ...empty, id: 'r1', ...roots };

    const reader = new RevisionReader(storage.db, revision);
    const all = new Map(
      (await reader.trie.entries(revision.pages_root)).filter(([k]) => k !== ROOT) as unknown as Array<
        [string, PageEntry]
      >,
    );
    const versions = await getObjects<PageVersion>(
      storage.db,
      [...all.values()].map((e) => e.v),
    );
    expected = expectedTree(rootIds, all, versions);
  });
  afterAll(() => storage.close());

  it('builds the same tree as before, in order, paths and depth limit included', async () => {
    const strip = (nodes: Array<{ id: string; path: string; pages: unknown[] }>): Expected[] =>
      nodes.map((n) => ({ id: n.id, path: n.path, pages: strip(n.pages as never) }));
    const tree = await new RevisionReader(storage.db, revision).tree();
    expect(strip(tree)).toEqual(expected);
    expect(tree.map((n) => n.id)).toEqual([
      ...Array.from({ length: SECTIONS }, (_, s) => `section-${s}`),
      'link',
      'deep-0',
    ]);
    expect(tree[0]!.pages[5]!.path).toBe('page-0-5');
    expect(tree[1]!.pages[5]!.path).toBe('section-1/page-1-5');
    let depth = 0;
    for (let n = tree[tree.length - 1]; n; n = n.pages[0]) depth++;
    expect(depth).toBe(101);
  });

  it('skips the subpages of a page whose visitor says so, and leaves every page it entered', async () => {
    const entered: string[] = [];
    const left: string[] = [];
    await new RevisionReader(storage.db, revision).walkTree({
      enter: (page) => {
        entered.push(page.id);
        return page.version.type !== 'link' && !page.id.startsWith('section-1');
      },
      leave: (page) => left.push(page.id),
    });
    const flat = (nodes: Expected[]): string[] =>
      nodes.flatMap((n) => [n.id, ...(n.id === 'link' || n.id.startsWith('section-1') ? [] : flat(n.pages))]);
    expect(entered).toEqual(flat(expected));
    expect(entered).not.toContain('under-link');
    expect(new Set(left)).toEqual(new Set(entered.filter((id) => id !== 'link' && !id.startsWith('section-1'))));
  });
});
