import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDialect, startTestServer, type TestServer } from '../test/harness.js';
import {
  editContent,
  mergeChangeRequest,
  newChangeRequest,
  newSite,
  newSpace,
  publishSite,
  seedContent,
} from '../test/factories.js';
import { zipOf } from '../test/fixtures.js';

/**
 * Reusable content: stored in the space's revisions, edited in change requests, merged like pages, included in
 * pages by `{% include %}` (shown in place on the published site), imported from GitBook's `.gitbook/includes`.
 */
describeEachDialect('reusable content', (dialect) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(dialect);
  });
  afterAll(() => server.close());

  const visit = async (url: string) => {
    const res = await fetch(server.url + url.replace(server.config.publicUrl, ''));
    return { status: res.status, html: await res.text() };
  };

  async function spaceWithInclude() {
    const space = await newSpace(server, server.orgId, { title: 'Docs' });
    const seeded = await seedContent(server, space.id, [
      {
        operation: 'insert_reusable_content',
        ref: 'rc',
        title: 'Setup steps',
        document: { markdown: 'Run **setup**.\n' },
      },
      {
        operation: 'insert_page',
        title: 'Guide',
        slug: 'guide',
        document: { markdown: 'Before.\n\n{% include "../.gitbook/includes/setup-steps.md" %}\n\nAfter.\n' },
      },
    ]);
    const created = seeded.changes.find((c) => c.type === 'created_reusable_content');
    return { space, id: created.reusableContent.id as string, pageId: seeded.pageIds.filter(Boolean)[0]! };
  }

  it('stores reusable content in revisions, serves it by the contract’s endpoints, and shows it where pages include it', async () => {
    const { space, id, pageId } = await spaceWithInclude();
    const revision = (await server.request('GET', `/v1/spaces/${space.id}/content`)).body;
    expect(revision.reusableContents).toEqual([
      { id, title: 'Setup steps', slug: 'setup-steps', document: expect.any(String) },
    ]);
    // Not a page: not in the tree, not readable as one.
    expect(revision.pages.map((p: { title: string }) => p.title)).toEqual(['Guide']);
    expect((await server.request('GET', `/v1/spaces/${space.id}/content/page/~${id}`)).status).toBe(404);

    const one = await server.request('GET', `/v1/spaces/${space.id}/content/reusable-contents/${id}?format=markdown`);
    expect(one.status).toBe(200);
    expect(one.body).toMatchObject({ id, title: 'Setup steps', markdown: 'Run **setup**.\n' });
    const document = await server.request(
      'GET',
      `/v1/spaces/${space.id}/revisions/${revision.id}/reusable-contents/${id}/document`,
    );
    expect(document.status).toBe(200);
    expect(document.body.nodes[0].type).toBe('paragraph');
    // The page's document names it.
    const page = (await server.request('GET', `/v1/spaces/${space.id}/content/page/${pageId}`)).body;
    expect(page.document.nodes[1]).toMatchObject({
      type: 'reusable-content',
      data: { ref: { kind: 'reusable-content', reusableContent: '../.gitbook/includes/setup-steps.md' } },
    });
    expect((await server.request('GET', `/v1/spaces/${space.id}/content/reusable-contents/nope`)).status).toBe(404);

    const site = await newSite(server, server.orgId, { title: 'Docs', spaces: [space.id] });
    const published = (await publishSite(server, server.orgId, site.id)).urls.published;
    const { html } = await visit(`${published}/guide`);
    expect(html).toMatch(/<p>Before\.<\/p>\s*<p>Run <strong>setup<\/strong>\.<\/p>\s*<p>After\.<\/p>/);
    expect(html).not.toContain('{% include');

    // Edited in a change request: the page shows the new text once it is merged.
    const cr = await newChangeRequest(server, space.id, { subject: 'Edit' });
    const edited = await editContent(server, space.id, cr.id, [
      { operation: 'update_reusable_content', reusableContent: id, document: { markdown: 'Run **setup** twice.' } },
    ]);
    expect(edited.changes).toEqual([{ type: 'updated_reusable_content', reusableContent: { id } }]);
    const changes = (await server.request('GET', `/v1/spaces/${space.id}/change-requests/${cr.id}/changes`)).body;
    expect(changes.changes).toEqual([
      expect.objectContaining({
        type: 'reusable_content_edited',
        reusableContent: expect.objectContaining({ id, title: 'Setup steps' }),
        attributes: { document: expect.any(Object) },
      }),
    ]);
    // The review's diff of it, as a page's.
    const diff = await server.request('GET', `/v1/spaces/${space.id}/change-requests/${cr.id}/diff/reusable/${id}`);
    expect(diff.status).toBe(200);
    expect(diff.body.before.markdown).toBe('Run **setup**.\n');
    expect(diff.body.after.markdown).toBe('Run **setup** twice.\n');
    expect(diff.body.blocks.map((b: { kind: string }) => b.kind)).toEqual(['modified']);
    expect(
      (await server.request('GET', `/v1/spaces/${space.id}/change-requests/${cr.id}/diff/reusable/nope`)).status,
    ).toBe(404);
    expect((await visit(`${published}/guide`)).html).not.toContain('twice');
    await mergeChangeRequest(server, space.id, cr.id);
    expect((await visit(`${published}/guide`)).html).toContain('Run <strong>setup</strong> twice.');
  });

  it('merges reusable contents changed by two change requests, and finds a conflict in the same one', async () => {
    const { space, id } = await spaceWithInclude();
    const a = await newChangeRequest(server, space.id, { subject: 'A' });
    const b = await newChangeRequest(server, space.id, { subject: 'B' });
    await editContent(server, space.id, a.id, [
      { operation: 'insert_reusable_content', title: 'Warning', document: { markdown: 'Careful.' } },
    ]);
    await editContent(server, space.id, b.id, [
      { operation: 'insert_reusable_content', title: 'Warning', document: { markdown: 'Be careful.' } },
      { operation: 'update_reusable_content', reusableContent: id, title: 'Setup' },
    ]);
    await mergeChangeRequest(server, space.id, a.id);
    await mergeChangeRequest(server, space.id, b.id);
    const list = (await server.request('GET', `/v1/spaces/${space.id}/content`)).body.reusableContents;
    expect(list.map((r: { title: string; slug: string }) => [r.title, r.slug])).toEqual([
      ['Setup', 'setup-steps'],
      ['Warning', 'warning'],
      ['Warning', 'warning'],
    ]);

    const c = await newChangeRequest(server, space.id, { subject: 'C' });
    const d = await newChangeRequest(server, space.id, { subject: 'D' });
    await editContent(server, space.id, c.id, [
      { operation: 'update_reusable_content', reusableContent: id, document: { markdown: 'From C.' } },
    ]);
    await editContent(server, space.id, d.id, [
      { operation: 'update_reusable_content', reusableContent: id, document: { markdown: 'From D.' } },
    ]);
    await mergeChangeRequest(server, space.id, c.id);
    const refused = await server.request('POST', `/v1/spaces/${space.id}/change-requests/${d.id}/merge`);
    expect(refused.status).toBe(409);
    await server.request('POST', `/v1/spaces/${space.id}/change-requests/${d.id}/update`);
    const conflicts = (await server.request('GET', `/v1/spaces/${space.id}/change-requests/${d.id}/conflicts`)).body;
    expect(conflicts.items[0]).toMatchObject({
      kind: 'block',
      pageTitle: 'Setup',
      space: 'From C.',
      changeRequest: 'From D.',
    });
  });

  it('refuses operations on what is not there, and a page id for a reusable content', async () => {
    const { space, id } = await spaceWithInclude();
    const cr = await newChangeRequest(server, space.id, { subject: 'Bad' });
    const edit = (changes: unknown[]) =>
      server.request('POST', `/v1/spaces/${space.id}/change-requests/${cr.id}/content`, { body: { changes } });
    const missing = await edit([{ operation: 'delete_reusable_content', reusableContent: 'nope' }]);
    expect(missing.status).toBe(400);
    expect(missing.body.error.message).toMatch(/changes\.0\.reusableContent/);
    const asPage = await edit([{ operation: 'update_page', page: `~${id}`, title: 'Hijack' }]);
    expect(asPage.status).toBe(400);
    expect((await edit([{ operation: 'insert_reusable_content', title: '' }])).status).toBe(400);
    const deleted = await edit([{ operation: 'delete_reusable_content', reusableContent: id }]);
    expect(deleted.status).toBe(200);
    const after = await server.request('GET', `/v1/spaces/${space.id}/change-requests/${cr.id}/content`);
    expect(after.body.reusableContents).toEqual([]);
  });

  it('shows another organization’s admin and an outsider nothing of a space’s reusable content', async () => {
    const { space, id } = await spaceWithInclude();
    const stranger = await server.signup('rc-stranger');
    const url = `/v1/spaces/${space.id}/content/reusable-contents/${id}`;
    expect((await server.request('GET', url, { token: stranger.token })).status).toBe(404);
    expect((await server.request('GET', url, { token: null })).status).toBe(401);
  });

  it('imports GitBook’s .gitbook/includes as reusable content that the pages including it show', async () => {
    const space = await newSpace(server, server.orgId, { title: 'Imported' });
    const zip = zipOf({
      'README.md': '# Home\n\n{% include "../.gitbook/includes/shared-note.md" %}\n',
      'SUMMARY.md': '# Summary\n\n* [Home](README.md)\n',
      '.gitbook/includes/shared-note.md': '---\ntitle: Shared note\n---\n\nShared **text**.\n',
    });
    const res = await fetch(`${server.url}/v1/spaces/${space.id}/content/import?source=zip`, {
      method: 'POST',
      headers: { authorization: `Bearer ${server.owner.token}`, 'content-type': 'application/octet-stream' },
      body: Buffer.from(zip),
    });
    expect(res.status).toBe(201);
    const revision = (await server.request('GET', `/v1/spaces/${space.id}/content`)).body;
    expect(revision.pages.map((p: { title: string }) => p.title)).toEqual(['Home']);
    expect(revision.reusableContents).toEqual([expect.objectContaining({ title: 'Shared note', slug: 'shared-note' })]);
    const site = await newSite(server, server.orgId, { title: 'Imported', spaces: [space.id] });
    const published = (await publishSite(server, server.orgId, site.id)).urls.published;
    expect((await visit(published)).html).toContain('Shared <strong>text</strong>.');
  });

  it('is searched as part of the pages that include it, nested too, and follows its edits, renames and deletion', async () => {
    const space = await newSpace(server, server.orgId, { title: 'Searched' });
    await seedContent(server, space.id, [
      { operation: 'insert_reusable_content', title: 'Inner', document: { markdown: 'Feed the zanzibar daily.' } },
      {
        operation: 'insert_reusable_content',
        title: 'Outer',
        document: { markdown: '## Caring\n\n{% include "../.gitbook/includes/inner.md" %}' },
      },
      {
        operation: 'insert_page',
        title: 'Handbook',
        document: { markdown: 'Opening words.\n\n{% include "../.gitbook/includes/outer.md" %}' },
      },
      { operation: 'insert_page', title: 'Unrelated', document: { markdown: 'Nothing to see.' } },
    ]);
    const listed = (await server.request('GET', `/v1/spaces/${space.id}/content`)).body.reusableContents;
    const ids = Object.fromEntries(listed.map((r: { id: string; title: string }) => [r.title, r.id])) as Record<
      string,
      string
    >;
    const found = async (text: string) => {
      const res = await server.request('GET', `/v1/spaces/${space.id}/search?query=${encodeURIComponent(text)}`);
      expect(res.status).toBe(200);
      return (res.body.items as Array<{ title: string; sections: Array<{ path: string; body: string }> }>).map((p) => ({
        title: p.title,
        sections: p.sections.map((s) => s.path),
      }));
    };
    // Two levels down, under the heading the outer content brings (the section the published page shows it in).
    expect(await found('zanzibar')).toEqual([{ title: 'Handbook', sections: ['handbook#caring'] }]);

    // Edited: the page reads the new text, not the old, though the page itself did not change.
    await seedContent(server, space.id, [
      { operation: 'update_reusable_content', reusableContent: ids.Inner, document: { markdown: 'Brush the quokka.' } },
    ]);
    expect(await found('quokka')).toEqual([{ title: 'Handbook', sections: ['handbook#caring'] }]);
    expect(await found('zanzibar')).toEqual([]);

    // Renamed (a new slug): the include no longer finds it, as on the published page.
    await seedContent(server, space.id, [
      { operation: 'update_reusable_content', reusableContent: ids.Inner, title: 'Renamed', slug: 'renamed' },
    ]);
    expect(await found('quokka')).toEqual([]);

    // Back under its old slug, then deleted.
    await seedContent(server, space.id, [
      { operation: 'update_reusable_content', reusableContent: ids.Inner, slug: 'inner' },
    ]);
    expect(await found('quokka')).toEqual([{ title: 'Handbook', sections: ['handbook#caring'] }]);
    await seedContent(server, space.id, [{ operation: 'delete_reusable_content', reusableContent: ids.Inner }]);
    expect(await found('quokka')).toEqual([]);

    // A content of the same slug in another space changes nothing here; another organization finds nothing.
    const other = await newSpace(server, server.orgId, { title: 'Elsewhere' });
    await seedContent(server, other.id, [
      { operation: 'insert_reusable_content', title: 'Inner', document: { markdown: 'Walk the quokka.' } },
    ]);
    expect(await found('quokka')).toEqual([]);
    const outsider = await server.signup('rc-search-stranger');
    const peek = await server.request('GET', `/v1/spaces/${space.id}/search?query=caring`, { token: outsider.token });
    expect(peek.status).toBe(404);
  });
});
