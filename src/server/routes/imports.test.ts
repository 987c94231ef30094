import { FILE_MAX_BYTES } from '../../shared/contract/content.js';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDialect, startTestServer, type TestServer, type TestUser } from '../test/harness.js';
import { newChangeRequest, newOrg, newSite, newSpace, publishSite } from '../test/factories.js';
import { workers } from '../workers/pool.js';
import { putChunks } from '../storage/repos/objects.js';
import {
  docxOf,
  lieAboutSizes,
  markSymlink,
  PNG,
  startFixtureServer,
  zipOf,
  type FixtureServer,
} from '../test/fixtures.js';

/** Every page of a tree, depth first, with its depth. */
function flatten(pages: any[], depth = 0): Array<{ page: any; depth: number }> {
  return pages.flatMap((page) => [{ page, depth }, ...flatten(page.pages ?? [], depth + 1)]);
}

const importPath = (spaceId: string, crId?: string) =>
  crId ? `/v1/spaces/${spaceId}/change-requests/${crId}/content/import` : `/v1/spaces/${spaceId}/content/import`;

function importUrl(
  server: TestServer,
  spaceId: string,
  body: unknown,
  opts: { crId?: string; token?: string; importId?: string } = {},
) {
  const query = opts.importId ? `?importId=${opts.importId}` : '';
  return server.request('POST', importPath(spaceId, opts.crId) + query, { body, token: opts.token });
}

async function upload(
  server: TestServer,
  path: string,
  bytes: Uint8Array | string,
  contentType: string,
  token: string = server.owner.token,
) {
  const res = await fetch(server.url + path, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': contentType },
    body: typeof bytes === 'string' ? bytes : Buffer.from(bytes),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

/** A new space titled `title`, with `zip` uploaded and imported into it (201). */
async function importedZip(server: TestServer, title: string, zip: Uint8Array) {
  const space = await newSpace(server, server.orgId, { title });
  const res = await upload(server, `${importPath(space.id)}?source=zip`, zip, 'application/octet-stream');
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return space;
}

async function pagesOf(server: TestServer, spaceId: string, crId?: string) {
  const prefix = crId ? `/v1/spaces/${spaceId}/change-requests/${crId}/content` : `/v1/spaces/${spaceId}/content`;
  const res = await server.request('GET', `${prefix}/pages`);
  expect(res.status).toBe(200);
  return res.body.pages as any[];
}

async function markdownOf(server: TestServer, spaceId: string, pageId: string, crId?: string) {
  const prefix = crId ? `/v1/spaces/${spaceId}/change-requests/${crId}/content` : `/v1/spaces/${spaceId}/content`;
  const res = await server.request('GET', `${prefix}/page/${pageId}?format=markdown`);
  expect(res.status).toBe(200);
  // Bodies are written with a final newline.
  return (res.body.markdown as string).replace(/\n$/, '');
}

async function filesOf(server: TestServer, spaceId: string, crId?: string) {
  const prefix = crId ? `/v1/spaces/${spaceId}/change-requests/${crId}/content` : `/v1/spaces/${spaceId}/content`;
  return (await server.request('GET', `${prefix}/files`)).body.items as any[];
}

const GUIDE_ZIP = () =>
  zipOf({
    'docs/SUMMARY.md': `# Table of contents

* [Introduction](README.md)
* [Getting started](getting-started/)
  * [Install](getting-started/install.md)
  * [Configure](getting-started/configure.md)

## Reference

* [API](reference/api.md)
* [Changelog](https://example.com/changelog)
`,
    'docs/README.md': '# Introduction\n\nWelcome. Start with [installing](getting-started/install.md#requirements).\n',
    'docs/getting-started/README.md': '# Getting started\n\nRead [the API](../reference/api.md) too.\n',
    'docs/getting-started/install.md':
      '---\ndescription: How to install it\n---\n\n# Install\n\n## Requirements\n\n![Logo](../.gitbook/assets/logo.png)\n\nThen [configure](configure.md) and download [the sheet](../.gitbook/assets/sheet.pdf).\n',
    'docs/getting-started/configure.md': '# Configure\n\nBack to [the start](../README.md).\n',
    'docs/reference/api.md': '# API\n\n| Verb | Path |\n| --- | --- |\n| GET | /v1 |\n',
    'docs/unlisted.md': '# Not in the summary\n',
    'docs/.gitbook/assets/logo.png': PNG,
    'docs/.gitbook/assets/sheet.pdf': '%PDF-1.4 not really',
    'docs/.gitbook/assets/unused.png': PNG,
  });

describeEachDialect('content import', (dialect) => {
  let server: TestServer;
  let fixtures: FixtureServer;
  beforeAll(async () => {
    // Files of imports up to 2 MiB here (100 MiB by default): big enough for a retina screenshot, small for a test.
    server = await startTestServer(dialect, { allowPrivateFetch: true, fileMaxBytes: 2 * 1024 * 1024 });
    fixtures = await startFixtureServer();
  });
  afterAll(async () => {
    await server.close();
    await fixtures.close();
  });

  it('imports one markdown file as one page of a change request, which only the change request sees', async () => {
    fixtures.set('/notes/release-notes.md', {
      type: 'text/markdown',
      body: '# Release notes\n\nVersion **2** is out.\n\n- faster\n- smaller\n',
    });
    const space = await newSpace(server, server.orgId, { title: 'Imports' });
    const cr = await newChangeRequest(server, space.id);
    const res = await importUrl(
      server,
      space.id,
      { url: `${fixtures.url}/notes/release-notes.md`, source: 'markdown' },
      { crId: cr.id },
    );
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ revision: expect.any(String), importedResources: 1, totalResources: 1 });
    const crRes = await server.request('GET', `/v1/spaces/${space.id}/change-requests/${cr.id}`);
    expect(crRes.body.revision).toBe(res.body.revision);
    const pages = await pagesOf(server, space.id, cr.id);
    expect(pages.map((p) => p.title)).toEqual(['Release notes']);
    expect(await markdownOf(server, space.id, pages[0].id, cr.id)).toBe('Version **2** is out.\n\n- faster\n- smaller');
    // The space itself is unchanged until the change request merges.
    expect(await pagesOf(server, space.id)).toEqual([]);
  });

  it('imports an HTML page into the space through a merged change request: converted, sanitized, links absolute', async () => {
    fixtures.set('/site/page.html', {
      type: 'text/html; charset=utf-8',
      body: `<!doctype html><html><head><title>Pricing - Example</title><script>steal()</script></head><body>
<nav><a href="/home">Home</a></nav>
<main><h1>Pricing</h1><p onclick="evil()">Plans for <strong>everyone</strong>. See <a href="faq.html#billing">the FAQ</a>
and <a href="javascript:alert(1)">this</a>.</p><img src="/img/plans.png" alt="Plans">
<table><tr><th>Plan</th><th>Price</th></tr><tr><td>Free</td><td>0</td></tr></table>
<p>${'Long text. '.repeat(2000)}</p>
<script>alert(2)</script><style>p{}</style></main><footer>© Example</footer></body></html>`,
    });
    const space = await newSpace(server, server.orgId, { title: 'Imports' });
    const offloaded = workers.offloaded;
    const res = await importUrl(server, space.id, { url: `${fixtures.url}/site/page.html`, source: 'html' });
    expect(res.status).toBe(201);
    // A page that large is converted, and its body prepared, off the event loop.
    expect(workers.offloaded - offloaded).toBeGreaterThanOrEqual(2);
    expect(res.body).toMatchObject({ importedResources: 1, totalResources: 1 });
    const spaceRes = await server.request('GET', `/v1/spaces/${space.id}`);
    expect(spaceRes.body.revision).toBe(res.body.revision);
    const revision = await server.request('GET', `/v1/spaces/${space.id}/revisions/${res.body.revision}`);
    expect(revision.body).toMatchObject({ type: 'merge', mergedFrom: { status: 'merged' } });
    const pages = await pagesOf(server, space.id);
    expect(pages.map((p) => p.title)).toEqual(['Pricing']);
    const markdown = await markdownOf(server, space.id, pages[0].id);
    expect(markdown).toContain('Plans for **everyone**.');
    expect(markdown).toContain(`[the FAQ](${fixtures.url}/site/faq.html#billing)`);
    expect(markdown).toContain(`![Plans](${fixtures.url}/img/plans.png)`);
    expect(markdown).toContain('| Plan | Price |');
    expect(markdown).not.toMatch(/steal|alert|evil|script|Home|©/);
    // The change request it went through is there, merged: nothing left open.
    expect(spaceRes.body.changeRequestsOpen ?? 0).toBe(0);
  });

  it('imports a zip: SUMMARY.md gives order, nesting and groups; links become page links; images become files', async () => {
    fixtures.set('/exports/guide.zip', { type: 'application/zip', body: GUIDE_ZIP() });
    const space = await newSpace(server, server.orgId, { title: 'Imports' });
    const res = await importUrl(server, space.id, { url: `${fixtures.url}/exports/guide.zip`, source: 'zip' });
    expect(res.status).toBe(201);
    // 7 pages (5 documents, a group, a link) and the 2 files pages use (not the unused image).
    expect(res.body).toMatchObject({ importedResources: 9, totalResources: 9 });
    const pages = await pagesOf(server, space.id);
    const flat = flatten(pages).map(({ page, depth }) => `${'  '.repeat(depth)}${page.type}:${page.title}`);
    expect(flat).toEqual([
      'document:Introduction',
      'document:Getting started',
      '  document:Install',
      '  document:Configure',
      'group:Reference',
      '  document:API',
      '  link:Changelog',
    ]);
    const byTitle = new Map(flatten(pages).map(({ page }) => [page.title, page]));
    expect(byTitle.get('Install').path).toBe('getting-started/install');
    expect(byTitle.get('Install').description).toBe('How to install it');
    expect(byTitle.get('Changelog').href).toBe('https://example.com/changelog');

    const files = await filesOf(server, space.id);
    expect(files.map((f) => f.name).sort()).toEqual(['logo.png', 'sheet.pdf']);
    const logo = files.find((f) => f.name === 'logo.png');
    expect(logo).toMatchObject({ contentType: 'image/png', size: PNG.length });
    const sheet = files.find((f) => f.name === 'sheet.pdf');

    const install = await markdownOf(server, space.id, byTitle.get('Install').id);
    expect(install).toBe(
      `## Requirements\n\n![Logo](/files/${logo.id})\n\nThen [configure](/pages/${byTitle.get('Configure').id}) and download [the sheet](/files/${sheet.id}).`,
    );
    const intro = await markdownOf(server, space.id, byTitle.get('Introduction').id);
    expect(intro).toBe(`Welcome. Start with [installing](/pages/${byTitle.get('Install').id}#requirements).`);
    const gettingStarted = await markdownOf(server, space.id, byTitle.get('Getting started').id);
    expect(gettingStarted).toBe(`Read [the API](/pages/${byTitle.get('API').id}) too.`);
    // Every page link points at a page of the space.
    const ids = new Set(flatten(pages).map(({ page }) => page.id));
    for (const md of [install, intro, gettingStarted]) {
      for (const [, id] of md.matchAll(/\/pages\/([a-z0-9]+)/g)) expect(ids.has(id)).toBe(true);
    }
    // The image's bytes came along.
    const download = await fetch(logo.downloadURL.replace('http://docs.test', server.url), {
      headers: { authorization: `Bearer ${server.owner.token}` },
    });
    expect(Buffer.from(await download.arrayBuffer())).toEqual(Buffer.from(PNG));
  });

  it('imports a zip without SUMMARY.md by its folders: README as the folder page, names in order', async () => {
    const zip = zipOf({
      'README.md': '# Home\n\nStart [here](guide/step-1.md).',
      'guide/README.md': '# The guide\n\nSteps.',
      'guide/step-10.md': '# Step ten',
      'guide/step-2.md':
        '# Step two\n\n<figure><img src="../img/diagram.png" alt="Diagram"><figcaption><p>How</p></figcaption></figure>',
      'guide/step-1.md': 'No heading here.',
      'faq.md': '# FAQ',
      'img/diagram.png': PNG,
      '__MACOSX/._faq.md': 'junk',
    });
    const space = await importedZip(server, 'Imports', zip);
    const pages = await pagesOf(server, space.id);
    const flat = flatten(pages).map(({ page, depth }) => `${'  '.repeat(depth)}${page.title}`);
    expect(flat).toEqual(['Home', 'FAQ', 'The guide', '  Step 1', '  Step two', '  Step ten']);
    const byTitle = new Map(flatten(pages).map(({ page }) => [page.title, page]));
    expect(byTitle.get('The guide').path).toBe('guide');
    expect(await markdownOf(server, space.id, byTitle.get('Home').id)).toBe(
      `Start [here](/pages/${byTitle.get('Step 1').id}).`,
    );
    const files = await filesOf(server, space.id);
    expect(files.map((f) => f.name)).toEqual(['diagram.png']);
    // GitBook's figure stays one: an image with its caption.
    expect(await markdownOf(server, space.id, byTitle.get('Step two').id)).toBe(
      `<figure><img src="/files/${files[0].id}" alt="Diagram"><figcaption><p>How</p></figcaption></figure>`,
    );
  });

  it('imports a top-level folder without README as a group, and a page starting at ## by its heading', async () => {
    const zip = zipOf({
      'README.md': '# Home',
      'releases/lts.md': '## LTS\n\nSupported versions.',
      'releases/API.md': 'Endpoints, no heading.',
      'guide/README.md': '# Guide',
      'guide/more/step.md': '# Step',
    });
    const space = await importedZip(server, 'Folders', zip);
    const flat = flatten(await pagesOf(server, space.id)).map(
      ({ page, depth }) => `${'  '.repeat(depth)}${page.type}: ${page.title}`,
    );
    // A folder inside a page stays a page (groups are only at the top level).
    expect(flat).toEqual([
      'document: Home',
      'document: Guide',
      '  document: More',
      '    document: Step',
      'group: Releases',
      '  document: API',
      '  document: LTS',
    ]);
  });

  it('resolves root-absolute links written for GitHub within the imported folder', async () => {
    const zip = zipOf({
      'README.md':
        '# Home\n\nSee [the API](/docs/api.md#errors), [setup](/setup.md) and ![logo](/docs/img/logo.png); [away](/elsewhere.md).',
      'api.md': '# API\n\n## Errors',
      'setup.md': '# Setup',
      'img/logo.png': PNG,
    });
    const space = await importedZip(server, 'Absolute links', zip);
    const byTitle = new Map(flatten(await pagesOf(server, space.id)).map(({ page }) => [page.title, page]));
    const files = await filesOf(server, space.id);
    expect(await markdownOf(server, space.id, byTitle.get('Home').id)).toBe(
      `See [the API](/pages/${byTitle.get('API').id}#errors), [setup](/pages/${byTitle.get('Setup').id}) and ![logo](/files/${files[0].id}); [away](/elsewhere.md).`,
    );
  });

  it('imports the images of HTML at any depth: a figure in a list item, a picture with its dark variant', async () => {
    const zip = zipOf({
      'README.md':
        '# Steps\n\n1. Open the settings.\n\n   <figure><img src=".gitbook/assets/settings.png" alt="Settings"><figcaption><p>The settings</p></figcaption></figure>\n2. Save.\n\n<picture><source srcset="img/dark.png 2x" media="(prefers-color-scheme: dark)"><img src="img/light.png" alt="Chart"></picture>',
      '.gitbook/assets/settings.png': PNG,
      'img/dark.png': PNG,
      'img/light.png': PNG,
    });
    const space = await importedZip(server, 'HTML images', zip);
    const files = new Map((await filesOf(server, space.id)).map((f) => [f.name, f.id]));
    expect([...files.keys()].sort()).toEqual(['dark.png', 'light.png', 'settings.png']);
    const [page] = await pagesOf(server, space.id);
    const markdown = await markdownOf(server, space.id, page.id);
    expect(markdown).toContain(`   <figure><img src="/files/${files.get('settings.png')}" alt="Settings">`);
    expect(markdown).toContain(
      `<source srcset="/files/${files.get('dark.png')} 2x" media="(prefers-color-scheme: dark)">`,
    );
    expect(markdown).toContain(`/files/${files.get('light.png')}`);
  });

  it('titles SUMMARY groups without the anchors GitBook writes in them', async () => {
    const zip = zipOf({
      'SUMMARY.md':
        '# Table of contents\n\n* [Home](README.md)\n\n## Get Started <a href="#get-started" id="get-started"></a>\n\n* [Install <a id="x"></a>](install.md)\n',
      'README.md': '# Home',
      'install.md': '# Install',
    });
    const space = await importedZip(server, 'Summary titles', zip);
    const flat = flatten(await pagesOf(server, space.id)).map(
      ({ page, depth }) => `${'  '.repeat(depth)}${page.title}`,
    );
    expect(flat).toEqual(['Home', 'Get Started', '  Install']);
  });

  it('imports again into the same space by updating the pages of the same paths: no copies, ids kept', async () => {
    const png = Buffer.from(
      'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
      'base64',
    );
    const first = {
      'README.md': '# Home\n\nSee [setup](guide/setup.md).\n',
      'guide/README.md': '# Guide\n',
      'guide/setup.md': '# Setup\n\n![Shot](../shot.png)\n\nVersion one.\n',
      'shot.png': png,
      '.gitbook/includes/note.md': 'A note.\n',
    };
    const space = await importedZip(server, 'Reimport', zipOf(first));
    const before = flatten(await pagesOf(server, space.id)).map(({ page }) => [page.path, page.id]);
    const filesBefore = await filesOf(server, space.id);
    const reusableBefore = (await server.request('GET', `/v1/spaces/${space.id}/content`)).body.reusableContents;

    const second = {
      ...first,
      'guide/setup.md': '# Setup\n\n![Shot](../shot.png)\n\nVersion two.\n',
      'guide/new.md': '# New\n\nBack to [setup](setup.md).\n',
      '.gitbook/includes/note.md': 'A better note.\n',
    };
    const res = await upload(server, `${importPath(space.id)}?source=zip`, zipOf(second), 'application/octet-stream');
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const after = flatten(await pagesOf(server, space.id)).map(({ page }) => [page.path, page.id]);
    // The same pages, with the same ids, and the new one.
    expect(after.filter(([path]) => path !== 'guide/new').sort()).toEqual([...before].sort());
    expect(after.map(([path]) => path)).toContain('guide/new');
    expect(after).toHaveLength(before.length + 1);
    const setupId = before.find(([path]) => path === 'guide/setup')![1]!;
    const setup = await markdownOf(server, space.id, setupId);
    expect(setup).toContain('Version two.');
    // The same file, not a second copy of it; links name what is there.
    expect(await filesOf(server, space.id)).toHaveLength(filesBefore.length);
    expect(setup).toContain(`/files/${filesBefore[0].id}`);
    const added = after.find(([path]) => path === 'guide/new')![1]!;
    expect(await markdownOf(server, space.id, added)).toContain(`/pages/${setupId}`);
    const reusable = (await server.request('GET', `/v1/spaces/${space.id}/content`)).body.reusableContents;
    expect(reusable.map((r: { id: string }) => r.id)).toEqual(reusableBefore.map((r: { id: string }) => r.id));
    const note = await server.request(
      'GET',
      `/v1/spaces/${space.id}/content/reusable-contents/${reusable[0].id}?format=markdown`,
    );
    expect(note.body.markdown).toBe('A better note.\n');
  });

  it('links SUMMARY entries naming a section of a page to that section, instead of copying the page', async () => {
    const zip = zipOf({
      'SUMMARY.md': '# Table of contents\n\n* [Inline](inline.md)\n  * [Buttons](inline.md#buttons)\n',
      'inline.md': '# Inline\n\n## Buttons\n\nPress them.\n',
    });
    const space = await importedZip(server, 'Summary anchors', zip);
    const [inline] = await pagesOf(server, space.id);
    expect(inline).toMatchObject({ title: 'Inline', type: 'document' });
    expect(inline.pages).toEqual([
      expect.objectContaining({ type: 'link', title: 'Buttons', href: `/pages/${inline.id}#buttons` }),
    ]);
    // On the published site, the entry leads to the section of the page.
    const site = await newSite(server, server.orgId, { title: 'Anchors', spaces: [space.id] });
    const published = (await publishSite(server, server.orgId, site.id)).urls.published;
    const html = await (await fetch(server.url + published.replace(server.config.publicUrl, ''))).text();
    expect(html).toContain(`<a href="${published}/summary-anchors/inline#buttons">Buttons</a>`);
  });

  it('follows .gitbook.yaml: root and structure.summary, quoted and commented as YAML allows; bad YAML is a 400', async () => {
    const zip = zipOf({
      'repo/.gitbook.yaml':
        '# Git Sync\nroot: ./docs/   # the content\n\nstructure:\n  readme: \'intro.md\'\n  summary: "toc.md"\nredirects:\n  old: intro.md\n',
      'repo/README.md': '# Not content',
      'repo/docs/toc.md': '# Table of contents\n\n* [Introduction](intro.md)\n* [Usage](usage.md)\n',
      'repo/docs/intro.md': '# Introduction',
      'repo/docs/usage.md': '# Usage',
      'repo/docs/unlisted.md': '# Unlisted',
    });
    const space = await importedZip(server, 'Imports', zip);
    const titles = flatten(await pagesOf(server, space.id)).map(({ page }) => page.title);
    expect(titles).toEqual(['Introduction', 'Usage']);

    const bad = await upload(
      server,
      `${importPath(space.id)}?source=zip`,
      zipOf({ '.gitbook.yaml': 'root: [docs\n', 'README.md': '# Home' }),
      'application/octet-stream',
    );
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toMatch(/\.gitbook\.yaml: /);
  });

  it('imports a Word document: headings, bold, links and tables as markdown, images as files', async () => {
    fixtures.set('/files/report.docx', {
      type: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
      body: docxOf({ title: 'Quarterly report', text: 'Sales grew,', link: 'https://example.com/q3', image: PNG }),
    });
    const space = await newSpace(server, server.orgId, { title: 'Imports' });
    const cr = await newChangeRequest(server, space.id);
    const res = await importUrl(
      server,
      space.id,
      { url: `${fixtures.url}/files/report.docx`, source: 'docx' },
      { crId: cr.id },
    );
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ importedResources: 2, totalResources: 2 });
    const pages = await pagesOf(server, space.id, cr.id);
    expect(pages.map((p) => p.title)).toEqual(['Quarterly report']);
    const files = await filesOf(server, space.id, cr.id);
    expect(files).toMatchObject([{ name: 'image-1.png', contentType: 'image/png', size: PNG.length }]);
    expect(await markdownOf(server, space.id, pages[0].id, cr.id)).toBe(
      `Sales grew, **bold** and [a link](https://example.com/q3)\n\n| Name  | Value |\n| ----- | ----- |\n| alpha | 1     |\n\n![A dot](/files/${files[0].id})`,
    );
  });

  it('crawls a website: same origin under the start folder, robots.txt obeyed, nested by path, links rewritten', async () => {
    const site = await startFixtureServer();
    try {
      const html = (title: string, body: string) =>
        `<html><head><title>${title} | Site</title></head><body><nav><a href="/docs/">Docs</a></nav><main><h1>${title}</h1>${body}</main></body></html>`;
      site.set('/robots.txt', { body: 'User-agent: *\nDisallow: /docs/private\n' });
      site.set('/docs/', {
        type: 'text/html',
        body: html(
          'Docs',
          '<p><a href="guide">Guide</a>, <a href="guide/setup">Setup</a>, <a href="private/secret">Secret</a>, <a href="missing">Missing</a>, <a href="/blog/">Blog</a>, <a href="https://example.com/">Elsewhere</a>, <a href="api?v=2">Query</a>, <a href="file.pdf">PDF</a></p>',
        ),
      });
      site.set('/docs/guide', { type: 'text/html', body: html('Guide', '<p>Back to <a href="/docs/">docs</a>.</p>') });
      site.set('/docs/guide/setup', {
        type: 'text/html',
        body: html('Setup', '<p>See <a href="../guide#intro">the guide</a>.</p>'),
      });
      site.set('/docs/file.pdf', { type: 'application/pdf', body: '%PDF' });
      site.set('/docs/private/secret', { type: 'text/html', body: html('Secret', '<p>no</p>') });
      site.set('/blog/', { type: 'text/html', body: html('Blog', '<p>no</p>') });
      const space = await newSpace(server, server.orgId, { title: 'Imports' });
      const res = await importUrl(server, space.id, { url: `${site.url}/docs/`, source: 'website' });
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({ importedResources: 3, totalResources: 3 });
      const pages = await pagesOf(server, space.id);
      const flat = flatten(pages).map(({ page, depth }) => `${'  '.repeat(depth)}${page.title}`);
      expect(flat).toEqual(['Docs', 'Guide', '  Setup']);
      const byTitle = new Map(flatten(pages).map(({ page }) => [page.title, page]));
      expect(await markdownOf(server, space.id, byTitle.get('Setup').id)).toBe(
        `See [the guide](/pages/${byTitle.get('Guide').id}#intro).`,
      );
      expect(await markdownOf(server, space.id, byTitle.get('Guide').id)).toBe(
        `Back to [docs](/pages/${byTitle.get('Docs').id}).`,
      );
      // Disallowed, out of scope, with a query, or elsewhere: never asked for.
      expect(site.requests).not.toContain('/docs/private/secret');
      expect(site.requests).not.toContain('/blog/');
      expect(site.requests.some((r) => r.includes('?'))).toBe(false);
      expect(site.requests[0]).toBe('/robots.txt');
      // A site whose robots.txt says no is not crawled at all; one whose robots.txt fails is not crawled now.
      const asked = site.requests.length;
      site.set('/robots.txt', { body: 'User-agent: DocspaceImporter\nDisallow: /\n' });
      const refused = await importUrl(server, space.id, { url: `${site.url}/docs/`, source: 'website' });
      expect(refused.status).toBe(400);
      expect(refused.body.error.message).toMatch(/robots\.txt does not allow crawling/);
      site.set('/robots.txt', { status: 503 });
      const unavailable = await importUrl(server, space.id, { url: `${site.url}/docs/`, source: 'website' });
      expect(unavailable.status).toBe(400);
      expect(unavailable.body.error.message).toMatch(/robots\.txt answered 503/);
      expect(site.requests.slice(asked)).toEqual(['/robots.txt', '/robots.txt']);
    } finally {
      await site.close();
    }
  });

  it('takes the content as the request body (`?source=`, or told by its content type)', async () => {
    const space = await newSpace(server, server.orgId, { title: 'Imports' });
    const markdown = await upload(server, importPath(space.id), '# Uploaded\n\nText.', 'text/markdown');
    expect(markdown.status).toBe(201);
    const html = await upload(server, `${importPath(space.id)}?source=html`, '<h1>Page</h1><p>Hi</p>', 'text/html');
    expect(html.status).toBe(201);
    const pages = await pagesOf(server, space.id);
    expect(pages.map((p) => p.title)).toEqual(['Uploaded', 'Page']);
    const unknown = await upload(server, importPath(space.id), 'PK', 'application/octet-stream');
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.issues[0].path).toBe('source');
    const website = await upload(server, `${importPath(space.id)}?source=website`, 'x', 'application/octet-stream');
    expect(website.status).toBe(400);
    expect(website.body.error.message).toMatch(/source/);
  });

  it('answers 400 naming the field for bad input, never 500', async () => {
    const space = await newSpace(server, server.orgId, { title: 'Imports' });
    for (const [body, field] of [
      [{ source: 'zip' }, 'url'],
      [{ url: 'ftp://example.com/x.zip', source: 'zip' }, 'url'],
      [{ url: 'not a url', source: 'zip' }, 'url'],
      [{ url: `${fixtures.url}/x`, source: 'confluence' }, 'source'],
      [{ url: `${fixtures.url}/x` }, 'source'],
    ] as const) {
      const res = await importUrl(server, space.id, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.issues[0].path).toBe(field);
    }
    const notZip = await upload(server, `${importPath(space.id)}?source=zip`, 'not a zip at all', 'application/zip');
    expect(notZip.status).toBe(400);
    expect(notZip.body.error.message).toMatch(/^body: the archive is not a zip archive/);
    const notDocx = await upload(
      server,
      `${importPath(space.id)}?source=docx`,
      zipOf({ 'a.txt': 'x' }),
      'application/zip',
    );
    expect(notDocx.status).toBe(400);
    expect(notDocx.body.error.message).toMatch(/^body: the document cannot be converted/);
    fixtures.set('/gone.zip', { status: 404 });
    const gone = await importUrl(server, space.id, { url: `${fixtures.url}/gone.zip`, source: 'zip' });
    expect(gone.status).toBe(400);
    expect(gone.body.error.message).toMatch(/^url: the URL could not be fetched: the server answered 404/);
    const empty = await upload(
      server,
      `${importPath(space.id)}?source=zip`,
      zipOf({ 'a.txt': 'x' }),
      'application/zip',
    );
    expect(empty.status).toBe(400);
    expect(empty.body.error.message).toMatch(/no markdown files/);
    const nested = Array.from({ length: 40 }, (_, i) => `${'  '.repeat(i)}* [P${i}](p${i}.md)`).join('\n');
    const deep = await upload(
      server,
      `${importPath(space.id)}?source=zip`,
      zipOf({ 'SUMMARY.md': nested, 'p0.md': '# P0' }),
      'application/zip',
    );
    expect(deep.status).toBe(400);
    expect(deep.body.error.message).toMatch(/^body: SUMMARY\.md nests lists deeper than 32 levels/);
    expect(await pagesOf(server, space.id)).toEqual([]);
  });

  it("leaves the shared import slots to other organizations while one organization's imports are slow", async () => {
    // Two slow sources of one organization (a trickling server), and a quick one of another organization.
    for (const path of ['/slow/first.zip', '/slow/second.zip']) {
      fixtures.set(path, { type: 'application/zip', body: GUIDE_ZIP(), delayMs: 3000 });
    }
    fixtures.set('/quick/notes.md', { type: 'text/markdown', body: '# Notes\n\nQuick.\n' });
    const slowSpace = await newSpace(server, server.orgId, { title: 'Slow imports' });
    const other = await newOrg(server, 'Another importer');
    const quickSpace = await newSpace(server, other.id, { title: 'Quick import' });
    let slowDone = 0;
    const slow = ['/slow/first.zip', '/slow/second.zip'].map((path) =>
      importUrl(server, slowSpace.id, { url: `${fixtures.url}${path}`, source: 'zip' }).then((res) => {
        slowDone++;
        return res;
      }),
    );
    // Both slow imports have begun: one downloading, the other waiting for its organization's turn.
    await new Promise((r) => setTimeout(r, 300));
    const quick = await importUrl(server, quickSpace.id, { url: `${fixtures.url}/quick/notes.md`, source: 'markdown' });
    expect(quick.status).toBe(201);
    // It did not wait for them (they held both shared slots before).
    expect(slowDone).toBe(0);
    for (const res of await Promise.all(slow)) expect(res.status).toBe(201);
  });

  it('reports progress while it runs and its outcome after, to any reader of the space', async () => {
    fixtures.set('/slow/guide.zip?key=tok-5ecret', { type: 'application/zip', body: GUIDE_ZIP(), delayMs: 800 });
    const space = await newSpace(server, server.orgId, { title: 'Imports' });
    const reader = await server.member('read');
    // Credentials and a key in the URL the importer gave: readers see the address without them.
    const withSecrets = `${fixtures.url.replace('://', '://importer:pa55word@')}/slow/guide.zip?key=tok-5ecret`;
    const pending = importUrl(server, space.id, { url: withSecrets, source: 'zip' }, { importId: 'import-1' });
    let seen: any;
    for (let i = 0; i < 50 && !seen; i++) {
      await new Promise((r) => setTimeout(r, 50));
      const res = await server.request('GET', `/v1/spaces/${space.id}/imports/import-1`, { token: reader.token });
      if (res.status === 200) seen = res.body;
    }
    expect(seen).toMatchObject({ object: 'import', id: 'import-1', status: 'running', source: 'zip' });
    const res = await pending;
    expect(res.status).toBe(201);
    expect(res.headers.get('location')).toBe(`http://docs.test/v1/spaces/${space.id}/imports/import-1`);
    const done = await server.request('GET', `/v1/spaces/${space.id}/imports/import-1`, { token: reader.token });
    expect(done.body).toMatchObject({
      status: 'completed',
      stage: 'done',
      importedResources: 9,
      totalResources: 9,
      revision: res.body.revision,
      url: `${fixtures.url}/slow/guide.zip?…`,
      createdBy: server.owner.id,
    });
    expect(JSON.stringify([seen, done.body])).not.toMatch(/pa55word|tok-5ecret|importer/);
    const list = await server.request('GET', `/v1/spaces/${space.id}/imports`, { token: reader.token });
    expect(list.body).toMatchObject({ count: 1, items: [{ id: 'import-1' }] });
    // The same id again is a conflict; an unknown one is not found.
    const again = await importUrl(
      server,
      space.id,
      { url: `${fixtures.url}/exports/guide.zip`, source: 'zip' },
      { importId: 'import-1' },
    );
    expect(again.status).toBe(409);
    expect((await server.request('GET', `/v1/spaces/${space.id}/imports/nope`)).status).toBe(404);
    // A run whose process stopped (no news for longer than an import may take) is shown as failed.
    // Its row is typed in: the API cannot leave a run behind that no process is working on.
    const old = new Date(Date.now() - 3_600_000).toISOString();
    await insertRunningImport(server, { spaceId: space.id, id: 'orphan', createdBy: server.owner.id, at: old });
    const orphan = await server.request('GET', `/v1/spaces/${space.id}/imports/orphan`);
    expect(orphan.body).toMatchObject({
      status: 'failed',
      message: expect.stringMatching(/stopped without finishing/),
    });
  });

  it("an import whose process stopped is run again from its stored source by another; a removed member's is refused", async () => {
    const db = server.storage.db;
    const space = await newSpace(server, server.orgId, { title: 'Resumed' });
    const past = new Date(Date.now() - 120_000).toISOString();
    /** What a process that stopped mid-import leaves: its run, its upload, and its job, leased to it (run out). */
    const leftBehind = async (id: string, actor: TestUser, zip: Uint8Array) => {
      const key = `src-${id}-${Date.now()}`;
      const size = await putChunks(
        db,
        key,
        (async function* () {
          yield Buffer.from(zip);
        })(),
        1 << 30,
      );
      await insertRunningImport(server, { spaceId: space.id, id, createdBy: actor.id, at: past });
      await db
        .insertInto('jobs')
        .values({
          id: `job-${id}`,
          kind: 'import',
          key: `${space.id}/${id}`,
          payload: JSON.stringify({
            spaceId: space.id,
            runId: id,
            actor: { userId: actor.id },
            source: 'zip',
            upload: { key, size },
          }),
          state: 'running',
          attempts: 1,
          run_after: past,
          locked_until: past,
          locked_by: 'a-process-that-stopped',
          last_error: null,
          group_key: server.orgId,
          created_at: past,
          updated_at: past,
        })
        .execute();
      return key;
    };
    const chunksOf = async (key: string) =>
      (await db.selectFrom('blob_chunks').select('n').where('blob_id', '=', key).execute()).length;

    const key = await leftBehind('crashed', server.owner, GUIDE_ZIP());
    await server.drainJobs();
    const run = await server.request('GET', `/v1/spaces/${space.id}/imports/crashed`);
    expect(run.body).toMatchObject({ status: 'completed', stage: 'done', importedResources: 9, totalResources: 9 });
    expect(flatten(await pagesOf(server, space.id)).map(({ page }) => page.title)).toContain('Install');
    expect((await server.request('GET', `/v1/spaces/${space.id}`)).body.revision).toBe(run.body.revision);
    // The upload is gone with the import, and running the job once more writes nothing twice.
    expect(await chunksOf(key)).toBe(0);
    await db.updateTable('jobs').set({ state: 'queued', run_after: past }).where('id', '=', 'job-crashed').execute();
    await server.drainJobs();
    expect((await server.request('GET', `/v1/spaces/${space.id}`)).body.revision).toBe(run.body.revision);

    // Queued by a member who was removed before it ran: refused when it runs, nothing written.
    const member = await server.member('create');
    const theirs = await leftBehind('theirs', member, zipOf({ 'x.md': '# Planted' }));
    expect((await server.request('DELETE', `/v1/orgs/${server.orgId}/members/${member.id}`)).status).toBe(205);
    await server.drainJobs();
    const refused = await server.request('GET', `/v1/spaces/${space.id}/imports/theirs`);
    expect(refused.body.status).toBe('failed');
    expect(refused.body.message).toMatch(/not found|permission/i);
    expect(flatten(await pagesOf(server, space.id)).map(({ page }) => page.title)).not.toContain('Planted');
    expect(await chunksOf(theirs)).toBe(0);
  });

  it('goes on when its client goes away, and keeps no upload nobody imports', async () => {
    fixtures.set('/slow/away.zip', { type: 'application/zip', body: GUIDE_ZIP(), delayMs: 600 });
    const space = await newSpace(server, server.orgId, { title: 'Client gone' });
    const gone = new AbortController();
    const request = fetch(`${server.url}${importPath(space.id)}?importId=away-1`, {
      method: 'POST',
      headers: { authorization: `Bearer ${server.owner.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ url: `${fixtures.url}/slow/away.zip`, source: 'zip' }),
      signal: gone.signal,
    }).catch((err: unknown) => err);
    await new Promise((r) => setTimeout(r, 200));
    gone.abort();
    expect(await request).toBeInstanceOf(Error);
    let run: any;
    for (let i = 0; i < 100 && run?.status !== 'completed'; i++) {
      await new Promise((r) => setTimeout(r, 50));
      run = (await server.request('GET', `/v1/spaces/${space.id}/imports/away-1`)).body;
    }
    expect(run).toMatchObject({ status: 'completed', importedResources: 9 });

    // An upload refused (a reader may not import) is not kept.
    const reader = await server.member('read');
    const refused = await upload(
      server,
      `${importPath(space.id)}?source=zip`,
      GUIDE_ZIP(),
      'application/zip',
      reader.token,
    );
    expect(refused.status).toBe(403);
    let left = -1;
    for (let i = 0; i < 40 && left !== 0; i++) {
      await new Promise((r) => setTimeout(r, 25));
      left = (await server.storage.db.selectFrom('blob_chunks').select('n').where('blob_id', 'like', 'src-%').execute())
        .length;
    }
    expect(left).toBe(0);
  });

  it('imports what it can: a page it cannot convert keeps its title, a file over the limit is left out, both listed', async () => {
    const space = await newSpace(server, server.orgId, { title: 'Partial' });
    const deep = `${'> '.repeat(40)}too deep`;
    const zip = zipOf({
      'a.md': '# A\n\nFine. ![big](img/big.png) ![small](img/small.png) ![retina](img/retina.png)',
      'b.md': '# B\n\nFine too.',
      'c.md': deep,
      'img/big.png': Buffer.alloc(2 * 1024 * 1024 + 1, 1),
      'img/small.png': PNG,
      // Past what a JSON edit holds (1 MiB): stored in chunks as it inflates.
      'img/retina.png': Buffer.concat([PNG, Buffer.alloc(FILE_MAX_BYTES + 1000, 2)]),
    });
    const res = await upload(server, `${importPath(space.id)}?source=zip&importId=partial-1`, zip, 'application/zip');
    expect(res.status).toBe(201);
    const skipped = [
      { path: 'c.md', reason: expect.stringMatching(/^its content was not imported: it nests blockquotes and lists/) },
      { path: 'img/big.png', reason: 'img/big.png is larger than 2 MiB, the largest file a space holds' },
    ];
    expect(res.body).toMatchObject({ importedResources: 5, totalResources: 6, skipped });
    const flat = flatten(await pagesOf(server, space.id)).map(({ page }) => page.title);
    expect(flat).toEqual(['A', 'B', 'C']);
    const files = await filesOf(server, space.id);
    expect(files.map((f) => f.name).sort()).toEqual(['retina.png', 'small.png']);
    const retina = files.find((f) => f.name === 'retina.png');
    expect(retina.size).toBe(PNG.length + FILE_MAX_BYTES + 1000);
    expect(retina.dimensions).toEqual({ width: 1, height: 1 });
    const run = await server.request('GET', `/v1/spaces/${space.id}/imports/partial-1`);
    expect(run.body).toMatchObject({
      status: 'completed',
      skipped,
      message: 'Not imported in full: c.md, big.png (see skipped).',
    });
  });

  it('a failed import changes nothing: no revision, no change request left, the run says why', async () => {
    const space = await newSpace(server, server.orgId, { title: 'Imports' });
    const cr = await newChangeRequest(server, space.id);
    const zip = zipOf({ 'notes.txt': 'No markdown here.' });
    const before = (await server.request('GET', `/v1/spaces/${space.id}`)).body;
    const intoSpace = await upload(server, `${importPath(space.id)}?source=zip&importId=bad-1`, zip, 'application/zip');
    expect(intoSpace.status).toBe(400);
    expect(intoSpace.body.error.message).toMatch(/^body: the archive holds no markdown files/);
    const intoCr = await upload(server, `${importPath(space.id, cr.id)}?source=zip`, zip, 'application/zip');
    expect(intoCr.status).toBe(400);
    const after = (await server.request('GET', `/v1/spaces/${space.id}`)).body;
    expect(after.revision).toBe(before.revision);
    expect(after.changeRequests).toBe(before.changeRequests);
    const crAfter = (await server.request('GET', `/v1/spaces/${space.id}/change-requests/${cr.id}`)).body;
    expect(crAfter.revision).toBe(space.revision);
    const merged = await server.request('GET', `/v1/spaces/${space.id}/change-requests?status=merged`);
    expect(merged.body.count).toBe(0);
    const run = await server.request('GET', `/v1/spaces/${space.id}/imports/bad-1`);
    expect(run.body).toMatchObject({ status: 'failed', message: expect.stringMatching(/no markdown files/) });
  });

  it('who may import: editors into a change request, reviewers into the space; readers never; outsiders see nothing and nothing is fetched', async () => {
    fixtures.set('/perm/page.md', { type: 'text/markdown', body: '# Permitted' });
    const url = `${fixtures.url}/perm/page.md`;
    const space = await newSpace(server, server.orgId, { title: 'Imports' });
    const cr = await newChangeRequest(server, space.id);
    const reader = await server.member('read');
    const editor = await server.member('edit');
    const reviewer = await server.member('review');
    const outsider: TestUser = await server.signup('outsider');
    const count = () => fixtures.requests.filter((r) => r === '/perm/page.md').length;

    const asReader = await importUrl(server, space.id, { url, source: 'markdown' }, { token: reader.token });
    expect(asReader.status).toBe(403);
    const asReaderCr = await importUrl(
      server,
      space.id,
      { url, source: 'markdown' },
      { token: reader.token, crId: cr.id },
    );
    expect(asReaderCr.status).toBe(403);
    const asOutsider = await importUrl(server, space.id, { url, source: 'markdown' }, { token: outsider.token });
    expect(asOutsider.status).toBe(404);
    const asOutsiderCr = await importUrl(
      server,
      space.id,
      { url, source: 'markdown' },
      { token: outsider.token, crId: cr.id },
    );
    expect(asOutsiderCr.status).toBe(404);
    expect((await server.request('GET', `/v1/spaces/${space.id}/imports`, { token: outsider.token })).status).toBe(404);
    const asEditor = await importUrl(server, space.id, { url, source: 'markdown' }, { token: editor.token });
    expect(asEditor.status).toBe(403);
    expect(asEditor.body.error.message).toMatch(/import into a change request/);
    expect(count()).toBe(0);

    const editorCr = await importUrl(
      server,
      space.id,
      { url, source: 'markdown' },
      { token: editor.token, crId: cr.id },
    );
    expect(editorCr.status).toBe(201);
    const asReviewer = await importUrl(server, space.id, { url, source: 'markdown' }, { token: reviewer.token });
    expect(asReviewer.status).toBe(201);
    expect(count()).toBe(2);
    // A merged change request takes no more imports.
    expect((await server.request('POST', `/v1/spaces/${space.id}/change-requests/${cr.id}/merge`)).status).toBe(200);
    const intoMerged = await importUrl(server, space.id, { url, source: 'markdown' }, { crId: cr.id });
    expect(intoMerged.status).toBe(409);
    expect(count()).toBe(2);
  });

  it('an import into the space queues with a concurrent merge: both land, nothing is lost', async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 150; i++) files[`page-${String(i).padStart(3, '0')}.md`] = `# Page ${i}\n\nBody ${i}.`;
    const zip = zipOf(files);
    const space = await newSpace(server, server.orgId, { title: 'Imports' });
    const cr = await newChangeRequest(server, space.id);
    const edit = await server.request('POST', `/v1/spaces/${space.id}/change-requests/${cr.id}/content`, {
      body: { changes: [{ operation: 'insert_page', title: 'Hand written', document: { markdown: 'By hand.' } }] },
    });
    expect(edit.status).toBe(200);
    const [imported, merged] = await Promise.all([
      upload(server, `${importPath(space.id)}?source=zip`, zip, 'application/zip'),
      server.request('POST', `/v1/spaces/${space.id}/change-requests/${cr.id}/merge`),
    ]);
    expect(imported.status).toBe(201);
    expect(merged.status).toBe(200);
    const titles = (await pagesOf(server, space.id)).map((p) => p.title);
    expect(titles).toHaveLength(151);
    expect(titles).toContain('Hand written');
    expect(titles).toContain('Page 0');
    expect(titles).toContain('Page 149');
    const spaceNow = (await server.request('GET', `/v1/spaces/${space.id}`)).body;
    expect([imported.body.revision, merged.body.revision]).toContain(spaceNow.revision);
  });
});

describeEachDialect('content import limits', (dialect) => {
  let server: TestServer;
  let fixtures: FixtureServer;
  beforeAll(async () => {
    server = await startTestServer(dialect, {
      allowPrivateFetch: true,
      importLimits: {
        downloadBytes: 20_000,
        uploadBytes: 20_000,
        pageBytes: 2_000,
        totalMs: 1_500,
        zipEntries: 5,
        uncompressedBytes: 50_000,
        websitePages: 2,
      },
    });
    fixtures = await startFixtureServer();
  });
  afterAll(async () => {
    await server.close();
    await fixtures.close();
  });

  async function expectRefused(res: { status: number; body: any }, message: RegExp, spaceId: string) {
    expect(res.status).toBe(400);
    expect(res.body.error.message).toMatch(message);
    expect(await pagesOf(server, spaceId)).toEqual([]);
  }

  it('archive and download sizes', async () => {
    const space = await newSpace(server, server.orgId, { title: 'Imports' });
    // A zip from a URL goes to disk as it arrives, up to the archive size; a Word document up to the download size.
    fixtures.set('/big.zip', { type: 'application/zip', body: new Uint8Array(30_000) });
    await expectRefused(
      await importUrl(server, space.id, { url: `${fixtures.url}/big.zip`, source: 'zip' }),
      /^url: the URL is larger than 20000 bytes \(archive size limit: 20000 bytes\)/,
      space.id,
    );
    fixtures.set('/big.docx', { type: 'application/octet-stream', body: new Uint8Array(30_000) });
    await expectRefused(
      await importUrl(server, space.id, { url: `${fixtures.url}/big.docx`, source: 'docx' }),
      /^url: the URL is larger than 20000 bytes \(download size limit: 20000 bytes\)/,
      space.id,
    );
    const tooLarge = await upload(
      server,
      `${importPath(space.id)}?source=zip`,
      new Uint8Array(30_000),
      'application/zip',
    );
    expect(tooLarge.status).toBe(413);
    expect(tooLarge.body.error.message).toBe(
      'body: the upload is larger than 20000 bytes (archive size limit: 20000 bytes)',
    );
    // JSON bodies keep the 1 MiB limit of every endpoint.
    const json = await server.request('POST', importPath(space.id), {
      rawBody: JSON.stringify({ url: `${fixtures.url}/x`, source: 'zip', pad: 'x'.repeat(1_100_000) }),
      headers: { 'content-type': 'application/json' },
    });
    expect(json.status).toBe(413);
  });

  it('page size, of a markdown file, of a file in an archive, and of a website page', async () => {
    const space = await newSpace(server, server.orgId, { title: 'Imports' });
    fixtures.set('/long.md', { type: 'text/markdown', body: 'x'.repeat(3_000) });
    await expectRefused(
      await importUrl(server, space.id, { url: `${fixtures.url}/long.md`, source: 'markdown' }),
      /\(page size limit: 2000 bytes\)/,
      space.id,
    );
    await expectRefused(
      await upload(
        server,
        `${importPath(space.id)}?source=zip`,
        zipOf({ 'long.md': 'y'.repeat(3_000) }),
        'application/zip',
      ),
      /^body: long\.md is larger than 2000 bytes \(page size limit: 2000 bytes\)/,
      space.id,
    );
    fixtures.set('/site/', { type: 'text/html', body: `<h1>Big</h1><p>${'z'.repeat(3_000)}</p>` });
    await expectRefused(
      await importUrl(server, space.id, { url: `${fixtures.url}/site/`, source: 'website' }),
      /is larger than 2000 bytes \(page size limit: 2000 bytes\)/,
      space.id,
    );
  });

  it('import time', async () => {
    const space = await newSpace(server, server.orgId, { title: 'Imports' });
    fixtures.set('/trickle.zip', { type: 'application/zip', trickleMs: 100 });
    const started = Date.now();
    await expectRefused(
      await importUrl(server, space.id, { url: `${fixtures.url}/trickle.zip`, source: 'zip' }),
      /\(import time limit: 1\.5 s\)/,
      space.id,
    );
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('archive file count', async () => {
    const space = await newSpace(server, server.orgId, { title: 'Imports' });
    const files: Record<string, string> = {};
    for (let i = 0; i < 6; i++) files[`p${i}.md`] = `# P${i}`;
    await expectRefused(
      await upload(server, `${importPath(space.id)}?source=zip`, zipOf(files), 'application/zip'),
      /^body: the archive has 6 entries \(archive file count limit: 5 entries\)/,
      space.id,
    );
  });

  it('uncompressed size: declared, and a bomb that lies about its size is stopped while it inflates', async () => {
    const space = await newSpace(server, server.orgId, { title: 'Imports' });
    const zeros = new Uint8Array(60_000);
    await expectRefused(
      await upload(
        server,
        `${importPath(space.id)}?source=zip`,
        zipOf({ 'a.md': '# A', 'blob.png': zeros }),
        'application/zip',
      ),
      /declares more than 50000 bytes of files \(archive uncompressed size limit: 50000 bytes\)/,
      space.id,
    );
    // Claims 100 bytes per entry, inflates to 1,000,000: refused long before all of it is inflated.
    const bomb = lieAboutSizes(zipOf({ 'a.md': `# A\n\n${'0'.repeat(1_000_000)}` }), 100);
    await expectRefused(
      await upload(server, `${importPath(space.id)}?source=zip`, bomb, 'application/zip'),
      /a\.md inflates to another size than the 100 bytes it declares \(archive uncompressed size limit/,
      space.id,
    );
    // The same inside a Word document.
    const docBomb = lieAboutSizes(
      zipOf({ 'word/document.xml': `<w:document>${' '.repeat(1_000_000)}</w:document>` }),
      100,
    );
    await expectRefused(
      await upload(server, `${importPath(space.id)}?source=docx`, docBomb, 'application/zip'),
      /^body: the document: word\/document\.xml inflates to another size/,
      space.id,
    );
  });

  it('paths that climb out of the archive, absolute paths and symbolic links', async () => {
    const space = await newSpace(server, server.orgId, { title: 'Imports' });
    for (const [zip, message] of [
      [zipOf({ 'ok.md': '# ok', '../evil.md': '# evil' }), /holds the path "\.\.\/evil\.md", which points outside it/],
      [zipOf({ 'ok.md': '# ok', 'docs/../../evil.md': '# evil' }), /points outside it/],
      [zipOf({ 'ok.md': '# ok', '/etc/evil.md': '# evil' }), /holds the path "\/etc\/evil\.md"/],
      [markSymlink(zipOf({ 'ok.md': '# ok', 'link.md': '/etc/passwd' }), 'link.md'), /holds a symbolic link, link\.md/],
    ] as const) {
      await expectRefused(
        await upload(server, `${importPath(space.id)}?source=zip`, zip, 'application/zip'),
        message,
        space.id,
      );
    }
  });

  it('website page count: stops at the limit and says how many it found', async () => {
    const site = await startFixtureServer();
    try {
      const page = (n: number, links: number[]) =>
        `<h1>Page ${n}</h1>${links.map((l) => `<a href="/p${l}">p${l}</a>`).join(' ')}`;
      site.set('/p0', { type: 'text/html', body: page(0, [1, 2, 3, 4]) });
      for (const n of [1, 2, 3, 4]) site.set(`/p${n}`, { type: 'text/html', body: page(n, []) });
      const space = await newSpace(server, server.orgId, { title: 'Imports' });
      const res = await importUrl(
        server,
        space.id,
        { url: `${site.url}/p0`, source: 'website' },
        { importId: 'crawl' },
      );
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({ importedResources: 2, totalResources: 5 });
      expect((await pagesOf(server, space.id)).map((p) => p.title)).toEqual(['Page 0', 'Page 1']);
      const run = await server.request('GET', `/v1/spaces/${space.id}/imports/crawl`);
      expect(run.body.message).toMatch(/website page limit \(2 pages\): 3 more page\(s\) were found/);
    } finally {
      await site.close();
    }
  });
});

describeEachDialect('content import: addresses refused', (dialect) => {
  let server: TestServer;
  let narrow: TestServer;
  let fixtures: FixtureServer;
  let other: FixtureServer;
  beforeAll(async () => {
    // The default setting: no private address at all.
    server = await startTestServer(dialect);
    // Only 127.0.0.2 allowed, standing for a public site that redirects to a private address.
    narrow = await startTestServer(dialect, { allowPrivateFetch: ['127.0.0.2/32'] });
    fixtures = await startFixtureServer('127.0.0.1');
    other = await startFixtureServer('127.0.0.2');
  });
  afterAll(async () => {
    await server.close();
    await narrow.close();
    await fixtures.close();
    await other.close();
  });

  it('refuses loopback, private, link-local and metadata addresses, by literal, by name and by redirect', async () => {
    fixtures.set('/page.md', { type: 'text/markdown', body: '# Secret' });
    const space = await newSpace(server, server.orgId, { title: 'Imports' });
    const port = fixtures.port;
    for (const url of [
      `http://127.0.0.1:${port}/page.md`,
      `http://[::1]:${port}/page.md`,
      `http://[::ffff:127.0.0.1]:${port}/page.md`,
      `http://[::ffff:7f00:1]:${port}/page.md`,
      `http://localhost:${port}/page.md`,
      'http://169.254.169.254/latest/meta-data/',
      'http://[fe80::1]/page.md',
      'http://10.0.0.1/page.md',
      'http://192.168.1.1/page.md',
      'http://0.0.0.0/page.md',
    ]) {
      const res = await importUrl(server, space.id, { url, source: 'markdown' });
      expect(res.status, url).toBe(400);
      expect(res.body.error.message, url).toMatch(/^url: the URL could not be fetched: .*private or local/);
    }
    // A site allowed (127.0.0.2) that redirects to loopback: the redirect is refused, and never followed.
    other.set('/moved.md', { status: 302, headers: { location: `http://127.0.0.1:${port}/page.md` } });
    const narrowSpace = await newSpace(narrow, narrow.orgId, { title: 'Imports' });
    const redirected = await importUrl(narrow, narrowSpace.id, {
      url: `http://127.0.0.2:${other.port}/moved.md`,
      source: 'markdown',
    });
    expect(redirected.status).toBe(400);
    expect(redirected.body.error.message).toMatch(/127\.0\.0\.1 is a private or local address/);
    // A name that resolves to loopback is refused the same way under the narrow setting.
    const byName = await importUrl(narrow, narrowSpace.id, {
      url: `http://localhost:${port}/page.md`,
      source: 'markdown',
    });
    expect(byName.status).toBe(400);
    expect(byName.body.error.message).toMatch(/private or local/);
    expect(fixtures.requests).toEqual([]);
    expect(other.requests).toEqual(['/moved.md']);
    // What is allowed is fetched.
    other.set('/ok.md', { type: 'text/markdown', body: '# Allowed' });
    const ok = await importUrl(narrow, narrowSpace.id, {
      url: `http://127.0.0.2:${other.port}/ok.md`,
      source: 'markdown',
    });
    expect(ok.status).toBe(201);
    expect(await pagesOf(server, space.id)).toEqual([]);
  });
});

/**
 * A run as a process leaves it when it stops mid-import (converting, 3 of 10 done, last heard of at `at`): typed
 * into the database, since the API never leaves one behind.
 */
async function insertRunningImport(
  server: TestServer,
  run: { spaceId: string; id: string; createdBy: string; at: string },
): Promise<void> {
  await server.storage.db
    .insertInto('import_runs')
    .values({
      space_id: run.spaceId,
      id: run.id,
      change_request_id: null,
      source: 'zip',
      url: null,
      status: 'running',
      stage: 'converting',
      imported_resources: 3,
      total_resources: 10,
      revision_id: null,
      message: null,
      skipped: null,
      error: null,
      created_by: run.createdBy,
      created_at: run.at,
      updated_at: run.at,
    })
    .execute();
}
