import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDialect, startTestServer, type TestServer } from '../test/harness.js';
import { editContent, newChangeRequest, newSpace, seedContent } from '../test/factories.js';

/**
 * Page bodies as GitBook's JSON documents over the API: read (`format=document`, `…/page/{id}/document`), and
 * written (`document: {document}` in content changes), links naming pages and files by id.
 */
describeEachDialect('page documents', (dialect) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(dialect);
  });
  afterAll(() => server.close());

  const png = Buffer.from(
    'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
    'base64',
  );

  async function seeded() {
    const space = await newSpace(server, server.orgId, { title: 'Docs' });
    const made = await seedContent(server, space.id, [
      { operation: 'insert_files', files: [{ name: 'shot.png', base64: png.toString('base64'), ref: 'shot' }] },
      { operation: 'insert_page', title: 'Setup', ref: 'setup', document: { markdown: '## Install\n\nRun it.\n' } },
      {
        operation: 'insert_page',
        title: 'Guide',
        ref: 'guide',
        document: {
          markdown: [
            'Read [setup](setup.md), [its install](setup.md#install) and [the web](https://example.com).',
            '<details>\n<summary>More</summary>\n\nHidden.\n\n</details>',
            '{% hint style="warning" %}\nCareful.\n{% endhint %}',
            '![Shot](shot.png)',
          ].join('\n\n'),
        },
      },
    ]);
    const [setup, guide] = made.pageIds.filter(Boolean) as [string, string];
    const fileId = made.insertedFiles![0].id as string;
    return { space, guide, setup, fileId, revision: made.revision };
  }

  it('reads a page as a JSON document keyed by its blocks, its links naming pages, anchors and files by id', async () => {
    const { space, guide, setup, fileId, revision } = await seeded();
    const page = await server.request('GET', `/v1/spaces/${space.id}/content/page/${guide}?format=markdown`);
    expect(page.status).toBe(200);
    const got = await server.request('GET', `/v1/spaces/${space.id}/content/page/${guide}`);
    expect(got.status).toBe(200);
    const document = got.body.document;
    expect(document.nodes.map((n: { type: string }) => n.type)).toEqual(['paragraph', 'expandable', 'hint', 'images']);
    const links = document.nodes[0].nodes.filter((n: { type?: string }) => n.type === 'link');
    expect(links.map((l: { data: unknown }) => l.data)).toEqual([
      { ref: { kind: 'page', page: setup } },
      { ref: { kind: 'anchor', page: setup, anchor: 'install' } },
      { ref: { kind: 'url', url: 'https://example.com' } },
    ]);
    expect(document.nodes[3].nodes[0].data).toEqual({ ref: { kind: 'file', file: fileId }, alt: 'Shot' });
    // The same from the revision's `/document` endpoint of the contract; its keys are the blocks' ids, so comments
    // anchored on blocks name nodes of the document.
    const fromRevision = await server.request(
      'GET',
      `/v1/spaces/${space.id}/revisions/${revision}/page/${guide}/document?evaluated=true&dereferenced=true`,
    );
    expect(fromRevision.status).toBe(200);
    expect(fromRevision.body).toEqual(document);
    const keys = new Set(document.nodes.map((n: { key: string }) => n.key));
    expect(keys.size).toBe(4);
    // Not a page of this revision, or a group: 404.
    expect(
      (await server.request('GET', `/v1/spaces/${space.id}/revisions/${revision}/page/nope/document`)).status,
    ).toBe(404);
  });

  it('writes a page given as a JSON document, and names the node of a document it cannot write', async () => {
    const { space, setup, fileId } = await seeded();
    const cr = await newChangeRequest(server, space.id, { subject: 'Doc' });
    const document = {
      object: 'document',
      data: {},
      nodes: [
        {
          object: 'block',
          type: 'heading-1',
          data: {},
          nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: 'Start', marks: [] }] }],
        },
        {
          object: 'block',
          type: 'paragraph',
          nodes: [
            { object: 'text', leaves: [{ object: 'leaf', text: 'See ', marks: [{ object: 'mark', type: 'bold' }] }] },
            {
              object: 'inline',
              type: 'link',
              data: { ref: { kind: 'page', page: setup } },
              nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: 'setup', marks: [] }] }],
            },
          ],
        },
        { object: 'block', type: 'file', isVoid: true, data: { ref: { kind: 'file', file: fileId } } },
      ],
    };
    const made = await editContent(server, space.id, cr.id, [
      { operation: 'insert_page', title: 'Written', document: { document } },
    ]);
    const id = made.changes[0].page.id as string;
    const base = `/v1/spaces/${space.id}/change-requests/${cr.id}/content/page/${id}`;
    const markdown = (await server.request('GET', `${base}?format=markdown`)).body.markdown;
    expect(markdown).toBe(
      `## Start\n\n**See** [setup](/pages/${setup})\n\n{% file src="/files/${fileId}" %}\n\n{% endfile %}\n`,
    );
    const back = (await server.request('GET', `${base}/document`)).body;
    expect(back.nodes.map((n: { type: string }) => n.type)).toEqual(['heading-1', 'paragraph', 'file']);
    expect(back.nodes[2].data).toEqual({ ref: { kind: 'file', file: fileId } });

    const bad = await server.request('POST', `/v1/spaces/${space.id}/change-requests/${cr.id}/content`, {
      body: {
        changes: [
          { operation: 'update_page', page: id, document: { markdown: 'Kept.' } },
          {
            operation: 'update_page',
            page: id,
            document: {
              document: {
                object: 'document',
                nodes: [{ object: 'block', type: 'list-ordered', nodes: [{ object: 'block', type: 'paragraph' }] }],
              },
            },
          },
        ],
      },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toMatch(
      /changes\.1\.document\.document\.nodes\[0\]\.nodes\[0\].*a list holds list items/,
    );
    // Nothing of the batch was applied.
    expect((await server.request('GET', `${base}?format=markdown`)).body.markdown).toBe(markdown);
    const both = await server.request('POST', `/v1/spaces/${space.id}/change-requests/${cr.id}/content`, {
      body: { changes: [{ operation: 'update_page', page: id, document: { markdown: 'x', document } }] },
    });
    expect(both.status).toBe(400);
    expect(both.body.error.message).toMatch(/markdown or a document, not both/);
  });

  it('shows another organization’s admin and a guest nothing of a page’s document', async () => {
    const { space, guide, revision } = await seeded();
    const stranger = await server.signup('stranger');
    const url = `/v1/spaces/${space.id}/revisions/${revision}/page/${guide}/document`;
    expect((await server.request('GET', url, { token: stranger.token })).status).toBe(404);
    expect((await server.request('GET', url, { token: null })).status).toBe(401);
    const guest = await server.member(null);
    expect([403, 404]).toContain((await server.request('GET', url, { token: guest.token })).status);
  });
});
