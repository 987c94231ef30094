import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDialect, startTestServer, type TestServer } from '../test/harness.js';
import { newChangeRequest, newSpace, seedPage } from '../test/factories.js';
import { PNG } from '../test/fixtures.js';

describeEachDialect('merging change requests', (dialect) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(dialect);
  });
  afterAll(() => server.close());

  const ORIGINAL = '# Guide\n\nAlpha paragraph.\n\nBeta paragraph.\n\nGamma paragraph.';

  /** A space whose content holds one page (merged through a first change request). */
  async function spaceWithPage() {
    const space = await newSpace(server, server.orgId, { title: 'Docs' });
    const pageId = await seedPage(server, space.id, 'Guide', ORIGINAL);
    return { spaceId: space.id, pageId };
  }

  const edit = (spaceId: string, crId: string, changes: unknown[], compat = true) =>
    server.request('POST', `/v1/spaces/${spaceId}/change-requests/${crId}/content${compat ? '' : '?compat=false'}`, {
      body: { changes },
    });
  const setBody = (spaceId: string, crId: string, pageId: string, markdown: string) =>
    edit(spaceId, crId, [{ operation: 'update_page', page: pageId, document: { markdown } }]);
  const merge = (spaceId: string, crId: string, token?: string) =>
    server.request('POST', `/v1/spaces/${spaceId}/change-requests/${crId}/merge`, { token });
  const update = (spaceId: string, crId: string) =>
    server.request('POST', `/v1/spaces/${spaceId}/change-requests/${crId}/update`);
  const spaceMarkdown = async (spaceId: string, pageId: string) =>
    (await server.request('GET', `/v1/spaces/${spaceId}/content/page/${pageId}?format=markdown`)).body
      .markdown as string;

  it('merges a change request into the space: a merge revision, status merged, counters exact', async () => {
    const { spaceId, pageId } = await spaceWithPage();
    const cr = await newChangeRequest(server, spaceId);
    await setBody(spaceId, cr.id, pageId, ORIGINAL.replace('Beta', 'Beta (edited)'));
    const res = await merge(spaceId, cr.id);
    expect(res.status).toBe(200);
    expect(res.body.result).toBe('merge');
    const space = (await server.request('GET', `/v1/spaces/${spaceId}`)).body;
    expect(space.revision).toBe(res.body.revision);
    expect(space.changeRequestsOpen).toBe(0);
    const merged = (await server.request('GET', `/v1/spaces/${spaceId}/change-requests/${cr.id}`)).body;
    expect(merged).toMatchObject({
      status: 'merged',
      revisionMerged: res.body.revision,
      mergedBy: { id: server.owner.id },
    });
    expect(await spaceMarkdown(spaceId, pageId)).toContain('Beta (edited) paragraph.');
    const revision = (await server.request('GET', `/v1/spaces/${spaceId}/revisions/${res.body.revision}`)).body;
    expect(revision).toMatchObject({ type: 'merge', mergedFrom: { object: 'change-request', id: cr.id } });
    // The embedded change request is complete: every field the contract requires of a ChangeRequest.
    for (const field of ['number', 'status', 'subject', 'createdBy', 'createdAt', 'updatedAt', 'space', 'revision'])
      expect(revision.mergedFrom, field).toHaveProperty(field);
    expect(revision.mergedFrom).toMatchObject({
      status: 'merged',
      revisionInitial: expect.any(String),
      outdated: false,
    });
    expect((await merge(spaceId, cr.id)).status).toBe(409);
  });

  it('merges edits to different blocks of one page cleanly, and marks the other change request outdated', async () => {
    const { spaceId, pageId } = await spaceWithPage();
    const a = await newChangeRequest(server, spaceId);
    const b = await newChangeRequest(server, spaceId);
    await setBody(spaceId, a.id, pageId, ORIGINAL.replace('Alpha', 'Alpha (A)'));
    await setBody(spaceId, b.id, pageId, ORIGINAL.replace('Gamma', 'Gamma (B)'));
    expect((await merge(spaceId, a.id)).status).toBe(200);
    expect((await server.request('GET', `/v1/spaces/${spaceId}/change-requests/${b.id}`)).body.outdated).toBe(true);
    expect((await merge(spaceId, b.id)).status).toBe(200);
    const text = await spaceMarkdown(spaceId, pageId);
    expect(text).toContain('Alpha (A) paragraph.');
    expect(text).toContain('Gamma (B) paragraph.');
  });

  it('finds a same-block conflict at update; merge refuses (409) until it is resolved; the chosen text wins', async () => {
    const { spaceId, pageId } = await spaceWithPage();
    const a = await newChangeRequest(server, spaceId);
    const b = await newChangeRequest(server, spaceId);
    await setBody(spaceId, a.id, pageId, ORIGINAL.replace('Beta paragraph.', 'Beta from A.'));
    await setBody(spaceId, b.id, pageId, ORIGINAL.replace('Beta paragraph.', 'Beta from B.'));
    expect((await merge(spaceId, a.id)).status).toBe(200);
    const before = (await server.request('GET', `/v1/spaces/${spaceId}`)).body.revision;

    const refused = await merge(spaceId, b.id);
    expect(refused.status).toBe(409);
    // The console acts on the reason: it updates the change request and opens the conflicts.
    expect(refused.body.error.reason).toBe('merge-conflicts');
    expect((await server.request('GET', `/v1/spaces/${spaceId}`)).body.revision).toBe(before);

    const up = await update(spaceId, b.id);
    expect(up.body.result).toBe('conflicts');
    const conflicts = (await server.request('GET', `/v1/spaces/${spaceId}/change-requests/${b.id}/conflicts`)).body;
    expect(conflicts.unresolved).toBe(1);
    expect(conflicts.items[0]).toMatchObject({
      kind: 'block',
      pageId,
      base: 'Beta paragraph.',
      space: 'Beta from A.',
      changeRequest: 'Beta from B.',
    });
    expect((await server.request('GET', `/v1/spaces/${spaceId}/change-requests/${b.id}`)).body.conflicts).toBe(1);
    const unresolved = await merge(spaceId, b.id);
    expect(unresolved.status).toBe(409);
    expect(unresolved.body.error.reason).toBe('merge-conflicts');

    // A resolution's text obeys the page-body limits: nesting past 32 levels is refused before anything parses it.
    const conflictUrl = `/v1/spaces/${spaceId}/change-requests/${b.id}/conflicts/${encodeURIComponent(conflicts.items[0].id)}`;
    const deep = await server.request('POST', conflictUrl, { body: { markdown: '>'.repeat(50_000) + ' x' } });
    expect(deep.status).toBe(400);
    expect(deep.body.error.message).toMatch(/Nested deeper than 32 levels/);
    // A long resolution (parsed ahead in the worker pool) applies like a short one.
    const long = Array.from({ length: 800 }, (_, i) => `Beta line ${i} from both.`).join('\n\n');
    const resolved = await server.request('POST', conflictUrl, { body: { markdown: `Beta from both.\n\n${long}` } });
    expect(resolved.status).toBe(200);
    expect(resolved.body.result).toBe('update');
    expect(resolved.body.conflicts.unresolved).toBe(0);
    expect((await merge(spaceId, b.id)).status).toBe(200);
    const text = await spaceMarkdown(spaceId, pageId);
    expect(text).toContain('Beta from both.\n\nBeta line 0 from both.');
    expect(text).toContain('Beta line 799 from both.');
    expect(text).not.toContain('Beta from A.');
  });

  it('treats deleting a page on one side and editing it on the other as a conflict', async () => {
    const { spaceId, pageId } = await spaceWithPage();
    const a = await newChangeRequest(server, spaceId);
    const b = await newChangeRequest(server, spaceId);
    await edit(spaceId, a.id, [{ operation: 'delete_page', page: pageId }]);
    await setBody(spaceId, b.id, pageId, ORIGINAL.replace('Alpha', 'Alpha edited'));
    expect((await merge(spaceId, a.id)).status).toBe(200);
    expect((await merge(spaceId, b.id)).status).toBe(409);
    const up = await update(spaceId, b.id);
    expect(up.body.result).toBe('conflicts');
    const list = (await server.request('GET', `/v1/spaces/${spaceId}/change-requests/${b.id}/conflicts`)).body;
    expect(list.items[0]).toMatchObject({ kind: 'page-deleted', pageId });
    // Keep the change request's version: the page comes back with the edit.
    const keep = await server.request(
      'POST',
      `/v1/spaces/${spaceId}/change-requests/${b.id}/conflicts/${encodeURIComponent(list.items[0].id)}`,
      { body: { keep: 'change-request' } },
    );
    expect(keep.body.result).toBe('update');
    expect((await merge(spaceId, b.id)).status).toBe(200);
    expect(await spaceMarkdown(spaceId, pageId)).toContain('Alpha edited');
  });

  it('merges a move on one side with an edit on the other', async () => {
    const { spaceId, pageId } = await spaceWithPage();
    const setup = await newChangeRequest(server, spaceId);
    const folder = await edit(spaceId, setup.id, [{ operation: 'insert_page', title: 'Folder' }], false);
    const folderId = folder.body.changes[0].page.id;
    await merge(spaceId, setup.id);
    const mover = await newChangeRequest(server, spaceId);
    const editor = await newChangeRequest(server, spaceId);
    await edit(spaceId, mover.id, [{ operation: 'update_page', page: pageId, into: folderId }]);
    await setBody(spaceId, editor.id, pageId, ORIGINAL.replace('Gamma', 'Gamma edited'));
    expect((await merge(spaceId, mover.id)).status).toBe(200);
    expect((await merge(spaceId, editor.id)).status).toBe(200);
    const pages = (await server.request('GET', `/v1/spaces/${spaceId}/content/pages`)).body.pages;
    const folderPage = pages.find((p: { id: string }) => p.id === folderId);
    expect(folderPage.pages.map((p: { id: string }) => p.id)).toEqual([pageId]);
    expect(pages.map((p: { id: string }) => p.id)).not.toContain(pageId);
    expect(await spaceMarkdown(spaceId, pageId)).toContain('Gamma edited');
  });

  it('merges hiding a page on one side with its new title on the other, then showing it again', async () => {
    const { spaceId, pageId } = await spaceWithPage();
    const hider = await newChangeRequest(server, spaceId);
    const renamer = await newChangeRequest(server, spaceId);
    await edit(spaceId, hider.id, [{ operation: 'update_page', page: pageId, hidden: true }]);
    await edit(spaceId, renamer.id, [{ operation: 'update_page', page: pageId, title: 'The guide' }]);
    expect((await merge(spaceId, hider.id)).status).toBe(200);
    expect((await merge(spaceId, renamer.id)).status).toBe(200);
    const page = async () => (await server.request('GET', `/v1/spaces/${spaceId}/content/page/${pageId}`)).body;
    expect(await page()).toMatchObject({ title: 'The guide', hidden: true });
    const shower = await newChangeRequest(server, spaceId);
    await edit(spaceId, shower.id, [{ operation: 'update_page', page: pageId, hidden: false }]);
    expect((await merge(spaceId, shower.id)).status).toBe(200);
    expect((await page()).hidden).toBeUndefined();
    // Not a flag: named in the error.
    const bad = await edit(spaceId, shower.id, [{ operation: 'update_page', page: pageId, hidden: 'yes' }]);
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toContain('hidden');
    // An icon is a name (GitBook's Font Awesome names), set and removed like the emoji.
    const iconed = await newChangeRequest(server, spaceId);
    const badIcon = await edit(spaceId, iconed.id, [{ operation: 'update_page', page: pageId, icon: 'Rocket ship!' }]);
    expect(badIcon.status).toBe(400);
    expect(JSON.stringify(badIcon.body)).toContain('icon');
    await edit(spaceId, iconed.id, [{ operation: 'update_page', page: pageId, icon: 'rocket' }]);
    expect((await merge(spaceId, iconed.id)).status).toBe(200);
    expect((await page()).icon).toBe('rocket');
  });

  it('sets a page cover from an image of the change request, merged beside an edit of the other side', async () => {
    const { spaceId, pageId } = await spaceWithPage();
    const coverer = await newChangeRequest(server, spaceId);
    const renamer = await newChangeRequest(server, spaceId);
    const png = Buffer.from(PNG).toString('base64');
    const added = await edit(spaceId, coverer.id, [
      { operation: 'insert_files', files: [{ name: 'hero.png', base64: png, ref: 'hero' }] },
      { operation: 'insert_files', files: [{ name: 'notes.txt', base64: 'bm90ZXM=', ref: 'notes' }] },
      { operation: 'update_page', page: pageId, cover: { file: 'hero', yPos: 30 } },
    ]);
    expect(added.status, JSON.stringify(added.body)).toBe(200);
    // Its changes say so, in the contract's form.
    const changes = (await server.request('GET', `/v1/spaces/${spaceId}/change-requests/${coverer.id}/changes`)).body;
    const edited = changes.changes.find((c: { type: string }) => c.type === 'page_edited');
    expect(edited.attributes.cover).toEqual({ after: { ref: { kind: 'file', file: expect.any(String) }, yPos: 30 } });
    // Not an image, or no file of the change request: refused, naming the field.
    for (const file of ['notes', 'nothing-here']) {
      const bad = await edit(spaceId, coverer.id, [{ operation: 'update_page', page: pageId, cover: { file } }]);
      expect(bad.status).toBe(400);
      expect(JSON.stringify(bad.body)).toContain('cover.file');
    }
    await edit(spaceId, renamer.id, [{ operation: 'update_page', page: pageId, title: 'Covered guide' }]);
    expect((await merge(spaceId, coverer.id)).status).toBe(200);
    expect((await merge(spaceId, renamer.id)).status).toBe(200);
    const page = (await server.request('GET', `/v1/spaces/${spaceId}/content/page/${pageId}`)).body;
    const files = (await server.request('GET', `/v1/spaces/${spaceId}/content/files`)).body.items;
    const hero = files.find((f: { name: string }) => f.name === 'hero.png');
    expect(page).toMatchObject({ title: 'Covered guide', cover: { ref: { kind: 'file', file: hero.id }, yPos: 30 } });
  });

  it('merges after an update, and a clean update moves the base forward', async () => {
    const { spaceId, pageId } = await spaceWithPage();
    const a = await newChangeRequest(server, spaceId);
    const b = await newChangeRequest(server, spaceId);
    await setBody(spaceId, a.id, pageId, ORIGINAL.replace('Alpha', 'Alpha A'));
    await edit(spaceId, b.id, [{ operation: 'insert_page', title: 'New page' }]);
    await merge(spaceId, a.id);
    const space = (await server.request('GET', `/v1/spaces/${spaceId}`)).body;
    const up = await update(spaceId, b.id);
    expect(up.body.result).toBe('update');
    const cr = (await server.request('GET', `/v1/spaces/${spaceId}/change-requests/${b.id}`)).body;
    expect(cr).toMatchObject({ revisionMergedAncestor: space.revision, outdated: false, revision: up.body.revision });
    // The change request now shows the space's edit too.
    const inCr = await server.request(
      'GET',
      `/v1/spaces/${spaceId}/change-requests/${b.id}/content/page/${pageId}?format=markdown`,
    );
    expect(inCr.body.markdown).toContain('Alpha A');
    expect((await merge(spaceId, b.id)).status).toBe(200);
    const titles = (await server.request('GET', `/v1/spaces/${spaceId}/content/pages`)).body.pages.map(
      (p: { title: string }) => p.title,
    );
    expect(titles).toEqual(['Guide', 'New page']);
  });

  it('merges a change request adding thousands of pages into a space that moved on: every page, in order, with its body', async () => {
    const { spaceId } = await spaceWithPage();
    const big = await newChangeRequest(server, spaceId);
    const meanwhile = await newChangeRequest(server, spaceId);
    const SECTIONS = 20;
    const PER_SECTION = 99;
    const body = (s: number, i: number) => `# Page ${s}.${i}\n\nParagraph of page ${s}.${i}.`;
    const sections: string[] = [];
    for (let s = 0; s < SECTIONS; s += 10) {
      const made = await edit(
        spaceId,
        big.id,
        Array.from({ length: 10 }, (_, i) => ({ operation: 'insert_page', title: `Section ${s + i}` })),
        false,
      );
      sections.push(...made.body.changes.map((c: { page: { id: string } }) => c.page.id));
    }
    const children = sections.flatMap((into, s) =>
      Array.from({ length: PER_SECTION }, (_, i) => ({
        operation: 'insert_page',
        into,
        title: `Page ${s}.${i}`,
        document: { markdown: body(s, i) },
      })),
    );
    for (let i = 0; i < children.length; i += 50) {
      expect((await edit(spaceId, big.id, children.slice(i, i + 50), false)).status).toBe(200);
    }
    await edit(spaceId, meanwhile.id, [{ operation: 'insert_page', title: 'Meanwhile' }]);
    expect((await merge(spaceId, meanwhile.id)).status).toBe(200);

    expect((await merge(spaceId, big.id)).status).toBe(200);
    type Page = { id: string; title: string; pages: Page[] };
    const pages = (await server.request('GET', `/v1/spaces/${spaceId}/content`)).body.pages as Page[];
    expect(pages.map((p) => p.title)).toEqual([
      'Guide',
      'Meanwhile',
      ...Array.from({ length: SECTIONS }, (_, s) => `Section ${s}`),
    ]);
    const merged = pages.slice(2);
    expect(merged.map((p) => p.id)).toEqual(sections);
    for (const [s, section] of merged.entries()) {
      expect(section.pages.map((p) => p.title)).toEqual(
        Array.from({ length: PER_SECTION }, (_, i) => `Page ${s}.${i}`),
      );
    }
    expect(merged.reduce((n, section) => n + 1 + section.pages.length, 0)).toBe(SECTIONS * (PER_SECTION + 1));
    for (const [s, i] of [
      [0, 0],
      [7, 42],
      [SECTIONS - 1, PER_SECTION - 1],
    ] as const) {
      const page = merged[s]!.pages[i]!;
      expect(await spaceMarkdown(spaceId, page.id)).toContain(`Paragraph of page ${s}.${i}.`);
    }
  }, 120_000);

  it('never loses either of two merges racing on one space', async () => {
    const { spaceId, pageId } = await spaceWithPage();
    const a = await newChangeRequest(server, spaceId);
    const b = await newChangeRequest(server, spaceId);
    await setBody(spaceId, a.id, pageId, ORIGINAL.replace('Alpha', 'Alpha race A'));
    await edit(spaceId, b.id, [{ operation: 'insert_page', title: 'Race B page' }]);
    const [ra, rb] = await Promise.all([merge(spaceId, a.id), merge(spaceId, b.id)]);
    expect([ra.status, rb.status]).toEqual([200, 200]);
    expect(await spaceMarkdown(spaceId, pageId)).toContain('Alpha race A');
    const titles = (await server.request('GET', `/v1/spaces/${spaceId}/content/pages`)).body.pages.map(
      (p: { title: string }) => p.title,
    );
    expect(titles).toContain('Race B page');
  });

  it('refuses merges in a locked space (403) and below the review role (403)', async () => {
    const { spaceId, pageId } = await spaceWithPage();
    const cr = await newChangeRequest(server, spaceId);
    await setBody(spaceId, cr.id, pageId, ORIGINAL + '\n\nMore.');
    const commenter = await server.member('comment');
    expect((await merge(spaceId, cr.id, commenter.token)).status).toBe(403);
    await server.request('PATCH', `/v1/spaces/${spaceId}`, { body: { editMode: 'locked' } });
    const locked = await merge(spaceId, cr.id);
    expect(locked.status).toBe(403);
    expect(locked.body.error.message).toMatch(/locked/);
    await server.request('PATCH', `/v1/spaces/${spaceId}`, { body: { editMode: 'live' } });
    expect((await merge(spaceId, cr.id)).status).toBe(200);
  });
});
