import http from 'node:http';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDialect, startTestServer, type TestServer } from '../test/harness.js';
import { editContent, newChangeRequest, newSpace } from '../test/factories.js';

describeEachDialect('change requests and their content', (dialect) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(dialect);
  });
  afterAll(() => server.close());

  const edit = (
    spaceId: string,
    cr: string,
    changes: unknown[],
    opts: { token?: string; headers?: Record<string, string>; compat?: boolean } = {},
  ) =>
    server.request(
      'POST',
      `/v1/spaces/${spaceId}/change-requests/${cr}/content${opts.compat === false ? '?compat=false' : ''}`,
      {
        body: { changes },
        token: opts.token,
        headers: opts.headers,
      },
    );

  it('creates change requests numbered per space, keeps the space counters exact, and finds them by number', async () => {
    const space = await newSpace(server, server.orgId, { title: 'Docs' });
    const first = await server.request('POST', `/v1/spaces/${space.id}/change-requests`, {
      body: { subject: 'First' },
    });
    expect(first.status).toBe(201);
    expect(first.headers.get('location')).toContain(`/v1/spaces/${space.id}/change-requests/${first.body.id}`);
    expect(first.body).toMatchObject({
      object: 'change-request',
      number: 1,
      status: 'open',
      subject: 'First',
      revision: space.revision,
      revisionInitial: space.revision,
      outdated: false,
      comments: 0,
    });
    const second = await newChangeRequest(server, space.id, { subject: 'Second' });
    expect(second.number).toBe(2);
    expect((await server.request('GET', `/v1/spaces/${space.id}/change-requests/2`)).body.id).toBe(second.id);
    await server.request('PATCH', `/v1/spaces/${space.id}/change-requests/${second.id}`, { body: { status: 'draft' } });
    const counters = (await server.request('GET', `/v1/spaces/${space.id}`)).body;
    expect(counters).toMatchObject({ changeRequests: 2, changeRequestsOpen: 1, changeRequestsDraft: 1 });
    const open = await server.request('GET', `/v1/spaces/${space.id}/change-requests`);
    expect(open.body.items.map((c: { id: string }) => c.id)).toEqual([first.body.id]);
    const drafts = await server.request('GET', `/v1/spaces/${space.id}/change-requests?status=draft`);
    expect(drafts.body.items.map((c: { id: string }) => c.id)).toEqual([second.id]);
  });

  it('refuses a subject of 101 characters and accepts 100; status merged cannot be set by PATCH', async () => {
    const space = await newSpace(server, server.orgId, { title: 'Docs' });
    const cr = await newChangeRequest(server, space.id, { subject: 'Edit' });
    const path = `/v1/spaces/${space.id}/change-requests/${cr.id}`;
    expect((await server.request('PATCH', path, { body: { subject: 's'.repeat(100) } })).status).toBe(200);
    const long = await server.request('PATCH', path, { body: { subject: 's'.repeat(101) } });
    expect(long.status).toBe(400);
    expect(long.body.error.issues[0].path).toBe('subject');
    expect((await server.request('PATCH', path, { body: { status: 'merged' } })).status).toBe(400);
  });

  it('edits pages inside the change request only, as one new revision, with stable block ids', async () => {
    const space = await newSpace(server, server.orgId, { title: 'Docs' });
    const cr = await newChangeRequest(server, space.id, { subject: 'Edit' });
    const res = await edit(
      space.id,
      cr.id,
      [
        {
          operation: 'insert_page',
          title: 'Getting started',
          document: { markdown: '# Hello\n\nFirst paragraph.\n\nSecond paragraph.' },
          ref: 'gs',
        },
        { operation: 'insert_page', title: 'Install', into: 'gs', document: { markdown: 'Run it.' } },
      ],
      { compat: false },
    );
    expect(res.status).toBe(200);
    expect(res.body.changes.map((c: { type: string }) => c.type)).toEqual(['created_page', 'created_page']);
    expect(res.body.changeRequest.revision).not.toBe(cr.revision);
    const pageId = res.body.changes[0].page.id as string;

    const pages = await server.request('GET', `/v1/spaces/${space.id}/change-requests/${cr.id}/content/pages`);
    expect(pages.body.pages).toHaveLength(1);
    expect(pages.body.pages[0]).toMatchObject({
      title: 'Getting started',
      slug: 'getting-started',
      path: 'getting-started',
    });
    expect(pages.body.pages[0].pages[0]).toMatchObject({ title: 'Install', path: 'getting-started/install' });
    // The space itself is untouched until a merge.
    expect((await server.request('GET', `/v1/spaces/${space.id}/content/pages`)).body.pages).toEqual([]);

    const doc = await server.request('GET', `/v1/spaces/${space.id}/change-requests/${cr.id}/content/page/${pageId}`);
    const nodes = doc.body.document.nodes as Array<{ key: string; type: string }>;
    expect(nodes.map((n) => n.type)).toEqual(['heading-1', 'paragraph', 'paragraph']);

    await edit(space.id, cr.id, [
      {
        operation: 'update_page',
        page: pageId,
        document: { markdown: '# Hello\n\nFirst paragraph, edited.\n\nSecond paragraph.' },
      },
    ]);
    const after = await server.request(
      'GET',
      `/v1/spaces/${space.id}/change-requests/${cr.id}/content/page/${pageId}?format=markdown`,
    );
    expect(after.body.markdown).toBe('# Hello\n\nFirst paragraph, edited.\n\nSecond paragraph.\n');
    const keys = (
      await server.request('GET', `/v1/spaces/${space.id}/change-requests/${cr.id}/content/page/${pageId}`)
    ).body.document.nodes.map((n: { key: string }) => n.key);
    expect(keys).toEqual(nodes.map((n) => n.key));
  });

  it('refuses bodies nested past the depth limit or with too many blocks, naming the field, and keeps nothing', async () => {
    const space = await newSpace(server, server.orgId, { title: 'Docs' });
    const cr = await newChangeRequest(server, space.id, { subject: 'Edit' });
    const before = (await server.request('GET', `/v1/spaces/${space.id}/change-requests/${cr.id}`)).body.revision;
    const quotes = '>'.repeat(50_000) + ' deep';
    const list = Array.from({ length: 600 }, (_, i) => `${'  '.repeat(i)}- item ${i}`).join('\n');
    for (const markdown of [quotes, list]) {
      const res = await edit(space.id, cr.id, [
        { operation: 'insert_page', title: 'Fine' },
        { operation: 'insert_page', title: 'Deep', document: { markdown } },
      ]);
      expect(res.status).toBe(400);
      expect(res.body.error.issues[0]).toMatchObject({
        path: 'changes.1.document.markdown',
        message: 'Nested deeper than 32 levels of blockquotes and lists',
      });
    }
    const manyBlocks = Array.from({ length: 10_001 }, (_, i) => `# H${i}`).join('\n');
    const blocks = await edit(space.id, cr.id, [
      { operation: 'insert_page', title: 'Long', document: { markdown: manyBlocks } },
    ]);
    expect(blocks.status).toBe(400);
    expect(blocks.body.error.issues[0].path).toBe('changes.0.document.markdown');
    expect(blocks.body.error.message).toMatch(/More than 10000 top-level blocks/);
    // Nothing was kept: the change request is still at its first revision.
    expect((await server.request('GET', `/v1/spaces/${space.id}/change-requests/${cr.id}`)).body.revision).toBe(before);
    // At the limit, the page is taken.
    const ok = await edit(space.id, cr.id, [
      { operation: 'insert_page', title: 'Deep enough', document: { markdown: '>'.repeat(32) + ' ok' } },
    ]);
    expect(ok.status).toBe(200);
  });

  it('rejects a batch whole, naming the failing operation', async () => {
    const space = await newSpace(server, server.orgId, { title: 'Docs' });
    const cr = await newChangeRequest(server, space.id, { subject: 'Edit' });
    const res = await edit(space.id, cr.id, [
      { operation: 'insert_page', title: 'Kept?' },
      { operation: 'insert_page', title: 'Orphan', into: 'no-such-page' },
    ]);
    expect(res.status).toBe(400);
    expect(res.body.error.issues[0].path).toBe('changes.1.into');
    const now = await server.request('GET', `/v1/spaces/${space.id}/change-requests/${cr.id}`);
    expect(now.body.revision).toBe(cr.revision);
    expect(
      (await server.request('GET', `/v1/spaces/${space.id}/change-requests/${cr.id}/content/pages`)).body.pages,
    ).toEqual([]);
    const tooMany = await edit(
      space.id,
      cr.id,
      Array.from({ length: 51 }, () => ({ operation: 'insert_page', title: 'x' })),
    );
    expect(tooMany.status).toBe(400);
    const fifty = await edit(
      space.id,
      cr.id,
      Array.from({ length: 50 }, (_, i) => ({ operation: 'insert_page', title: `P${i}` })),
    );
    expect(fifty.status).toBe(200);
  });

  it('answers 409 to a stale If-Match and changes nothing', async () => {
    const space = await newSpace(server, server.orgId, { title: 'Docs' });
    const cr = await newChangeRequest(server, space.id, { subject: 'Edit' });
    const first = await edit(space.id, cr.id, [{ operation: 'insert_page', title: 'One' }], {
      headers: { 'if-match': `"${cr.revision}"` },
    });
    expect(first.status).toBe(200);
    const stale = await edit(space.id, cr.id, [{ operation: 'insert_page', title: 'Two' }], {
      headers: { 'if-match': `"${cr.revision}"` },
    });
    expect(stale.status).toBe(409);
    const pages = await server.request('GET', `/v1/spaces/${space.id}/change-requests/${cr.id}/content/pages`);
    expect(pages.body.pages.map((p: { title: string }) => p.title)).toEqual(['One']);
  });

  it('never loses one of two concurrent edits', async () => {
    const space = await newSpace(server, server.orgId, { title: 'Docs' });
    const cr = await newChangeRequest(server, space.id, { subject: 'Edit' });
    const results = await Promise.all(
      ['A', 'B', 'C', 'D'].map((title) => edit(space.id, cr.id, [{ operation: 'insert_page', title }])),
    );
    expect(results.every((r) => r.status === 200)).toBe(true);
    const pages = await server.request('GET', `/v1/spaces/${space.id}/change-requests/${cr.id}/content/pages`);
    expect(pages.body.pages.map((p: { title: string }) => p.title).sort()).toEqual(['A', 'B', 'C', 'D']);
  });

  it('refuses edits in a locked space (403) and to readers (403); outsiders get 404', async () => {
    const space = await newSpace(server, server.orgId, { title: 'Docs' });
    const cr = await newChangeRequest(server, space.id, { subject: 'Edit' });
    const reader = await server.member('read');
    expect(
      (await edit(space.id, cr.id, [{ operation: 'insert_page', title: 'x' }], { token: reader.token })).status,
    ).toBe(403);
    const outsider = await server.signup('outsider');
    expect(
      (await edit(space.id, cr.id, [{ operation: 'insert_page', title: 'x' }], { token: outsider.token })).status,
    ).toBe(404);
    expect(
      (await server.request('GET', `/v1/spaces/${space.id}/change-requests/${cr.id}`, { token: outsider.token }))
        .status,
    ).toBe(404);
    await server.request('PATCH', `/v1/spaces/${space.id}`, { body: { editMode: 'locked' } });
    const locked = await edit(space.id, cr.id, [{ operation: 'insert_page', title: 'x' }]);
    expect(locked.status).toBe(403);
    expect(locked.body.error.message).toMatch(/locked/);
  });

  it('stores files and serves them with their content type to readers of the space', async () => {
    const space = await newSpace(server, server.orgId, { title: 'Docs' });
    const cr = await newChangeRequest(server, space.id, { subject: 'Edit' });
    const bytes = Buffer.from('hello, file');
    const res = await edit(
      space.id,
      cr.id,
      [{ operation: 'insert_files', files: [{ name: 'notes.txt', base64: bytes.toString('base64'), ref: 'n' }] }],
      { compat: false },
    );
    expect(res.status).toBe(200);
    const file = res.body.insertedFiles[0];
    expect(file).toMatchObject({ name: 'notes.txt', contentType: 'text/plain', size: bytes.length, ref: 'n' });
    const download = await fetch(file.downloadURL.replace('http://docs.test', server.url), {
      headers: { authorization: `Bearer ${server.owner.token}` },
    });
    expect(download.status).toBe(200);
    expect(download.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(Buffer.from(await download.arrayBuffer()).toString()).toBe('hello, file');
    const outsider = await server.signup('outsider');
    const denied = await fetch(file.downloadURL.replace('http://docs.test', server.url), {
      headers: { authorization: `Bearer ${outsider.token}` },
    });
    expect(denied.status).toBe(404);
    const bad = await edit(space.id, cr.id, [{ operation: 'insert_files', files: [{ name: 'x', base64: '***' }] }]);
    expect(bad.status).toBe(400);
    expect(bad.body.error.issues[0].path).toBe('changes.0.files.0.base64');
  });

  it('deletes a page with its subpages, and reverts a page to the base', async () => {
    const space = await newSpace(server, server.orgId, { title: 'Docs' });
    const cr = await newChangeRequest(server, space.id, { subject: 'Edit' });
    const made = await edit(
      space.id,
      cr.id,
      [
        { operation: 'insert_page', title: 'Parent', ref: 'p' },
        { operation: 'insert_page', title: 'Child', into: 'p' },
        { operation: 'insert_page', title: 'Other' },
      ],
      { compat: false },
    );
    const parent = made.body.changes[0].page.id;
    await edit(space.id, cr.id, [{ operation: 'delete_page', page: parent }]);
    const pages = await server.request('GET', `/v1/spaces/${space.id}/change-requests/${cr.id}/content/pages`);
    expect(pages.body.pages.map((p: { title: string }) => p.title)).toEqual(['Other']);
    const other = pages.body.pages[0].id;
    // Reverting a page the base does not have removes it.
    await edit(space.id, cr.id, [{ operation: 'revert_page', page: other }]);
    expect(
      (await server.request('GET', `/v1/spaces/${space.id}/change-requests/${cr.id}/content/pages`)).body.pages,
    ).toEqual([]);
  });
});

describeEachDialect('change request files from URLs', (dialect) => {
  let server: TestServer;
  let permissive: TestServer;
  let files: http.Server;
  let fileUrl: string;
  let downloads = 0;
  beforeAll(async () => {
    server = await startTestServer(dialect);
    permissive = await startTestServer(dialect, { allowPrivateFetch: true });
    files = http.createServer((_req, res) => {
      downloads += 1;
      res.writeHead(200, { 'content-type': 'image/png' });
      res.end(Buffer.from([0x89, 0x50, 0x4e, 0x47]));
    });
    await new Promise<void>((resolve) => files.listen(0, '127.0.0.1', resolve));
    const address = files.address();
    fileUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/logo.png`;
  });
  afterAll(async () => {
    await server.close();
    await permissive.close();
    await new Promise<void>((resolve) => files.close(() => resolve()));
  });

  async function insertFromUrl(s: TestServer) {
    const space = (await s.request('POST', `/v1/orgs/${s.orgId}/spaces`, { body: { title: 'Files' } })).body;
    const cr = (await s.request('POST', `/v1/spaces/${space.id}/change-requests`, { body: {} })).body;
    return s.request('POST', `/v1/spaces/${space.id}/change-requests/${cr.id}/content?compat=false`, {
      body: { changes: [{ operation: 'insert_files', files: [{ name: 'logo.png', url: fileUrl }] }] },
    });
  }

  it('refuses to fetch from a loopback or private address unless the operator allows it', async () => {
    const refused = await insertFromUrl(server);
    expect(refused.status).toBe(400);
    expect(refused.body.error.issues[0].path).toBe('changes.0.files.0.url');
    expect(refused.body.error.message).toMatch(/private or local/);

    const allowed = await insertFromUrl(permissive);
    expect(allowed.status).toBe(200);
    expect(allowed.body.insertedFiles[0]).toMatchObject({ name: 'logo.png', contentType: 'image/png', size: 4 });
  });

  it('takes a content edit up to 8 MiB and answers 413 above; other endpoints stop at 1 MiB', async () => {
    const space = await newSpace(server, server.orgId, { title: 'Big' });
    const cr = await newChangeRequest(server, space.id);
    const path = `/v1/spaces/${space.id}/change-requests/${cr.id}/content`;
    const file = (i: number) => ({ name: `f${i}.bin`, base64: Buffer.alloc(1024 * 1024 - 16, i).toString('base64') });
    const fits = await server.request('POST', path, {
      body: { changes: [{ operation: 'insert_files', files: [0, 1, 2, 3, 4].map(file) }] },
    });
    expect(fits.status).toBe(200);
    const padded = JSON.stringify({
      changes: [{ operation: 'insert_page', title: 'x' }],
      pad: 'x'.repeat(8 * 1024 * 1024),
    });
    const over = await server.request('POST', path, {
      rawBody: padded,
      headers: { 'content-type': 'application/json' },
    });
    expect(over.status).toBe(413);
    const elsewhere = await server.request('PATCH', `/v1/spaces/${space.id}`, {
      rawBody: JSON.stringify({ title: 'x', pad: 'x'.repeat(1024 * 1024) }),
      headers: { 'content-type': 'application/json' },
    });
    expect(elsewhere.status).toBe(413);
  });

  it('downloads nothing before the caller is authorized, and takes at most 20 URLs in one request', async () => {
    const space = (await permissive.request('POST', `/v1/orgs/${permissive.orgId}/spaces`, { body: { title: 'F' } }))
      .body;
    const cr = (await permissive.request('POST', `/v1/spaces/${space.id}/change-requests`, { body: {} })).body;
    const files = (n: number) => Array.from({ length: n }, (_, i) => ({ name: `f${i}.png`, url: `${fileUrl}?${i}` }));
    const body = { changes: [{ operation: 'insert_files', files: files(20) }] };
    const outsider = await permissive.signup('outsider');
    const reader = await permissive.member('read');
    downloads = 0;
    const attempts = [
      await permissive.request('POST', `/v1/spaces/no-such-space/change-requests/1/content`, { body }),
      await permissive.request('POST', `/v1/spaces/${space.id}/change-requests/${cr.id}/content`, {
        token: outsider.token,
        body,
      }),
      await permissive.request('POST', `/v1/spaces/${space.id}/change-requests/${cr.id}/content`, {
        token: reader.token,
        body,
      }),
    ];
    expect(attempts.map((a) => a.status)).toEqual([404, 404, 403]);
    expect(downloads).toBe(0);
    // An archived change request cannot change: nothing is downloaded for it either.
    const archived = (await permissive.request('POST', `/v1/spaces/${space.id}/change-requests`, { body: {} })).body;
    await permissive.request('PATCH', `/v1/spaces/${space.id}/change-requests/${archived.id}`, {
      body: { status: 'archived' },
    });
    const refused = await permissive.request('POST', `/v1/spaces/${space.id}/change-requests/${archived.id}/content`, {
      body,
    });
    expect(refused.status).toBe(409);
    expect(downloads).toBe(0);
    // 21 URLs in one request: 400 naming changes, before anything is fetched.
    const tooMany = await permissive.request('POST', `/v1/spaces/${space.id}/change-requests/${cr.id}/content`, {
      body: {
        changes: [
          { operation: 'insert_files', files: files(20) },
          { operation: 'insert_files', files: files(1) },
        ],
      },
    });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.error.issues[0]).toMatchObject({
      path: 'changes',
      message: expect.stringMatching(/At most 20/),
    });
    expect(downloads).toBe(0);
    const ok = await permissive.request('POST', `/v1/spaces/${space.id}/change-requests/${cr.id}/content`, { body });
    expect(ok.status).toBe(200);
    expect(downloads).toBe(20);
  });
});

describeEachDialect('change requests: filters and history', (dialect) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(dialect);
  });
  afterAll(() => server.close());

  it('filters by contributor: the author, or anyone who edited', async () => {
    const space = await newSpace(server, server.orgId, { title: 'Docs' });
    const editor = await server.member('edit');
    const mine = await newChangeRequest(server, space.id, { subject: 'mine' });
    const theirs = (
      await server.request('POST', `/v1/spaces/${space.id}/change-requests`, {
        token: editor.token,
        body: { subject: 'theirs' },
      })
    ).body;
    await server.request('POST', `/v1/spaces/${space.id}/change-requests/${mine.id}/content`, {
      token: editor.token,
      body: { changes: [{ operation: 'insert_page', title: 'Helped' }] },
    });
    const byEditor = await server.request('GET', `/v1/spaces/${space.id}/change-requests?contributor=${editor.id}`);
    expect(byEditor.body.items.map((c: { id: string }) => c.id).sort()).toEqual([mine.id, theirs.id].sort());
    const byOwner = await server.request(
      'GET',
      `/v1/spaces/${space.id}/change-requests?contributor=${server.owner.id}`,
    );
    expect(byOwner.body.items.map((c: { id: string }) => c.id)).toEqual([mine.id]);
  });

  it('reads historical revisions: a page as it was before a merge changed it', async () => {
    const space = await newSpace(server, server.orgId, { title: 'History' });
    const first = await newChangeRequest(server, space.id);
    const made = await server.request(
      'POST',
      `/v1/spaces/${space.id}/change-requests/${first.id}/content?compat=false`,
      {
        body: { changes: [{ operation: 'insert_page', title: 'Page', document: { markdown: 'Version one.' } }] },
      },
    );
    const pageId = made.body.changes[0].page.id;
    const v1 = (await server.request('POST', `/v1/spaces/${space.id}/change-requests/${first.id}/merge`)).body.revision;
    const second = await newChangeRequest(server, space.id);
    await server.request('POST', `/v1/spaces/${space.id}/change-requests/${second.id}/content`, {
      body: { changes: [{ operation: 'update_page', page: pageId, document: { markdown: 'Version two.' } }] },
    });
    await server.request('POST', `/v1/spaces/${space.id}/change-requests/${second.id}/merge`);
    const old = await server.request('GET', `/v1/spaces/${space.id}/revisions/${v1}/page/${pageId}?format=markdown`);
    expect(old.body.markdown).toBe('Version one.\n');
    const now = await server.request('GET', `/v1/spaces/${space.id}/content/page/${pageId}?format=markdown`);
    expect(now.body.markdown).toBe('Version two.\n');
    // A revision of another space is not found through this one.
    const other = await newSpace(server, server.orgId, { title: 'Other' });
    expect((await server.request('GET', `/v1/spaces/${other.id}/revisions/${v1}`)).status).toBe(404);
  });

  it('paginates files', async () => {
    const space = await newSpace(server, server.orgId, { title: 'Files' });
    const cr = await newChangeRequest(server, space.id);
    const files = Array.from({ length: 5 }, (_, i) => ({
      name: `f${i}.txt`,
      base64: Buffer.from(`f${i}`).toString('base64'),
    }));
    await server.request('POST', `/v1/spaces/${space.id}/change-requests/${cr.id}/content`, {
      body: { changes: [{ operation: 'insert_files', files }] },
    });
    const seen: string[] = [];
    let page: string | undefined;
    do {
      const res = await server.request(
        'GET',
        `/v1/spaces/${space.id}/change-requests/${cr.id}/content/files?limit=2${page ? `&page=${page}` : ''}`,
      );
      expect(res.body.count).toBe(5);
      seen.push(...res.body.items.map((f: { name: string }) => f.name));
      page = res.body.next?.page;
    } while (page);
    expect(seen.sort()).toEqual(['f0.txt', 'f1.txt', 'f2.txt', 'f3.txt', 'f4.txt']);
  });
});

describeEachDialect('change requests: link pages and review permission', (dialect) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(dialect);
  });
  afterAll(() => server.close());

  it('accepts http(s) URLs and paths for link pages, and refuses other schemes', async () => {
    const space = await newSpace(server, server.orgId, { title: 'Links' });
    const cr = await newChangeRequest(server, space.id);
    const link = (href: string) =>
      server.request('POST', `/v1/spaces/${space.id}/change-requests/${cr.id}/content`, {
        body: { changes: [{ operation: 'insert_page', type: 'link', title: 'L', href }] },
      });
    for (const ok of ['https://example.com/docs', '/pages/intro', 'guide/setup.md'])
      expect((await link(ok)).status, ok).toBe(200);
    for (const bad of ['javascript:alert(1)', 'data:text/html,<b>x</b>', ' JavaScript:alert(1)']) {
      const res = await link(bad);
      expect(res.status, bad).toBe(400);
      expect(res.body.error.issues[0].path).toBe('changes.0.href');
    }
  });

  it('does not offer the author a review of their own change request', async () => {
    const space = await newSpace(server, server.orgId, { title: 'Perm' });
    const cr = await newChangeRequest(server, space.id);
    expect(cr.permissions).toMatchObject({ review: false, merge: true, edit: true });
    const reviewer = await server.member('review');
    const seen = await server.request('GET', `/v1/spaces/${space.id}/change-requests/${cr.id}`, {
      token: reviewer.token,
    });
    expect(seen.body.permissions.review).toBe(true);
  });
});

describeEachDialect("change requests: the seed's role order (a reviewer outranks an editor)", (dialect) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(dialect);
  });
  afterAll(() => server.close());

  const crWithPage = async (spaceId: string, token?: string) => {
    const cr = await newChangeRequest(server, spaceId, { token });
    await editContent(server, spaceId, cr.id, [{ operation: 'insert_page', title: 'Page' }], { token });
    return cr;
  };

  it('editors edit but cannot merge; reviewers edit, review and merge', async () => {
    const space = await newSpace(server, server.orgId, { title: 'Order' });
    const editor = await server.member('edit');
    const reviewer = await server.member('review');

    const byEditor = await crWithPage(space.id, editor.token);
    const asEditor = await server.request('GET', `/v1/spaces/${space.id}/change-requests/${byEditor.id}`, {
      token: editor.token,
    });
    expect(asEditor.body.permissions).toMatchObject({ edit: true, merge: false, review: false });
    const refused = await server.request('POST', `/v1/spaces/${space.id}/change-requests/${byEditor.id}/merge`, {
      token: editor.token,
    });
    expect(refused.status).toBe(403);
    // Nothing merged: the space has no page yet.
    expect((await server.request('GET', `/v1/spaces/${space.id}/content/pages`)).body.pages).toEqual([]);

    // The reviewer reviews the editor's work and merges it, and edits change requests of their own.
    const review = await server.request('POST', `/v1/spaces/${space.id}/change-requests/${byEditor.id}/reviews`, {
      token: reviewer.token,
      body: { status: 'approved' },
    });
    expect(review.status).toBe(201);
    const merged = await server.request('POST', `/v1/spaces/${space.id}/change-requests/${byEditor.id}/merge`, {
      token: reviewer.token,
    });
    expect(merged.status).toBe(200);
    const byReviewer = await crWithPage(space.id, reviewer.token);
    const asReviewer = await server.request('GET', `/v1/spaces/${space.id}/change-requests/${byReviewer.id}`, {
      token: reviewer.token,
    });
    expect(asReviewer.body.permissions).toMatchObject({ edit: true, merge: true });
  });

  it('a defaultLevel raises and lowers across the review/edit boundary', async () => {
    const editor = await server.member('edit');
    const reviewer = await server.member('review');
    const raised = await newSpace(server, server.orgId, { title: 'Raised' });
    await server.request('PATCH', `/v1/spaces/${raised.id}`, { body: { defaultLevel: 'review' } });
    const lowered = await newSpace(server, server.orgId, { title: 'Lowered' });
    await server.request('PATCH', `/v1/spaces/${lowered.id}`, { body: { defaultLevel: 'edit' } });

    // Raised to review: the editor may now merge there.
    const up = await crWithPage(raised.id, editor.token);
    expect(
      (await server.request('POST', `/v1/spaces/${raised.id}/change-requests/${up.id}/merge`, { token: editor.token }))
        .status,
    ).toBe(200);
    // Lowered to edit: the reviewer still edits there but may no longer merge.
    const down = await crWithPage(lowered.id, reviewer.token);
    const space = await server.request('GET', `/v1/spaces/${lowered.id}`, { token: reviewer.token });
    expect(space.body.permissions).toMatchObject({ edit: true, merge: false });
    expect(
      (
        await server.request('POST', `/v1/spaces/${lowered.id}/change-requests/${down.id}/merge`, {
          token: reviewer.token,
        })
      ).status,
    ).toBe(403);
  });
});
