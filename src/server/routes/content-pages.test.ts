import http from 'node:http';
import zlib from 'node:zlib';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { safeEncode } from 'zod/v4/core';
import { describeEachDialect, startTestServer, type TestServer } from '../test/harness.js';
import { editContent, mergeChangeRequest, newChangeRequest, newSpace } from '../test/factories.js';
import { revisionPagesSchema, revisionSchema } from '../../shared/contract/content.js';
import { RevisionReader, revisionOfSpace } from '../domain/content/model.js';
import { presentPage, presentRevision, type PageLocation } from '../presenters/revision.js';
import { Urls } from '../lib/urls.js';

interface Raw {
  status: number;
  headers: http.IncomingHttpHeaders;
  /** The body as sent, not decoded. */
  body: Buffer;
}

describeEachDialect('page trees (GET …/content/pages): cached by revision, ETag, compression', (dialect) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(dialect);
  });
  afterAll(() => server.close());

  /** A request whose answer is read as bytes, undecoded (fetch would decompress it and hide the encoding). */
  function raw(path: string, headers: Record<string, string> = {}, token: string | null = server.owner.token) {
    return new Promise<Raw>((resolve, reject) => {
      const req = http.request(
        `${server.url}${path}`,
        { method: 'GET', headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers } },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.once('end', () =>
            resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }),
          );
        },
      );
      req.once('error', reject);
      req.end();
    });
  }
  const ok = async <T = any>(method: string, path: string, body?: unknown): Promise<T> => {
    const res = await server.request(method, path, { body });
    if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body as T;
  };
  /** A space holding every kind of page, nested, with and without the optional fields. */
  async function seededSpace() {
    const space = await newSpace(server, server.orgId, { title: 'Pages' });
    const cr = await newChangeRequest(server, space.id, { subject: 'Seed' });
    const [guide, section] = (
      await editContent(server, space.id, cr.id, [
        {
          operation: 'insert_page',
          title: 'Guide "quoted" \u2028 ünïcode',
          emoji: '📘',
          description: 'How to <start>',
          document: { markdown: '# Guide\n\nHello.' },
        },
        { operation: 'insert_page', type: 'group', title: 'Section', emoji: '📁' },
      ])
    ).changes.map((c) => c.page.id);
    await editContent(server, space.id, cr.id, [
      { operation: 'insert_page', title: 'Install', into: guide, document: { markdown: 'Steps.' } },
      {
        operation: 'insert_page',
        type: 'link',
        title: 'Site',
        emoji: '🔗',
        into: section,
        href: 'https://example.com',
      },
      { operation: 'insert_page', title: 'In a group', into: section, slug: 'in-group' },
    ]);
    await mergeChangeRequest(server, space.id, cr.id);
    return space.id;
  }

  /** What the route answered before its answers were cached: the presenter's tree, encoded by the contract. */
  async function presentedBefore(spaceId: string, revisionId: string, changeRequest?: number) {
    const db = server.storage.db;
    const revision = await revisionOfSpace(db, spaceId, revisionId);
    const space = (await db.selectFrom('spaces').selectAll().where('id', '=', spaceId).executeTakeFirstOrThrow())!;
    const at: PageLocation = { organizationId: space.organization_id, spaceId, changeRequest };
    const urls = new Urls(server.config.publicUrl);
    const tree = await new RevisionReader(db, revision).tree();
    const encoded = safeEncode(revisionPagesSchema, { pages: tree.map((node) => presentPage(urls, at, node)) });
    expect(encoded.error).toBeUndefined();
    return JSON.stringify(encoded.data);
  }

  let spaceId: string;
  let pagesPath: string;
  beforeAll(async () => {
    spaceId = await seededSpace();
    pagesPath = `/v1/spaces/${spaceId}/content/pages`;
  });

  it('GET …/content writes the revision with its pages as the contract encodes the presented revision', async () => {
    const space = await ok<{ revision: string }>('GET', `/v1/spaces/${spaceId}`);
    const db = server.storage.db;
    const revision = await revisionOfSpace(db, spaceId, space.revision);
    const row = await db.selectFrom('spaces').selectAll().where('id', '=', spaceId).executeTakeFirstOrThrow();
    const at: PageLocation = { organizationId: row.organization_id, spaceId };
    const reader = new RevisionReader(db, revision);
    const [tree, files] = await Promise.all([reader.tree(), reader.files()]);
    const presented = presentRevision(new Urls(server.config.publicUrl), at, revision, tree, files);
    // A merge revision carries the change request it merged, as the viewer sees it: taken from the answer.
    const res = await raw(`/v1/spaces/${spaceId}/content`);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    const text = res.body.toString('utf8');
    const answered = JSON.parse(text) as { mergedFrom?: unknown };
    expect(answered.mergedFrom).toBeDefined();
    const encoded = safeEncode(revisionSchema, { ...presented, mergedFrom: answered.mergedFrom } as never);
    expect(encoded.error).toBeUndefined();
    expect(text).toBe(JSON.stringify(encoded.data));
    expect((answered as { pages: unknown[] }).pages).toHaveLength(2);
  });

  it('answers the very JSON it answered before, valid against the contract', async () => {
    const res = await raw(pagesPath);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(Number(res.headers['content-length'])).toBe(res.body.length);
    const text = res.body.toString('utf8');
    const space = await ok<{ revision: string }>('GET', `/v1/spaces/${spaceId}`);
    expect(text).toBe(await presentedBefore(spaceId, space.revision));
    const parsed = revisionPagesSchema.safeParse(JSON.parse(text));
    expect(parsed.success).toBe(true);
    // Every kind of page is there, nested as edited.
    const [guide, section] = JSON.parse(text).pages;
    expect(guide).toMatchObject({ kind: 'sheet', emoji: '📘', description: 'How to <start>' });
    expect(guide.pages.map((p: { title: string }) => p.title)).toEqual(['Install']);
    expect(section).toMatchObject({ kind: 'group', emoji: '📁' });
    expect(section.pages.map((p: { kind: string }) => p.kind)).toEqual(['link', 'sheet']);
    expect(section.pages[1].path).toBe('in-group');
  });

  it('gives a strong ETag that stays the same for the same revision, and 304 for it', async () => {
    const first = await raw(pagesPath);
    const second = await raw(pagesPath);
    const etag = first.headers.etag!;
    expect(etag).toMatch(/^"[A-Za-z0-9_-]+"$/);
    expect(second.headers.etag).toBe(etag);
    expect(second.body.equals(first.body)).toBe(true);
    expect(first.headers.vary).toBe('accept-encoding');
    expect(first.headers['cache-control']).toBe('private, no-cache');

    const notModified = await raw(pagesPath, { 'if-none-match': etag });
    expect(notModified.status).toBe(304);
    expect(notModified.body.length).toBe(0);
    expect(notModified.headers.etag).toBe(etag);
    expect(notModified.headers.vary).toBe('accept-encoding');
    // Weak comparison, as If-None-Match asks (a proxy may have weakened the tag), and lists of tags.
    expect((await raw(pagesPath, { 'if-none-match': `W/${etag}` })).status).toBe(304);
    expect((await raw(pagesPath, { 'if-none-match': `"other", ${etag}` })).status).toBe(304);
    expect((await raw(pagesPath, { 'if-none-match': '"other"' })).status).toBe(200);
    // The console's and API clients' way: fetch gets 200 with the body, decoded.
    const fetched = await server.request('GET', pagesPath);
    expect(fetched.status).toBe(200);
    expect(JSON.stringify(fetched.body)).toBe(first.body.toString('utf8'));
  });

  it('compresses with gzip or brotli when accepted, each with its own ETag, the same JSON once decoded', async () => {
    const plain = await raw(pagesPath);
    const gzip = await raw(pagesPath, { 'accept-encoding': 'gzip, deflate' });
    expect(gzip.status).toBe(200);
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gzip.headers.vary).toBe('accept-encoding');
    expect(Number(gzip.headers['content-length'])).toBe(gzip.body.length);
    expect(zlib.gunzipSync(gzip.body).equals(plain.body)).toBe(true);
    const br = await raw(pagesPath, { 'accept-encoding': 'gzip, deflate, br' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(zlib.brotliDecompressSync(br.body).equals(plain.body)).toBe(true);
    // A client ranking identity first, or refusing the others, gets identity.
    expect((await raw(pagesPath, { 'accept-encoding': 'gzip;q=0.5, identity' })).headers['content-encoding']).toBe(
      undefined,
    );
    expect((await raw(pagesPath, { 'accept-encoding': 'br;q=0, gzip' })).headers['content-encoding']).toBe('gzip');

    const tags = new Set([plain.headers.etag, gzip.headers.etag, br.headers.etag]);
    expect(tags.size).toBe(3);
    // Each representation revalidates with its own tag.
    expect((await raw(pagesPath, { 'accept-encoding': 'gzip', 'if-none-match': gzip.headers.etag! })).status).toBe(304);
    expect((await raw(pagesPath, { 'if-none-match': gzip.headers.etag! })).status).toBe(200);
    // Repeated reads are served from the cache: the very same bytes.
    const again = await raw(pagesPath, { 'accept-encoding': 'gzip' });
    expect(again.body.equals(gzip.body)).toBe(true);
  });

  it('changes its ETag when the space moves to a new revision (a merge), the old tag then answering 200', async () => {
    const id = await seededSpace();
    const path = `/v1/spaces/${id}/content/pages`;
    const before = await raw(path);
    const previous = await ok<{ revision: string }>('GET', `/v1/spaces/${id}`);
    const cr = await newChangeRequest(server, id, { subject: 'Rename' });
    const pageId = JSON.parse(before.body.toString()).pages[0].id as string;
    await editContent(server, id, cr.id, [{ operation: 'update_page', page: pageId, title: 'Guide, renamed' }]);
    // The change request's own tree has changed; the space's has not yet.
    expect((await raw(path, { 'if-none-match': before.headers.etag! })).status).toBe(304);
    await mergeChangeRequest(server, id, cr.id);
    const after = await raw(path, { 'if-none-match': before.headers.etag! });
    expect(after.status).toBe(200);
    expect(after.headers.etag).not.toBe(before.headers.etag);
    expect(JSON.parse(after.body.toString()).pages[0].title).toBe('Guide, renamed');
    const space = await ok<{ revision: string }>('GET', `/v1/spaces/${id}`);
    expect(after.body.toString()).toBe(await presentedBefore(id, space.revision));
    // The previous revision is still read by its id: the same answer, under the same tag, as before the merge.
    const old = await raw(`/v1/spaces/${id}/revisions/${previous.revision}/pages`);
    expect(old.status).toBe(200);
    expect(old.headers.etag).toBe(before.headers.etag);
    expect(old.body.equals(before.body)).toBe(true);
  });

  it("serves a change request's tree with its own URLs and ETag, changing with its edits", async () => {
    const id = await seededSpace();
    const cr = await newChangeRequest(server, id, { subject: 'Edit' });
    const path = `/v1/spaces/${id}/change-requests/${cr.id}/content/pages`;
    const spaceTree = await raw(`/v1/spaces/${id}/content/pages`);
    const crTree = await raw(path);
    expect(crTree.status).toBe(200);
    // The same revision as the space's, yet another answer: its pages link into the change request.
    expect(crTree.headers.etag).not.toBe(spaceTree.headers.etag);
    expect(crTree.body.toString()).toContain(`/change-requests/${cr.number}/pages/`);
    expect(crTree.body.toString()).toBe(await presentedBefore(id, cr.revision, cr.number));
    // Its number names it too, with the same answer.
    const byNumber = await raw(`/v1/spaces/${id}/change-requests/${cr.number}/content/pages`);
    expect(byNumber.headers.etag).toBe(crTree.headers.etag);
    expect((await raw(path, { 'if-none-match': crTree.headers.etag! })).status).toBe(304);

    const pageId = JSON.parse(crTree.body.toString()).pages[0].id as string;
    await editContent(server, id, cr.id, [
      { operation: 'update_page', page: pageId, title: 'Edited in the change request' },
    ]);
    const edited = await raw(path, { 'if-none-match': crTree.headers.etag!, 'accept-encoding': 'gzip' });
    expect(edited.status).toBe(200);
    expect(edited.headers['content-encoding']).toBe('gzip');
    const text = zlib.gunzipSync(edited.body).toString();
    expect(JSON.parse(text).pages[0].title).toBe('Edited in the change request');
    const updated = await ok<{ revision: string }>('GET', `/v1/spaces/${id}/change-requests/${cr.id}`);
    expect(text).toBe(await presentedBefore(id, updated.revision, cr.number));
  });

  it('checks access before anything: no access answers 404 even with the current ETag, never 304', async () => {
    const res = await raw(pagesPath);
    const etag = res.headers.etag!;
    const spaceRevision = (await ok<{ revision: string }>('GET', `/v1/spaces/${spaceId}`)).revision;
    const outsider = await server.signup('outsider');
    const denied = await raw(pagesPath, { 'if-none-match': etag }, outsider.token);
    expect(denied.status).toBe(404);
    expect(denied.headers.etag).toBeUndefined();
    expect(JSON.parse(denied.body.toString()).error).toBeDefined();
    expect(
      (await raw(`/v1/spaces/${spaceId}/revisions/${spaceRevision}/pages`, { 'if-none-match': etag }, outsider.token))
        .status,
    ).toBe(404);
    expect((await raw(pagesPath, { 'if-none-match': etag }, null)).status).toBe(401);

    // A member who could read the space gets 304; once the space is hidden from members, 404 with the same tag.
    const id = await seededSpace();
    const path = `/v1/spaces/${id}/content/pages`;
    const reader = await server.member('read');
    const seen = await raw(path, {}, reader.token);
    expect(seen.status).toBe(200);
    expect((await raw(path, { 'if-none-match': seen.headers.etag! }, reader.token)).status).toBe(304);
    await ok('PATCH', `/v1/spaces/${id}`, { defaultLevel: null });
    const hidden = await raw(path, { 'if-none-match': seen.headers.etag! }, reader.token);
    expect(hidden.status).toBe(404);
    // The answer itself depends on no caller: the owner's is the same bytes, under the same tag.
    const owners = await raw(path, {});
    expect(owners.headers.etag).toBe(seen.headers.etag);
    expect(owners.body.equals(seen.body)).toBe(true);
  });

  it('builds once for requests arriving together, and answers an empty space', async () => {
    const id = await seededSpace();
    const path = `/v1/spaces/${id}/content/pages`;
    const answers = await Promise.all([raw(path), raw(path, { 'accept-encoding': 'gzip' }), raw(path)]);
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200]);
    expect(answers[2]!.body.equals(answers[0]!.body)).toBe(true);
    expect(zlib.gunzipSync(answers[1]!.body).equals(answers[0]!.body)).toBe(true);

    const empty = await newSpace(server, server.orgId, { title: 'Empty' });
    const none = await raw(`/v1/spaces/${empty.id}/content/pages`, { 'accept-encoding': 'br' });
    expect(none.status).toBe(200);
    expect(zlib.brotliDecompressSync(none.body).toString()).toBe('{"pages":[]}');
  });

  it('answers HEAD with the headers of GET and no body', async () => {
    const get = await raw(pagesPath);
    const head = await new Promise<Raw>((resolve, reject) => {
      const req = http.request(
        `${server.url}${pagesPath}`,
        { method: 'HEAD', headers: { authorization: `Bearer ${server.owner.token}` } },
        (res) => {
          res.resume();
          res.once('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.alloc(0) }));
        },
      );
      req.once('error', reject);
      req.end();
    });
    expect(head.status).toBe(200);
    expect(head.headers.etag).toBe(get.headers.etag);
    expect(head.headers['content-length']).toBe(get.headers['content-length']);
  });

  it('gives pages under one parent distinct slugs, in a batch and across batches, whatever moves and renames', async () => {
    const space = await newSpace(server, server.orgId, { title: 'Slugs' });
    const cr = await newChangeRequest(server, space.id);
    const slugsOf = async (parent?: string) => {
      const res = await server.request('GET', `/v1/spaces/${space.id}/change-requests/${cr.id}/content`);
      const pages = res.body.pages as Array<{ id: string; slug: string; pages?: Array<{ slug: string }> }>;
      return parent ? pages.find((p) => p.id === parent)!.pages!.map((p) => p.slug) : pages.map((p) => p.slug);
    };
    const first = await editContent(server, space.id, cr.id, [
      { operation: 'insert_page', title: 'Guide', ref: 'a' },
      { operation: 'insert_page', title: 'Guide', ref: 'b' },
      { operation: 'insert_page', title: 'Guide', ref: 'c' },
      { operation: 'insert_page', title: 'Folder', ref: 'folder' },
      { operation: 'insert_page', title: 'Guide', into: 'folder' },
    ]);
    const id = (ref: string) =>
      (first.changes as Array<{ ref?: string; page: { id: string } }>).find((c) => c.ref === ref)!.page.id;
    expect(await slugsOf()).toEqual(['guide', 'guide-2', 'guide-3', 'folder']);
    expect(await slugsOf(id('folder'))).toEqual(['guide']);
    // In one batch: the second takes "guide" back when the first gives it up; the third moves into the folder with
    // its slug (free there); a new page takes the first free slug.
    await editContent(server, space.id, cr.id, [
      { operation: 'update_page', page: id('a'), slug: 'intro' },
      { operation: 'update_page', page: id('b'), slug: 'guide' },
      { operation: 'update_page', page: id('c'), into: id('folder') },
      { operation: 'insert_page', title: 'Guide' },
    ]);
    expect(await slugsOf()).toEqual(['intro', 'guide', 'folder', 'guide-2']);
    expect(await slugsOf(id('folder'))).toEqual(['guide', 'guide-3']);
    // Moved back to the top level, where "guide-3" is free again, and renamed to a taken slug: the next free one.
    await editContent(server, space.id, cr.id, [
      { operation: 'update_page', page: id('c'), into: null, slug: 'guide' },
    ]);
    expect(await slugsOf()).toEqual(['intro', 'guide', 'folder', 'guide-2', 'guide-3']);
  });

  it("keeps a large folder's slugs right from batch to batch, across renames, moves out and deletions", async () => {
    // 220 pages under one folder: its slugs are kept between batches (edit.ts, KEPT_SLUGS), not read again.
    const space = await newSpace(server, server.orgId, { title: 'Large folder' });
    const cr = await newChangeRequest(server, space.id);
    const folder = (await editContent(server, space.id, cr.id, [{ operation: 'insert_page', title: 'Folder' }]))
      .changes[0]!.page as { id: string };
    const made: string[] = [];
    for (let b = 0; b < 5; b++) {
      const size = b < 4 ? 50 : 20;
      const batch = await editContent(
        server,
        space.id,
        cr.id,
        Array.from({ length: size }, () => ({ operation: 'insert_page', title: 'Same', into: folder.id })),
      );
      made.push(...batch.changes.map((c) => (c.page as { id: string }).id));
    }
    const slugs = async () => {
      const res = await server.request('GET', `/v1/spaces/${space.id}/change-requests/${cr.id}/content`);
      const top = (res.body.pages as Array<{ id: string; pages: Array<{ id: string; slug: string }> }>)[0]!;
      return new Map(top.pages.map((p) => [p.id, p.slug]));
    };
    const first = await slugs();
    expect(new Set(first.values()).size).toBe(220);
    expect(first.get(made[219]!)).toBe('same-220');
    const insertOne = async () => {
      const made = await editContent(server, space.id, cr.id, [
        { operation: 'insert_page', title: 'Same', into: folder.id },
      ]);
      return (await slugs()).get((made.changes[0]!.page as { id: string }).id);
    };
    // A rename frees a slug, the next batch takes it.
    await editContent(server, space.id, cr.id, [{ operation: 'update_page', page: made[4]!, slug: 'renamed' }]);
    expect(await insertOne()).toBe('same-5');
    // A page moved out frees its slug too.
    await editContent(server, space.id, cr.id, [{ operation: 'update_page', page: made[6]!, into: null }]);
    expect(await insertOne()).toBe('same-7');
    // So does a deletion.
    await editContent(server, space.id, cr.id, [{ operation: 'delete_page', page: made[9]! }]);
    expect(await insertOne()).toBe('same-10');
    // And a rename to a taken slug still gets a free one.
    await editContent(server, space.id, cr.id, [{ operation: 'update_page', page: made[0]!, slug: 'same-2' }]);
    const all = await slugs();
    expect(new Set(all.values()).size).toBe(all.size);
  });
});
