import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import GithubSlugger from 'github-slugger';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { gfmFromMarkdown } from 'mdast-util-gfm';
import { toString } from 'mdast-util-to-string';
import { gfm } from 'micromark-extension-gfm';
import { visit } from 'unist-util-visit';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDialect, startTestServer, type TestServer } from '../test/harness.js';
import { newSite, newSpace, publishSite } from '../test/factories.js';
import { zipOf } from '../test/fixtures.js';

/**
 * Real documentation, imported and published as a team moving in would: the `docs/` folders npm packages ship
 * (written for GitHub), and a GitBook space written the way GitBook's Git Sync writes one. What readers would call
 * broken is checked against the source itself: the links the links report says are broken are exactly those
 * GitHub's rules find broken in the files (an independent reading, below, with github-slugger), no GitBook block
 * shows as raw `{% … %}` text, and every figure is on the published page with its caption.
 */

const require = createRequire(import.meta.url);
const docsOf = (pkg: string) => path.join(path.dirname(require.resolve(`${pkg}/package.json`)), 'docs');

/** Every file under `root`, by its path from `root`. */
function filesUnder(root: string, base = root): Record<string, Buffer> {
  const out: Record<string, Buffer> = {};
  for (const entry of fs.readdirSync(root, { withFileTypes: true })) {
    const file = path.join(root, entry.name);
    if (entry.isDirectory()) Object.assign(out, filesUnder(file, base));
    else out[path.relative(base, file).split(path.sep).join('/')] = fs.readFileSync(file);
  }
  return out;
}

/**
 * The links GitHub would show broken in a folder of markdown files: a relative link (markdown or `<a href>`,
 * `<img src>`) to a file that is not there, or to a heading anchor the target file does not have (GitHub's slugs:
 * github-slugger, numbered from `-1` when repeated; `<a id>`/`<a name>` anchors count too, except in the cells of
 * a table row past its header's, which GFM drops). External links, and
 * anchors of files that are not markdown (`#L10` of code), are not checked. Answers `file → href` entries.
 */
function brokenByGithub(files: Record<string, Buffer>): string[] {
  const markdown = Object.keys(files).filter((f) => f.endsWith('.md'));
  const anchors = new Map<string, Set<string>>();
  const links = new Map<string, string[]>();
  for (const file of markdown) {
    const text = files[file]!.toString('utf8');
    const tree = fromMarkdown(text, { extensions: [gfm()], mdastExtensions: [gfmFromMarkdown()] });
    const slugger = new GithubSlugger();
    const ids = new Set<string>();
    const hrefs: string[] = [];
    // GFM ignores the cells of a row past the header's count: GitHub shows nothing of them.
    visit(tree, 'table', (table) => {
      const columns = table.children[0]?.children.length ?? 0;
      for (const row of table.children) row.children = row.children.slice(0, columns);
    });
    visit(tree, (node) => {
      if (node.type === 'heading') ids.add(slugger.slug(toString(node)));
      if (node.type === 'link' || node.type === 'image') hrefs.push(node.url);
      if (node.type === 'definition') hrefs.push(node.url);
      if (node.type === 'html') {
        // Quoted or not (`<a id=opt-base></a>`), as HTML reads attributes.
        for (const m of node.value.matchAll(/<a\s[^>]*?\b(?:id|name)\s*=\s*(?:"([^"]+)"|'([^']+)'|([^\s"'>]+))/gi)) {
          ids.add(m[1] ?? m[2] ?? m[3]!);
        }
        for (const m of node.value.matchAll(/<(?:a|img)\s[^>]*?\b(?:href|src)\s*=\s*["']([^"']+)["']/gi))
          hrefs.push(m[1]!);
      }
    });
    anchors.set(file, ids);
    links.set(file, hrefs);
  }
  const broken: string[] = [];
  for (const [file, hrefs] of links) {
    for (const href of hrefs) {
      if (/^[a-z][a-z0-9+.-]*:/i.test(href) || href.startsWith('//')) continue;
      const [target = '', anchor] = href.split('#') as [string, string | undefined];
      let resolved = file;
      if (target) {
        const decoded = decodeURIComponent(target.split('?')[0]!);
        resolved = path.posix.normalize(
          decoded.startsWith('/') ? decoded.slice(1) : path.posix.join(path.posix.dirname(file), decoded),
        );
        resolved = resolved.replace(/\/$/, '');
        const isFolder = Object.keys(files).some((f) => f.startsWith(`${resolved}/`));
        if (!files[resolved] && !isFolder) {
          broken.push(`${file} → ${href}`);
          continue;
        }
      }
      if (anchor && resolved.endsWith('.md')) {
        const ids = anchors.get(resolved)!;
        const wanted = decodeURIComponent(anchor);
        if (!ids.has(wanted) && !ids.has(wanted.toLowerCase())) broken.push(`${file} → ${href}`);
      }
    }
  }
  return broken.sort();
}

/** A GitBook space as Git Sync writes it: every block, figures in lists, includes, SUMMARY groups, anchors. */
const GITBOOK_SPACE: Record<string, string> = {
  '.gitbook.yaml': 'root: ./\nstructure:\n  readme: README.md\n  summary: SUMMARY.md\n',
  'SUMMARY.md': `# Table of contents

* [Welcome](README.md)

## Get started <a href="#get-started" id="get-started"></a>

* [Set up](get-started/set-up.md)
* [Blocks](get-started/blocks.md)
  * [Buttons](get-started/blocks.md#buttons)
`,
  'README.md': `---
description: What this space is about.
---

# Welcome

Start with the [set-up guide](get-started/set-up.md#install-the-cli), or read about [blocks](get-started/blocks.md).
This [link is broken in the source](get-started/missing.md) and [so is this anchor](get-started/blocks.md#nowhere).

{% include ".gitbook/includes/support.md" %}
`,
  '.gitbook/includes/support.md': `---
title: Support
---

{% hint style="info" %}
Ask in the **support** channel.
{% endhint %}
`,
  'get-started/set-up.md': `# Set up

## Install the CLI

1. Download it.

   <figure><img src="../.gitbook/assets/download.png" alt="The download page"><figcaption><p>The download page</p></figcaption></figure>
2. Run it.

   <figure><img src="../.gitbook/assets/run.png" alt=""><figcaption><p>First run</p></figcaption></figure>

{% stepper %}
{% step %}
### Sign in

Use your account.
{% endstep %}

{% step %}
### Create a space

Name it.
{% endstep %}
{% endstepper %}

<picture><source srcset="../.gitbook/assets/dark.png" media="(prefers-color-scheme: dark)"><img src="../.gitbook/assets/light.png" alt="Architecture"></picture>

Back to [the welcome page](../README.md) or on to [buttons](blocks.md#buttons).
`,
  'get-started/blocks.md': `# Blocks

{% hint style="warning" icon="triangle" %}
Hints keep their style and icon.
{% endhint %}

{% tabs %}
{% tab title="npm" %}
\`\`\`bash
npm install docs-cli
\`\`\`
{% endtab %}

{% tab title="yarn" %}
\`\`\`bash
yarn add docs-cli
\`\`\`
{% endtab %}
{% endtabs %}

{% code title="config.json" lineNumbers="true" %}
\`\`\`json
{ "name": "docs" }
\`\`\`
{% endcode %}

\`\`\`markdown
{% hint style="info" %}
This is a code sample showing GitBook syntax: it stays as it is.
{% endhint %}
\`\`\`

<details>

<summary>More details</summary>

Hidden until opened.

</details>

{% embed url="https://www.youtube.com/watch?v=dQw4w9WgXcQ" %}
A video.
{% endembed %}

{% content-ref url="set-up.md" %}
[set-up.md](set-up.md)
{% endcontent-ref %}

{% columns %}
{% column %}
Left.
{% endcolumn %}

{% column %}
Right.
{% endcolumn %}
{% endcolumns %}

{% file src="../.gitbook/assets/guide.pdf" %}
The guide as a PDF.
{% endfile %}

$$
E = mc^2
$$

## Buttons

Press <kbd>Enter</kbd>.

{% mystery-block foo="bar" %}
Kept, not dropped.
{% endmystery-block %}
`,
  '.gitbook/assets/download.png': 'png',
  '.gitbook/assets/run.png': 'png',
  '.gitbook/assets/dark.png': 'png',
  '.gitbook/assets/light.png': 'png',
  '.gitbook/assets/guide.pdf': '%PDF-1.4',
};

/**
 * What a reader reads: the page's text outside code, with tags stripped, and without the label of a block the
 * product does not know (it shows the block's tag as written, in monospace: the labelled fallback).
 */
function visibleText(html: string): string {
  return html
    .replace(/<p class="gb-unknown-label">[\s\S]*?<\/p>/g, '')
    .replace(/<script[\s\S]*?<\/script>/g, '')
    .replace(/<style[\s\S]*?<\/style>/g, '')
    .replace(/<pre[\s\S]*?<\/pre>/g, '')
    .replace(/<code[\s\S]*?<\/code>/g, '')
    .replace(/<[^>]+>/g, ' ')
    .replace(/\s+/g, ' ');
}

describeEachDialect('real documentation, imported and published', (dialect) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(dialect);
  });
  afterAll(async () => {
    await server.close();
  });

  /**
   * Imports `files` as a zip into a new space, publishes it, and answers what the checks need (with every page's
   * published HTML when `read`).
   */
  async function importAndPublish(title: string, files: Record<string, string | Buffer>, read = true) {
    const space = await newSpace(server, server.orgId, { title });
    const res = await fetch(`${server.url}/v1/spaces/${space.id}/content/import?source=zip`, {
      method: 'POST',
      headers: { authorization: `Bearer ${server.owner.token}`, 'content-type': 'application/zip' },
      body: Buffer.from(zipOf(files)),
    });
    expect(res.status, await res.clone().text()).toBe(201);
    const result = (await res.json()) as { skipped?: unknown[] };
    // A site to read the pages on, when they are read.
    const site = read ? await newSite(server, server.orgId, { title, spaces: [space.id] } as never) : undefined;
    const published = site ? (await publishSite(server, server.orgId, site.id)).urls.published : '';
    const pages: Array<{ id: string; title: string; path: string; type: string; pages?: unknown[] }> = [];
    const walk = (list: any[]) => {
      for (const page of list) {
        pages.push(page);
        walk(page.pages ?? []);
      }
    };
    walk((await server.request('GET', `/v1/spaces/${space.id}/content/pages`)).body.pages);
    // Every document page's published HTML, by title.
    const html = new Map<string, string>();
    for (const page of pages.filter((p) => read && p.type === 'document')) {
      const url = `${published}/${page.path}`.replace(server.config.publicUrl, '');
      const answer = await fetch(server.url + url);
      expect(answer.status, url).toBe(200);
      html.set(page.title, await answer.text());
    }
    // Every broken link of the report, as `page title → target`.
    const broken = (await server.request('GET', `/v1/spaces/${space.id}/links?status=broken&limit=1000`)).body;
    return { space, result, pages, html, broken };
  }

  // One package a test: each has its own time.
  it.each(['fastify', 'undici', 'pino'])(
    'imports the docs npm package %s ships: the links it reports broken are those GitHub finds broken',
    async (pkg) => {
      // As the repository holds them (root-absolute links start from its root): in its docs/ folder.
      const files = Object.fromEntries(Object.entries(filesUnder(docsOf(pkg))).map(([k, v]) => [`docs/${k}`, v]));
      const expected = brokenByGithub(files);
      // Their pages are read by the test below and by json-document.test.ts: here, the links report.
      const { broken, pages, result } = await importAndPublish(pkg, files, false);
      expect(result.skipped ?? []).toEqual([]);
      expect(pages.length).toBeGreaterThan(10);
      // Each occurrence of a broken link in a page the report lists.
      const occurrences = broken.items.flatMap((item: any) =>
        item.locationReferences.map((location: any) => location.page.title),
      );
      const reported = broken.items.map((item: any) => [
        item.targetReference,
        item.locationReferences.map((l: any) => l.page.title),
      ]);
      expect(
        occurrences.length,
        `${pkg}: ${JSON.stringify(expected, null, 1)} ${JSON.stringify(reported, null, 1)}`,
      ).toBe(expected.length);
    },
    // fastify's docs (200 files) take 25–30 s on a quiet 2-core machine, past 60 s beside the rest of the suite on
    // a loaded one: a correctness test of real content, not a timing (bench/import.ts measures the speed).
    150_000,
  );

  it('publishes a GitBook space with no raw block syntax, every figure with its caption, the source’s broken links only', async () => {
    const { html, broken, pages, space } = await importAndPublish('GitBook space', GITBOOK_SPACE);
    expect(pages.map((p) => p.title)).toEqual(['Welcome', 'Get started', 'Set up', 'Blocks', 'Buttons']);
    for (const [page, body] of html) {
      expect(visibleText(body), page).not.toContain('{%');
    }
    const setUp = html.get('Set up')!;
    for (const caption of ['The download page', 'First run']) {
      expect(setUp).toMatch(
        new RegExp(`<figure[^>]*>[\\s\\S]*?<img[^>]*>[\\s\\S]*?<figcaption[^>]*>[\\s\\S]*?${caption}`),
      );
    }
    expect(setUp).toMatch(/<picture>[\s\S]*prefers-color-scheme: dark/);
    // The title keeps the anchor its heading had in the source.
    expect(setUp).toContain('<h1 id="set-up">Set up</h1>');
    const blocks = html.get('Blocks')!;
    // The code sample keeps its GitBook syntax, in code.
    expect(blocks).toMatch(/<pre[\s\S]*\{%[\s\S]*hint style=/);
    // The block nobody knows is kept, labelled, readable.
    expect(visibleText(blocks)).toContain('Kept, not dropped.');
    expect(visibleText(html.get('Welcome')!)).toContain('Ask in the support channel.');
    // The same blocks in the document model: the embed keeps the caption written up to its end tag.
    const blocksPage = pages.find((p) => p.title === 'Blocks')!;
    const document = (await server.request('GET', `/v1/spaces/${space.id}/content/page/${blocksPage.id}`)).body
      .document;
    const types = document.nodes.map((n: any) => n.type);
    expect(types).toEqual(
      expect.arrayContaining([
        'hint',
        'tabs',
        'code',
        'expandable',
        'embed',
        'content-ref',
        'file',
        'math',
        'heading-1',
      ]),
    );
    expect(document.nodes.find((n: any) => n.type === 'embed').data).toEqual({
      url: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ',
      caption: 'A video.',
    });
    const expected = brokenByGithub(
      Object.fromEntries(Object.entries(GITBOOK_SPACE).map(([k, v]) => [k, Buffer.from(v)])),
    );
    expect(expected).toEqual(['README.md → get-started/blocks.md#nowhere', 'README.md → get-started/missing.md']);
    const occurrences = broken.items.flatMap((item: any) =>
      item.locationReferences.map((location: any) => location.page.title),
    );
    expect(occurrences.sort()).toEqual(['Welcome', 'Welcome']);
  });
});
