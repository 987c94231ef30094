import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDialect, startTestServer, type TestServer, type TestUser } from '../test/harness.js';
import { editContent, newChangeRequest, newSpace, seedContent } from '../test/factories.js';
import { PNG } from '../test/fixtures.js';
import { revisionChangesSchema, revisionSummaryListSchema } from '../../shared/contract/content.js';

describeEachDialect(
  'space history (GET …/revisions) and revision changes (GET …/revisions/{id}/changes)',
  (dialect) => {
    let server: TestServer;
    let reader: TestUser;
    let guest: TestUser;
    let outsider: TestUser;
    let spaceId: string;
    const merges: string[] = [];
    let pageId: string;

    const ok = async <T = any>(method: string, path: string, body?: unknown): Promise<T> => {
      const res = await server.request(method, path, { body });
      if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(res.body)}`);
      return res.body as T;
    };

    beforeAll(async () => {
      server = await startTestServer(dialect);
      [reader, guest, outsider] = await Promise.all([
        server.member('read'),
        server.member(null),
        server.signup('outsider'),
      ]);
      spaceId = (await newSpace(server, server.orgId, { title: 'History' })).id;
      // Three merges: a page created (with an image), edited, then moved under a new page.
      const first = await seedContent(
        server,
        spaceId,
        [
          { operation: 'insert_files', files: [{ name: 'dot.png', base64: Buffer.from(PNG).toString('base64') }] },
          { operation: 'insert_page', title: 'Guide', document: { markdown: 'Hello.' } },
        ],
        { subject: 'First page' },
      );
      pageId = first.changes[0]!.page.id;
      merges.push(first.revision);
      const second = await seedContent(
        server,
        spaceId,
        [{ operation: 'update_page', page: pageId, document: { markdown: 'Hello again.' } }],
        { subject: 'Edit' },
      );
      merges.push(second.revision);
      // An edit inside a change request that is never merged: not part of the history.
      const cr3 = await newChangeRequest(server, spaceId, { subject: 'Unmerged' });
      await editContent(server, spaceId, cr3.id, [{ operation: 'delete_page', page: pageId }]);
    });
    afterAll(() => server.close());

    it('lists the first revision and the merges, newest first, with who, when and the change request', async () => {
      const res = await server.request('GET', `/v1/spaces/${spaceId}/revisions`, { token: reader.token });
      expect(res.status).toBe(200);
      const list = revisionSummaryListSchema.parse(res.body);
      expect(list.count).toBe(3);
      expect(list.items.map((r) => r.id).slice(0, 2)).toEqual([merges[1], merges[0]]);
      const [latest, firstMerge, creation] = list.items;
      expect(latest).toMatchObject({ type: 'merge', current: true, changeRequest: { number: 2, subject: 'Edit' } });
      expect(latest!.createdBy?.email).toBe(server.owner.email);
      expect(firstMerge).toMatchObject({ type: 'merge', current: false, changeRequest: { number: 1 } });
      expect(creation!.changeRequest).toBeUndefined();
      expect(creation!.parents).toEqual([]);
    });

    it('pages with a cursor, and refuses a cursor it did not give (400 naming page)', async () => {
      const one = await ok<{ items: Array<{ id: string }>; next?: { page: string } }>(
        'GET',
        `/v1/spaces/${spaceId}/revisions?limit=2`,
      );
      expect(one.items).toHaveLength(2);
      const two = await ok<{ items: Array<{ id: string }>; next?: { page: string } }>(
        'GET',
        `/v1/spaces/${spaceId}/revisions?limit=2&page=${one.next!.page}`,
      );
      expect(two.items).toHaveLength(1);
      expect(two.next).toBeUndefined();
      const bad = await server.request('GET', `/v1/spaces/${spaceId}/revisions?page=not-a-cursor`);
      expect(bad.status).toBe(400);
      expect(JSON.stringify(bad.body)).toContain('page');
      expect((await server.request('GET', `/v1/spaces/${spaceId}/revisions?limit=0`)).status).toBe(400);
    });

    it('answers what a merge changed against the revision before it', async () => {
      const first = revisionChangesSchema.parse(
        await ok('GET', `/v1/spaces/${spaceId}/revisions/${merges[0]}/changes`),
      );
      expect(first.changes.map((c) => c.type).sort()).toEqual(['file_created', 'page_created']);
      const second = revisionChangesSchema.parse(
        await ok('GET', `/v1/spaces/${spaceId}/revisions/${merges[1]}/changes?limit=10`),
      );
      expect(second.changes).toEqual([
        expect.objectContaining({ type: 'page_edited', page: expect.objectContaining({ id: pageId, title: 'Guide' }) }),
      ]);
      const limited = revisionChangesSchema.parse(
        await ok('GET', `/v1/spaces/${spaceId}/revisions/${merges[0]}/changes?limit=1`),
      );
      expect(limited.changes).toHaveLength(1);
      expect(limited.more).toBe(1);
    });

    it('hides both from outsiders and guests (404), and answers 401 without a token, 404 for an unknown revision', async () => {
      for (const path of [`/v1/spaces/${spaceId}/revisions`, `/v1/spaces/${spaceId}/revisions/${merges[0]}/changes`]) {
        expect((await server.request('GET', path, { token: outsider.token })).status).toBe(404);
        expect((await server.request('GET', path, { token: guest.token })).status).toBe(404);
        expect((await server.request('GET', path, { token: null })).status).toBe(401);
      }
      expect((await server.request('GET', `/v1/spaces/${spaceId}/revisions/nope/changes`)).status).toBe(404);
      // A revision of another space is not one of this space.
      const other = await newSpace(server, server.orgId, { title: 'B' });
      expect((await server.request('GET', `/v1/spaces/${spaceId}/revisions/${other.revision}/changes`)).status).toBe(
        404,
      );
    });
  },
);
