import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { describeEachDialect, startTestServer, type TestServer } from '../../../test/harness.js';
import {
  editContent,
  mergeChangeRequest,
  newChangeRequest,
  newSite,
  newSpace,
  publishSite,
} from '../../../test/factories.js';
import { defaultCustomization } from '../../../../shared/contract/customization.js';
import { PublishedSites } from './dispatch.js';
import { BranchIndex, BranchTooLarge } from './branch.js';

/**
 * A large space's pages served from their branch while its whole index is read (branch.ts): each is the very page
 * the whole index serves (the same page at a path, navigation, neighbours, link targets), so it may be cached as such.
 */
describeEachDialect('pages served from their branch', (dialect) => {
  let server: TestServer;
  let siteId: string;
  let ids: Record<string, string>;
  beforeAll(async () => {
    server = await startTestServer(dialect);
    const space = await newSpace(server, server.orgId, { title: 'Large' });
    const cr = await newChangeRequest(server, space.id);
    const insert = (title: string, extra: { ref?: string } & Record<string, unknown> = {}) => ({
      operation: 'insert_page',
      title,
      ...extra,
    });
    // Groups, link pages, a page whose pages are many, duplicate titles, links between pages, hidden pages.
    const ops = [
      insert('Concealed first', { hidden: true }),
      insert('Start here', { type: 'group', ref: 'start' }),
      insert('Website', { type: 'link', href: 'https://example.com/', into: 'start' }),
      insert('Welcome', {
        into: 'start',
        document: { markdown: 'See [the guide](guide.md) and [items](/pages/reference).' },
      }),
      insert('Inner', { into: 'start', ref: 'inner' }),
      insert('Deep one', { into: 'inner', ref: 'deep' }),
      insert('Deep two', { into: 'inner' }),
      insert('Guide', { ref: 'guide', document: { markdown: 'Read [advanced](guide/advanced.md#top) next.' } }),
      insert('Advanced', { into: 'guide', ref: 'advanced' }),
      insert('Elsewhere', { type: 'link', href: '/somewhere', into: 'guide', ref: 'elsewhere' }),
      insert('Secret', { into: 'guide', hidden: true, ref: 'secret' }),
      insert('Under secret', { into: 'secret' }),
      insert('Reference', { ref: 'reference' }),
      insert('Appendix', { type: 'group', ref: 'appendix' }),
      ...Array.from({ length: 12 }, (_, i) => insert(`Annex ${i}`, { into: 'appendix' })),
      insert('Dup'),
      insert('Dup'),
      insert('Last', { ref: 'last' }),
    ];
    const made = await editContent(server, space.id, cr.id, ops);
    ids = {};
    ops.forEach((op, i) => {
      const page = made.changes[i]?.page;
      if (typeof op.ref === 'string') ids[op.ref] = typeof page === 'string' ? page : page.id;
    });
    for (let from = 0; from < 450; from += 50) {
      await editContent(
        server,
        space.id,
        cr.id,
        Array.from({ length: 50 }, (_, i) => insert(`Item ${from + i}`, { into: ids.reference })),
      );
    }
    // Links by id, from a deep page and from the site's header.
    await editContent(server, space.id, cr.id, [
      {
        operation: 'update_page',
        page: ids.deep,
        document: {
          markdown: `Back to [the last page](/pages/${ids.last}) and [a link page](/pages/${ids.elsewhere}).`,
        },
      },
    ]);
    await mergeChangeRequest(server, space.id, cr.id);
    const site = await newSite(server, server.orgId, { title: 'Large docs', visibility: 'public', spaces: [space.id] });
    siteId = site.id;
    const custom = defaultCustomization();
    custom.header.links = [
      { title: 'Advanced', to: { kind: 'page', page: ids.advanced! }, links: [] },
      { title: 'Top', to: { kind: 'anchor', anchor: 'top', page: ids.last! }, links: [] },
    ];
    const put = await server.request('PUT', `/v1/orgs/${server.orgId}/sites/${siteId}/customization`, { body: custom });
    expect(put.status).toBe(200);
    await publishSite(server, server.orgId, siteId);
  }, 60_000);
  afterAll(() => server.close());

  const paths = [
    '',
    'welcome',
    'inner',
    'inner/deep-one',
    'inner/deep-two',
    'guide',
    'guide/advanced',
    'guide/elsewhere',
    'concealed-first',
    'guide/secret',
    'guide/secret/under-secret',
    'reference',
    'reference/item-0',
    'reference/item-224',
    'reference/item-449',
    'annex-11',
    'dup',
    'last',
    'guide.md',
    'nothing-here',
    'guide/nothing',
  ];

  it('serves every page as the whole index does', async () => {
    const whole = new PublishedSites(server.storage.db, server.config.publicUrl);
    const opened = vi.spyOn(BranchIndex, 'open');
    try {
      for (const path of paths) {
        // A new server process each time: nothing read yet.
        const cold = new PublishedSites(server.storage.db, server.config.publicUrl, { branchMin: 0 });
        const segments = path ? path.split('/') : [];
        const fromBranch = await cold.serve({ siteId, segments });
        expect(opened, path).toHaveBeenCalledTimes(paths.indexOf(path) + 1);
        const fromWhole = await whole.serve({ siteId, segments });
        expect(fromBranch, path).toEqual(expect.objectContaining({ kind: fromWhole.kind }));
        if (fromWhole.kind === 'html' && fromBranch.kind === 'html') {
          expect(fromBranch.status, path).toBe(fromWhole.status);
          expect(fromBranch.html, path).toBe(fromWhole.html);
        } else if (fromWhole.kind === 'text' && fromBranch.kind === 'text') {
          expect(fromBranch.body, path).toBe(fromWhole.body);
        } else throw new Error(`${path}: ${fromWhole.kind}`);
      }
    } finally {
      opened.mockRestore();
    }
    // What the comparison covered: navigation around a deep page, its neighbours, and links resolved by path and id.
    const deep = await whole.serve({ siteId, segments: ['inner', 'deep-one'] });
    const html = deep.kind === 'html' ? deep.html : '';
    expect(html).toContain('/guide/advanced"'); // the header's link to a page
    expect(html).toMatch(/href="[^"]*\/last"/); // the body's link by id
    expect(html).toMatch(/rel="prev"[^>]*>.*Inner/s);
    expect(html).toMatch(/rel="next"[^>]*>.*Deep two/s);
    // Hidden pages are served at their address, but neither listed nor anyone's previous or next page.
    const advanced = await whole.serve({ siteId, segments: ['guide', 'advanced'] });
    const advancedHtml = advanced.kind === 'html' ? advanced.html : '';
    expect(advancedHtml).toMatch(/rel="next"[^>]*>.*Reference/s);
    expect(advancedHtml).not.toContain('Secret');
    expect(advancedHtml).not.toContain('Concealed first');
    const secret = await whole.serve({ siteId, segments: ['guide', 'secret'] });
    expect(secret.kind === 'html' && secret.status).toBe(200);
    expect(secret.kind === 'html' && secret.html).not.toContain('rel="next"');
    const home = await whole.serve({ siteId, segments: [] });
    expect(home.kind === 'html' && home.html).toContain('Welcome');
    expect(home.kind === 'html' && home.html).not.toContain('Concealed first');
    const item = await whole.serve({ siteId, segments: ['reference', 'item-224'] });
    expect(item.kind === 'html' && item.html).toContain('Show 199 more pages');
  });

  it('leaves a page whose branch is too large to the whole index', async () => {
    const cold = new PublishedSites(server.storage.db, server.config.publicUrl, { branchMin: 0 });
    const whole = new PublishedSites(server.storage.db, server.config.publicUrl);
    const tooLarge = vi.spyOn(BranchIndex.prototype, 'find').mockRejectedValue(new BranchTooLarge());
    try {
      const page = await cold.serve({ siteId, segments: ['reference', 'item-3'] });
      expect(tooLarge).toHaveBeenCalled();
      const expected = await whole.serve({ siteId, segments: ['reference', 'item-3'] });
      expect(page.kind === 'html' && page.status).toBe(200);
      expect(page.kind === 'html' && page.html).toBe(expected.kind === 'html' && expected.html);
    } finally {
      tooLarge.mockRestore();
    }
  });
});
