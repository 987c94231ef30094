import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { describeEachDialect, startTestServer, type TestServer } from '../../test/harness.js';
import { newSpace } from '../../test/factories.js';
import { isSqlite } from '../../storage/db.js';
import { findRevision } from '../../storage/repos/spaces.js';
import { RevisionReader, RevisionWriter } from '../content/model.js';
import { workers } from '../../workers/pool.js';
import { computeSearchUpdate, ensureSearchIndex, forgetCachedSections, rebuildSearchIndex } from './indexer.js';

/** The index kept in step at start, by the rebuild command and incrementally; the language setting. */
describeEachDialect('search index', (dialect) => {
  let server: TestServer;
  let spaceId: string;
  const quiet = { info: () => undefined };

  beforeAll(async () => {
    server = await startTestServer(dialect);
    spaceId = (await newSpace(server, server.orgId, { title: 'Index' })).id;
    const cr = await server.request('POST', `/v1/spaces/${spaceId}/change-requests`, { body: {} });
    await server.request('POST', `/v1/spaces/${spaceId}/change-requests/${cr.body.id}/content`, {
      body: {
        changes: ['One', 'Two', 'Three'].map((title) => ({
          operation: 'insert_page',
          title: `${title} page`,
          document: { markdown: `Configuring ${title.toLowerCase()}.` },
        })),
      },
    });
    expect((await server.request('POST', `/v1/spaces/${spaceId}/change-requests/${cr.body.id}/merge`)).status).toBe(
      200,
    );
  });
  afterAll(() => server.close());

  const db = () => server.storage.db;
  const found = async (query: string) => {
    const res = await server.request('GET', `/v1/spaces/${spaceId}/search?query=${encodeURIComponent(query)}`);
    expect(res.status).toBe(200);
    return (res.body.items as Array<{ title: string }>).map((p) => p.title).sort();
  };
  /** FTS5's own check that its index matches search_pages (SQLite); PostgreSQL's tsvectors are per row. */
  const consistent = async () => {
    if (isSqlite(db())) await sql`insert into search_fts (search_fts) values ('integrity-check')`.execute(db());
  };

  it('indexes at start the spaces it has no rows for (existing data after migration 010)', async () => {
    await db().deleteFrom('search_pages').execute();
    await db().deleteFrom('search_spaces').execute();
    expect(await found('configure')).toEqual([]);
    await ensureSearchIndex(db(), 'english', quiet);
    expect(await found('configure')).toEqual(['One page', 'Three page', 'Two page']);
    const indexed = await db().selectFrom('search_spaces').selectAll().where('space_id', '=', spaceId).execute();
    const space = await db().selectFrom('spaces').select('revision_id').where('id', '=', spaceId).executeTakeFirst();
    expect(indexed).toEqual([{ space_id: spaceId, revision_id: space!.revision_id }]);
    await consistent();
  });

  it('rebuilds every space from scratch, the same rows again', async () => {
    const before = await db()
      .selectFrom('search_pages')
      .select(['page_id', 'title', 'body'])
      .orderBy('page_id')
      .execute();
    // A row gone wrong is put right.
    await db().updateTable('search_pages').set({ body: 'garbage' }).execute();
    expect(await rebuildSearchIndex(db(), 'english', quiet)).toBeGreaterThanOrEqual(1);
    const after = await db()
      .selectFrom('search_pages')
      .select(['page_id', 'title', 'body'])
      .orderBy('page_id')
      .execute();
    expect(after).toEqual(before);
    await consistent();
  });

  it('re-extracts only the pages whose version changed, reading a merge not written yet', async () => {
    const space = await db().selectFrom('spaces').select('revision_id').where('id', '=', spaceId).executeTakeFirst();
    const revision = (await findRevision(db(), space!.revision_id))!;
    const writer = new RevisionWriter(new RevisionReader(db(), revision));
    const tree = await writer.reader.tree();
    const one = tree.find((n) => n.version.title === 'One page')!;
    const document = writer.addObject({ blocks: [{ id: 'b1', type: 'paragraph', markdown: 'Fresh words.' }] });
    writer.setEntry(one.id, { ...one.entry, v: writer.addObject({ ...one.version, document }) });
    const prepared = await writer.prepare();
    // Nothing of it is in the database yet: the update reads the prepared objects.
    const update = await computeSearchUpdate(db(), spaceId, revision, prepared);
    expect(update.from).toBe(revision.id);
    expect(update.deletes).toEqual([one.id]);
    expect(update.rows.map((r) => [r.page_id, r.title, r.body])).toEqual([[one.id, 'One page', 'Fresh words.']]);
  });

  it('stores the sections an edit extracts: a merge in a process that never saw them extracts nothing', async () => {
    const cr = await server.request('POST', `/v1/spaces/${spaceId}/change-requests`, { body: {} });
    const markdown = '# Stored heading\n\nKept sections of a body.';
    await server.request('POST', `/v1/spaces/${spaceId}/change-requests/${cr.body.id}/content`, {
      body: { changes: [{ operation: 'insert_page', title: 'Stored page', document: { markdown } }] },
    });
    const stored = await db().selectFrom('search_sections').select('data').execute();
    expect(stored.some((r) => r.data.includes('Kept sections of a body.'))).toBe(true);
    forgetCachedSections();
    const run = vi.spyOn(workers, 'run');
    try {
      const merged = await server.request('POST', `/v1/spaces/${spaceId}/change-requests/${cr.body.id}/merge`);
      expect(merged.status).toBe(200);
      expect(run.mock.calls.filter(([task]) => task === 'extractSections')).toEqual([]);
    } finally {
      run.mockRestore();
    }
    expect(await found('stored heading')).toEqual(['Stored page']);
    expect(await found('kept')).toEqual(['Stored page']);
  });

  it('drops the rows of a space removed for good', async () => {
    const other = (await newSpace(server, server.orgId, { title: 'Gone' })).id;
    const cr = await server.request('POST', `/v1/spaces/${other}/change-requests`, { body: {} });
    await server.request('POST', `/v1/spaces/${other}/change-requests/${cr.body.id}/content`, {
      body: { changes: [{ operation: 'insert_page', title: 'Doomed', document: { markdown: 'Bye.' } }] },
    });
    await server.request('POST', `/v1/spaces/${other}/change-requests/${cr.body.id}/merge`);
    const rows = () => db().selectFrom('search_pages').select('page_id').where('space_id', '=', other).execute();
    expect(await rows()).toHaveLength(1);
    await db().deleteFrom('spaces').where('id', '=', other).execute();
    expect(await rows()).toEqual([]);
    expect(await db().selectFrom('search_spaces').select('space_id').where('space_id', '=', other).execute()).toEqual(
      [],
    );
    await consistent();
  });

  it('follows SEARCH_LANGUAGE: simple has no stemming; english again stems', async () => {
    expect(await found('configure')).toHaveLength(3);
    await ensureSearchIndex(db(), 'simple', quiet);
    expect(await found('configure')).toEqual([]);
    expect(await found('configuring')).toHaveLength(3);
    await consistent();
    await ensureSearchIndex(db(), 'english', quiet);
    expect(await found('configure')).toHaveLength(3);
    await consistent();
    if (dialect === 'sqlite') {
      await expect(ensureSearchIndex(db(), 'french', quiet)).rejects.toThrow(/SEARCH_LANGUAGE: SQLite searches in/);
    } else {
      await expect(ensureSearchIndex(db(), 'klingon', quiet)).rejects.toThrow(/no text search configuration "klingon"/);
      await ensureSearchIndex(db(), 'french', quiet);
      expect((await db().selectFrom('search_state').select('language').executeTakeFirst())?.language).toBe('french');
      await ensureSearchIndex(db(), 'english', quiet);
    }
    expect(await found('configure')).toHaveLength(3);
  });
});
