import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeEachDialect, startTestServer, type TestServer, type TestUser } from '../test/harness.js';
import { newOrg } from '../test/factories.js';

function paths(body: { error: { issues?: Array<{ path: string }> } }): string[] {
  return (body.error.issues ?? []).map((i) => i.path);
}

describeEachDialect('organizations', (dialect) => {
  let server: TestServer;
  let editor: TestUser;
  let reader: TestUser;
  let outsider: TestUser;

  beforeAll(async () => {
    server = await startTestServer(dialect);
    [editor, reader, outsider] = await Promise.all([
      server.member('edit'),
      server.member('read'),
      server.signup('outsider'),
    ]);
  });
  afterAll(() => server.close());

  describe('GET /v1/orgs', () => {
    it('lists only the organizations the caller is in', async () => {
      const res = await server.request('GET', '/v1/orgs', { token: reader.token });
      expect(res.status).toBe(200);
      expect(res.body.items.map((o: { id: string }) => o.id)).toEqual([server.orgId]);
      expect(res.body.count).toBe(1);
      expect(res.body.next).toBeUndefined();
      expect(res.body.items[0]).toMatchObject({ object: 'organization', id: server.orgId });
      expect(res.body.items[0].permissions).toMatchObject({ view: true, admin: false, createContent: false });
    });

    it('paginates with next.page and a total count', async () => {
      const user = await server.signup('many');
      const created: string[] = [];
      for (const title of ['One', 'Two', 'Three']) {
        const res = await server.request('POST', '/v1/orgs', { token: user.token, body: { title } });
        expect(res.status).toBe(201);
        created.push(res.body.id);
      }
      const first = await server.request('GET', '/v1/orgs?limit=2', { token: user.token });
      expect(first.status).toBe(200);
      expect(first.body.items).toHaveLength(2);
      expect(first.body.count).toBe(3);
      expect(first.body.next.page).toEqual(expect.any(String));
      const second = await server.request('GET', `/v1/orgs?limit=2&page=${encodeURIComponent(first.body.next.page)}`, {
        token: user.token,
      });
      expect(second.status).toBe(200);
      expect(second.body.items).toHaveLength(1);
      expect(second.body.count).toBe(3);
      expect(second.body.next).toBeUndefined();
      const seen = [...first.body.items, ...second.body.items].map((o: { id: string }) => o.id);
      expect(seen.sort()).toEqual([...created].sort());
    });

    it('answers 401 without a token', async () => {
      expect((await server.request('GET', '/v1/orgs', { token: null })).status).toBe(401);
    });
  });

  describe('POST /v1/orgs', () => {
    it('creates an organization whose admin is the caller (201 + Location)', async () => {
      const user = await server.signup('founder');
      const res = await server.request('POST', '/v1/orgs', { token: user.token, body: { title: 'Acme' } });
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({ object: 'organization', title: 'Acme', inviteLinks: true });
      expect(res.body.permissions.admin).toBe(true);
      expect(res.headers.get('location')).toBe(res.body.urls.location);
      expect(res.headers.get('location')).toMatch(new RegExp(`/v1/orgs/${res.body.id}$`));
      const got = await server.request('GET', `/v1/orgs/${res.body.id}`, { token: user.token });
      expect(got.status).toBe(200);
      expect(got.body.permissions.admin).toBe(true);
      // Nobody else sees it.
      expect((await server.request('GET', `/v1/orgs/${res.body.id}`)).status).toBe(404);
    });

    it('accepts a title of 2 and of 255 characters, and refuses 1 and 256 (400 naming title)', async () => {
      expect((await server.request('POST', '/v1/orgs', { body: { title: 'ab' } })).status).toBe(201);
      expect((await server.request('POST', '/v1/orgs', { body: { title: 't'.repeat(255) } })).status).toBe(201);
      const short = await server.request('POST', '/v1/orgs', { body: { title: 'a' } });
      expect(short.status).toBe(400);
      expect(paths(short.body)).toContain('title');
      const long = await server.request('POST', '/v1/orgs', { body: { title: 't'.repeat(256) } });
      expect(long.status).toBe(400);
      expect(paths(long.body)).toContain('title');
      expect((await server.request('POST', '/v1/orgs', { body: {} })).status).toBe(400);
    });

    it('answers 401 without a token', async () => {
      expect((await server.request('POST', '/v1/orgs', { token: null, body: { title: 'Nope' } })).status).toBe(401);
    });
  });

  describe('GET /v1/orgs/{id}', () => {
    it('returns the organization with the permissions of the caller', async () => {
      const admin = await server.request('GET', `/v1/orgs/${server.orgId}`);
      expect(admin.status).toBe(200);
      expect(admin.body).toMatchObject({ object: 'organization', id: server.orgId, type: 'business' });
      expect(admin.body.permissions).toMatchObject({ view: true, admin: true, createContent: true });
      expect(Array.isArray(admin.body.emailDomains)).toBe(true);
      const asEditor = await server.request('GET', `/v1/orgs/${server.orgId}`, { token: editor.token });
      expect(asEditor.status).toBe(200);
      expect(asEditor.body.permissions).toMatchObject({ view: true, admin: false, createContent: false });
    });

    it('answers 404 to a user outside the organization and for an unknown id', async () => {
      const res = await server.request('GET', `/v1/orgs/${server.orgId}`, { token: outsider.token });
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe(404);
      expect((await server.request('GET', '/v1/orgs/no-such-org')).status).toBe(404);
    });

    it('answers 401 without a token', async () => {
      expect((await server.request('GET', `/v1/orgs/${server.orgId}`, { token: null })).status).toBe(401);
    });
  });

  describe('PATCH /v1/orgs/{id}', () => {
    it('changes the settings an admin sends', async () => {
      const orgId = (await newOrg(server)).id;
      const res = await server.request('PATCH', `/v1/orgs/${orgId}`, {
        body: {
          title: 'Renamed',
          hostname: `h-${orgId.slice(-8)}`,
          logo: 'https://cdn.example.com/logo.png',
          emailDomains: ['Example.com', 'example.com'],
          defaultRole: 'comment',
          ai: true,
        },
      });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        title: 'Renamed',
        hostname: `h-${orgId.slice(-8)}`,
        emailDomains: ['example.com'],
        defaultRole: 'comment',
        ai: true,
      });
      expect(res.body.urls.logo).toBe('https://cdn.example.com/logo.png');
      const got = await server.request('GET', `/v1/orgs/${orgId}`);
      expect(got.body).toMatchObject({ title: 'Renamed', hostname: `h-${orgId.slice(-8)}` });
      // logo: null removes it.
      const cleared = await server.request('PATCH', `/v1/orgs/${orgId}`, { body: { logo: null } });
      expect(cleared.status).toBe(200);
      expect(cleared.body.urls.logo).toBeUndefined();
    });

    it('enforces title 2..255 (at the limit passes, one past fails)', async () => {
      const orgId = (await newOrg(server)).id;
      expect((await server.request('PATCH', `/v1/orgs/${orgId}`, { body: { title: 'ab' } })).status).toBe(200);
      expect((await server.request('PATCH', `/v1/orgs/${orgId}`, { body: { title: 'x'.repeat(255) } })).status).toBe(
        200,
      );
      const short = await server.request('PATCH', `/v1/orgs/${orgId}`, { body: { title: 'a' } });
      expect(short.status).toBe(400);
      expect(paths(short.body)).toContain('title');
      const long = await server.request('PATCH', `/v1/orgs/${orgId}`, { body: { title: 'x'.repeat(256) } });
      expect(long.status).toBe(400);
      expect(paths(long.body)).toContain('title');
      expect((await server.request('GET', `/v1/orgs/${orgId}`)).body.title).toBe('x'.repeat(255));
    });

    it('enforces hostname 3..32 (at the limit passes, one past fails)', async () => {
      const orgId = (await newOrg(server)).id;
      const suffix = orgId.slice(-6);
      const three = `a${suffix.slice(-1)}z`;
      const okShort = await server.request('PATCH', `/v1/orgs/${orgId}`, { body: { hostname: three } });
      expect(okShort.status).toBe(200);
      expect(okShort.body.hostname).toBe(three);
      const thirtyTwo = `${suffix}${'h'.repeat(26)}`;
      expect(thirtyTwo).toHaveLength(32);
      expect((await server.request('PATCH', `/v1/orgs/${orgId}`, { body: { hostname: thirtyTwo } })).status).toBe(200);
      const short = await server.request('PATCH', `/v1/orgs/${orgId}`, { body: { hostname: 'ab' } });
      expect(short.status).toBe(400);
      expect(paths(short.body)).toContain('hostname');
      const long = await server.request('PATCH', `/v1/orgs/${orgId}`, { body: { hostname: `${thirtyTwo}h` } });
      expect(long.status).toBe(400);
      expect(paths(long.body)).toContain('hostname');
    });

    it('refuses a hostname another organization uses (400 naming hostname)', async () => {
      const a = (await newOrg(server)).id;
      const b = (await newOrg(server)).id;
      const hostname = `taken-${a.slice(-8)}`;
      expect((await server.request('PATCH', `/v1/orgs/${a}`, { body: { hostname } })).status).toBe(200);
      const res = await server.request('PATCH', `/v1/orgs/${b}`, { body: { hostname } });
      expect(res.status).toBe(400);
      expect(paths(res.body)).toContain('hostname');
      // Setting its own hostname again is fine.
      expect((await server.request('PATCH', `/v1/orgs/${a}`, { body: { hostname } })).status).toBe(200);
    });

    it('enforces logo URL ≤ 2048 characters (at the limit passes, one past fails)', async () => {
      const orgId = (await newOrg(server)).id;
      const base = 'https://cdn.example.com/';
      const logo = base + 'l'.repeat(2048 - base.length);
      expect(logo).toHaveLength(2048);
      const ok = await server.request('PATCH', `/v1/orgs/${orgId}`, { body: { logo } });
      expect(ok.status).toBe(200);
      expect(ok.body.urls.logo).toBe(logo);
      const bad = await server.request('PATCH', `/v1/orgs/${orgId}`, { body: { logo: `${logo}l` } });
      expect(bad.status).toBe(400);
      expect(paths(bad.body)).toContain('logo');
      const notUrl = await server.request('PATCH', `/v1/orgs/${orgId}`, { body: { logo: 'not a url' } });
      expect(notUrl.status).toBe(400);
      // Only https: every member's browser would load whatever address an admin gives.
      for (const other of [
        'http://cdn.example.com/logo.png',
        'javascript:alert(1)',
        'data:image/svg+xml,<svg onload=alert(1)>',
        'file:///etc/passwd',
        'ftp://example.com/logo.png',
      ]) {
        const res = await server.request('PATCH', `/v1/orgs/${orgId}`, { body: { logo: other } });
        expect(res.status, other).toBe(400);
        expect(paths(res.body), other).toContain('logo');
      }
      expect((await server.request('GET', `/v1/orgs/${orgId}`)).body.urls.logo).toBe(logo);
    });

    it('is for admins only: 403 for edit and read members, and nothing changes', async () => {
      for (const user of [editor, reader]) {
        const res = await server.request('PATCH', `/v1/orgs/${server.orgId}`, {
          token: user.token,
          body: { title: 'Hijacked' },
        });
        expect(res.status).toBe(403);
        expect(res.body.error.code).toBe(403);
      }
      expect((await server.request('GET', `/v1/orgs/${server.orgId}`)).body.title).not.toBe('Hijacked');
    });

    it('answers 404 to an outsider and 401 without a token', async () => {
      const res = await server.request('PATCH', `/v1/orgs/${server.orgId}`, {
        token: outsider.token,
        body: { title: 'Hijacked' },
      });
      expect(res.status).toBe(404);
      expect(
        (await server.request('PATCH', `/v1/orgs/${server.orgId}`, { token: null, body: { title: 'Nope' } })).status,
      ).toBe(401);
    });

    it('refuses wrong types and unknown enum values (400)', async () => {
      const orgId = (await newOrg(server)).id;
      const res = await server.request('PATCH', `/v1/orgs/${orgId}`, { body: { ai: 'yes' } });
      expect(res.status).toBe(400);
      expect(paths(res.body)).toContain('ai');
      const role = await server.request('PATCH', `/v1/orgs/${orgId}`, { body: { defaultRole: 'owner' } });
      expect(role.status).toBe(400);
      expect(paths(role.body)).toContain('defaultRole');
    });
  });
});
