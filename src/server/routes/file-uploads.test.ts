import crypto from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { FILES_SEGMENT } from '../lib/urls.js';
import { describeEachDialect, startTestServer, type TestServer } from '../test/harness.js';
import {
  newChangeRequest,
  newSite,
  newSpace,
  publishSite,
  seedContent,
  mergeChangeRequest,
} from '../test/factories.js';

/** Files past one request's JSON: uploaded as the body, stored in chunks, served as a stream. */
describeEachDialect('file uploads', (dialect) => {
  let server: TestServer;
  const MAX = 3 * 1024 * 1024;
  beforeAll(async () => {
    server = await startTestServer(dialect, { fileMaxBytes: MAX });
  });
  afterAll(() => server.close());

  const upload = (
    spaceId: string,
    cr: string,
    name: string,
    body: Buffer,
    opts: { token?: string; type?: string; ifMatch?: string } = {},
  ) =>
    fetch(`${server.url}/v1/spaces/${spaceId}/change-requests/${cr}/content/files?name=${encodeURIComponent(name)}`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${opts.token ?? server.owner.token}`,
        'content-type': opts.type ?? 'application/octet-stream',
        ...(opts.ifMatch ? { 'if-match': `"${opts.ifMatch}"` } : {}),
      },
      body: new Uint8Array(body),
    }).then(async (res) => ({ status: res.status, body: (await res.json()) as any }));

  const chunks = async () => {
    const db = server.storage.db;
    const row = await db.selectFrom('blob_chunks').select(db.fn.countAll().as('n')).executeTakeFirstOrThrow();
    return Number(row.n);
  };

  it('stores a file of several megabytes in chunks and serves the same bytes, in the API and on the site', async () => {
    const space = await newSpace(server, server.orgId, { title: 'Big files' });
    const cr = await newChangeRequest(server, space.id, { subject: 'Video' });
    const bytes = crypto.randomBytes(2 * 1024 * 1024 + 12_345);
    const res = await upload(space.id, cr.id, 'demo.mp4', bytes, { type: 'video/mp4' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.file).toMatchObject({ name: 'demo.mp4', contentType: 'video/mp4', size: bytes.length });
    expect(res.body.changeRequest.revision).not.toBe(cr.revision);

    const download = await fetch(res.body.file.downloadURL.replace('http://docs.test', server.url), {
      headers: { authorization: `Bearer ${server.owner.token}` },
    });
    expect(download.status).toBe(200);
    expect(download.headers.get('content-length')).toBe(String(bytes.length));
    expect(Buffer.from(await download.arrayBuffer()).equals(bytes)).toBe(true);

    // The same bytes again: one blob, and no chunk left behind.
    const before = await chunks();
    expect((await upload(space.id, cr.id, 'copy.mp4', bytes)).status).toBe(200);
    expect(await chunks()).toBe(before);

    const page = `![Demo](/files/${res.body.file.id})`;
    await seedContent(server, space.id, [{ operation: 'insert_page', title: 'Demo', document: { markdown: page } }]);
    await mergeChangeRequest(server, space.id, cr.id);
    const site = await newSite(server, server.orgId, { title: 'Big', spaces: [space.id] });
    const published = (await publishSite(server, server.orgId, site.id)).urls.published;
    const served = await fetch(
      `${published.replace('http://docs.test', server.url)}/${FILES_SEGMENT}/${res.body.file.id}`,
    );
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('video/mp4');
    expect(Buffer.from(await served.arrayBuffer()).equals(bytes)).toBe(true);
  });

  it('reads image sizes from the first chunk of a large image', async () => {
    const space = await newSpace(server, server.orgId, { title: 'Images' });
    const cr = await newChangeRequest(server, space.id, { subject: 'Shot' });
    // A PNG header (IHDR says 3000 × 2000) followed by more than a chunk of bytes.
    const header = Buffer.from('89504e470d0a1a0a0000000d49484452' + '00000bb8000007d0' + '0806000000', 'hex');
    const png = Buffer.concat([header, crypto.randomBytes(1024 * 1024 + 10)]);
    const res = await upload(space.id, cr.id, 'shot.png', png, { type: 'image/png' });
    expect(res.status).toBe(200);
    expect(res.body.file.dimensions).toEqual({ width: 3000, height: 2000 });
  });

  it('refuses a file over the limit with 413 naming it, an outsider and a stale revision, storing nothing', async () => {
    const space = await newSpace(server, server.orgId, { title: 'Limits' });
    const cr = await newChangeRequest(server, space.id, { subject: 'Too big' });
    const before = await chunks();
    const big = await upload(space.id, cr.id, 'big.bin', crypto.randomBytes(MAX + 1));
    expect(big.status).toBe(413);
    expect(big.body.error.message).toMatch(/larger than 3 MiB/);
    const stranger = await server.signup('upload-stranger');
    expect((await upload(space.id, cr.id, 'x.bin', Buffer.from('x'), { token: stranger.token })).status).toBe(404);
    const reader = await server.member('read');
    expect((await upload(space.id, cr.id, 'x.bin', Buffer.from('x'), { token: reader.token })).status).toBe(403);
    const stale = await upload(space.id, cr.id, 'x.bin', Buffer.from('x'), { ifMatch: 'not-the-revision' });
    expect(stale.status).toBe(409);
    expect((await upload(space.id, cr.id, 'empty.bin', Buffer.alloc(0))).status).toBe(400);
    expect(await chunks()).toBe(before);
    const files = (await server.request('GET', `/v1/spaces/${space.id}/change-requests/${cr.id}/content/files`)).body;
    expect(files.items).toEqual([]);
  });
});
