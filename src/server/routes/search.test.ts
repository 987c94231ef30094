import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDialect, startTestServer, type TestServer } from '../test/harness.js';

describeEachDialect('organization search and e-mail domains', (dialect) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(dialect);
    for (const title of ['Billing guide', 'API guide', 'Release notes', '100% coverage', 'snake_case rules']) {
      await server.request('POST', `/v1/orgs/${server.orgId}/spaces`, { body: { title } });
    }
  });
  afterAll(() => server.close());

  const search = (query: string, opts: { token?: string; extra?: string } = {}) =>
    server.request('GET', `/v1/orgs/${server.orgId}/search?query=${encodeURIComponent(query)}${opts.extra ?? ''}`, {
      token: opts.token,
    });

  it('finds spaces by title, case-insensitively, paginated', async () => {
    const res = await search('GUIDE');
    expect(res.status).toBe(200);
    expect(res.body.count).toBe(2);
    expect(res.body.items.map((i: { title: string }) => i.title).sort()).toEqual(['API guide', 'Billing guide']);
    expect(res.body.items[0]).toMatchObject({ pages: [] });

    const first = await search('guide', { extra: '&limit=1' });
    expect(first.body.items).toHaveLength(1);
    const second = await search('guide', { extra: `&limit=1&page=${first.body.next.page}` });
    expect(second.body.items).toHaveLength(1);
    expect(second.body.items[0].id).not.toBe(first.body.items[0].id);
    expect(second.body.next).toBeUndefined();
  });

  it('treats % and _ literally', async () => {
    expect((await search('%')).body.items.map((i: { title: string }) => i.title)).toEqual(['100% coverage']);
    expect((await search('_')).body.items.map((i: { title: string }) => i.title)).toEqual(['snake_case rules']);
  });

  it('refuses a missing, blank or over-long query (400 naming query); 512 characters pass', async () => {
    for (const path of [`/v1/orgs/${server.orgId}/search`, `/v1/orgs/${server.orgId}/search?query=%20`]) {
      const res = await server.request('GET', path);
      expect(res.status).toBe(400);
      expect(res.body.error.issues[0].path).toBe('query');
    }
    expect((await search('q'.repeat(512))).status).toBe(200);
    expect((await search('q'.repeat(513))).status).toBe(400);
  });

  it('shows only what the caller may see: 404 to outsiders, 401 without a token', async () => {
    const outsider = await server.signup('outsider');
    expect((await search('guide', { token: outsider.token })).status).toBe(404);
    expect((await server.request('GET', `/v1/orgs/${server.orgId}/search?query=x`, { token: null })).status).toBe(401);
    const guest = await server.member(null);
    const res = await search('guide', { token: guest.token });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ items: [], count: 0 });
  });

  it('lists the caller’s organizations of their own e-mail domain, and only that domain', async () => {
    const user = await server.signup('domain');
    const domain = user.email.split('@')[1]!;
    await server.request('PATCH', `/v1/orgs/${server.orgId}`, { body: { emailDomains: [domain] } });
    // E-mails are not verified: a non-member learns nothing about the organization.
    const outside = await server.request('GET', `/v1/email-domains/${domain}/orgs`, { token: user.token });
    expect(outside.status).toBe(200);
    expect(outside.body.organizations).toEqual([]);
    const link = await server.request('POST', `/v1/orgs/${server.orgId}/link-invites`, { body: { role: 'read' } });
    await server.request('POST', `/v1/orgs/${server.orgId}/invites/${link.body.id}`, { token: user.token });
    const res = await server.request('GET', `/v1/email-domains/${domain}/orgs`, { token: user.token });
    expect(res.body.organizations.map((o: { id: string }) => o.id)).toEqual([server.orgId]);
    const other = await server.request('GET', '/v1/email-domains/other.org/orgs', { token: user.token });
    expect(other.status).toBe(403);
    expect((await server.request('GET', `/v1/email-domains/${domain}/orgs`, { token: null })).status).toBe(401);
  });
});
