import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SignJWT } from 'jose';
import { describeEachDialect, startTestServer, type TestServer } from '../test/harness.js';
import {
  editContent,
  mergeChangeRequest,
  newChangeRequest,
  newOrg,
  newSite,
  newSpace,
  publishSite,
  seedContent,
} from '../test/factories.js';

/** Published sites served as HTML at their urls.published, over real HTTP. */
describeEachDialect('published sites', (dialect) => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer(dialect);
  });
  afterAll(() => server.close());

  const org = () => `/v1/orgs/${server.orgId}`;

  /** Fetches a published URL (urls.published is under PUBLIC_URL, http://docs.test: same paths on the test server). */
  async function visit(url: string, headers: Record<string, string> = {}) {
    const path = url.replace(server.config.publicUrl, '');
    const res = await fetch(server.url + path, { headers, redirect: 'manual' });
    return { status: res.status, html: await res.text(), headers: res.headers };
  }

  async function patchSite(siteId: string, body: unknown) {
    const res = await server.request('PATCH', `${org()}/sites/${siteId}`, { body });
    expect(res.status).toBe(200);
    return res.body;
  }

  async function signingKey(siteId: string): Promise<string> {
    const res = await server.request('GET', `${org()}/sites/${siteId}/publishing/auth`);
    expect(res.status).toBe(200);
    return res.body.privateKey as string;
  }

  async function jwt(key: string, claims: Record<string, unknown>, expiresIn = '1h') {
    return new SignJWT(claims)
      .setProtectedHeader({ alg: 'HS256' })
      .setIssuedAt()
      .setExpirationTime(expiresIn)
      .sign(new TextEncoder().encode(key));
  }

  describe('rendering', () => {
    let siteId: string;
    let published: string;
    let spaceId: string;
    let introId: string;

    beforeAll(async () => {
      spaceId = (await newSpace(server, server.orgId, { title: 'Handbook' })).id;
      const made = await seedContent(server, spaceId, [
        {
          operation: 'insert_page',
          title: 'Introduction',
          slug: 'introduction',
          ref: 'intro',
          description: 'Start here',
          document: {
            markdown:
              '# Welcome\n\nRead [the setup](./setup.md#install) and [by id](/pages/SETUP_ID).\n\n' +
              '## Details\n\n<script>alert(1)</script>\n\n[bad](javascript:alert(1)) and ' +
              '![logo](/files/FILE_ID) and [site](https://example.com)\n',
          },
        },
        {
          operation: 'insert_page',
          title: 'Setup',
          slug: 'setup',
          ref: 'setup',
          document: { markdown: '## Install\n\nRun it.' },
        },
        { operation: 'insert_page', type: 'group', title: 'Reference' },
        { operation: 'insert_page', title: 'API', slug: 'api', into: 'setup', document: { markdown: 'Endpoints.' } },
        {
          operation: 'insert_files',
          files: [
            { name: 'logo.png', base64: Buffer.from('png-bytes').toString('base64') },
            { name: 'evil.js', contentType: 'text/javascript', base64: Buffer.from('alert(1)').toString('base64') },
          ],
        },
      ]);
      introId = made.changes[0]!.page!.id;
      const setupId = made.changes[1]!.page!.id;
      const fileId = made.insertedFiles![0]!.id;
      // Now that ids are known, write them into the introduction's links.
      const cr = await server.request('POST', `/v1/spaces/${spaceId}/change-requests`, { body: {} });
      const intro = await server.request('GET', `/v1/spaces/${spaceId}/content/page/${introId}?format=markdown`);
      const markdown = (intro.body.markdown as string).replace('SETUP_ID', setupId).replace('FILE_ID', fileId);
      await server.request('POST', `/v1/spaces/${spaceId}/change-requests/${cr.body.id}/content`, {
        body: { changes: [{ operation: 'update_page', page: introId, document: { markdown } }] },
      });
      await server.request('POST', `/v1/spaces/${spaceId}/change-requests/${cr.body.id}/merge`);
      siteId = (await newSite(server, server.orgId, { spaces: [spaceId] })).id;
      published = (await publishSite(server, server.orgId, siteId)).urls.published;
    });

    it('serves urls.published under PUBLIC_URL with the first page, its title, headings and navigation', async () => {
      expect(published).toBe(`${server.config.publicUrl}/sites/${siteId}`);
      const res = await visit(published);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toContain('text/html');
      expect(res.html).toContain('<title>Introduction · Docs</title>');
      expect(res.html).toContain('<h1 id="introduction">Introduction</h1>');
      expect(res.html).toContain('<p class="description">Start here</p>');
      // When its content last changed, at the end of the page.
      expect(res.html).toMatch(
        /<p class="last-updated">Last updated <time datetime="\d{4}-\d\d-\d\dT[^"]+">\w+ \d{1,2}, \d{4}<\/time><\/p>/,
      );
      // The body's headings move one level down and get anchors.
      expect(res.html).toContain('<h2 id="welcome">Welcome<a class="anchor" href="#welcome"');
      expect(res.html).toContain('<h3 id="details">Details<a class="anchor" href="#details"');
      // Navigation: every page of the tree, groups as titles, nested pages nested.
      expect(res.html).toContain(`href="${published}/handbook/setup"`);
      expect(res.html).toContain(`href="${published}/handbook/setup/api"`);
      // Groups fold (open at first); a page's pages fold, open only on the way to the current page.
      expect(res.html).toContain('<details class="group" open><summary class="group-title">Reference</summary>');
      expect(res.html).toContain('<details><summary aria-label="Setup: pages inside"></summary>');
      const setup = await visit(`${published}/handbook/setup`);
      expect(setup.html).toContain('<details open><summary aria-label="Setup: pages inside"></summary>');
      const api = await visit(`${published}/handbook/setup/api`);
      expect(api.html).toContain('<details open><summary aria-label="Setup: pages inside"></summary>');
      expect(res.html).not.toContain('noindex');
    });

    it("serves the sites' stylesheet and script under their hash, cached for a year, and lets pages load only them", async () => {
      const res = await visit(published);
      const css = /<link rel="stylesheet" href="(\/sites\/~assets\/site\.[\w-]{16}\.css)">/.exec(res.html)?.[1];
      const js = /<script src="(\/sites\/~assets\/site\.[\w-]{16}\.js)" defer><\/script>/.exec(res.html)?.[1];
      expect(css).toBeDefined();
      expect(js).toBeDefined();
      for (const [path, type] of [
        [css!, 'text/css'],
        [js!, 'text/javascript'],
      ] as const) {
        const asset = await visit(`${server.config.publicUrl}${path}`);
        expect(asset.status).toBe(200);
        expect(asset.headers.get('content-type')).toContain(type);
        expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
        expect(asset.html.length).toBeGreaterThan(1000);
      }
      expect((await visit(`${server.config.publicUrl}/sites/~assets/site.0000000000000000.js`)).status).toBe(404);
      // The one inline script is the theme boot, allowed by its hash, and no other.
      const inline = [...res.html.matchAll(/<script>([^<]*)<\/script>/g)].map((m) => m[1]!);
      expect(inline).toHaveLength(1);
      const hash = crypto.createHash('sha256').update(inline[0]!).digest('base64');
      const csp = res.headers.get('content-security-policy')!;
      // Scripts from the sites' assets path only: not 'self', under which users' files and integration scripts lie.
      expect(csp).toContain(`script-src ${server.url}/sites/~assets/ 'sha256-${hash}'`);
      expect(csp).not.toMatch(/script-src[^;]*'self'/);
      expect(csp).not.toContain('unsafe-eval');
      expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
      // The theme toggle is there for the script to show.
      expect(res.html).toContain('<button type="button" class="theme-toggle" hidden>Theme: System</button>');
    });

    it('sends a file with a script type as plain text: a page of this origin must never run it', async () => {
      const tree = await server.request('GET', `/v1/spaces/${spaceId}/content/files`);
      const evil = (tree.body.items as Array<{ id: string; name: string }>).find((f) => f.name === 'evil.js')!;
      const file = await visit(`${published}/handbook/~files/${evil.id}`);
      expect(file.status).toBe(200);
      expect(file.headers.get('content-type')).toBe('text/plain; charset=utf-8');
      expect(file.html).toBe('alert(1)');
    });

    it('resolves links to other pages (relative .md and /pages/<id>) and to files', async () => {
      const res = await visit(published);
      expect(res.html).toContain(`href="${published}/handbook/setup#install"`);
      expect(res.html).toMatch(new RegExp(`href="${published}/handbook/setup">by id</a>`));
      const img = /<img src="([^"]+)" alt="logo">/.exec(res.html);
      expect(img?.[1]).toMatch(new RegExp(`^${published}/handbook/~files/`));
      const file = await visit(img![1]!);
      expect(file.status).toBe(200);
      expect(file.html).toBe('png-bytes');
      expect(file.headers.get('content-security-policy')).toContain('sandbox');
      // The linked page is served.
      const setup = await visit(`${published}/handbook/setup`);
      expect(setup.status).toBe(200);
      // Its sections start at `##`: they stay at h2, right under the title (no level skipped).
      expect(setup.html).toContain('<h2 id="install">Install<a class="anchor" href="#install"');
      expect(setup.html).toContain('aria-current="page"');
    });

    it('gives images their width and height (from the file), and serves them to readers of the site', async () => {
      const png = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';
      const svg = '<svg xmlns="http://www.w3.org/2000/svg" width="640" height="360"></svg>';
      const sp = await newSpace(server, server.orgId, { title: 'Pictures' });
      await seedContent(server, sp.id, [
        {
          operation: 'insert_files',
          files: [
            { name: 'dot.png', base64: png },
            { name: 'wide.svg', base64: Buffer.from(svg).toString('base64') },
            { name: 'fake.png', contentType: 'image/png', base64: Buffer.from('not a png').toString('base64') },
          ],
        },
        {
          operation: 'insert_page',
          title: 'Gallery',
          document: { markdown: '![A dot](dot.png)\n\n![Wide](wide.svg)\n\n![Broken](fake.png)' },
        },
      ]);
      const files = (await server.request('GET', `/v1/spaces/${sp.id}/content/files`)).body.items as Array<{
        name: string;
        dimensions?: { width: number; height: number };
      }>;
      expect(files.find((f) => f.name === 'dot.png')?.dimensions).toEqual({ width: 1, height: 1 });
      expect(files.find((f) => f.name === 'wide.svg')?.dimensions).toEqual({ width: 640, height: 360 });
      expect(files.find((f) => f.name === 'fake.png')?.dimensions).toBeUndefined();

      const s = await newSite(server, server.orgId, { spaces: [sp.id], visibility: 'public' });
      const url = (await publishSite(server, server.orgId, s.id)).urls.published;
      const res = await visit(url);
      expect(res.html).toMatch(/<img src="[^"]+\/~files\/[^"]+" alt="A dot" width="1" height="1">/);
      expect(res.html).toMatch(/<img src="[^"]+" alt="Wide" width="640" height="360">/);
      expect(res.html).toMatch(/<img src="[^"]+" alt="Broken">/);
      const src = /<img src="([^"]+)" alt="A dot"/.exec(res.html)![1]!;
      const image = await fetch(server.url + src.replace(server.config.publicUrl, ''));
      expect(image.status).toBe(200);
      expect(image.headers.get('content-type')).toBe('image/png');
    });

    it('sends a page compressed as the reader asks, from copies kept with the rendered page', async () => {
      const plain = await visit(published);
      for (const coding of ['br', 'gzip']) {
        for (let i = 0; i < 2; i++) {
          const res = await fetch(server.url + published.replace(server.config.publicUrl, ''), {
            headers: { 'accept-encoding': coding },
          });
          expect(res.headers.get('content-encoding')).toBe(coding);
          expect(res.headers.get('vary')).toContain('accept-encoding');
          expect(await res.text()).toBe(plain.html);
        }
      }
    });

    it('never lets page content inject HTML or scripts', async () => {
      const res = await visit(published);
      // The page's own two scripts (the theme boot and the site script) and none from its content.
      const scripts = [...res.html.matchAll(/<script\b[^>]*>[^<]*<\/script>/g)].map((m) => m[0]);
      expect(scripts).toHaveLength(2);
      expect(scripts[0]).toMatch(/^<script>try\{var d=document.documentElement,t=localStorage/);
      expect(scripts[1]).toMatch(/^<script src="\/sites\/~assets\/site\.[\w-]+\.js" defer><\/script>$/);
      expect(res.html).not.toContain('alert(1)');
      expect(res.html).not.toContain('javascript:');
      expect(res.html).toContain('<a>bad</a>');
      expect(res.html).toContain('href="https://example.com" rel="noopener nofollow"');
      expect(res.headers.get('content-security-policy')).toContain("default-src 'none'");
    });

    it('answers 404 for an unknown page, an unknown site and an unpublished site', async () => {
      const missing = await visit(`${published}/handbook/nope`);
      expect(missing.status).toBe(404);
      // In the site's own layout: its header, search and pages, so the reader goes on from there; never cached.
      expect(missing.html).toContain('<title>Page not found · ');
      expect(missing.html).toContain('<h1>Page not found</h1>');
      expect(missing.html).toMatch(/<nav class="pages" aria-label="Pages">/);
      expect(missing.html).toContain('role="search"');
      expect(missing.headers.get('etag')).toBeNull();
      expect((await visit(`${server.config.publicUrl}/sites/no-such-site`)).status).toBe(404);
      const draft = await newSite(server, server.orgId, { spaces: [spaceId] });
      expect((await visit(`${server.config.publicUrl}/sites/${draft.id}`)).status).toBe(404);
      await publishSite(server, server.orgId, draft.id);
      expect((await visit(`${server.config.publicUrl}/sites/${draft.id}`)).status).toBe(200);
      expect((await server.request('POST', `${org()}/sites/${draft.id}/unpublish`)).status).toBe(200);
      expect((await visit(`${server.config.publicUrl}/sites/${draft.id}`)).status).toBe(404);
    });

    it('shows a merge at the next request (the page cache is keyed by the revision)', async () => {
      expect((await visit(`${published}/handbook/setup`)).html).toContain('Run it.');
      const cr = await server.request('POST', `/v1/spaces/${spaceId}/change-requests`, { body: {} });
      const pages = await server.request('GET', `/v1/spaces/${spaceId}/content`);
      const setupId = (pages.body.pages as Array<{ id: string; slug: string }>).find((p) => p.slug === 'setup')!.id;
      await server.request('POST', `/v1/spaces/${spaceId}/change-requests/${cr.body.id}/content`, {
        body: {
          changes: [{ operation: 'update_page', page: setupId, document: { markdown: '## Install\n\nRun it twice.' } }],
        },
      });
      // Not merged yet: the site shows the space's current revision.
      expect((await visit(`${published}/handbook/setup`)).html).not.toContain('Run it twice.');
      await server.request('POST', `/v1/spaces/${spaceId}/change-requests/${cr.body.id}/merge`);
      expect((await visit(`${published}/handbook/setup`)).html).toContain('Run it twice.');
    });

    it('answers a public page with an ETag, 304 while it is unchanged, and a new ETag once a merge changes it', async () => {
      const url = `${published}/handbook/setup`;
      const first = await visit(url);
      const etag = first.headers.get('etag');
      expect(etag).toMatch(/^W\/".+"$/);
      expect(first.headers.get('cache-control')).toBe('no-cache');
      const again = await visit(url, { 'if-none-match': etag! });
      expect(again.status).toBe(304);
      expect(again.html).toBe('');
      const cr = await server.request('POST', `/v1/spaces/${spaceId}/change-requests`, { body: {} });
      const pages = await server.request('GET', `/v1/spaces/${spaceId}/content`);
      const setupId = (pages.body.pages as Array<{ id: string; slug: string }>).find((p) => p.slug === 'setup')!.id;
      await server.request('POST', `/v1/spaces/${spaceId}/change-requests/${cr.body.id}/content`, {
        body: {
          changes: [{ operation: 'update_page', page: setupId, document: { markdown: '## Install\n\nRun it now.' } }],
        },
      });
      await server.request('POST', `/v1/spaces/${spaceId}/change-requests/${cr.body.id}/merge`);
      const changed = await visit(url, { 'if-none-match': etag! });
      expect(changed.status).toBe(200);
      expect(changed.html).toContain('Run it now.');
      expect(changed.headers.get('etag')).not.toBe(etag);
    });

    it('wins over the console fallback and leaves /v1 alone', async () => {
      const res = await visit(`${published}/handbook`);
      expect(res.status).toBe(200);
      expect(res.html).toContain('<h1 id="introduction">Introduction</h1>');
      expect((await server.request('GET', '/v1/sites')).status).toBe(404);
    });
  });

  describe('sections and structure changes', () => {
    it('shows section tabs and site-space variants, and follows a structure change at the next request', async () => {
      const a = await newSpace(server, server.orgId, { title: 'Guides' });
      const b = await newSpace(server, server.orgId, { title: 'Reference' });
      const b2 = await newSpace(server, server.orgId, { title: 'Reference v2' });
      await seedContent(server, a.id, [
        { operation: 'insert_page', title: 'Guide one', document: { markdown: 'Guide body' } },
      ]);
      await seedContent(server, b.id, [
        { operation: 'insert_page', title: 'Ref one', document: { markdown: 'Ref body' } },
      ]);
      await seedContent(server, b2.id, [
        { operation: 'insert_page', title: 'Ref two', document: { markdown: 'Ref v2 body' } },
      ]);
      const s = await newSite(server, server.orgId, {});
      const base = `${org()}/sites/${s.id}`;
      const guides = (await server.request('POST', `${base}/sections`, { body: { spaceId: a.id } })).body;
      const ref = (await server.request('POST', `${base}/sections`, { body: { spaceId: b.id } })).body;
      await server.request('POST', `${base}/site-spaces`, { body: { spaceId: b2.id, sectionId: ref.id } });
      const root = (await publishSite(server, server.orgId, s.id)).urls.published;

      const home = await visit(root);
      expect(home.html).toContain('Guide body');
      expect(home.html).toContain(`<a href="${root}/guides" aria-current="page">Guides</a>`);
      expect(home.html).toContain(`<a href="${root}/reference">Reference</a>`);
      const refPage = await visit(`${root}/reference`);
      expect(refPage.html).toContain('Ref body');
      expect(refPage.html).toContain(`href="${root}/reference/reference-v2"`);
      expect((await visit(`${root}/reference/reference-v2`)).html).toContain('Ref v2 body');

      // Making "Reference" the default section changes the root at the next request.
      await patchSite(s.id, { defaultSiteSection: ref.id });
      expect((await visit(root)).html).toContain('Ref body');
      // Renaming a section's path moves it at once.
      await server.request('PATCH', `${base}/sections/${guides.id}`, { body: { path: 'howto' } });
      expect((await visit(`${root}/howto`)).html).toContain('Guide body');
      expect((await visit(`${root}/guides`)).status).toBe(404);
    });
  });

  describe('spaces leaving the site', () => {
    it('hides a site space whose space is in the trash, at the next request, and shows it again once restored', async () => {
      const a = await newSpace(server, server.orgId, { title: 'Kept' });
      const b = await newSpace(server, server.orgId, { title: 'Trashed' });
      await seedContent(server, a.id, [
        { operation: 'insert_page', title: 'Kept page', document: { markdown: 'Kept body' } },
      ]);
      await seedContent(server, b.id, [
        { operation: 'insert_page', title: 'Trashed page', document: { markdown: 'Trashed body' } },
      ]);
      const s = await newSite(server, server.orgId, { spaces: [b.id, a.id] });
      const root = (await publishSite(server, server.orgId, s.id)).urls.published;
      expect((await visit(root)).html).toContain('Trashed body');
      expect((await server.request('DELETE', `/v1/spaces/${b.id}`)).status).toBe(205);
      const after = await visit(root);
      expect(after.html).toContain('Kept body');
      expect(after.html).not.toContain('Trashed');
      expect((await visit(`${root}/trashed`)).html).not.toContain('Trashed body');
      await server.request('POST', `/v1/spaces/${b.id}/restore`);
      expect((await visit(root)).html).toContain('Trashed body');
    });
  });

  describe('a large space', () => {
    const CHAPTERS = 9;
    const EACH = 50;
    let root: string;
    let chapterIds: string[];

    beforeAll(async () => {
      const sp = await newSpace(server, server.orgId, { title: 'Large' });
      const cr = await newChangeRequest(server, sp.id);
      const top = await editContent(
        server,
        sp.id,
        cr.id,
        Array.from({ length: CHAPTERS }, (_, c) => ({ operation: 'insert_page', title: `Chapter ${c}` })),
      );
      chapterIds = top.changes.map((ch) => (ch.page as { id: string }).id);
      for (const [c, into] of chapterIds.entries()) {
        const pages = Array.from({ length: EACH }, (_, p) => ({
          operation: 'insert_page',
          title: `Page ${c}.${p}`,
          into,
        }));
        await editContent(server, sp.id, cr.id, pages);
      }
      await mergeChangeRequest(server, sp.id, cr.id);
      const s = await newSite(server, server.orgId, { spaces: [sp.id], visibility: 'share-link' });
      await publishSite(server, server.orgId, s.id);
      const link = await server.request('POST', `${org()}/sites/${s.id}/share-links`, { body: { name: 'Readers' } });
      root = link.body.urls.published;
    });

    it('puts the way to the page in the page, and the other pages behind links to their lists', async () => {
      const chapter = await visit(`${root}/chapter-5`);
      const at = /<a href="([^"]+)">Page 5\.30<\/a>/.exec(chapter.html)?.[1];
      expect(at, 'the chapter lists its pages').toBeDefined();
      const page = await visit(at!);
      expect(page.status).toBe(200);
      expect(page.html).toContain('aria-current="page">Page 5.30</a>');
      // The current chapter's pages are there (windows of levels: navigation.test.ts), other chapters' are not.
      expect(page.html).toContain('>Page 5.0</a>');
      expect(page.html).not.toContain('>Page 4.1</a>');
      const list = new RegExp(
        `<a href="(${root}/large/~pages/${chapterIds[4]}\\?from=0&#x26;to=${EACH})" data-pages="">Show ${EACH} pages</a>`,
      );
      const href = list.exec(page.html)?.[1];
      expect(href, 'a link to the pages of a folded chapter').toBeDefined();

      const pages = await visit(href!.replaceAll('&#x26;', '&'));
      expect(pages.status).toBe(200);
      expect(pages.headers.get('cache-control')).toBe('private, no-store');
      expect(pages.html).toContain('name="robots" content="noindex"');
      expect(pages.html).toContain('<h1>Chapter 4</h1>');
      expect(pages.html.match(/<li><a href=/g)).toHaveLength(EACH);
      expect(pages.html).toContain('>Page 4.49</a>');
      // A part of the list; bounds out of range are brought within it.
      const part = await visit(`${root}/~pages/${chapterIds[4]}?from=48&to=900`);
      expect(part.html.match(/<li><a href=/g)).toHaveLength(2);
      expect((await visit(`${root}/~pages/${chapterIds[4]}?from=x&to=-4`)).html).not.toContain('<li><a href=');
      const top = await visit(`${root}/~pages`);
      expect(top.html.match(/<li class="folder">/g)).toHaveLength(CHAPTERS);
    });

    it('lists pages only to readers of the site, and only pages of its spaces', async () => {
      const withoutKey = root.replace(/\/~share\/[^/]+/, '');
      const refused = await visit(`${withoutKey}/~pages/${chapterIds[4]}`);
      expect(refused.status).toBe(404);
      expect(refused.html).not.toContain('Page 4.');
      // A page id of another space is no page of this site.
      const other = await newSpace(server, server.orgId, { title: 'Elsewhere' });
      const [elsewhere] = (
        await seedContent(server, other.id, [{ operation: 'insert_page', title: 'Secret elsewhere' }])
      ).pageIds;
      const foreign = await visit(`${root}/~pages/${elsewhere}`);
      expect(foreign.status).toBe(404);
      expect(foreign.html).not.toContain('Secret elsewhere');
    });
  });

  describe('visibility', () => {
    async function simpleSite(visibility: string) {
      const sp = await newSpace(server, server.orgId, { title: `Space ${visibility}` });
      await seedContent(server, sp.id, [
        { operation: 'insert_page', title: 'Page', document: { markdown: `Content of ${visibility}` } },
      ]);
      const s = await newSite(server, server.orgId, { spaces: [sp.id], visibility });
      return { id: s.id, url: (await publishSite(server, server.orgId, s.id)).urls.published };
    }

    it('public sites are indexable; unlisted ones say noindex', async () => {
      const pub = await simpleSite('public');
      const res = await visit(pub.url);
      expect(res.html).not.toContain('name="robots"');
      expect(res.headers.get('x-robots-tag')).toBeNull();
      const unlisted = await simpleSite('unlisted');
      const u = await visit(unlisted.url);
      expect(u.status).toBe(200);
      expect(u.html).toContain('<meta name="robots" content="noindex">');
      expect(u.headers.get('x-robots-tag')).toBe('noindex');
    });

    it('gives robots a robots.txt and a sitemap of a public site, tools an llms.txt and each page as markdown', async () => {
      const pub = await simpleSite('public');
      const robots = await visit(`${pub.url}/robots.txt`);
      expect(robots.status).toBe(200);
      expect(robots.headers.get('content-type')).toMatch(/^text\/plain/);
      expect(robots.html).toContain('Allow: /');
      expect(robots.html).toContain(`Sitemap: ${pub.url}/sitemap.xml`);
      const sitemap = await visit(`${pub.url}/sitemap.xml`);
      expect(sitemap.headers.get('content-type')).toMatch(/^application\/xml/);
      expect(sitemap.html).toContain(`<loc>${pub.url}/space-public/page</loc>`);
      const llms = await visit(`${pub.url}/llms.txt`);
      expect(llms.html).toMatch(/^# Docs\n/);
      expect(llms.html).toContain(`- [Page](${pub.url}/space-public/page.md)`);
      const md = await visit(`${pub.url}/space-public/page.md`);
      expect(md.status).toBe(200);
      expect(md.headers.get('content-type')).toMatch(/^text\/markdown/);
      expect(md.html).toBe('# Page\n\nContent of public\n');
      expect((await visit(`${pub.url}/space-public/nope.md`)).status).toBe(404);
      const html = (await visit(pub.url)).html;
      expect(html).toContain(`<link rel="canonical" href="${pub.url}/space-public/page">`);
      expect(html).toContain(`<link rel="alternate" type="text/markdown" href="${pub.url}/space-public/page.md">`);
      expect(html).toContain('<meta property="og:title" content="Page">');
      expect(html).toContain('<link rel="icon" href="data:image/svg+xml,');

      // Not public: robots are turned away, and there is no sitemap.
      const unlisted = await simpleSite('unlisted');
      expect((await visit(`${unlisted.url}/robots.txt`)).html).toBe('User-agent: *\nDisallow: /\n');
      expect((await visit(`${unlisted.url}/sitemap.xml`)).status).toBe(404);
    });

    it('never gives the markdown, the sitemap or llms.txt of a share-link or visitor-auth site without access', async () => {
      const shared = await simpleSite('share-link');
      for (const p of ['/space-share-link/page.md', '/llms.txt', '/sitemap.xml', '/robots.txt']) {
        const res = await visit(`${shared.url}${p}`);
        expect(res.status, p).toBe(404);
        expect(res.html, p).not.toContain('Content of share-link');
      }
      const link = (await server.request('POST', `${org()}/sites/${shared.id}/share-links`, { body: { name: 'P' } }))
        .body;
      const md = await visit(`${link.urls.published}/space-share-link/page.md`);
      expect(md.status).toBe(200);
      expect(md.html).toContain('Content of share-link');
      expect(md.headers.get('cache-control')).toBe('private, no-store');
      expect((await visit(`${link.urls.published}/sitemap.xml`)).status).toBe(404);

      const signed = await simpleSite('visitor-auth');
      for (const p of ['/space-visitor-auth/page.md', '/llms.txt', '/sitemap.xml']) {
        const res = await visit(`${signed.url}${p}`);
        expect(res.status, p).toBe(401);
        expect(res.html, p).not.toContain('Content of visitor-auth');
      }
    });

    it("a manager's preview grant opens share-link and visitor-auth sites for 15 minutes, and only that", async () => {
      for (const visibility of ['share-link', 'visitor-auth'] as const) {
        const s = await simpleSite(visibility);
        expect((await visit(s.url)).status).toBe(visibility === 'share-link' ? 404 : 401);
        const grant = await server.request('POST', `${org()}/sites/${s.id}/preview-grant`);
        expect(grant.status).toBe(200);
        expect(grant.body.object).toBe('site-preview-grant');
        expect(Date.parse(grant.body.expiresAt) - Date.now()).toBeGreaterThan(14 * 60 * 1000);
        const opened = await visit(grant.body.url);
        expect(opened.status, visibility).toBe(200);
        expect(opened.html).toContain(`Content of ${visibility}`);
        expect(opened.headers.get('cache-control')).toBe('private, no-store');
        expect(opened.html).toContain('name="robots" content="noindex"');
        // The grant is kept in the site's cookie: the next page opens without it in the address.
        const cookie = opened.headers.get('set-cookie')!.split(';')[0]!;
        const next = await visit(`${s.url}/space-${visibility}/page`, { cookie });
        expect(next.status).toBe(200);
      }
    });

    it('preview grants: managers only, published sites only, never forged with the visitor key, ended by a demotion', async () => {
      const s = await simpleSite('share-link');
      const path = `${org()}/sites/${s.id}/preview-grant`;
      const reader = await server.member('read');
      expect((await server.request('POST', path, { token: reader.token })).status).toBe(403);
      const outsider = await server.signup('preview-outsider');
      expect((await server.request('POST', path, { token: outsider.token })).status).toBe(404);
      expect((await server.request('POST', path, { token: null })).status).toBe(401);
      const draft = await newSite(server, server.orgId, { spaces: [], visibility: 'share-link' });
      expect((await server.request('POST', `${org()}/sites/${draft.id}/preview-grant`)).status).toBe(409);

      // A token signed with the visitor key itself (what a site's backend can sign) is not a grant.
      const key = await signingKey(s.id);
      const forged = await new SignJWT({})
        .setProtectedHeader({ alg: 'HS256' })
        .setSubject(server.owner.id)
        .setAudience('docspace:site-preview')
        .setExpirationTime('10m')
        .sign(new TextEncoder().encode(key));
      expect((await visit(`${s.url}?jwt_token=${forged}`)).status).toBe(404);

      // A manager demoted below `create` loses the grant at once.
      const manager = await server.member('create');
      const grant = await server.request('POST', path, { token: manager.token });
      expect((await visit(grant.body.url)).status).toBe(200);
      expect((await server.request('PATCH', `${org()}/members/${manager.id}`, { body: { role: 'edit' } })).status).toBe(
        200,
      );
      expect((await visit(grant.body.url)).status).toBe(404);
    });

    it('share-link sites open only with the key of an active share link', async () => {
      const s = await simpleSite('share-link');
      expect((await visit(s.url)).status).toBe(404);
      const links = `${org()}/sites/${s.id}/share-links`;
      const link = (await server.request('POST', links, { body: { name: 'Partners' } })).body;
      expect(link.urls.published).toMatch(new RegExp(`/sites/${s.id}/~share/`));
      const ok = await visit(link.urls.published);
      expect(ok.status).toBe(200);
      expect(ok.html).toContain('Content of share-link');
      // A page behind a key is never stored, so it has nothing to revalidate.
      expect(ok.headers.get('cache-control')).toBe('private, no-store');
      expect(ok.headers.get('etag')).toBeNull();
      expect(ok.html).toContain('noindex');
      // Links inside the page keep the key.
      expect(ok.html).toContain(`href="${link.urls.published}/space-share-link/page"`);
      expect((await visit(`${s.url}/~share/not-a-key`)).status).toBe(404);

      await server.request('PATCH', `${links}/${link.id}`, { body: { active: false } });
      expect((await visit(link.urls.published)).status).toBe(404);
      await server.request('PATCH', `${links}/${link.id}`, { body: { active: true } });
      expect((await visit(link.urls.published)).status).toBe(200);
      expect((await server.request('DELETE', `${links}/${link.id}`)).status).toBe(205);
      expect((await visit(link.urls.published)).status).toBe(404);
    });

    it('visitor-auth sites need a JWT signed with the site key: good, bad, expired', async () => {
      const s = await simpleSite('visitor-auth');
      expect((await visit(s.url)).status).toBe(401);
      const key = await signingKey(s.id);
      const good = await visit(`${s.url}?jwt_token=${await jwt(key, { sub: 'v1' })}`);
      expect(good.status).toBe(200);
      expect(good.html).toContain('Content of visitor-auth');
      // The token is kept in a cookie scoped to the site, so navigation works without it in the URL.
      const cookie = good.headers.get('set-cookie')!;
      expect(cookie).toContain(`Path=/sites/${s.id}`);
      expect(cookie).toContain('HttpOnly');
      const next = await visit(s.url, { cookie: cookie.split(';')[0]! });
      expect(next.status).toBe(200);

      const wrongKey = await jwt('another-key-of-at-least-thirty-two-chars', { sub: 'v1' });
      expect((await visit(`${s.url}?jwt_token=${wrongKey}`)).status).toBe(401);
      const expired = await new SignJWT({ sub: 'v1' })
        .setProtectedHeader({ alg: 'HS256' })
        .setExpirationTime(Math.floor(Date.now() / 1000) - 60)
        .sign(new TextEncoder().encode(key));
      expect((await visit(`${s.url}?jwt_token=${expired}`)).status).toBe(401);
      expect((await visit(`${s.url}?jwt_token=garbage`)).status).toBe(401);

      // A regenerated key invalidates tokens signed with the old one.
      const token = await jwt(key, { sub: 'v1' });
      const regenerated = await server.request('POST', `${org()}/sites/${s.id}/publishing/auth/regenerate`);
      expect(regenerated.body.privateKey).not.toBe(key);
      expect((await visit(`${s.url}?jwt_token=${token}`)).status).toBe(401);

      // With a fallback URL, visitors without a valid token are sent there.
      await server.request('PATCH', `${org()}/sites/${s.id}/publishing/auth`, {
        body: { fallbackURL: 'https://auth.example.com/login' },
      });
      const redirected = await visit(s.url);
      expect(redirected.status).toBe(302);
      expect(redirected.headers.get('location')).toMatch(/^https:\/\/auth\.example\.com\/login\?location=/);
    });
  });

  describe('adaptive content', () => {
    it('shows each visitor the header links their claims match, never one cached for another visitor', async () => {
      const sp = await newSpace(server, server.orgId, { title: 'Header links' });
      await seedContent(server, sp.id, [
        { operation: 'insert_page', title: 'Home', document: { markdown: 'Home content' } },
      ]);
      const s = await newSite(server, server.orgId, { spaces: [sp.id], visibility: 'visitor-auth' });
      const customization = `${org()}/sites/${s.id}/customization`;
      const current = (await server.request('GET', customization)).body;
      // Two links with the same title: which one a visitor sees depends on their claims alone.
      const link = (url: string, condition: string) => ({
        title: 'Portal',
        to: { kind: 'url', url },
        links: [],
        condition,
      });
      const put = await server.request('PUT', customization, {
        body: {
          ...current,
          header: {
            ...current.header,
            links: [
              link('https://beta.example.com', 'visitor.claims.beta === true'),
              link('https://stable.example.com', 'visitor.claims.beta !== true'),
            ],
          },
        },
      });
      expect(put.status).toBe(200);
      const root = (await publishSite(server, server.orgId, s.id)).urls.published;
      const key = await signingKey(s.id);
      const stable = await visit(`${root}?jwt_token=${await jwt(key, { beta: false })}`);
      expect(stable.html).toContain('https://stable.example.com');
      expect(stable.html).not.toContain('https://beta.example.com');
      const beta = await visit(`${root}?jwt_token=${await jwt(key, { beta: true })}`);
      expect(beta.html).toContain('https://beta.example.com');
      expect(beta.html).not.toContain('https://stable.example.com');
    });

    it('hides sections and site spaces whose condition does not match the visitor claims', async () => {
      const a = await newSpace(server, server.orgId, { title: 'Everyone' });
      const b = await newSpace(server, server.orgId, { title: 'Beta' });
      const c = await newSpace(server, server.orgId, { title: 'Beta extra' });
      await seedContent(server, a.id, [
        { operation: 'insert_page', title: 'Open', document: { markdown: 'Open content' } },
      ]);
      await seedContent(server, b.id, [
        { operation: 'insert_page', title: 'Beta', document: { markdown: 'Beta content' } },
      ]);
      await seedContent(server, c.id, [
        { operation: 'insert_page', title: 'Extra', document: { markdown: 'Extra content' } },
      ]);
      const s = await newSite(server, server.orgId, { visibility: 'visitor-auth' });
      const base = `${org()}/sites/${s.id}`;
      await server.request('POST', `${base}/sections`, { body: { spaceId: a.id } });
      const beta = (await server.request('POST', `${base}/sections`, { body: { spaceId: b.id } })).body;
      const extra = (
        await server.request('POST', `${base}/site-spaces`, { body: { spaceId: c.id, sectionId: beta.id } })
      ).body;
      const patched = await server.request('PATCH', `${base}/sections/${beta.id}`, {
        body: { condition: 'visitor.claims.beta === true' },
      });
      expect(patched.body.condition).toBe('visitor.claims.beta === true');
      await server.request('PATCH', `${base}/site-spaces/${extra.id}`, {
        body: { condition: 'visitor.claims.plans.includes("pro")' },
      });
      const root = (await publishSite(server, server.orgId, s.id)).urls.published;
      const key = await signingKey(s.id);

      const plain = await visit(`${root}?jwt_token=${await jwt(key, {})}`);
      expect(plain.html).toContain('Open content');
      expect(plain.html).not.toContain(`${root}/beta"`);
      expect((await visit(`${root}/beta?jwt_token=${await jwt(key, { beta: false })}`)).html).not.toContain(
        'Beta content',
      );

      const betaToken = await jwt(key, { beta: true, plans: ['free'] });
      const seen = await visit(`${root}/beta?jwt_token=${betaToken}`);
      expect(seen.html).toContain('Beta content');
      expect(seen.html).toContain(`href="${root}/beta"`);
      expect(seen.html).not.toContain('beta-extra');
      const pro = await visit(`${root}/beta?jwt_token=${await jwt(key, { beta: true, plans: ['pro'] })}`);
      expect(pro.html).toContain(`href="${root}/beta/beta-extra"`);

      // null removes the condition: everyone sees the section.
      await server.request('PATCH', `${base}/sections/${beta.id}`, { body: { condition: null } });
      expect((await visit(`${root}/beta?jwt_token=${await jwt(key, {})}`)).html).toContain('Beta content');
    });

    it('takes the serviceVisitorClaims of a member (from ping) as the visitor claims, for its own organization only', async () => {
      const a = await newSpace(server, server.orgId, { title: 'Staff open' });
      const b = await newSpace(server, server.orgId, { title: 'Staff admins' });
      await seedContent(server, a.id, [
        { operation: 'insert_page', title: 'Open', document: { markdown: 'Staff open page' } },
      ]);
      await seedContent(server, b.id, [
        { operation: 'insert_page', title: 'Admins', document: { markdown: 'Admins only page' } },
      ]);
      const s = await newSite(server, server.orgId, { visibility: 'visitor-auth' });
      const base = `${org()}/sites/${s.id}`;
      await server.request('POST', `${base}/sections`, { body: { spaceId: a.id } });
      const admins = (await server.request('POST', `${base}/sections`, { body: { spaceId: b.id } })).body;
      await server.request('PATCH', `${base}/sections/${admins.id}`, {
        body: { condition: 'visitor.claims.role === "admin"' },
      });
      const root = (await publishSite(server, server.orgId, s.id)).urls.published;

      const ownerToken = (await server.request('POST', `${org()}/ping`)).body.serviceVisitorClaims as string;
      const asOwner = await visit(`${root}/staff-admins?jwt_token=${ownerToken}`);
      expect(asOwner.status).toBe(200);
      expect(asOwner.html).toContain('Admins only page');

      const reader = await server.member('read');
      const readerToken = (await server.request('POST', `${org()}/ping`, { token: reader.token })).body
        .serviceVisitorClaims as string;
      const asReader = await visit(`${root}/staff-admins?jwt_token=${readerToken}`);
      expect(asReader.html).not.toContain('Admins only page');
      expect((await visit(`${root}?jwt_token=${readerToken}`)).html).toContain('Staff open page');

      // A member of another organization is no visitor of this one.
      const stranger = await server.signup('stranger');
      const theirs = await newOrg(server, 'Other org', { token: stranger.token });
      const strangerToken = (await server.request('POST', `/v1/orgs/${theirs.id}/ping`, { token: stranger.token })).body
        .serviceVisitorClaims as string;
      expect(typeof strangerToken).toBe('string');
      expect((await visit(`${root}?jwt_token=${strangerToken}`)).status).toBe(401);
    });

    it('on public sites, reads visitor claims only with adaptive content enabled', async () => {
      const a = await newSpace(server, server.orgId, { title: 'Public open' });
      const b = await newSpace(server, server.orgId, { title: 'Public members' });
      await seedContent(server, a.id, [
        { operation: 'insert_page', title: 'Open', document: { markdown: 'Open page' } },
      ]);
      await seedContent(server, b.id, [
        { operation: 'insert_page', title: 'Members', document: { markdown: 'Members page' } },
      ]);
      const s = await newSite(server, server.orgId, {});
      const base = `${org()}/sites/${s.id}`;
      await server.request('POST', `${base}/sections`, { body: { spaceId: a.id } });
      const members = (await server.request('POST', `${base}/sections`, { body: { spaceId: b.id } })).body;
      await server.request('PATCH', `${base}/sections/${members.id}`, { body: { condition: 'visitor.claims.member' } });
      const root = (await publishSite(server, server.orgId, s.id)).urls.published;
      const token = await jwt(await signingKey(s.id), { member: true });
      expect((await visit(`${root}/public-members?jwt_token=${token}`)).html).not.toContain('Members page');
      await patchSite(s.id, { adaptiveContent: { enabled: true } });
      expect((await visit(`${root}/public-members?jwt_token=${token}`)).html).toContain('Members page');
      expect((await visit(`${root}/public-members`)).html).not.toContain('Members page');
    });

    /** A published visitor-auth site with an open section and one shown only to `role: "admin"` claims. */
    async function staffSite() {
      const a = await newSpace(server, server.orgId, { title: 'Team open' });
      const b = await newSpace(server, server.orgId, { title: 'Team admins' });
      await seedContent(server, a.id, [
        { operation: 'insert_page', title: 'Open', document: { markdown: 'Team open page' } },
      ]);
      await seedContent(server, b.id, [
        { operation: 'insert_page', title: 'Admins', document: { markdown: 'Team admins page' } },
      ]);
      const s = await newSite(server, server.orgId, { visibility: 'visitor-auth' });
      const base = `${org()}/sites/${s.id}`;
      await server.request('POST', `${base}/sections`, { body: { spaceId: a.id } });
      const admins = (await server.request('POST', `${base}/sections`, { body: { spaceId: b.id } })).body;
      await server.request('PATCH', `${base}/sections/${admins.id}`, {
        body: { condition: 'visitor.claims.role === "admin"' },
      });
      return { id: s.id, root: (await publishSite(server, server.orgId, s.id)).urls.published };
    }

    async function claimsOf(token: string): Promise<string> {
      const res = await server.request('POST', `${org()}/ping`, { token });
      expect(res.status).toBe(200);
      return res.body.serviceVisitorClaims as string;
    }

    /** The visitor is refused: 401, no page content, no cookie; the site itself is as it was. */
    async function expectRefused(siteId: string, url: string) {
      const res = await visit(url);
      expect(res.status).toBe(401);
      expect(res.html).not.toContain('Team open page');
      expect(res.headers.get('set-cookie')).toBeNull();
      const after = await server.request('GET', `${org()}/sites/${siteId}`);
      expect(after.body).toMatchObject({ visibility: 'visitor-auth', published: true });
      return res;
    }

    it("refuses a removed member's serviceVisitorClaims at once, although the token has not expired", async () => {
      const s = await staffSite();
      const reader = await server.member('read');
      const token = await claimsOf(reader.token);
      expect((await visit(`${s.root}?jwt_token=${token}`)).html).toContain('Team open page');
      expect((await server.request('DELETE', `${org()}/members/${reader.id}`)).status).toBe(205);
      await expectRefused(s.id, `${s.root}?jwt_token=${token}`);
      expect((await server.request('GET', `${org()}/members/${reader.id}`)).status).toBe(404);
    });

    it('refuses serviceVisitorClaims asked for with a password sign-in as soon as the member must use SSO', async () => {
      const s = await staffSite();
      const reader = await server.member('read');
      const token = await claimsOf(reader.token);
      expect((await visit(`${s.root}?jwt_token=${token}`)).html).toContain('Team open page');
      // The admin marks the member SSO: every API path refuses their password sign-in at once, and the site too.
      const marked = await server.request('POST', `${org()}/members/${reader.id}/sso`);
      expect(marked.body.sso).toBe(true);
      expect((await server.request('POST', `${org()}/ping`, { token: reader.token })).status).toBe(403);
      await expectRefused(s.id, `${s.root}?jwt_token=${token}`);
      // An admin's own claims stay good (an identity provider that breaks locks no admin out).
      expect((await visit(`${s.root}/team-admins?jwt_token=${await claimsOf(server.owner.token)}`)).html).toContain(
        'Team admins page',
      );
    });

    it("refuses the serviceVisitorClaims of a member demoted to guest, and a guest's own", async () => {
      const s = await staffSite();
      const demoted = await server.member('edit');
      const token = await claimsOf(demoted.token);
      expect((await visit(`${s.root}?jwt_token=${token}`)).status).toBe(200);
      expect((await server.request('PATCH', `${org()}/members/${demoted.id}`, { body: { role: null } })).status).toBe(
        200,
      );
      await expectRefused(s.id, `${s.root}?jwt_token=${token}`);

      const guest = await server.member(null);
      // The sites API refuses guests; so does the published site.
      expect((await server.request('GET', `${org()}/sites/${s.id}`, { token: guest.token })).status).toBe(403);
      const guestToken = await claimsOf(guest.token);
      await expectRefused(s.id, `${s.root}?jwt_token=${guestToken}`);
      await expectRefused(s.id, `${s.root}/team-admins?jwt_token=${guestToken}`);
    });

    it('takes the role of serviceVisitorClaims from the database when they are used, not from the token', async () => {
      const s = await staffSite();
      const admin = await server.member('admin');
      const token = await claimsOf(admin.token);
      expect((await visit(`${s.root}/team-admins?jwt_token=${token}`)).html).toContain('Team admins page');
      expect((await server.request('PATCH', `${org()}/members/${admin.id}`, { body: { role: 'read' } })).status).toBe(
        200,
      );
      const after = await visit(`${s.root}/team-admins?jwt_token=${token}`);
      expect(after.html).not.toContain('Team admins page');
      expect((await visit(`${s.root}?jwt_token=${token}`)).html).toContain('Team open page');
    });

    it('refuses site visitor JWTs without exp, or valid for longer than 7 days, with a 401 saying why', async () => {
      const s = await staffSite();
      const key = new TextEncoder().encode(await signingKey(s.id));
      const now = Math.floor(Date.now() / 1000);
      const day = 86400;
      const noExp = await new SignJWT({ sub: 'v1' }).setProtectedHeader({ alg: 'HS256' }).setIssuedAt().sign(key);
      const refusedNoExp = await expectRefused(s.id, `${s.root}?jwt_token=${noExp}`);
      expect(refusedNoExp.html).toContain('no expiry time (exp)');
      expect(refusedNoExp.html).toContain('within 7 days');

      const eightDays = await jwt(await signingKey(s.id), { sub: 'v1' }, '8d');
      const refusedLong = await expectRefused(s.id, `${s.root}?jwt_token=${eightDays}`);
      expect(refusedLong.html).toContain('valid for too long');
      const longNoIat = await new SignJWT({ sub: 'v1' })
        .setProtectedHeader({ alg: 'HS256' })
        .setExpirationTime(now + 8 * day)
        .sign(key);
      await expectRefused(s.id, `${s.root}?jwt_token=${longNoIat}`);
      // Issued long ago for a long time: what counts is exp - iat, not the time left.
      const oldLong = await new SignJWT({ sub: 'v1' })
        .setProtectedHeader({ alg: 'HS256' })
        .setIssuedAt(now - 20 * day)
        .setExpirationTime(now + day)
        .sign(key);
      await expectRefused(s.id, `${s.root}?jwt_token=${oldLong}`);
      // An iat in the future does not stretch the limit.
      const future = await new SignJWT({ sub: 'v1' })
        .setProtectedHeader({ alg: 'HS256' })
        .setIssuedAt(now + 30 * day)
        .setExpirationTime(now + 31 * day)
        .sign(key);
      await expectRefused(s.id, `${s.root}?jwt_token=${future}`);
      // Kept in a cookie, it is refused all the same; with a fallback URL, the visitor is told why, not bounced.
      const withCookie = await fetch(`${server.url}/sites/${s.id}`, {
        headers: { cookie: `visitor_token=${noExp}` },
        redirect: 'manual',
      });
      expect(withCookie.status).toBe(401);
      await server.request('PATCH', `${org()}/sites/${s.id}/publishing/auth`, {
        body: { fallbackURL: 'https://auth.example.com/login' },
      });
      const notBounced = await visit(`${s.root}?jwt_token=${eightDays}`);
      expect(notBounced.status).toBe(401);
      expect(notBounced.html).toContain('valid for too long');

      // A token valid for seven days works, and is kept in the cookie.
      const sevenDays = await jwt(await signingKey(s.id), { sub: 'v1' }, '7d');
      const ok = await visit(`${s.root}?jwt_token=${sevenDays}`);
      expect(ok.status).toBe(200);
      expect(ok.html).toContain('Team open page');
      expect(ok.headers.get('set-cookie')).toContain('visitor_token=');
    });
  });
});
