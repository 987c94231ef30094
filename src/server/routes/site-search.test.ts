import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SignJWT } from 'jose';
import { describeEachDialect, startTestServer, type TestServer } from '../test/harness.js';
import { newSite, newSpace, publishSite, seedPage } from '../test/factories.js';

interface PageResult {
  id: string;
  title: string;
  urls: { app: string };
  sections: Array<{ urls: { app: string }; body: string }>;
}
interface SpaceResult {
  id: string;
  title: string;
  pages: PageResult[];
}

/** Search on sites: the published site's own search (visitors) and the API's site search (members). */
describeEachDialect('site search', (dialect) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(dialect);
  });
  afterAll(() => server.close());

  const org = () => `/v1/orgs/${server.orgId}`;

  async function visit(url: string) {
    const res = await fetch(server.url + url.replace(server.config.publicUrl, ''), { redirect: 'manual' });
    const text = await res.text();
    let json: any;
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
    return { status: res.status, text, json, headers: res.headers };
  }

  /** A space holding one page, merged. */
  async function spaceWithPage(title: string, pageTitle: string, markdown: string) {
    const space = await newSpace(server, server.orgId, { title });
    await seedPage(server, space.id, pageTitle, markdown);
    return space.id;
  }

  async function jwt(siteId: string, claims: Record<string, unknown>) {
    const key = (await server.request('GET', `${org()}/sites/${siteId}/publishing/auth`)).body.privateKey as string;
    return new SignJWT(claims)
      .setProtectedHeader({ alg: 'HS256' })
      .setIssuedAt()
      .setExpirationTime('1h')
      .sign(new TextEncoder().encode(key));
  }

  const pageTitles = (items: SpaceResult[]) => items.flatMap((s) => s.pages.map((p) => p.title)).sort();

  describe('adaptive site with sections', () => {
    let siteId: string;
    let root: string;
    let sectionIds: { open: string; beta: string };
    let v2: string;
    beforeAll(async () => {
      const open = await spaceWithPage('Open space', 'Open falcon guide', 'Everyone sees the falcon.');
      const openV2 = await spaceWithPage('Open v2', 'Falcon v2 guide', 'The falcon, second edition.');
      const beta = await spaceWithPage('Beta space', 'Beta falcon guide', 'Only beta visitors see this falcon.');
      const hidden = await spaceWithPage('Not on site', 'Stray falcon', 'A falcon on no site.');
      expect(hidden).toBeTruthy();
      siteId = (await newSite(server, server.orgId, { visibility: 'visitor-auth' })).id;
      const base = `${org()}/sites/${siteId}`;
      const a = (await server.request('POST', `${base}/sections`, { body: { spaceId: open, title: 'Open' } })).body;
      v2 = (await server.request('POST', `${base}/site-spaces`, { body: { spaceId: openV2, sectionId: a.id } })).body
        .id;
      const b = (await server.request('POST', `${base}/sections`, { body: { spaceId: beta, title: 'Beta' } })).body;
      const patched = await server.request('PATCH', `${base}/sections/${b.id}`, {
        body: { condition: 'visitor.claims.beta === true' },
      });
      expect(patched.status).toBe(200);
      sectionIds = { open: a.id, beta: b.id };
      root = (await publishSite(server, server.orgId, siteId)).urls.published;
    });

    const search = async (params: string, claims: Record<string, unknown> = {}) =>
      visit(`${root}/~search?${params}&format=json&jwt_token=${await jwt(siteId, claims)}`);

    it('finds only what the visitor may see: conditions applied, pages of other spaces never', async () => {
      const plain = await search('q=falcon&scope=all');
      expect(plain.status).toBe(200);
      expect(pageTitles(plain.json.items)).toEqual(['Falcon v2 guide', 'Open falcon guide']);
      const beta = await search('q=falcon&scope=all', { beta: true });
      expect(pageTitles(beta.json.items)).toEqual(['Beta falcon guide', 'Falcon v2 guide', 'Open falcon guide']);
      expect((await search('q=beta&scope=all')).json.items).toEqual([]);
      expect((await search('q=stray&scope=all', { beta: true })).json.items).toEqual([]);
    });

    it('searches the default site space of each section, plus the one the visitor is in', async () => {
      expect(pageTitles((await search('q=falcon')).json.items)).toEqual(['Open falcon guide']);
      expect(pageTitles((await search(`q=falcon&in=${v2}`)).json.items)).toEqual([
        'Falcon v2 guide',
        'Open falcon guide',
      ]);
      expect(pageTitles((await search('q=falcon', { beta: true })).json.items)).toEqual([
        'Beta falcon guide',
        'Open falcon guide',
      ]);
    });

    it('puts the results of the site space searched from first, and says which section each comes from', async () => {
      const fromBeta = (await search(`q=falcon&scope=all&in=${v2}`, { beta: true })).json.items as SpaceResult[];
      expect(fromBeta.map((s) => s.title)).toHaveLength(3);
      expect(fromBeta[0]!.pages.map((p) => p.title)).toEqual(['Falcon v2 guide']);
      const token = await jwt(siteId, { beta: true });
      const html = (await visit(`${root}/~search?q=falcon&scope=all&in=${v2}&jwt_token=${token}`)).text;
      expect(html).toContain('<span class="space"> · Open › Open v2</span>');
      expect(html).toContain('<span class="space"> · Beta › Beta space</span>');
      const v2At = html.indexOf('</mark> v2 guide');
      expect(v2At).toBeGreaterThan(0);
      expect(v2At).toBeLessThan(html.indexOf('Open <mark>falcon</mark> guide'));
      // The site's sections are in the header, the one searched from marked.
      expect(html).toMatch(
        /<nav class="sections" aria-label="Sections">.*<a href="[^"]*\/open" aria-current="page">Open<\/a>/s,
      );
    });

    it('links results to the published pages, and needs the visitor token like any page', async () => {
      const res = await search('q=beta', { beta: true });
      const page = (res.json.items as SpaceResult[])[0]!.pages[0]!;
      expect(page.urls.app).toBe(`${root}/beta/beta-space/beta-falcon-guide`);
      expect(res.headers.get('cache-control')).toBe('private, no-store');
      const anonymous = await visit(`${root}/~search?q=falcon&format=json`);
      expect(anonymous.status).toBe(401);
      expect(anonymous.text).not.toContain('falcon guide');
      void sectionIds;
    });

    it('renders a results page with the matches marked, escaped, and a search box on every page', async () => {
      const token = await jwt(siteId, {});
      const pageHtml = await visit(`${root}?jwt_token=${token}`);
      expect(pageHtml.text).toContain(`<form class="search" role="search" method="get" action="${root}/~search">`);
      expect(pageHtml.headers.get('content-security-policy')).toContain("form-action 'self'");
      const html = await visit(`${root}/~search?q=falcon&jwt_token=${token}`);
      expect(html.status).toBe(200);
      expect(html.headers.get('content-type')).toContain('text/html');
      expect(html.text).toContain('<mark>falcon</mark>');
      expect(html.text).toContain(`href="${root}/open/open-space/open-falcon-guide"`);
      expect(html.text).toContain('1 page match “falcon”.');
      expect(html.text).not.toContain('Beta falcon guide');
      const empty = await visit(`${root}/~search?jwt_token=${token}`);
      expect(empty.status).toBe(200);
      expect(empty.text).toContain('Type words to look for.');
    });

    it('refuses bad parameters with a 400 naming them', async () => {
      const long = await search(`q=${'x'.repeat(513)}`);
      expect(long.status).toBe(400);
      expect(long.json.error.issues[0].path).toBe('q');
      expect((await search('q=')).json.error.issues[0].path).toBe('q');
      expect((await search('q=falcon&page=bad')).json.error.issues[0].path).toBe('page');
      expect((await search('q=falcon&limit=0')).json.error.issues[0].path).toBe('limit');
      for (const weird of ['%22', '*', 'NEAR(', '%3A', '-', '%F0%9F%99%82']) {
        expect((await search(`q=${weird}`)).status, weird).toBe(200);
      }
    });
  });

  it('share-link sites search only with an active key, and keep the key in result links', async () => {
    const id = await spaceWithPage('Shared', 'Partner heron notes', 'The heron is shared.');
    const siteId = (await newSite(server, server.orgId, { visibility: 'share-link', spaces: [id] })).id;
    const root = (await publishSite(server, server.orgId, siteId)).urls.published;
    expect((await visit(`${root}/~search?q=heron&format=json`)).status).toBe(404);
    expect((await visit(`${root}/~share/wrong/~search?q=heron&format=json`)).status).toBe(404);
    const link = (await server.request('POST', `${org()}/sites/${siteId}/share-links`, { body: { name: 'P' } })).body;
    const res = await visit(`${link.urls.published}/~search?q=heron&format=json`);
    expect(res.status).toBe(200);
    const page = (res.json.items as SpaceResult[])[0]!.pages[0]!;
    expect(page.urls.app).toBe(`${link.urls.published}/shared/partner-heron-notes`);
    await server.request('PATCH', `${org()}/sites/${siteId}/share-links/${link.id}`, { body: { active: false } });
    expect((await visit(`${link.urls.published}/~search?q=heron&format=json`)).status).toBe(404);
  });

  it('unpublished sites and spaces in the trash are not searched; page titles never become markup', async () => {
    const id = await spaceWithPage('Public', '<img src=x onerror=alert(1)> ibis', 'The ibis page.');
    const siteId = (await newSite(server, server.orgId, { visibility: 'public', spaces: [id] })).id;
    expect((await visit(`${server.config.publicUrl}/sites/${siteId}/~search?q=ibis&format=json`)).status).toBe(404);
    const root = (await publishSite(server, server.orgId, siteId)).urls.published;
    const html = await visit(`${root}/~search?q=ibis`);
    expect(html.status).toBe(200);
    expect(html.text).not.toContain('<img src=x');
    expect(html.text).toContain('&#x3C;img src=x onerror=alert(1)> <mark>ibis</mark>');
    expect((await visit(`${root}/~search?q=ibis&format=json`)).json.count).toBe(1);
    await server.request('DELETE', `/v1/spaces/${id}`);
    expect((await visit(`${root}/~search?q=ibis&format=json`)).json).toEqual({ items: [], count: 0 });
  });

  describe('POST /v1/orgs/{organizationId}/sites/{siteId}/search (members)', () => {
    let siteId: string;
    let siteSpaces: Record<string, string>;
    beforeAll(async () => {
      const a = await spaceWithPage('Member open', 'Osprey basics', 'Ospreys fish.');
      const b = await spaceWithPage('Member secret', 'Osprey secrets', 'Ospreys hide.');
      await server.request('PATCH', `/v1/spaces/${b}`, { body: { defaultLevel: null } });
      siteId = (await newSite(server, server.orgId, { spaces: [a, b] })).id;
      const listed = await server.request('GET', `${org()}/sites/${siteId}/site-spaces`);
      siteSpaces = Object.fromEntries(
        (listed.body.items as Array<{ id: string; space: { title: string } }>).map((ss) => [ss.space.title, ss.id]),
      );
    });
    const post = (body: unknown, token?: string, query = '') =>
      server.request('POST', `${org()}/sites/${siteId}/search${query}`, { body, token });

    it('searches the site spaces whose space the caller may read, by scope', async () => {
      expect(pageTitles((await post({ query: 'osprey' })).body.items)).toEqual(['Osprey basics', 'Osprey secrets']);
      const reader = await server.member('read');
      expect(pageTitles((await post({ query: 'osprey' }, reader.token)).body.items)).toEqual(['Osprey basics']);
      const scoped = await post({
        query: 'osprey',
        scope: { mode: 'specific', siteSpaceIds: [siteSpaces['Member secret']] },
      });
      expect(pageTitles(scoped.body.items)).toEqual(['Osprey secrets']);
      // A site space hidden from the caller is ignored, as if it did not exist.
      const hidden = await post(
        { query: 'osprey', scope: { mode: 'specific', siteSpaceIds: [siteSpaces['Member secret']] } },
        reader.token,
      );
      expect(hidden.body).toEqual({ items: [], count: 0 });
      expect(pageTitles((await post({ query: 'osprey', scope: { mode: 'default' } })).body.items)).toEqual([
        'Osprey basics',
      ]);
      expect(
        pageTitles((await post({ query: 'osprey', siteSpaceIds: [siteSpaces['Member secret']] })).body.items),
      ).toEqual(['Osprey secrets']);
      const first = await post({ query: 'osprey', mode: 'all' }, undefined, '?limit=1');
      expect(first.body.count).toBe(2);
      expect(first.body.items[0].pages).toHaveLength(1);
      const second = await post({ query: 'osprey', mode: 'all' }, undefined, `?limit=1&page=${first.body.next.page}`);
      expect(second.body.items[0].pages[0].title).not.toBe(first.body.items[0].pages[0].title);
    });

    it('answers 404 to outsiders, 403 to guests, 400 naming a bad field', async () => {
      const outsider = await server.signup('outsider');
      expect((await post({ query: 'osprey' }, outsider.token)).status).toBe(404);
      const guest = await server.member(null);
      expect((await post({ query: 'osprey' }, guest.token)).status).toBe(403);
      const bad = await post({ query: 'osprey', mode: 'current' });
      expect(bad.status).toBe(400);
      expect(bad.body.error.issues[0].path).toBe('siteSpaceId');
      const long = await post({ query: 'x'.repeat(513) });
      expect(long.body.error.issues[0].path).toBe('query');
      expect((await post({ query: 'osprey', scope: { mode: 'nope' } })).status).toBe(400);
    });
  });
});
