import { afterAll, beforeAll, expect, it } from 'vitest';
import { PDFParse } from 'pdf-parse';
import { describeEachDialect, startTestServer, type TestServer } from '../test/harness.js';
import { editContent, newChangeRequest, newSpace, seedContent } from '../test/factories.js';

describeEachDialect('reviewing change requests: changes, diffs, reviews, PDF, members', (dialect) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(dialect);
  });
  afterAll(() => server.close());

  async function setup() {
    const space = await newSpace(server, server.orgId, { title: 'Docs' });
    const seeded = await seedContent(server, space.id, [
      { operation: 'insert_page', title: 'Guide', document: { markdown: '# Guide\n\nOne two three.\n\nKeep me.' } },
      { operation: 'insert_page', title: 'Old page' },
    ]);
    const [guide, old] = seeded.pageIds as [string, string];
    const cr = await newChangeRequest(server, space.id, { subject: 'Review me' });
    const made = await editContent(server, space.id, cr.id, [
      {
        operation: 'update_page',
        page: guide,
        title: 'The guide',
        document: { markdown: '# Guide\n\nOne two four.\n\nKeep me.\n\nAdded.' },
      },
      { operation: 'delete_page', page: old },
      { operation: 'insert_page', title: 'Brand new', document: { markdown: 'Fresh text.' } },
    ]);
    return {
      spaceId: space.id,
      crId: cr.id,
      guide,
      old,
      created: made.changes[2].page.id as string,
    };
  }

  it('lists what a change request changes, and the block diff of a page', async () => {
    const { spaceId, crId, guide, old, created } = await setup();
    const changes = (await server.request('GET', `/v1/spaces/${spaceId}/change-requests/${crId}/changes`)).body.changes;
    const byPage = (id: string) =>
      changes.filter((c: { page?: { id: string } }) => c.page?.id === id).map((c: { type: string }) => c.type);
    expect(byPage(guide)).toEqual(['page_edited']);
    const attributes = changes.find((c: { page?: { id: string } }) => c.page?.id === guide).attributes;
    expect(Object.keys(attributes).sort()).toEqual(['document', 'title']);
    expect(attributes.title).toEqual({ before: 'Guide', after: 'The guide' });
    expect(byPage(old)).toEqual(['page_deleted']);
    expect(byPage(created)).toEqual(['page_created']);

    const diff = (await server.request('GET', `/v1/spaces/${spaceId}/change-requests/${crId}/diff/${guide}`)).body;
    expect(diff.before.title).toBe('Guide');
    expect(diff.after.title).toBe('The guide');
    expect(diff.blocks.map((b: { kind: string }) => b.kind)).toEqual(['unchanged', 'modified', 'unchanged', 'added']);
    const modified = diff.blocks[1];
    expect(
      modified.words
        .filter((w: { op: string }) => w.op !== 'insert')
        .map((w: { text: string }) => w.text)
        .join(''),
    ).toBe('One two three.');
    expect(
      modified.words
        .filter((w: { op: string }) => w.op !== 'delete')
        .map((w: { text: string }) => w.text)
        .join(''),
    ).toBe('One two four.');
    const missing = await server.request('GET', `/v1/spaces/${spaceId}/change-requests/${crId}/diff/nope`);
    expect(missing.status).toBe(404);
  });

  it('takes reviews from reviewers, not from the author; reviews go outdated when the content changes', async () => {
    const { spaceId, crId } = await setup();
    const own = await server.request('POST', `/v1/spaces/${spaceId}/change-requests/${crId}/reviews`, {
      body: { status: 'approved' },
    });
    expect(own.status).toBe(403);
    const reviewer = await server.member('review');
    const commenter = await server.member('comment');
    expect(
      (
        await server.request('POST', `/v1/spaces/${spaceId}/change-requests/${crId}/reviews`, {
          token: commenter.token,
          body: { status: 'approved' },
        })
      ).status,
    ).toBe(403);
    const review = await server.request('POST', `/v1/spaces/${spaceId}/change-requests/${crId}/reviews`, {
      token: reviewer.token,
      body: { status: 'changes-requested', comment: { markdown: 'Please fix the title.' } },
    });
    expect(review.status).toBe(201);
    expect(review.body).toMatchObject({ status: 'changes-requested', reviewer: { id: reviewer.id }, outdated: false });
    await server.request('POST', `/v1/spaces/${spaceId}/change-requests/${crId}/content`, {
      body: { changes: [{ operation: 'insert_page', title: 'More' }] },
    });
    const list = (await server.request('GET', `/v1/spaces/${spaceId}/change-requests/${crId}/reviews`)).body;
    expect(list.count).toBe(1);
    expect(list.items[0]).toMatchObject({
      id: review.body.id,
      outdated: true,
      body: { markdown: 'Please fix the title.' },
    });
    const bad = await server.request('POST', `/v1/spaces/${spaceId}/change-requests/${crId}/reviews`, {
      token: reviewer.token,
      body: { status: 'maybe' },
    });
    expect(bad.status).toBe(400);
  });

  it('requests reviewers among members who can review, and removes them', async () => {
    const { spaceId, crId } = await setup();
    const reviewer = await server.member('review');
    const reader = await server.member('read');
    const res = await server.request('POST', `/v1/spaces/${spaceId}/change-requests/${crId}/requested-reviewers`, {
      body: { users: [reviewer.id] },
    });
    expect(res.status).toBe(200);
    expect(res.body.users[0]).toMatchObject({ user: { id: reviewer.id }, requestedBy: { id: server.owner.id } });
    const refused = await server.request('POST', `/v1/spaces/${spaceId}/change-requests/${crId}/requested-reviewers`, {
      body: { users: [reviewer.id, reader.id] },
    });
    expect(refused.status).toBe(400);
    expect(refused.body.error.issues[0].path).toBe('users.1');
    const list = (await server.request('GET', `/v1/spaces/${spaceId}/change-requests/${crId}/requested-reviewers`))
      .body;
    expect(list.items.map((r: { user: { id: string } }) => r.user.id)).toEqual([reviewer.id]);
    expect(
      (
        await server.request(
          'DELETE',
          `/v1/spaces/${spaceId}/change-requests/${crId}/requested-reviewers/${reviewer.id}`,
        )
      ).status,
    ).toBe(205);
    expect(
      (
        await server.request(
          'DELETE',
          `/v1/spaces/${spaceId}/change-requests/${crId}/requested-reviewers/${reviewer.id}`,
        )
      ).status,
    ).toBe(204);
  });

  it('a requested reviewer who reviews is no longer waited for, and the review names who asked for it', async () => {
    const { spaceId, crId } = await setup();
    const asked = await server.member('review');
    const unasked = await server.member('review');
    const base = `/v1/spaces/${spaceId}/change-requests/${crId}`;
    expect((await server.request('POST', `${base}/requested-reviewers`, { body: { users: [asked.id] } })).status).toBe(
      200,
    );
    const answered = await server.request('POST', `${base}/reviews`, {
      token: asked.token,
      body: { status: 'approved' },
    });
    expect(answered.status).toBe(201);
    expect(answered.body.requestedBy).toMatchObject({ id: server.owner.id });
    const volunteered = await server.request('POST', `${base}/reviews`, {
      token: unasked.token,
      body: { status: 'changes-requested' },
    });
    expect(volunteered.body).not.toHaveProperty('requestedBy');
    expect((await server.request('GET', `${base}/requested-reviewers`)).body.items).toEqual([]);
    const listed = (await server.request('GET', `${base}/reviews`)).body.items;
    expect(
      listed.map((r: { reviewer: { id: string }; requestedBy?: { id: string } }) => [r.reviewer.id, r.requestedBy?.id]),
    ).toEqual([
      [asked.id, server.owner.id],
      [unasked.id, undefined],
    ]);
  });

  it('exports a real PDF of the change request, or of one page', async () => {
    const { spaceId, crId, created } = await setup();
    const link = await server.request('GET', `/v1/spaces/${spaceId}/change-requests/${crId}/pdf`);
    expect(link.status).toBe(200);
    const download = async (url: string) => {
      const res = await fetch(url.replace('http://docs.test', server.url), {
        headers: { authorization: `Bearer ${server.owner.token}` },
      });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('application/pdf');
      const parser = new PDFParse({ data: new Uint8Array(await res.arrayBuffer()) });
      return (await parser.getText()).text;
    };
    const whole = await download(link.body.url);
    expect(whole).toContain('Review me');
    expect(whole).toContain('The guide');
    expect(whole).toContain('One two four.');
    expect(whole).toContain('Fresh text.');
    const one = await server.request(
      'GET',
      `/v1/spaces/${spaceId}/change-requests/${crId}/pdf?only=true&page=${created}`,
    );
    const single = await download(one.body.url);
    expect(single).toContain('Fresh text.');
    expect(single).not.toContain('One two four.');
    const outsider = await server.signup('outsider');
    expect(
      (await server.request('GET', `/v1/spaces/${spaceId}/change-requests/${crId}/pdf`, { token: outsider.token }))
        .status,
    ).toBe(404);
  });

  it('lists organization members with role and search filters', async () => {
    const editor = await server.member('edit');
    const all = await server.request('GET', `/v1/orgs/${server.orgId}/members?limit=1000`);
    expect(all.status).toBe(200);
    expect(all.body.items.map((m: { id: string }) => m.id)).toContain(editor.id);
    const editors = await server.request('GET', `/v1/orgs/${server.orgId}/members?role=edit`);
    expect(editors.body.items.every((m: { role: string }) => m.role === 'edit')).toBe(true);
    const found = await server.request(
      'GET',
      `/v1/orgs/${server.orgId}/members?search=${encodeURIComponent(editor.email.toUpperCase())}`,
    );
    expect(found.body.items.map((m: { id: string }) => m.id)).toEqual([editor.id]);
    const guest = await server.member(null);
    expect((await server.request('GET', `/v1/orgs/${server.orgId}/members`, { token: guest.token })).status).toBe(403);
  });
});
