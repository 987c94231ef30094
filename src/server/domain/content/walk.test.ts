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
  let empty: RevisionRow;
  let revision: RevisionRow;
  let expected: Expected[];
  const SECTIONS = 12;
  const PER_SECTION = 900; // 10,800 pages: several read-ahead batches, more than a cached walk reads

  beforeAll(async () => {
    storage = openStorage({ kind: 'sqlite', file: ':memory:' });
    await migrate(storage);
    empty = {
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

  it('starts from another revision: the tree a full read makes, reading only the versions that changed', async () => {
    const at = '2024-01-02T00:00:00.000Z';
    const writer = new RevisionWriter(new RevisionReader(storage.db, revision));
    const version = (type: PageVersion['type'], slug: string) =>
      writer.addObject({ type, title: slug, slug, createdAt: at, updatedAt: at });
    // Section 1 renamed (its 900 pages' paths change), a page moved from section 2 to section 4, one removed, one
    // added, the entry that was missing now there, and the deep chain cut short.
    const s1 = (await writer.entry('section-1'))!;
    writer.setEntry('section-1', { ...s1, v: version('document', 'renamed') });
    const s2 = (await writer.entry('section-2'))!;
    const s4 = (await writer.entry('section-4'))!;
    writer.setEntry('section-2', { ...s2, c: s2.c.filter((id) => id !== 'page-2-7' && id !== 'page-2-8') });
    writer.setEntry('page-2-7', { ...(await writer.entry('page-2-7'))!, p: 'section-4' });
    writer.setEntry('section-4', { ...s4, c: ['page-2-7', ...s4.c, 'added'] });
    writer.setEntry('page-2-8', null);
    writer.setEntry('added', { v: version('document', 'added'), p: 'section-4', c: [] });
    writer.setEntry('missing-entry', { v: version('document', 'found'), p: null, c: [] });
    writer.setEntry('deep-5', { ...(await writer.entry('deep-5'))!, c: [] });
    const root = (await writer.reader.trie.get(revision.pages_root, ROOT)) as unknown as { c: string[] };
    writer.setEntry(ROOT, { c: [...root.c].reverse() } as never);
    const next: RevisionRow = { ...empty, id: 'r2', ...(await writer.commit()) };

    const strip = (nodes: Array<{ id: string; path: string; pages: unknown[] }>): Expected[] =>
      nodes.map((n) => ({ id: n.id, path: n.path, pages: strip(n.pages as never) }));
    const full = await new RevisionReader(storage.db, next).tree();
    // The base's versions are marked: a page showing the mark was not read again.
    const before = await new RevisionReader(storage.db, revision).treeWithEntries();
    const versions = new Map<string, PageVersion>();
    const hashes = [...before.entries.all.values()].map((e) => e.v);
    for (const [hash, v] of await getObjects<PageVersion>(storage.db, hashes))
      versions.set(hash, { ...v, title: 'known' });
    const derived = await new RevisionReader(storage.db, next).treeWithEntries({
      entries: before.entries,
      version: (_id, hash) => versions.get(hash),
    });
    expect(strip(derived.roots)).toEqual(strip(full));
    expect(derived.roots.find((n) => n.id === 'section-1')!.pages[3]!.path).toBe('renamed/page-1-3');
    const titles = new Map<string, string>();
    const visit = (nodes: typeof full) => nodes.forEach((n) => (titles.set(n.id, n.version.title), visit(n.pages)));
    visit(derived.roots);
    expect(titles.get('page-4-3')).toBe('known');
    expect(titles.get('page-2-7')).toBe('known');
    expect([titles.get('section-1'), titles.get('added'), titles.get('missing-entry')]).toEqual([
      'renamed',
      'added',
      'found',
    ]);
    expect(derived.entries.all.has('page-2-8')).toBe(false);
    // From a later revision back to an earlier one (a diff works both ways), the top-level order changed too.
    const back = await new RevisionReader(storage.db, revision).treeWithEntries({
      entries: derived.entries,
      version: () => undefined,
    });
    expect(strip(back.roots)).toEqual(strip(await new RevisionReader(storage.db, revision).tree()));
    expect([...derived.entries.all.keys()].sort()).toEqual(
      [...(await new RevisionReader(storage.db, next).treeWithEntries()).entries.all.keys()].sort(),
    );
  });
});
