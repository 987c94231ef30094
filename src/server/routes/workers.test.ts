import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  describeEachDialect,
  OWNER_TOKEN,
  startTestServer,
  TEST_WORKER_TIMEOUT_MS,
  type TestServer,
} from '../test/harness.js';
import { newChangeRequest, newSpace } from '../test/factories.js';
import { workers } from '../workers/pool.js';

/**
 * CPU-heavy work goes to the worker pool (src/server/workers): page bodies parsed on write, page diffs, PDF exports
 * and published pages, each past 16 KiB. These journeys check that the results are the same as inline, and that a
 * task past its time limit answers 503 while the server goes on serving.
 */
describeEachDialect('work in the worker pool', (dialect) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(dialect);
  });
  afterAll(() => server.close());

  /** About 40 KB of markdown: headings, paragraphs, a table and links to another page and to a file. */
  const bigBody = (word: string) =>
    Array.from(
      { length: 120 },
      (_, i) =>
        `## Part ${i}\n\nThe ${word} text of part ${i}, see [the guide](./guide.md#top) and [by path](/pages/guide).` +
        `\n\n| k | v |\n|---|---|\n| ${i} | ${word} |`,
    ).join('\n\n');

  it('parses big pages, diffs them, exports them as PDF and publishes them through the workers', async () => {
    const space = await newSpace(server, server.orgId, { title: 'Big' });
    const cr = await newChangeRequest(server, space.id, { subject: 'Big' });
    const before = workers.offloaded;
    const created = await server.request(
      'POST',
      `/v1/spaces/${space.id}/change-requests/${cr.id}/content?compat=false`,
      {
        body: {
          changes: [
            { operation: 'insert_page', title: 'Guide', slug: 'guide', document: { markdown: 'The guide.' } },
            {
              operation: 'insert_page',
              title: 'Big',
              slug: 'big',
              ref: 'big',
              document: { markdown: bigBody('first') },
            },
          ],
        },
      },
    );
    expect(created.status).toBe(200);
    // Its blocks, its searchable text and its links: one task, before the edit's transaction (stored with it).
    expect(workers.offloaded).toBe(before + 1);
    const pageId = (created.body.changes as Array<{ page: { id: string } }>)[1]!.page.id;
    const page = await server.request(
      'GET',
      `/v1/spaces/${space.id}/change-requests/${cr.id}/content/page/${pageId}?format=markdown`,
    );
    expect(page.body.markdown).toBe(`${bigBody('first')}\n`);

    // The PDF: rendered in a worker once, then served from the cache for the same revision.
    const pdfUrl = `/v1/spaces/${space.id}/change-requests/${cr.id}/pdf/download`;
    const pdf = await fetch(server.url + pdfUrl, { headers: { authorization: `Bearer ${OWNER_TOKEN}` } });
    expect(pdf.status).toBe(200);
    const bytes = Buffer.from(await pdf.arrayBuffer());
    expect(bytes.subarray(0, 5).toString()).toBe('%PDF-');
    const rendered = workers.offloaded;
    const again = await fetch(server.url + pdfUrl, { headers: { authorization: `Bearer ${OWNER_TOKEN}` } });
    expect(Buffer.from(await again.arrayBuffer()).equals(bytes)).toBe(true);
    expect(workers.offloaded).toBe(rendered);

    // A rewrite of every part's text: the diff (in a worker) shows paragraphs and rows modified, headings unchanged.
    const edited = bigBody('first').replace('The first text of part 7,', 'The second text of part 7,');
    const update = await server.request('POST', `/v1/spaces/${space.id}/change-requests/${cr.id}/content`, {
      body: { changes: [{ operation: 'update_page', page: pageId, document: { markdown: edited } }] },
    });
    expect(update.status).toBe(200);
    const beforeMerge = workers.offloaded;
    const merged = await server.request('POST', `/v1/spaces/${space.id}/change-requests/${cr.id}/merge`);
    expect(merged.status).toBe(200);
    // Merging, and then listing the space's links, parse nothing again: the bodies' links were stored by the edits.
    const links = await server.request('GET', `/v1/spaces/${space.id}/links?status=ok`);
    expect(
      links.body.items.map((i: { targetReference: { page?: { path: string } } }) => i.targetReference.page?.path),
    ).toEqual(expect.arrayContaining(['guide']));
    expect(workers.offloaded).toBe(beforeMerge);
    const cr2 = await newChangeRequest(server, space.id, { subject: 'Edit' });
    await server.request('POST', `/v1/spaces/${space.id}/change-requests/${cr2.id}/content`, {
      body: { changes: [{ operation: 'update_page', page: pageId, document: { markdown: bigBody('third') } }] },
    });
    const diff = await server.request('GET', `/v1/spaces/${space.id}/change-requests/${cr2.id}/diff/${pageId}`);
    expect(diff.status).toBe(200);
    const kinds = (diff.body.blocks as Array<{ kind: string }>).map((b) => b.kind);
    expect(kinds.filter((k) => k === 'modified')).toHaveLength(240);
    expect(kinds.filter((k) => k === 'unchanged')).toHaveLength(120);

    // Published: the page body rendered in a worker, its links resolved against the site's pages.
    const site = await server.request('POST', `/v1/orgs/${server.orgId}/sites`, {
      body: { title: 'Docs', spaces: [space.id] },
    });
    const published = await server.request('POST', `/v1/orgs/${server.orgId}/sites/${site.body.id}/publish`);
    const root = (published.body.urls.published as string).replace(server.config.publicUrl, '');
    const beforePublish = workers.offloaded;
    const html = await (await fetch(`${server.url}${root}/big/big`)).text();
    expect(workers.offloaded).toBe(beforePublish + 2);
    expect(html).toContain('The second text of part 7,');
    expect(html).toMatch(/<a href="[^"]*\/guide#top">the guide<\/a>/);
    expect(html).toMatch(/<a href="[^"]*\/guide">by path<\/a>/);

    // A render stopped by the time limit: that page answers 503, as a page, and is not tried again for a minute.
    await server.request('PATCH', `/v1/orgs/${server.orgId}/sites/${site.body.id}`, { body: { title: 'Renamed' } });
    workers.configure({ timeoutMs: 1 });
    try {
      const stopped = await fetch(`${server.url}${root}/big/big`);
      expect(stopped.status).toBe(503);
      expect(stopped.headers.get('retry-after')).toBe('5');
      expect(await stopped.text()).toContain('This page is taking too long to prepare.');
    } finally {
      workers.configure({ timeoutMs: TEST_WORKER_TIMEOUT_MS });
    }
    expect((await fetch(`${server.url}${root}/big/big`)).status).toBe(503);
    expect((await fetch(`${server.url}${root}/big/guide`)).status).toBe(200);
  });

  it('sends a small body of deeply nested quotes to a worker: where it is parsed goes by its cost, not its length', async () => {
    const space = await newSpace(server, server.orgId, { title: 'Nested' });
    const cr = await newChangeRequest(server, space.id, { subject: 'Nested' });
    const write = (markdown: string) =>
      server.request('POST', `/v1/spaces/${space.id}/change-requests/${cr.id}/content?compat=false`, {
        body: { changes: [{ operation: 'insert_page', title: 'Page', document: { markdown } }] },
      });
    // An ordinary 12 kB page is parsed inline...
    const plain = Array.from({ length: 200 }, (_, i) => `Paragraph ${i} with a few words of text.`).join('\n\n');
    expect(plain.length).toBeLessThan(16 * 1024);
    let before = workers.offloaded;
    expect((await write(plain)).status).toBe(200);
    expect(workers.offloaded).toBe(before);
    // ...a page as long, quoted 32 deep on every line (it held the event loop for up to 0.9 s), in a worker.
    const nested = Array.from({ length: 200 }, (_, i) => `${'> '.repeat(32)}line ${i}`).join('\n\n');
    expect(nested.length).toBeLessThan(16 * 1024);
    before = workers.offloaded;
    expect((await write(nested)).status).toBe(200);
    expect(workers.offloaded).toBeGreaterThan(before);
  });

  it('stops a body that takes too long to parse with a 503, keeps nothing, and serves other requests meanwhile', async () => {
    const space = await newSpace(server, server.orgId, { title: 'Slow' });
    const cr = await newChangeRequest(server, space.id, { subject: 'Slow' });
    // Lists alternating with paragraphs: micromark's cost grows with their square (about a minute for this one).
    const markdown = Array.from({ length: 30_000 }, (_, i) => (i % 2 ? `- item ${i}` : `Text ${i}`)).join('\n\n');
    workers.configure({ timeoutMs: 3000 });
    try {
      let done = false;
      const write = server
        .request('POST', `/v1/spaces/${space.id}/change-requests/${cr.id}/content`, {
          body: { changes: [{ operation: 'insert_page', title: 'Slow', document: { markdown } }] },
        })
        .finally(() => (done = true));
      const health = await server.request('GET', '/v1/health');
      expect(health.status).toBe(200);
      const other = await server.request('GET', `/v1/spaces/${space.id}`);
      expect(other.status).toBe(200);
      expect(done).toBe(false);
      const res = await write;
      expect(res.status).toBe(503);
      expect(res.headers.get('retry-after')).toBe('5');
      expect(res.body.error.message).toMatch(/^Stopped after 3 s: this content takes too long to process/);
    } finally {
      workers.configure({ timeoutMs: TEST_WORKER_TIMEOUT_MS });
    }
    const pages = await server.request('GET', `/v1/spaces/${space.id}/change-requests/${cr.id}/content/pages`);
    expect(pages.body.pages).toEqual([]);
  });
});
