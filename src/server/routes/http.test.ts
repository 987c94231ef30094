import http from 'node:http';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  describeEachDialect,
  OWNER_TOKEN,
  startTestServer,
  type ApiResponse,
  type TestServer,
} from '../test/harness.js';
import { newOrg, newSpace } from '../test/factories.js';

const MIB = 1024 * 1024;

/** Signs of a leaked stack trace or internals in a response body. */
const LEAK =
  /(\bat\s+\S+\s+\(|\.[cm]?[jt]s:\d+|node_modules|\bstack\b|SqliteError|syntax error at|relation ".*" does not exist)/i;

function paths(body: { error: { issues?: Array<{ path: string }> } }): string[] {
  return (body.error.issues ?? []).map((i) => i.path);
}

describeEachDialect('HTTP behaviour', (dialect) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(dialect);
  });
  afterAll(() => server.close());

  /**
   * Every request of this suite goes through here: no response may carry a stack trace, and every error
   * response has the documented body `{error: {code: <status>, message}}`.
   */
  async function req(...args: Parameters<TestServer['request']>): Promise<ApiResponse> {
    const res = await server.request(...args);
    const text = typeof res.body === 'string' ? res.body : JSON.stringify(res.body ?? '');
    expect(text).not.toMatch(LEAK);
    if (res.status >= 400) {
      expect(res.body?.error?.code).toBe(res.status);
      expect(typeof res.body?.error?.message).toBe('string');
      expect(res.body.error).not.toHaveProperty('stack');
    }
    return res;
  }

  /** What a factory made, held to the same rule: no stack trace in it. */
  function clean<T>(made: T): T {
    expect(JSON.stringify(made)).not.toMatch(LEAK);
    return made;
  }

  describe('request bodies', () => {
    it('answers 400 to malformed JSON', async () => {
      const res = await req('POST', `/v1/orgs/${server.orgId}/spaces`, {
        rawBody: '{"title": "x",',
        headers: { 'content-type': 'application/json' },
      });
      expect(res.status).toBe(400);
      expect(res.body.error.message).toMatch(/json/i);
    });

    it('answers 400 to an empty JSON body where one is required', async () => {
      const res = await req('POST', `/v1/orgs/${server.orgId}/collections`, {
        rawBody: '',
        headers: { 'content-type': 'application/json' },
      });
      expect(res.status).toBe(400);
    });

    it('answers 400 naming the field for a wrong type, at the top level and nested', async () => {
      const top = await req('POST', `/v1/orgs/${server.orgId}/spaces`, { body: { title: 123 } });
      expect(top.status).toBe(400);
      expect(paths(top.body)).toContain('title');

      const spaceId = clean(await newSpace(server, server.orgId, { title: 'S' })).id;
      const nested = await req('POST', `/v1/spaces/${spaceId}/move`, {
        body: { position: { before: { type: 'space', space: 5 } } },
      });
      expect(nested.status).toBe(400);
      expect(paths(nested.body)).toContain('position.before.space');

      const bool = await req('PATCH', `/v1/orgs/${server.orgId}`, { body: { inviteLinks: 'true' } });
      expect(bool.status).toBe(400);
      expect(paths(bool.body)).toContain('inviteLinks');

      const arr = await req('POST', `/v1/orgs/${server.orgId}/invites`, { body: { emails: 'a@example.com' } });
      expect(arr.status).toBe(400);
      expect(paths(arr.body)).toContain('emails');
    });

    it('answers 400 naming the field for an unknown enum value', async () => {
      const spaceId = clean(await newSpace(server, server.orgId, { title: 'S' })).id;
      const res = await req('PATCH', `/v1/spaces/${spaceId}`, { body: { editMode: 'read-only' } });
      expect(res.status).toBe(400);
      expect(paths(res.body)).toContain('editMode');
      const role = await req('POST', `/v1/orgs/${server.orgId}/link-invites`, { body: { role: 'superuser' } });
      expect(role.status).toBe(400);
      expect(paths(role.body)).toContain('role');
    });

    it('answers 400 naming the field for an over-long string', async () => {
      const res = await req('POST', `/v1/orgs/${server.orgId}/collections`, { body: { title: 'c'.repeat(51) } });
      expect(res.status).toBe(400);
      expect(paths(res.body)).toContain('title');
      expect(res.body.error.message).toContain('title');
    });

    it('accepts a body of exactly 1 MiB and answers 413 one byte past it', async () => {
      const url = `/v1/orgs/${server.orgId}/spaces`;
      const prefix = '{"title":"big","pad":"';
      const suffix = '"}';
      const exact = prefix + 'p'.repeat(MIB - prefix.length - suffix.length) + suffix;
      expect(Buffer.byteLength(exact)).toBe(MIB);
      const ok = await req('POST', url, { rawBody: exact, headers: { 'content-type': 'application/json' } });
      expect(ok.status).toBe(201);

      const over = prefix + 'p'.repeat(MIB + 1 - prefix.length - suffix.length) + suffix;
      expect(Buffer.byteLength(over)).toBe(MIB + 1);
      const res = await req('POST', url, { rawBody: over, headers: { 'content-type': 'application/json' } });
      expect(res.status).toBe(413);
    });

    it('answers 415 to a body that is not JSON', async () => {
      const res = await req('POST', `/v1/orgs/${server.orgId}/collections`, {
        rawBody: 'title=x',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
      expect(res.status).toBe(415);
    });
  });

  describe('paging parameters', () => {
    const lists = (collectionId: string) => [
      `/v1/collections/${collectionId}/spaces`,
      '/v1/orgs',
      `/v1/orgs/${server.orgId}/spaces`,
      `/v1/orgs/${server.orgId}/collections`,
      `/v1/orgs/${server.orgId}/link-invites`,
      '/v1/user/tokens',
    ];

    it('accepts limit 1 and 1000, refuses 0 and 1001 (400 naming limit) on every list', async () => {
      const c = await req('POST', `/v1/orgs/${server.orgId}/collections`, { body: { title: 'Paged' } });
      expect(c.status).toBe(201);
      for (const list of lists(c.body.id)) {
        for (const limit of [1, 1000]) {
          const res = await req('GET', `${list}?limit=${limit}`);
          expect(res.status, `${list}?limit=${limit}`).toBe(200);
          expect(res.body.items.length).toBeLessThanOrEqual(limit);
        }
        for (const limit of ['0', '1001', 'abc', '1.5', '-1']) {
          const res = await req('GET', `${list}?limit=${limit}`);
          expect(res.status, `${list}?limit=${limit}`).toBe(400);
          expect(paths(res.body)).toContain('limit');
        }
      }
    });

    it('refuses an invalid page cursor (400 naming page)', async () => {
      const orgId = clean(await newOrg(server, 'HTTP org')).id;
      for (let i = 0; i < 3; i += 1) clean(await newSpace(server, orgId, { title: 'S' }));
      // A real cursor of a list with another key shape.
      await req('POST', '/v1/orgs', { body: { title: 'Second' } });
      const orgsPage = await req('GET', '/v1/orgs?limit=1');
      expect(orgsPage.body.next.page).toEqual(expect.any(String));

      const bad = [
        'not-a-cursor',
        '!!!',
        Buffer.from('{"a":1}').toString('base64url'),
        Buffer.from('[1,2]').toString('base64url'),
        orgsPage.body.next.page,
        'x'.repeat(600),
      ];
      for (const page of bad) {
        const res = await req('GET', `/v1/orgs/${orgId}/spaces?page=${encodeURIComponent(page)}`);
        expect(res.status, page.slice(0, 40)).toBe(400);
        expect(paths(res.body)).toContain('page');
      }
      const empty = await req('GET', `/v1/orgs/${orgId}/spaces?page=`);
      expect(empty.status).toBe(400);
      expect(paths(empty.body)).toContain('page');
    });

    it('keyset pagination is stable when rows are inserted between calls', async () => {
      const orgId = clean(await newOrg(server, 'HTTP org')).id;
      const original: string[] = [];
      for (let i = 0; i < 5; i += 1) original.push(clean(await newSpace(server, orgId, { title: `Original ${i}` })).id);

      const first = await req('GET', `/v1/orgs/${orgId}/spaces?limit=2`);
      expect(first.status).toBe(200);
      expect(first.body.items.map((s: { id: string }) => s.id)).toEqual(original.slice(0, 2));
      expect(first.body.count).toBe(5);

      // Inserted between calls: at the end, before the first page, and in the middle of the unread part.
      const added: string[] = [];
      for (let i = 0; i < 3; i += 1) added.push(clean(await newSpace(server, orgId, { title: `Added ${i}` })).id);
      const front = await req('POST', `/v1/spaces/${added[0]}/move`, {
        body: { position: { before: { type: 'space', space: original[0] } } },
      });
      expect(front.status).toBe(200);
      const middle = await req('POST', `/v1/spaces/${added[1]}/move`, {
        body: { position: { before: { type: 'space', space: original[3] } } },
      });
      expect(middle.status).toBe(200);

      const seen: string[] = first.body.items.map((s: { id: string }) => s.id);
      let page: string | undefined = first.body.next.page;
      for (let guard = 0; page && guard < 20; guard += 1) {
        const res = await req('GET', `/v1/orgs/${orgId}/spaces?limit=2&page=${encodeURIComponent(page)}`);
        expect(res.status).toBe(200);
        expect(res.body.count).toBe(8);
        seen.push(...res.body.items.map((s: { id: string }) => s.id));
        page = res.body.next?.page;
      }
      expect(new Set(seen).size).toBe(seen.length);
      for (const id of original) expect(seen.filter((s) => s === id)).toHaveLength(1);
      // Originals keep their relative order.
      expect(seen.filter((id) => original.includes(id))).toEqual(original);
      // Rows added before the cursor are not served again on later pages.
      expect(seen).not.toContain(added[0]);
      expect(seen).toContain(added[1]);
      expect(seen).toContain(added[2]);
    });

    it('count is the total of the list, whatever the limit and page', async () => {
      const orgId = clean(await newOrg(server, 'HTTP org')).id;
      for (let i = 0; i < 4; i += 1) clean(await newSpace(server, orgId, { title: 'S' }));
      const small = await req('GET', `/v1/orgs/${orgId}/spaces?limit=1`);
      expect(small.body.items).toHaveLength(1);
      expect(small.body.count).toBe(4);
      const next = await req(
        'GET',
        `/v1/orgs/${orgId}/spaces?limit=3&page=${encodeURIComponent(small.body.next.page)}`,
      );
      expect(next.body.items).toHaveLength(3);
      expect(next.body.count).toBe(4);
      expect(next.body.next).toBeUndefined();
      const all = await req('GET', `/v1/orgs/${orgId}/spaces`);
      expect(all.body.count).toBe(all.body.items.length);
    });
  });

  describe('compression', () => {
    /** GET with exactly these headers (fetch would add and undo its own Accept-Encoding): status, headers, raw bytes. */
    function raw(p: string, headers: Record<string, string>) {
      return new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
        const request = http.get(`${server.url}${p}`, {
          headers: { authorization: `Bearer ${OWNER_TOKEN}`, ...headers },
        });
        request.on('response', (res) => {
          const parts: Buffer[] = [];
          res.on('data', (part: Buffer) => parts.push(part));
          res.on('end', () =>
            resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(parts) }),
          );
        });
        request.on('error', reject);
      });
    }

    it('answers in brotli or gzip when the client accepts it, from 1 KiB up', async () => {
      const orgId = clean(await newOrg(server, 'HTTP org')).id;
      for (let i = 0; i < 30; i++)
        clean(await newSpace(server, orgId, { title: `A space with a fairly long title, number ${i}` }));
      const list = `/v1/orgs/${orgId}/spaces?limit=30`;
      const plain = await raw(list, {});
      expect(plain.status).toBe(200);
      expect(plain.headers['content-encoding']).toBeUndefined();
      const json = JSON.parse(plain.body.toString());
      expect(json.items).toHaveLength(30);

      const br = await raw(list, { 'accept-encoding': 'gzip, deflate, br' });
      expect(br.headers['content-encoding']).toBe('br');
      expect(br.headers.vary).toMatch(/accept-encoding/i);
      expect(br.body.length).toBeLessThan(plain.body.length / 3);
      expect(JSON.parse(zlib.brotliDecompressSync(br.body).toString())).toEqual(json);
      const gz = await raw(list, { 'accept-encoding': 'gzip' });
      expect(gz.headers['content-encoding']).toBe('gzip');
      expect(JSON.parse(zlib.gunzipSync(gz.body).toString())).toEqual(json);

      // A small answer is not worth it.
      const small = await raw('/v1/health', { 'accept-encoding': 'br' });
      expect(small.headers['content-encoding']).toBeUndefined();
    });

    it('refuses a compressed request body instead of inflating it', async () => {
      const res = await req('POST', '/v1/orgs', {
        headers: { 'content-encoding': 'gzip', 'content-type': 'application/json' },
        rawBody: zlib.gzipSync(JSON.stringify({ title: 'Zipped' })).toString('latin1'),
      });
      expect(res.status).toBe(415);
      expect(res.body.error.message).toMatch(/Content-Encoding "gzip" is not accepted/);
    });
  });

  describe('routing and errors', () => {
    it('answers 404 with the error body for unknown routes, with or without a token', async () => {
      for (const [method, path] of [
        ['GET', '/v1/nope'],
        ['GET', '/v1/orgs/x/y/z'],
        ['PUT', '/v1/orgs'],
        ['DELETE', '/v1/user'],
        ['GET', '/v2/orgs'],
      ] as const) {
        const res = await req(method, path);
        expect(res.status, `${method} ${path}`).toBe(404);
        expect(res.body.error).toMatchObject({ code: 404 });
        const anonymous = await req(method, path, { token: null });
        expect(anonymous.status, `${method} ${path} without token`).toBe(404);
      }
    });

    it('answers 404, not a server error, to an id containing a NUL character', async () => {
      for (const path of ['/v1/spaces/ab%00cd', '/v1/collections/%00', `/v1/orgs/${server.orgId}%00`]) {
        const res = await server.request('GET', path);
        expect.soft(res.status, path).toBe(404);
      }
    });

    it('never answers a server error to text containing a NUL character', async () => {
      const res = await server.request('POST', `/v1/orgs/${server.orgId}/spaces`, {
        body: { title: 'nul\u0000inside' },
      });
      expect.soft(res.status, 'space title').toBeLessThan(500);
      const c = await req('POST', `/v1/orgs/${server.orgId}/collections`, { body: { title: 'C' } });
      const patch = await server.request('PATCH', `/v1/collections/${c.body.id}`, {
        body: { description: 'nul\u0000inside' },
      });
      expect.soft(patch.status, 'collection description').toBeLessThan(500);
      const login = await server.request('POST', '/v1/auth/login', {
        token: null,
        body: { email: 'a\u0000b@example.com', password: 'whatever-password' },
      });
      expect.soft(login.status, 'login e-mail').toBeLessThan(500);
    });

    it('answers framework errors (bad URL, body too large, unsupported media type) with the one error body', async () => {
      const badUrl = await server.request('GET', '/v1/spaces/%ED%A0%80');
      expect(badUrl.status).toBe(400);
      expect(badUrl.body).toEqual({
        error: { code: 400, message: 'Malformed URL: the path is not valid percent-encoded UTF-8' },
      });
      const tooLarge = await server.request('POST', `/v1/orgs/${server.orgId}/spaces`, {
        rawBody: JSON.stringify({ title: 'x'.repeat(2 * 1024 * 1024) }),
        headers: { 'content-type': 'application/json' },
      });
      expect(tooLarge.status).toBe(413);
      expect(tooLarge.body).toEqual({ error: { code: 413, message: 'Request body too large' } });
      const media = await server.request('POST', `/v1/orgs/${server.orgId}/spaces`, {
        rawBody: '<title>x</title>',
        headers: { 'content-type': 'application/xml' },
      });
      expect(media.status).toBe(415);
      expect(media.body.error).toMatchObject({ code: 415 });
      expect(Object.keys(media.body)).toEqual(['error']);
    });

    it('ignores query parameters an endpoint does not take, and validates those it takes', async () => {
      for (const path of [
        '/v1/orgs?unknown=1',
        `/v1/orgs/${server.orgId}?expand=everything`,
        '/v1/user?x=y&x=z',
        `/v1/orgs/${server.orgId}/members?fields=all&limit=5`,
      ]) {
        expect((await server.request('GET', path)).status, path).toBe(200);
      }
      const bad = await server.request('GET', `/v1/orgs/${server.orgId}/members?limit=0&unknown=1`);
      expect(bad.status).toBe(400);
      expect(bad.body.error.issues.map((i: { path: string }) => i.path)).toEqual(['limit']);
    });

    it('answers 400, never a server error, to JSON nested 10,000 deep, on every kind of route', async () => {
      const deep = '['.repeat(10_000) + ']'.repeat(10_000);
      const deepObject = '{"a":'.repeat(10_000) + '1' + '}'.repeat(10_000);
      for (const [method, path, token] of [
        ['POST', '/v1/auth/login', null],
        ['POST', `/v1/orgs/${server.orgId}/spaces`, undefined],
        ['PATCH', `/v1/orgs/${server.orgId}`, undefined],
      ] as const) {
        for (const rawBody of [deep, `{"email":${deep}}`, deepObject]) {
          const res = await server.request(method, path, {
            token,
            rawBody,
            headers: { 'content-type': 'application/json' },
          });
          expect(res.status, `${method} ${path}`).toBe(400);
          expect(res.body.error.message, `${method} ${path}`).toMatch(/nested deeper than 100 levels/);
        }
      }
      // Within the limit, the route's own validation answers.
      const shallow = await server.request('POST', '/v1/auth/login', {
        token: null,
        rawBody: '{"email":' + '['.repeat(50) + ']'.repeat(50) + '}',
        headers: { 'content-type': 'application/json' },
      });
      expect(shallow.status).toBe(400);
      expect(shallow.body.error.issues.map((i: { path: string }) => i.path)).toContain('email');
    });

    it('answers with JSON error bodies and no internals for a sample of failures', async () => {
      const spaceId = clean(await newSpace(server, server.orgId, { title: 'S' })).id;
      const samples: Array<Parameters<TestServer['request']>> = [
        ['GET', '/v1/user', { token: null }],
        ['GET', '/v1/user', { token: 'bogus' }],
        ['GET', '/v1/spaces/does-not-exist'],
        ['POST', `/v1/spaces/${spaceId}/restore`],
        ['PATCH', `/v1/spaces/${spaceId}`, { rawBody: '[1,2', headers: { 'content-type': 'application/json' } }],
        ['POST', '/v1/auth/login', { token: null, body: { email: 'x', password: '' } }],
        ['GET', `/v1/orgs/${server.orgId}/spaces?deleted=perhaps`],
        ['POST', `/v1/spaces/${spaceId}/transfer`, { body: { organization: { $ne: 1 } } }],
      ];
      for (const args of samples) {
        const res = await req(...args);
        expect(res.status, `${args[0]} ${args[1]}`).toBeGreaterThanOrEqual(400);
        expect(res.status, `${args[0]} ${args[1]}`).toBeLessThan(500);
        expect(res.headers.get('content-type')).toMatch(/application\/json/);
      }
    });
  });
});

describeEachDialect('HTTP: bodiless requests', (dialect) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(dialect);
  });
  afterAll(() => server.close());

  it('takes an empty body sent as application/json as no body, and still refuses malformed JSON', async () => {
    const space = await newSpace(server, server.orgId, { title: 'x' });
    const dup = await server.request('POST', `/v1/spaces/${space.id}/duplicate`, {
      rawBody: '',
      headers: { 'content-type': 'application/json' },
    });
    expect(dup.status).toBe(201);
    const bad = await server.request('POST', `/v1/orgs/${server.orgId}/spaces`, {
      rawBody: '{"title":',
      headers: { 'content-type': 'application/json' },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toMatch(/Malformed JSON/);
    const poisoned = await server.request('POST', `/v1/orgs/${server.orgId}/spaces`, {
      rawBody: '{"title":"p","__proto__":{"admin":true}}',
      headers: { 'content-type': 'application/json' },
    });
    expect(poisoned.status).toBe(400);
  });
});
