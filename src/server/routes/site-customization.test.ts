import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeEachDialect, startTestServer, type TestServer, type TestUser } from '../test/harness.js';
import { newSite, newSpace, publishSite, seedPage } from '../test/factories.js';
import { defaultCustomization } from '../../shared/contract/customization.js';

/** GET|PUT …/sites/{id}/customization, GET|PATCH|DELETE …/site-spaces/{id}/customization, and what pages show. */
describeEachDialect('site customization', (dialect) => {
  let server: TestServer;
  let reader: TestUser;
  let outsider: TestUser;
  let siteId: string;
  let siteSpaceId: string;
  let published: string;

  const org = () => `/v1/orgs/${server.orgId}`;
  const custom = () => `${org()}/sites/${siteId}/customization`;
  const ssCustom = (id = siteSpaceId) => `${org()}/sites/${siteId}/site-spaces/${id}/customization`;

  async function visit(url: string) {
    const res = await fetch(server.url + url.replace(server.config.publicUrl, ''));
    return { status: res.status, html: await res.text() };
  }

  beforeAll(async () => {
    server = await startTestServer(dialect);
    [reader, outsider] = await Promise.all([server.member('read'), server.signup('outsider')]);
    const space = await newSpace(server, server.orgId, { title: 'Handbook' });
    for (const title of ['Welcome', 'Next steps']) await seedPage(server, space.id, title, `About ${title}.`);
    siteId = (await newSite(server, server.orgId, { title: 'Docs', visibility: 'public', spaces: [space.id] })).id;
    siteSpaceId = (await server.request('GET', `${org()}/sites/${siteId}/site-spaces`)).body.items[0].id;
    published = (await publishSite(server, server.orgId, siteId)).urls.published;
  });
  afterAll(() => server.close());

  const settings = (patch: Record<string, unknown> = {}) => ({ ...defaultCustomization(), ...patch });

  describe('the site', () => {
    it('has the defaults until set, readable by any member', async () => {
      const res = await server.request('GET', custom(), { token: reader.token });
      expect(res.status).toBe(200);
      expect(res.body).toEqual(defaultCustomization());
    });

    it('is replaced by PUT and shown by published pages at once', async () => {
      const before = await visit(published);
      expect(before.html).toContain('Published with Docspace');
      const body = settings({
        title: 'Acme handbook',
        styling: { ...defaultCustomization().styling, primaryColor: { light: '#0a7d3b', dark: '#5fd38d' } },
        header: {
          preset: 'default',
          logo: { light: 'https://cdn.example.com/logo.svg', dark: 'https://cdn.example.com/logo-dark.svg' },
          links: [
            {
              title: 'Status',
              style: 'button-primary',
              to: { kind: 'url', url: 'https://status.example.com' },
              links: [],
            },
            { title: 'Bad', to: { kind: 'url', url: 'javascript:alert(1)' }, links: [] },
            {
              title: 'Beta',
              to: { kind: 'url', url: 'https://beta.example.com' },
              links: [],
              condition: 'visitor.claims.beta',
            },
          ],
        },
        footer: {
          groups: [
            { title: 'Company', links: [{ title: 'Blog', to: { kind: 'url', url: 'https://acme.example/blog' } }] },
          ],
          copyright: '© Acme <b>Inc</b>',
        },
        announcement: { enabled: true, message: 'Version 2 is out', style: 'info' },
        favicon: { emoji: '📘' },
        socialPreview: { url: 'https://cdn.example.com/card.png' },
        pagination: { enabled: false },
        trademark: { enabled: false },
        pageActions: { externalAI: false, markdown: true, mcp: false },
      });
      const put = await server.request('PUT', custom(), { body });
      expect(put.status).toBe(200);
      expect(put.body.title).toBe('Acme handbook');
      expect((await server.request('GET', custom())).body).toEqual(put.body);

      const page = await visit(published);
      expect(page.status).toBe(200);
      expect(page.html).toContain('<title>Welcome · Acme handbook</title>');
      expect(page.html).toContain('--mono:"IBM Plex Mono",');
      expect(page.html).toContain('--accent:#0a7d3b');
      expect(page.html).toContain('--accent:#5fd38d');
      expect(page.html).toContain(
        '<img class="header-logo only-light" src="https://cdn.example.com/logo.svg" alt="Acme handbook">',
      );
      expect(page.html).toContain('<a href="https://status.example.com" class="button-primary">Status</a>');
      // A link to a script address is shown as text; a link for other visitors is not shown.
      expect(page.html).toContain('<span>Bad</span>');
      expect(page.html).not.toContain('javascript:');
      expect(page.html).not.toContain('beta.example.com');
      expect(page.html).toContain('<a href="https://acme.example/blog">Blog</a>');
      expect(page.html).toContain('© Acme &#x3C;b>Inc&#x3C;/b>');
      expect(page.html).toContain('Version 2 is out');
      expect(page.html).toContain('<meta property="og:image" content="https://cdn.example.com/card.png">');
      expect(page.html).toContain('rel="icon" href="data:image/svg+xml,');
      expect(page.html).toContain('View as Markdown');
      expect(page.html).not.toContain('Published with Docspace');
      expect(page.html).not.toContain('Previous and next pages');
    });

    it('fixes the theme when readers may not switch it', async () => {
      const current = (await server.request('GET', custom())).body;
      await server.request('PUT', custom(), { body: { ...current, themes: { default: 'dark', toggeable: false } } });
      const page = await visit(published);
      expect(page.html).toContain('<html lang="en" data-theme="dark" data-theme-fixed="">');
      expect(page.html).toContain('.theme-toggle{display:none!important}');
    });

    it('refuses bad settings naming the field, and keeps the old ones', async () => {
      const before = (await server.request('GET', custom())).body;
      const cases: Array<[Record<string, unknown>, string]> = [
        [
          settings({ styling: { ...defaultCustomization().styling, primaryColor: { light: 'red', dark: '#000' } } }),
          'styling.primaryColor.light',
        ],
        [
          settings({
            header: { preset: 'default', links: [], logo: { light: 'javascript:x', dark: 'https://a.example/x.png' } },
          }),
          'header.logo.light',
        ],
        [settings({ title: 'A' }), 'title'],
        [settings({ favicon: { icon: { light: 'ftp://x/y.ico', dark: 'https://x/y.ico' } } }), 'favicon'],
        [
          settings({
            header: { preset: 'default', links: [{ title: 'x', to: null, links: [], condition: 'visitor.claims.(' }] },
          }),
          'header.links.0.condition',
        ],
      ];
      const { styling: _styling, ...withoutStyling } = defaultCustomization();
      cases.push([withoutStyling, 'styling']);
      for (const [body, field] of cases) {
        const res = await server.request('PUT', custom(), { body });
        expect(res.status, field).toBe(400);
        expect(JSON.stringify(res.body.error), field).toContain(field);
      }
      expect((await server.request('GET', custom())).body).toEqual(before);
    });

    it('is changed only by site managers; outsiders and anonymous callers learn nothing', async () => {
      const body = settings();
      expect((await server.request('PUT', custom(), { token: reader.token, body })).status).toBe(403);
      expect((await server.request('GET', custom(), { token: outsider.token })).status).toBe(404);
      expect((await server.request('PUT', custom(), { token: outsider.token, body })).status).toBe(404);
      expect((await server.request('GET', custom(), { token: null })).status).toBe(401);
      // Another organization's admin, with a site of their own: this site is not theirs to see.
      const theirs = await server.request('POST', '/v1/orgs', { token: outsider.token, body: { title: 'Theirs' } });
      const path = `/v1/orgs/${theirs.body.id}/sites/${siteId}/customization`;
      expect((await server.request('GET', path, { token: outsider.token })).status).toBe(404);
      expect((await server.request('PUT', path, { token: outsider.token, body })).status).toBe(404);
    });
  });

  describe('the live preview', () => {
    it('renders the first page with unsaved settings, without script, for site managers only', async () => {
      const before = (await server.request('GET', custom())).body;
      const draft = settings({
        title: 'Draft title',
        styling: { ...defaultCustomization().styling, corners: 'circular' },
      });
      const res = await fetch(`${server.url}${custom()}/preview`, {
        method: 'POST',
        headers: { authorization: `Bearer ${server.owner.token}`, 'content-type': 'application/json' },
        body: JSON.stringify(draft),
      });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toContain('text/html');
      expect(res.headers.get('cache-control')).toBe('no-store');
      const html = await res.text();
      expect(html).toContain('<title>Welcome · Draft title</title>');
      expect(html).toContain('--radius:16px');
      expect(html).not.toContain('<script');
      // Nothing was saved.
      expect((await server.request('GET', custom())).body).toEqual(before);
      expect((await server.request('POST', `${custom()}/preview`, { token: reader.token, body: draft })).status).toBe(
        403,
      );
      expect((await server.request('POST', `${custom()}/preview`, { token: outsider.token, body: draft })).status).toBe(
        404,
      );
      const bad = await server.request('POST', `${custom()}/preview`, { body: { ...draft, title: 'x' } });
      expect(bad.status).toBe(400);
    });

    it('previews an unpublished site, and says when there is nothing to show', async () => {
      const empty = await newSite(server, server.orgId, { title: 'Empty' });
      const res = await server.request(
        'POST',
        `${org()}/sites/${empty.id}/preview`.replace('/preview', '/customization/preview'),
        {
          body: settings(),
        },
      );
      expect(res.status).toBe(404);
      expect(res.body.error.message).toContain('no page to preview');
    });
  });

  describe('a site space', () => {
    it('inherits the site, overrides parts of it, resets them with null, and drops them all with DELETE', async () => {
      await server.request('PUT', custom(), { body: settings({ title: 'Acme handbook' }) });
      const inherited = await server.request('GET', ssCustom(), { token: reader.token });
      expect(inherited.status).toBe(200);
      expect(inherited.body).toMatchObject({ title: 'Acme handbook', hasOverrides: false });

      const patched = await server.request('PATCH', ssCustom(), {
        body: { title: 'Acme API', styling: { corners: 'straight', sidebar: { list: 'line' } } },
      });
      expect(patched.status).toBe(200);
      expect(patched.body).toMatchObject({
        title: 'Acme API',
        hasOverrides: true,
        styling: { corners: 'straight', sidebar: { list: 'line', background: 'default' }, theme: 'clean' },
      });
      const page = await visit(published);
      expect(page.html).toContain('<title>Welcome · Acme API</title>');
      expect(page.html).toContain('--radius:0px');

      const reset = await server.request('PATCH', ssCustom(), { body: { title: null } });
      expect(reset.body).toMatchObject({
        title: 'Acme handbook',
        hasOverrides: true,
        styling: { corners: 'straight' },
      });
      expect((await server.request('DELETE', ssCustom())).status).toBe(205);
      expect((await server.request('DELETE', ssCustom())).status).toBe(204);
      const back = await server.request('GET', ssCustom());
      expect(back.body).toMatchObject({ hasOverrides: false, styling: { corners: 'rounded' } });
      expect((await visit(published)).html).toContain('--radius:8px');
    });

    it('refuses unknown parts and bad values naming them; unknown site spaces are 404; readers cannot change it', async () => {
      const unknown = await server.request('PATCH', ssCustom(), { body: { colour: 'red' } });
      expect(unknown.status).toBe(400);
      const bad = await server.request('PATCH', ssCustom(), { body: { styling: { corners: 'round' } } });
      expect(bad.status).toBe(400);
      expect(JSON.stringify(bad.body.error)).toContain('styling.corners');
      expect((await server.request('GET', ssCustom('no-such-site-space'))).status).toBe(404);
      expect((await server.request('PATCH', ssCustom(), { token: reader.token, body: { title: 'Mine' } })).status).toBe(
        403,
      );
      expect((await server.request('DELETE', ssCustom(), { token: outsider.token })).status).toBe(404);
      expect((await server.request('GET', ssCustom())).body.hasOverrides).toBe(false);
    });
  });
});
