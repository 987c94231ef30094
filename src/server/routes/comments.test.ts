import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMMENT_BODY_MAX } from '../../shared/contract/comments.js';
import { describeEachDialect, startTestServer, type TestServer, type TestUser } from '../test/harness.js';
import { newChangeRequest, newOrg, newSpace, seedContent } from '../test/factories.js';
import { buildApp } from '../app.js';
import { openStorage } from '../storage/db.js';

describeEachDialect('comment threads', (dialect) => {
  let server: TestServer;
  let commenter: TestUser;
  let reader: TestUser;
  let admin: TestUser;
  beforeAll(async () => {
    server = await startTestServer(dialect);
    [commenter, reader, admin] = await Promise.all([
      server.member('comment'),
      server.member('read'),
      server.member('admin'),
    ]);
  });
  afterAll(() => server.close());

  /** A space with one merged page "Guide" (three blocks), and an open change request that edits it. */
  async function setup() {
    const space = await newSpace(server, server.orgId, { title: 'Docs' });
    const seeded = await seedContent(
      server,
      space.id,
      [
        { operation: 'insert_page', title: 'Guide', document: { markdown: '# Guide\n\nFirst *block*.\n\nLast.' } },
        { operation: 'insert_page', title: 'Other' },
      ],
      { subject: 'S' },
    );
    const [guide, other] = seeded.pageIds;
    const cr = await newChangeRequest(server, space.id, { subject: 'R' });
    const base = `/v1/spaces/${space.id}/change-requests/${cr.id}`;
    const page = (await server.request('GET', `${base}/content/page/${guide}?format=document`)).body;
    const blocks = page.document.nodes.map((n: { key: string }) => n.key) as string[];
    return {
      spaceId: space.id,
      crId: cr.id,
      number: cr.number,
      base,
      guide: guide!,
      other: other!,
      blocks,
    };
  }

  const post = (base: string, body: unknown, token?: string) =>
    server.request('POST', `${base}/comments`, { body, ...(token ? { token } : {}) });
  const crCount = async (base: string) => (await server.request('GET', base)).body.comments as number;

  it('posts comments on a block, a page and the whole change request, and reads them back', async () => {
    const { spaceId, crId, base, guide, blocks } = await setup();
    const onBlock = await post(base, { page: guide, node: blocks[1], body: { markdown: 'Is *this* right?' } });
    expect(onBlock.status).toBe(200);
    const c = onBlock.body;
    expect(c).toMatchObject({
      object: 'comment',
      postedBy: { id: server.owner.id },
      body: { markdown: 'Is *this* right?' },
      replies: 0,
      repliers: [],
      reactions: [],
      status: 'open',
      target: {
        space: spaceId,
        changeRequest: crId,
        page: { id: guide, title: 'Guide', path: 'guide', outdated: false },
        node: { id: blocks[1], preview: 'First block.', outdated: false },
      },
      permissions: { view: true, edit: true, reply: true, delete: true, resolve: true },
    });
    expect(c.urls.location).toMatch(new RegExp(`/v1/spaces/${spaceId}/change-requests/${crId}/comments/${c.id}$`));
    expect(c.editedAt).toBeUndefined();
    expect(c.resolvedAt).toBeUndefined();

    const onPage = (await post(base, { page: guide, body: { markdown: 'Page note' } })).body;
    expect(onPage.target.page.id).toBe(guide);
    expect(onPage.target.node).toBeUndefined();
    const onCr = (await post(base, { body: { markdown: 'Overall fine' } })).body;
    expect(onCr.target.page).toBeUndefined();

    const got = await server.request('GET', `${base}/comments/${c.id}`);
    expect(got.status).toBe(200);
    expect(got.body.id).toBe(c.id);
    const doc = (await server.request('GET', `${base}/comments/${c.id}?format=document`)).body;
    expect(doc.body.document).toEqual({
      object: 'document',
      data: { schemaVersion: 1 },
      nodes: [
        {
          object: 'block',
          key: expect.any(String),
          type: 'paragraph',
          nodes: [
            {
              object: 'text',
              leaves: [
                { object: 'leaf', text: 'Is ', marks: [] },
                { object: 'leaf', text: 'this', marks: [{ object: 'mark', type: 'italic' }] },
                { object: 'leaf', text: ' right?', marks: [] },
              ],
            },
          ],
        },
      ],
    });

    const list = (await server.request('GET', `${base}/comments`)).body;
    expect(list.count).toBe(3);
    expect(list.items.map((x: { id: string }) => x.id)).toEqual([onCr.id, onPage.id, c.id]);
    const asc = (await server.request('GET', `${base}/comments?order=asc`)).body;
    expect(asc.items.map((x: { id: string }) => x.id)).toEqual([c.id, onPage.id, onCr.id]);
    expect(await crCount(base)).toBe(3);
    // The change request can be named by its number too.
    const byNumber = await server.request('GET', `/v1/spaces/${spaceId}/change-requests/1/comments`);
    expect(byNumber.status).toBe(200);
  });

  it('refuses bad comments with the field named, and changes nothing', async () => {
    const { base, guide, other, blocks } = await setup();
    const cases: Array<[unknown, string]> = [
      [{ body: { markdown: '   ' } }, 'body.markdown'],
      [{ body: { markdown: 'x'.repeat(COMMENT_BODY_MAX + 1) } }, 'body.markdown'],
      // 5,000 nested quotes made the review screen overflow its stack for every viewer.
      [{ body: { markdown: '>'.repeat(5000) + ' deep' } }, 'body.markdown'],
      [{ body: {} }, 'body.markdown'],
      [{ body: { document: { nodes: [] } } }, 'body.markdown'],
      [{}, 'body'],
      [{ node: blocks[0], body: { markdown: 'x' } }, 'node'],
      [{ page: 'nope', body: { markdown: 'x' } }, 'page'],
      [{ page: guide, node: 'nope', body: { markdown: 'x' } }, 'node'],
      // A block of another page is not a block of this one.
      [{ page: other, node: blocks[0], body: { markdown: 'x' } }, 'node'],
    ];
    for (const [body, field] of cases) {
      const res = await post(base, body);
      expect(res.status, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(res.body.error.message + JSON.stringify(res.body.error.issues ?? [])).toContain(field);
    }
    const atLimit = await post(base, { body: { markdown: 'x'.repeat(COMMENT_BODY_MAX) } });
    expect(atLimit.status).toBe(200);
    // Surrounding blank space is trimmed away.
    const trimmed = await post(base, { body: { markdown: '  hello \n' } });
    expect(trimmed.body.body.markdown).toBe('hello');
    expect((await server.request('GET', `${base}/comments`)).body.count).toBe(2);
  });

  it('checks who may read, post, edit, delete, resolve and react', async () => {
    const { base, guide } = await setup();
    const outsider = await server.signup('outsider');
    expect((await server.request('GET', `${base}/comments`, { token: null })).status).toBe(401);
    expect((await server.request('GET', `${base}/comments`, { token: outsider.token })).status).toBe(404);
    expect((await post(base, { body: { markdown: 'x' } }, outsider.token)).status).toBe(404);

    // Readers read but do not post.
    expect((await server.request('GET', `${base}/comments`, { token: reader.token })).status).toBe(200);
    expect((await post(base, { body: { markdown: 'x' } }, reader.token)).status).toBe(403);

    const mine = (await post(base, { page: guide, body: { markdown: 'By the commenter' } }, commenter.token)).body;
    expect(mine.permissions).toMatchObject({ edit: true, delete: true, reply: true, resolve: true });
    const seenByReader = (await server.request('GET', `${base}/comments/${mine.id}`, { token: reader.token })).body;
    expect(seenByReader.permissions).toEqual({ view: true, edit: false, reply: false, delete: false, resolve: false });
    const seenByAdmin = (await server.request('GET', `${base}/comments/${mine.id}`, { token: admin.token })).body;
    expect(seenByAdmin.permissions).toMatchObject({ edit: false, delete: true, resolve: true });

    // Only the author edits the body.
    const put = (token: string, body: unknown, id = mine.id) =>
      server.request('PUT', `${base}/comments/${id}`, { token, body });
    expect((await put(admin.token, { body: { markdown: 'hijack' } })).status).toBe(403);
    expect((await put(reader.token, { resolved: true })).status).toBe(403);
    expect((await put(reader.token, { addedReactions: ['👍'] })).status).toBe(403);
    const edited = await put(commenter.token, { body: { markdown: 'Edited' } });
    expect(edited.status).toBe(200);
    expect(edited.body.body.markdown).toBe('Edited');
    expect(edited.body.editedAt).toEqual(expect.any(String));

    // A refused update changes nothing, even the parts that were allowed.
    expect((await put(server.owner.token, { resolved: true, body: { markdown: 'not mine' } })).status).toBe(403);
    const after = (await server.request('GET', `${base}/comments/${mine.id}`)).body;
    expect(after.status).toBe('open');
    expect(after.body.markdown).toBe('Edited');

    // Anyone who can comment resolves and reopens.
    const resolved = (await put(admin.token, { resolved: true })).body;
    expect(resolved).toMatchObject({ status: 'resolved', resolvedBy: { id: admin.id } });
    expect(resolved.resolvedAt).toEqual(expect.any(String));
    const reopened = (await put(commenter.token, { resolved: false })).body;
    expect(reopened.status).toBe('open');
    expect(reopened.resolvedAt).toBeUndefined();
    expect(reopened.resolvedBy).toBeUndefined();

    // Deleting: not another commenter, not a reader; the author or an admin.
    const other = (await post(base, { body: { markdown: 'owner comment' } })).body;
    expect((await server.request('DELETE', `${base}/comments/${other.id}`, { token: commenter.token })).status).toBe(
      403,
    );
    expect((await server.request('DELETE', `${base}/comments/${mine.id}`, { token: reader.token })).status).toBe(403);
    expect((await server.request('DELETE', `${base}/comments/${other.id}`, { token: admin.token })).status).toBe(205);
    expect((await server.request('DELETE', `${base}/comments/${mine.id}`, { token: commenter.token })).status).toBe(
      205,
    );
    expect((await server.request('DELETE', `${base}/comments/${mine.id}`, { token: commenter.token })).status).toBe(
      204,
    );
    expect((await server.request('GET', `${base}/comments/${mine.id}`)).status).toBe(404);
  });

  it('keeps one reaction per user and emoji; removing what is not there is a no-op', async () => {
    const { base } = await setup();
    const c = (await post(base, { body: { markdown: 'React to me' } })).body;
    const put = (token: string, body: unknown) => server.request('PUT', `${base}/comments/${c.id}`, { token, body });
    await put(server.owner.token, { addedReactions: ['👍', '👍', '🎉'] });
    const twice = (await put(server.owner.token, { addedReactions: ['👍'] })).body;
    expect(twice.reactions).toHaveLength(2);
    for (const emoji of ['👍', '🎉']) {
      expect(twice.reactions.find((r: { emoji: string }) => r.emoji === emoji)).toEqual({
        emoji,
        count: 1,
        users: [{ user: expect.objectContaining({ id: server.owner.id }), reactedAt: expect.any(String) }],
      });
    }
    const both = (await put(commenter.token, { addedReactions: ['👍'] })).body;
    const thumbs = both.reactions.find((r: { emoji: string }) => r.emoji === '👍');
    expect(thumbs).toMatchObject({ emoji: '👍', count: 2 });
    expect(thumbs.users.map((u: { user: { id: string } }) => u.user.id)).toEqual([server.owner.id, commenter.id]);
    const noop = await put(commenter.token, { removedReactions: ['🚀'] });
    expect(noop.status).toBe(200);
    expect(noop.body.reactions).toEqual(both.reactions);
    const removed = (await put(server.owner.token, { removedReactions: ['👍', '🎉'] })).body;
    expect(removed.reactions).toEqual([
      {
        emoji: '👍',
        count: 1,
        users: [expect.objectContaining({ user: expect.objectContaining({ id: commenter.id }) })],
      },
    ]);
    // An emoji in both lists ends up removed.
    const both2 = (await put(commenter.token, { addedReactions: ['👀'], removedReactions: ['👀'] })).body;
    expect(both2.reactions.map((r: { emoji: string }) => r.emoji)).toEqual(['👍']);
    // Skin tones, joined sequences and flags are emoji; words are not.
    const fancy = await put(commenter.token, { addedReactions: ['👍🏽', '👩‍💻', '🇫🇷'] });
    expect(fancy.status).toBe(200);
    for (const bad of ['ok', ' ', '', 'x'.repeat(40), '👍 nice']) {
      const res = await put(commenter.token, { addedReactions: [bad] });
      expect(res.status, bad).toBe(400);
      expect(res.body.error.issues[0].path).toBe('addedReactions.0');
    }
  });

  it('keeps the open-comment counters exact through create, resolve, reopen, delete and races', async () => {
    const { base } = await setup();
    const made = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        post(base, { body: { markdown: `c${i}` } }, i % 2 ? commenter.token : undefined),
      ),
    );
    expect(made.every((r) => r.status === 200)).toBe(true);
    expect(await crCount(base)).toBe(12);
    const [a, b, c] = made.map((r) => r.body.id as string);
    // Five people resolve the same comment at once: it closes once.
    await Promise.all(
      [server.owner.token, commenter.token, admin.token, server.owner.token, commenter.token].map((token) =>
        server.request('PUT', `${base}/comments/${a}`, { token, body: { resolved: true } }),
      ),
    );
    expect(await crCount(base)).toBe(11);
    await server.request('PUT', `${base}/comments/${a}`, { body: { resolved: true } });
    expect(await crCount(base)).toBe(11);
    await server.request('PUT', `${base}/comments/${a}`, { body: { resolved: false } });
    expect(await crCount(base)).toBe(12);
    // Deleting a resolved comment leaves the open count alone; deleting an open one lowers it.
    await server.request('PUT', `${base}/comments/${b}`, { body: { resolved: true } });
    expect(await crCount(base)).toBe(11);
    await server.request('DELETE', `${base}/comments/${b}`, { token: admin.token });
    expect(await crCount(base)).toBe(11);
    // Deleting and resolving at once: whatever order they run in, the count is right.
    await Promise.all([
      server.request('DELETE', `${base}/comments/${c}`, { token: admin.token }),
      server.request('PUT', `${base}/comments/${c}`, { body: { resolved: true } }),
    ]);
    expect(await crCount(base)).toBe(10);
    const open = (await server.request('GET', `${base}/comments?status=open&limit=1`)).body.count;
    expect(open).toBe(10);
  });

  it('threads replies: post, list, get, edit, delete, counts and repliers', async () => {
    const { base } = await setup();
    const c = (await post(base, { body: { markdown: 'Thread' } })).body;
    const replies = `${base}/comments/${c.id}/replies`;
    const r1 = await server.request('POST', replies, { token: commenter.token, body: { body: { markdown: 'One' } } });
    expect(r1.status).toBe(200);
    expect(r1.body).toMatchObject({
      object: 'comment-reply',
      postedBy: { id: commenter.id },
      body: { markdown: 'One' },
      reactions: [],
      permissions: { view: true, edit: true, reply: true, delete: true },
    });
    expect(r1.body.urls.location).toMatch(new RegExp(`/comments/${c.id}/replies/${r1.body.id}$`));
    const r2 = (await server.request('POST', replies, { body: { body: { markdown: 'Two' } } })).body;
    await server.request('POST', replies, { token: commenter.token, body: { body: { markdown: 'Three' } } });
    expect(
      (await server.request('POST', replies, { token: reader.token, body: { body: { markdown: 'x' } } })).status,
    ).toBe(403);
    expect((await server.request('POST', replies, { body: { body: { markdown: ' ' } } })).status).toBe(400);

    const thread = (await server.request('GET', `${base}/comments/${c.id}`)).body;
    expect(thread.replies).toBe(3);
    expect(thread.repliers.map((u: { id: string }) => u.id)).toEqual([commenter.id, server.owner.id]);

    const page1 = (await server.request('GET', `${replies}?limit=2`)).body;
    expect(page1.count).toBe(3);
    expect(page1.items.map((x: { body: { markdown: string } }) => x.body.markdown)).toEqual(['One', 'Two']);
    const page2 = (await server.request('GET', `${replies}?limit=2&page=${page1.next.page}`)).body;
    expect(page2.items.map((x: { body: { markdown: string } }) => x.body.markdown)).toEqual(['Three']);
    expect(page2.next).toBeUndefined();

    const one = `${replies}/${r1.body.id}`;
    expect((await server.request('GET', one)).body.body.markdown).toBe('One');
    expect((await server.request('PUT', one, { body: { body: { markdown: 'not mine' } } })).status).toBe(403);
    const edited = (await server.request('PUT', one, { token: commenter.token, body: { body: { markdown: 'Uno' } } }))
      .body;
    expect(edited).toMatchObject({ body: { markdown: 'Uno' }, editedAt: expect.any(String) });
    const reacted = (await server.request('PUT', one, { body: { addedReactions: ['❤️'] } })).body;
    expect(reacted.reactions).toMatchObject([{ emoji: '❤️', count: 1 }]);
    // Replies have no resolved state: the field is ignored.
    const ignored = await server.request('PUT', one, { body: { resolved: true } });
    expect(ignored.status).toBe(200);
    expect(ignored.body.status).toBeUndefined();

    expect((await server.request('DELETE', `${replies}/${r2.id}`, { token: commenter.token })).status).toBe(403);
    expect((await server.request('DELETE', `${replies}/${r2.id}`)).status).toBe(205);
    expect((await server.request('DELETE', `${replies}/${r2.id}`)).status).toBe(204);
    expect((await server.request('GET', `${base}/comments/${c.id}`)).body.replies).toBe(2);
    expect((await server.request('GET', `${base}/comments/${c.id}`)).body.repliers).toHaveLength(1);

    // Deleting the comment takes its replies with it.
    expect((await server.request('DELETE', `${base}/comments/${c.id}`)).status).toBe(205);
    expect((await server.request('GET', one)).status).toBe(404);
    expect((await server.request('GET', replies)).status).toBe(404);
  });

  it('filters by status, page and authors, and pages through a stable order', async () => {
    const { base, guide, other } = await setup();
    const ids: string[] = [];
    for (let i = 0; i < 7; i++) {
      const page = i % 2 ? guide : other;
      const token = i % 3 === 0 ? commenter.token : undefined;
      ids.push((await post(base, { page, body: { markdown: `n${i}` } }, token)).body.id);
    }
    await server.request('PUT', `${base}/comments/${ids[0]}`, { body: { resolved: true } });
    await server.request('PUT', `${base}/comments/${ids[1]}`, { body: { resolved: true } });
    const get = async (q: string) => (await server.request('GET', `${base}/comments?${q}`)).body;
    expect((await get('status=open')).count).toBe(5);
    expect((await get('status=resolved')).items.map((x: { id: string }) => x.id)).toEqual([ids[1], ids[0]]);
    expect((await get(`targetPage=${guide}`)).count).toBe(3);
    expect((await get(`targetPage=${guide}&status=resolved`)).items.map((x: { id: string }) => x.id)).toEqual([ids[1]]);
    expect((await get(`authors=${commenter.id}`)).items.map((x: { id: string }) => x.id)).toEqual([
      ids[6],
      ids[3],
      ids[0],
    ]);
    expect((await get(`authors=${commenter.id}&authors=${server.owner.id}`)).count).toBe(7);
    expect((await get(`authors=${commenter.id},${server.owner.id}`)).count).toBe(7);
    expect((await get(`authors=${reader.id}`)).count).toBe(0);
    expect((await server.request('GET', `${base}/comments?status=closed`)).status).toBe(400);
    expect((await server.request('GET', `${base}/comments?order=up`)).status).toBe(400);
    expect((await server.request('GET', `${base}/comments?page=garbage`)).status).toBe(400);

    // Pages of 3, with a comment posted between calls: nothing is repeated or skipped.
    const seen: string[] = [];
    let cursor: string | undefined;
    let first = true;
    do {
      const page = await get(`limit=3${cursor ? `&page=${cursor}` : ''}`);
      seen.push(...page.items.map((x: { id: string }) => x.id));
      cursor = page.next?.page;
      if (first) await post(base, { body: { markdown: 'late' } });
      first = false;
    } while (cursor);
    expect(seen).toEqual([...ids].reverse());
  });

  it('keeps a comment whose block or page a later edit removes, flagged outdated', async () => {
    const { base, guide, other, blocks } = await setup();
    const onBlock = (await post(base, { page: guide, node: blocks[1], body: { markdown: 'About this' } })).body;
    const onOther = (await post(base, { page: other, body: { markdown: 'About the page' } })).body;
    const edit = await server.request('POST', `${base}/content?compat=false`, {
      body: {
        changes: [
          { operation: 'update_page', page: guide, document: { markdown: '# Guide\n\nLast.' } },
          { operation: 'delete_page', page: other },
        ],
      },
    });
    expect(edit.status).toBe(200);
    const list = (await server.request('GET', `${base}/comments`)).body;
    expect(list.count).toBe(2);
    const block = list.items.find((x: { id: string }) => x.id === onBlock.id);
    expect(block.target.node).toEqual({ id: blocks[1], preview: 'First block.', outdated: true });
    expect(block.target.page).toMatchObject({ id: guide, title: 'Guide', outdated: true });
    expect(block.body.markdown).toBe('About this');
    const page = list.items.find((x: { id: string }) => x.id === onOther.id);
    expect(page.target.page).toMatchObject({ id: other, title: 'Other', outdated: true });
    // Outdated threads are still open threads: they count, and can be answered and resolved.
    expect(await crCount(base)).toBe(2);
    const reply = await server.request('POST', `${base}/comments/${onBlock.id}/replies`, {
      body: { body: { markdown: 'Gone now' } },
    });
    expect(reply.status).toBe(200);
    // A new comment cannot anchor to the removed block.
    expect((await post(base, { page: guide, node: blocks[1], body: { markdown: 'x' } })).status).toBe(400);
  });

  it('shows the page commented on as the content now is, poll after poll', async () => {
    // What a thread shows of its page is kept by content hash: a poll after an edit must see the edit.
    const { base, spaceId, guide, blocks } = await setup();
    const onBlock = (await post(base, { page: guide, node: blocks[1], body: { markdown: 'About this' } })).body;
    const target = async () =>
      (await server.request('GET', `${base}/comments`)).body.items.find((x: { id: string }) => x.id === onBlock.id)
        .target;
    expect(await target()).toMatchObject({
      page: { id: guide, title: 'Guide', path: 'guide', outdated: false },
      node: { id: blocks[1], outdated: false },
    });
    const renamed = await server.request('POST', `${base}/content?compat=false`, {
      body: { changes: [{ operation: 'update_page', page: guide, title: 'Handbook', slug: 'handbook', emoji: '📘' }] },
    });
    expect(renamed.status).toBe(200);
    expect(await target()).toMatchObject({
      page: { id: guide, title: 'Handbook', emoji: '📘', path: 'handbook', outdated: false },
      node: { id: blocks[1], outdated: false },
    });
    const cut = await server.request('POST', `${base}/content?compat=false`, {
      body: { changes: [{ operation: 'update_page', page: guide, document: { markdown: '# Guide\n\nLast.' } }] },
    });
    expect(cut.status).toBe(200);
    expect(await target()).toMatchObject({
      page: { id: guide, title: 'Handbook', outdated: true },
      node: { id: blocks[1], outdated: true },
    });
    // The space itself still has the page as it was merged, with the block.
    const onSpace = (await post(`/v1/spaces/${spaceId}`, { page: guide, node: blocks[1], body: { markdown: 'x' } }))
      .body;
    expect(onSpace.target).toMatchObject({
      page: { id: guide, title: 'Guide', path: 'guide', outdated: false },
      node: { id: blocks[1], outdated: false },
    });
  });

  it('lists the members who commented or replied', async () => {
    const { base } = await setup();
    expect((await server.request('GET', `${base}/commenters`)).body).toEqual({ items: [], count: 0 });
    const c = (await post(base, { body: { markdown: 'x' } }, commenter.token)).body;
    await server.request('POST', `${base}/comments/${c.id}/replies`, { body: { body: { markdown: 'y' } } });
    await post(base, { body: { markdown: 'z' } }, commenter.token);
    const all = (await server.request('GET', `${base}/commenters`)).body;
    expect(all.count).toBe(2);
    expect(all.items.map((m: { id: string }) => m.id).sort()).toEqual([commenter.id, server.owner.id].sort());
    expect(all.items[0]).toMatchObject({ object: 'member', user: { object: 'user' }, role: expect.any(String) });
    const first = (await server.request('GET', `${base}/commenters?limit=1`)).body;
    const second = (await server.request('GET', `${base}/commenters?limit=1&page=${first.next.page}`)).body;
    expect([first.items[0].id, second.items[0].id].sort()).toEqual(all.items.map((m: { id: string }) => m.id).sort());
    expect(second.next).toBeUndefined();
    expect((await server.request('GET', `${base}/commenters`, { token: null })).status).toBe(401);
  });

  it('shows a comment posted through one server process to another sharing the database', async () => {
    const { base } = await setup();
    // A second server on the same database, as behind a load balancer: nothing lives in one process's memory.
    const storage = openStorage(server.config.storage);
    const { app: other } = await buildApp({ config: server.config, db: storage.db, consoleRoot: '/nonexistent' });
    await other.listen({ port: 0, host: '127.0.0.1' });
    try {
      const address = other.server.address();
      const otherUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
      const viaOther = (method: string, path: string, body?: unknown) =>
        fetch(otherUrl + path, {
          method,
          headers: {
            authorization: `Bearer ${commenter.token}`,
            ...(body ? { 'content-type': 'application/json' } : {}),
          },
          body: body ? JSON.stringify(body) : undefined,
        }).then(async (r) => ({ status: r.status, body: await r.json() }));
      const posted = (await post(base, { body: { markdown: 'From A' } })).body;
      const seen = await viaOther('GET', `${base}/comments?status=open`);
      expect(seen.body.items.map((c: { id: string }) => c.id)).toEqual([posted.id]);
      expect((await viaOther('PUT', `${base}/comments/${posted.id}`, { resolved: true })).status).toBe(200);
      expect((await server.request('GET', `${base}/comments?status=open`)).body.count).toBe(0);
      expect(await crCount(base)).toBe(0);
    } finally {
      await other.close();
      await storage.close();
    }
  });

  describe('polling with If-None-Match', () => {
    /** GET with the ETag of an earlier answer; answers the status and the new ETag. */
    async function poll(path: string, etag: string | null, token?: string | null) {
      const res = await server.request('GET', path, {
        headers: etag ? { 'if-none-match': etag } : {},
        ...(token !== undefined ? { token } : {}),
      });
      return { status: res.status, etag: res.headers.get('etag'), body: res.body, headers: res.headers };
    }

    it('answers 304 while no one writes to the threads, and 200 after every kind of write', async () => {
      const { base, guide, blocks } = await setup();
      const c = (await post(base, { page: guide, node: blocks[1], body: { markdown: 'First' } })).body;
      const list = `${base}/comments?limit=50`;
      const first = await poll(list, null);
      expect(first.status).toBe(200);
      expect(first.etag).toMatch(/^W\/".+"$/);
      expect(first.headers.get('cache-control')).toBe('private, no-cache');
      const same = await poll(list, first.etag);
      expect(same.status).toBe(304);
      expect(same.body).toBeUndefined();
      expect(same.etag).toBe(first.etag);

      // Each write by another member changes the answer: the old ETag no longer matches.
      let etag = first.etag;
      const writes: Array<[string, () => Promise<{ status: number }>]> = [
        ['a new thread', () => post(base, { body: { markdown: 'Second' } }, commenter.token)],
        [
          'a reply',
          () =>
            server.request('POST', `${base}/comments/${c.id}/replies`, {
              token: commenter.token,
              body: { body: { markdown: 'Yes' } },
            }),
        ],
        [
          'a reaction',
          () =>
            server.request('PUT', `${base}/comments/${c.id}`, {
              token: commenter.token,
              body: { addedReactions: ['🎉'] },
            }),
        ],
        ['a resolution', () => server.request('PUT', `${base}/comments/${c.id}`, { body: { resolved: true } })],
        [
          'an edit',
          () => server.request('PUT', `${base}/comments/${c.id}`, { body: { body: { markdown: 'Edited' } } }),
        ],
        [
          'an edit of the content commented on',
          () =>
            server.request('POST', `${base}/content?compat=false`, {
              body: { changes: [{ operation: 'update_page', page: guide, document: { markdown: '# Guide\n\nNew.' } }] },
            }),
        ],
        ['a deletion', () => server.request('DELETE', `${base}/comments/${c.id}`)],
      ];
      for (const [what, write] of writes) {
        expect((await write()).status, what).toBeLessThan(300);
        const after = await poll(list, etag);
        expect(after.status, what).toBe(200);
        expect(after.etag, what).not.toBe(etag);
        expect((await poll(list, after.etag)).status, what).toBe(304);
        etag = after.etag;
      }
      // The last answer shows the writes: the deleted thread is gone, the new one is there.
      const now = (await poll(list, null)).body;
      expect(now.items.map((x: { body: { markdown: string } }) => x.body.markdown)).toEqual(['Second']);
    });

    it('never answers 304 to another member, another query, an outsider or a removed member', async () => {
      const { base } = await setup();
      const c = (await post(base, { body: { markdown: 'Thread' } })).body;
      await server.request('POST', `${base}/comments/${c.id}/replies`, { body: { body: { markdown: 'Reply' } } });
      const list = `${base}/comments`;
      const mine = await poll(list, null);
      // The reader sees other permissions: an answer of their own, never the owner's.
      const theirs = await poll(list, mine.etag, reader.token);
      expect(theirs.status).toBe(200);
      expect(theirs.body.items[0].permissions.delete).toBe(false);
      expect(theirs.etag).not.toBe(mine.etag);
      expect((await poll(`${list}?status=open`, mine.etag)).status).toBe(200);
      expect((await poll(`${list}?format=document`, mine.etag)).status).toBe(200);

      const outsider = await server.signup('etag-outsider');
      expect((await poll(list, mine.etag, outsider.token)).status).toBe(404);
      expect((await poll(list, '*', outsider.token)).status).toBe(404);
      expect((await poll(list, mine.etag, null)).status).toBe(401);
      const removed = await server.member('read');
      const seen = await poll(list, null, removed.token);
      expect(seen.status).toBe(200);
      expect((await server.request('DELETE', `/v1/orgs/${server.orgId}/members/${removed.id}`)).status).toBe(205);
      expect((await poll(list, seen.etag, removed.token)).status).toBe(404);

      // The replies of a thread are polled the same way.
      const replies = `${base}/comments/${c.id}/replies`;
      const r1 = await poll(replies, null);
      expect(r1.status).toBe(200);
      expect((await poll(replies, r1.etag)).status).toBe(304);
      expect((await poll(replies, r1.etag, reader.token)).status).toBe(200);
      await server.request('POST', `${base}/comments/${c.id}/replies`, { body: { body: { markdown: 'Again' } } });
      const r2 = await poll(replies, r1.etag);
      expect(r2.status).toBe(200);
      expect(r2.body.count).toBe(2);
    });
  });

  describe('space comments', () => {
    it('serves the same threads on the space, apart from those of change requests', async () => {
      const { spaceId, base, guide, blocks } = await setup();
      const spaceBase = `/v1/spaces/${spaceId}`;
      const inCr = (await post(base, { body: { markdown: 'in CR' } })).body;
      const onSpace = await post(spaceBase, { page: guide, node: blocks[0], body: { markdown: 'on space' } });
      expect(onSpace.status).toBe(200);
      expect(onSpace.body.target.changeRequest).toBeUndefined();
      expect(onSpace.body.target.node).toMatchObject({ id: blocks[0], preview: 'Guide', outdated: false });
      expect(onSpace.body.urls.location).toMatch(new RegExp(`/v1/spaces/${spaceId}/comments/${onSpace.body.id}$`));
      expect((await server.request('GET', spaceBase)).body.comments).toBe(1);
      expect(await crCount(base)).toBe(1);

      const list = (await server.request('GET', `${spaceBase}/comments`)).body;
      expect(list.items.map((x: { id: string }) => x.id)).toEqual([onSpace.body.id]);
      // A change request's comment is not reachable as a space comment, nor the other way round.
      expect((await server.request('GET', `${spaceBase}/comments/${inCr.id}`)).status).toBe(404);
      expect((await server.request('GET', `${base}/comments/${onSpace.body.id}`)).status).toBe(404);
      expect((await server.request('DELETE', `${spaceBase}/comments/${inCr.id}`)).status).toBe(204);
      expect((await server.request('GET', `${base}/comments/${inCr.id}`)).status).toBe(200);

      const reply = await server.request('POST', `${spaceBase}/comments/${onSpace.body.id}/replies`, {
        body: { body: { markdown: 'ok' } },
      });
      expect(reply.status).toBe(200);
      expect((await server.request('GET', `${spaceBase}/commenters`)).body.count).toBe(1);
      await server.request('PUT', `${spaceBase}/comments/${onSpace.body.id}`, { body: { resolved: true } });
      expect((await server.request('GET', spaceBase)).body.comments).toBe(0);
    });

    it('refuses comments on a space in the trash, and hides another organization’s threads', async () => {
      const { spaceId, base } = await setup();
      const c = (await post(base, { body: { markdown: 'x' } })).body;
      expect((await server.request('DELETE', `/v1/spaces/${spaceId}`)).status).toBe(205);
      expect((await post(base, { body: { markdown: 'y' } })).status).toBe(409);
      expect((await server.request('PUT', `${base}/comments/${c.id}`, { body: { resolved: true } })).status).toBe(409);
      expect((await server.request('POST', `/v1/spaces/${spaceId}/restore`)).status).toBe(200);
      expect((await server.request('PUT', `${base}/comments/${c.id}`, { body: { resolved: true } })).status).toBe(200);

      const stranger = await server.signup('stranger');
      const theirOrg = await newOrg(server, 'Theirs', { token: stranger.token });
      const theirSpace = (
        await server.request('POST', `/v1/orgs/${theirOrg.id}/spaces`, { token: stranger.token, body: {} })
      ).body;
      const theirs = await post(`/v1/spaces/${theirSpace.id}`, { body: { markdown: 'private' } }, stranger.token);
      expect(theirs.status).toBe(200);
      for (const path of [
        `/v1/spaces/${theirSpace.id}/comments`,
        `/v1/spaces/${theirSpace.id}/comments/${theirs.body.id}`,
        `/v1/spaces/${theirSpace.id}/commenters`,
      ]) {
        expect((await server.request('GET', path)).status, path).toBe(404);
      }
      // Their comment id under our space is simply not there.
      expect((await server.request('GET', `/v1/spaces/${spaceId}/comments/${theirs.body.id}`)).status).toBe(404);
    });
  });
});
