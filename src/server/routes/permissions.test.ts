import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeEachDialect, startTestServer, type TestServer, type TestUser } from '../test/harness.js';
import { newCollection, newSpace } from '../test/factories.js';

type Level = 'admin' | 'create' | 'edit' | 'review' | 'comment' | 'read' | 'inherit' | null;

/**
 * The precedence rule of src/server/domain/permissions/resolver.ts, exercised through the API:
 * org admin → admin everywhere; guests see nothing; otherwise the first non-`inherit` defaultLevel from the
 * space up through its collections, else the org role; a null defaultLevel hides the item (404); members with
 * the create role are admin of what they created.
 */
describeEachDialect('permissions', (dialect) => {
  let server: TestServer;
  let admin: TestUser;
  let creatorA: TestUser;
  let creatorB: TestUser;
  let editor: TestUser;
  let reader: TestUser;
  let guest: TestUser;

  beforeAll(async () => {
    server = await startTestServer(dialect);
    [admin, creatorA, creatorB, editor, reader, guest] = await Promise.all([
      server.member('admin'),
      server.member('create'),
      server.member('create'),
      server.member('edit'),
      server.member('read'),
      server.member(null),
    ]);
  });
  afterAll(() => server.close());

  /** Sets a default level as the owner (org admin). */
  async function setLevel(kind: 'collections' | 'spaces', id: string, defaultLevel: Level) {
    const res = await server.request('PATCH', `/v1/${kind}/${id}`, { body: { defaultLevel } });
    expect(res.status).toBe(200);
    expect(res.body.defaultLevel).toBe(defaultLevel);
  }

  async function get(kind: 'collections' | 'spaces', id: string, user: TestUser) {
    return server.request('GET', `/v1/${kind}/${id}`, { token: user.token });
  }

  async function spacePerms(id: string, user: TestUser) {
    const res = await get('spaces', id, user);
    expect(res.status).toBe(200);
    return res.body.permissions as Record<string, boolean>;
  }

  async function listedSpaceIds(user: TestUser, path = `/v1/orgs/${server.orgId}/spaces`): Promise<string[]> {
    const res = await server.request('GET', `${path}${path.includes('?') ? '&' : '?'}limit=1000`, {
      token: user.token,
    });
    expect(res.status).toBe(200);
    return res.body.items.map((s: { id: string }) => s.id);
  }

  async function listedCollectionIds(user: TestUser): Promise<string[]> {
    const res = await server.request('GET', `/v1/orgs/${server.orgId}/collections?limit=1000`, { token: user.token });
    expect(res.status).toBe(200);
    return res.body.items.map((c: { id: string }) => c.id);
  }

  describe('organization admins', () => {
    it('are admin of everything, even of items hidden with a null defaultLevel', async () => {
      const c = (await newCollection(server, server.orgId, { title: 'C' })).id;
      const nested = (await newCollection(server, server.orgId, { title: 'C', parent: c })).id;
      const s = (await newSpace(server, server.orgId, { title: 'S', parent: nested })).id;
      await setLevel('collections', c, null);
      await setLevel('spaces', s, null);

      for (const [kind, id] of [
        ['collections', c],
        ['collections', nested],
        ['spaces', s],
      ] as const) {
        const res = await get(kind, id, admin);
        expect(res.status).toBe(200);
        expect(res.body.permissions.admin).toBe(true);
      }
      expect(
        (await server.request('PATCH', `/v1/spaces/${s}`, { token: admin.token, body: { visibility: 'public' } }))
          .status,
      ).toBe(200);
      expect(await listedSpaceIds(admin)).toContain(s);
      expect(await listedCollectionIds(admin)).toEqual(expect.arrayContaining([c, nested]));
    });

    it('stay admin where a defaultLevel is lower than admin', async () => {
      const c = (await newCollection(server, server.orgId, { title: 'C' })).id;
      await setLevel('collections', c, 'read');
      const s = (await newSpace(server, server.orgId, { title: 'S', parent: c })).id;
      const perms = await spacePerms(s, admin);
      expect(perms).toMatchObject({ view: true, edit: true, admin: true });
    });
  });

  describe('guests (member role null)', () => {
    it('see no collection and no space, whatever their default levels', async () => {
      const open = (await newCollection(server, server.orgId, { title: 'C' })).id;
      await setLevel('collections', open, 'admin');
      const inOpen = (await newSpace(server, server.orgId, { title: 'S', parent: open })).id;
      const explicit = (await newSpace(server, server.orgId, { title: 'S' })).id;
      await setLevel('spaces', explicit, 'read');
      const inherited = (await newSpace(server, server.orgId, { title: 'S' })).id;

      for (const id of [open]) expect((await get('collections', id, guest)).status).toBe(404);
      for (const id of [inOpen, explicit, inherited]) expect((await get('spaces', id, guest)).status).toBe(404);
      expect((await server.request('GET', `/v1/collections/${open}/spaces`, { token: guest.token })).status).toBe(404);
      expect(
        (await server.request('PATCH', `/v1/spaces/${explicit}`, { token: guest.token, body: { title: 'x' } })).status,
      ).toBe(404);
    });

    it('get empty lists of spaces and collections', async () => {
      const explicit = (await newSpace(server, server.orgId, { title: 'S' })).id;
      await setLevel('spaces', explicit, 'read');
      const c = (await newCollection(server, server.orgId, { title: 'C' })).id;
      await setLevel('collections', c, 'edit');

      const spaces = await server.request('GET', `/v1/orgs/${server.orgId}/spaces`, { token: guest.token });
      expect(spaces.status).toBe(200);
      expect(spaces.body.items).toEqual([]);
      expect(spaces.body.count).toBe(0);
      const collections = await server.request('GET', `/v1/orgs/${server.orgId}/collections`, { token: guest.token });
      expect(collections.status).toBe(200);
      expect(collections.body.items).toEqual([]);
      expect(collections.body.count).toBe(0);
    });

    it('cannot create anything', async () => {
      const res = await server.request('POST', `/v1/orgs/${server.orgId}/spaces`, {
        token: guest.token,
        body: { title: 'x' },
      });
      expect(res.status).toBe(403);
    });
  });

  describe('the first non-inherit defaultLevel up the chain', () => {
    it('falls back to the organization role when every level is inherit', async () => {
      const c = (await newCollection(server, server.orgId, { title: 'C' })).id;
      const s = (await newSpace(server, server.orgId, { title: 'S', parent: c })).id;
      expect(await spacePerms(s, reader)).toMatchObject({ view: true, comment: false, edit: false, admin: false });
      expect(await spacePerms(s, editor)).toMatchObject({ view: true, comment: true, edit: true, admin: false });
      const col = await get('collections', c, editor);
      expect(col.body.permissions).toMatchObject({ view: true, create: false, admin: false });
    });

    it('takes the outer collection level through an inheriting inner collection, lowering and raising access', async () => {
      const outer = (await newCollection(server, server.orgId, { title: 'C' })).id;
      const inner = (await newCollection(server, server.orgId, { title: 'C', parent: outer })).id;
      const s = (await newSpace(server, server.orgId, { title: 'S', parent: inner })).id;
      await setLevel('collections', outer, 'comment');

      // Raised for a reader, lowered for an editor.
      expect(await spacePerms(s, reader)).toMatchObject({ view: true, comment: true, edit: false });
      expect(await spacePerms(s, editor)).toMatchObject({ view: true, comment: true, edit: false });
      expect(
        (await server.request('PATCH', `/v1/spaces/${s}`, { token: editor.token, body: { title: 'x' } })).status,
      ).toBe(403);
      expect((await get('collections', inner, reader)).body.permissions).toMatchObject({ view: true, admin: false });
    });

    it('prefers the inner collection level over the outer one', async () => {
      const outer = (await newCollection(server, server.orgId, { title: 'C' })).id;
      const inner = (await newCollection(server, server.orgId, { title: 'C', parent: outer })).id;
      const s = (await newSpace(server, server.orgId, { title: 'S', parent: inner })).id;
      await setLevel('collections', outer, null);
      await setLevel('collections', inner, 'edit');

      expect((await get('collections', outer, reader)).status).toBe(404);
      expect((await get('collections', inner, reader)).status).toBe(200);
      expect(await spacePerms(s, reader)).toMatchObject({ view: true, edit: true, admin: false });
      const url = `/v1/spaces/${s}`;
      expect((await server.request('PATCH', url, { token: reader.token, body: { title: 'By reader' } })).status).toBe(
        200,
      );
      expect((await server.request('PATCH', url, { token: reader.token, body: { visibility: 'public' } })).status).toBe(
        403,
      );
    });

    it("prefers the space's own level over its collections'", async () => {
      const c = (await newCollection(server, server.orgId, { title: 'C' })).id;
      await setLevel('collections', c, 'admin');
      const s = (await newSpace(server, server.orgId, { title: 'S', parent: c })).id;
      await setLevel('spaces', s, 'read');
      expect(await spacePerms(s, editor)).toMatchObject({ view: true, edit: false, admin: false });
      expect(
        (await server.request('PATCH', `/v1/spaces/${s}`, { token: editor.token, body: { title: 'x' } })).status,
      ).toBe(403);
      // Back to inherit: the collection's admin level applies again.
      await setLevel('spaces', s, 'inherit');
      expect(await spacePerms(s, editor)).toMatchObject({ edit: true, admin: true });
    });

    it('a space level shows the space even inside a hidden collection', async () => {
      const c = (await newCollection(server, server.orgId, { title: 'C' })).id;
      await setLevel('collections', c, null);
      const visible = (await newSpace(server, server.orgId, { title: 'S', parent: c })).id;
      const hidden = (await newSpace(server, server.orgId, { title: 'S', parent: c })).id;
      await setLevel('spaces', visible, 'read');

      expect((await get('collections', c, reader)).status).toBe(404);
      expect((await get('spaces', visible, reader)).status).toBe(200);
      expect((await get('spaces', hidden, reader)).status).toBe(404);
      const listed = await listedSpaceIds(reader);
      expect(listed).toContain(visible);
      expect(listed).not.toContain(hidden);
    });

    it('a defaultLevel of admin makes members admins of the item and of what inherits from it', async () => {
      const c = (await newCollection(server, server.orgId, { title: 'C' })).id;
      await setLevel('collections', c, 'admin');
      const s = (await newSpace(server, server.orgId, { title: 'S', parent: c })).id;

      const col = await get('collections', c, reader);
      expect(col.body.permissions).toMatchObject({ view: true, admin: true, create: true });
      expect(
        (await server.request('PATCH', `/v1/collections/${c}`, { token: reader.token, body: { title: 'Reader' } }))
          .status,
      ).toBe(200);
      expect(await spacePerms(s, reader)).toMatchObject({ admin: true, edit: true });
      // The level also lets them create inside it, but not at the top of the organization.
      const inside = await server.request('POST', `/v1/orgs/${server.orgId}/spaces`, {
        token: reader.token,
        body: { title: 'Inside', parent: c },
      });
      expect(inside.status).toBe(201);
      const top = await server.request('POST', `/v1/orgs/${server.orgId}/spaces`, {
        token: reader.token,
        body: { title: 'Top' },
      });
      expect(top.status).toBe(403);
      expect((await server.request('DELETE', `/v1/spaces/${s}`, { token: reader.token })).status).toBe(205);
    });

    it('a create level lets a reader create inside a collection without becoming admin of the result', async () => {
      const c = (await newCollection(server, server.orgId, { title: 'C' })).id;
      await setLevel('collections', c, 'create');
      const res = await server.request('POST', `/v1/orgs/${server.orgId}/spaces`, {
        token: reader.token,
        body: { title: 'Mine', parent: c },
      });
      expect(res.status).toBe(201);
      expect(res.body.permissions).toMatchObject({ view: true, edit: true, admin: false });
      expect((await server.request('DELETE', `/v1/spaces/${res.body.id}`, { token: reader.token })).status).toBe(403);
      expect((await get('collections', c, reader)).body.permissions).toMatchObject({ create: true, admin: false });
    });

    it('list entries carry the same permissions as a direct GET', async () => {
      const c = (await newCollection(server, server.orgId, { title: 'C' })).id;
      await setLevel('collections', c, 'edit');
      const s = (await newSpace(server, server.orgId, { title: 'S', parent: c })).id;
      const direct = await spacePerms(s, reader);
      const org = await server.request('GET', `/v1/orgs/${server.orgId}/spaces?limit=1000`, { token: reader.token });
      const fromOrg = org.body.items.find((x: { id: string }) => x.id === s);
      expect(fromOrg.permissions).toEqual(direct);
      const inCol = await server.request('GET', `/v1/collections/${c}/spaces`, { token: reader.token });
      expect(inCol.body.items.map((x: { id: string }) => x.id)).toEqual([s]);
      expect(inCol.body.items[0].permissions).toEqual(direct);
      const cols = await server.request('GET', `/v1/orgs/${server.orgId}/collections?limit=1000`, {
        token: reader.token,
      });
      const listed = cols.body.items.find((x: { id: string }) => x.id === c);
      expect(listed.permissions).toEqual((await get('collections', c, reader)).body.permissions);
    });
  });

  describe('a null defaultLevel', () => {
    it('hides a collection and everything inheriting from it from non-admin members (404, not listed)', async () => {
      const c = (await newCollection(server, server.orgId, { title: 'C' })).id;
      const nested = (await newCollection(server, server.orgId, { title: 'C', parent: c })).id;
      const s = (await newSpace(server, server.orgId, { title: 'S', parent: nested })).id;
      await setLevel('collections', c, null);

      for (const user of [reader, editor, creatorB]) {
        expect((await get('collections', c, user)).status).toBe(404);
        expect((await get('collections', nested, user)).status).toBe(404);
        expect((await get('spaces', s, user)).status).toBe(404);
        expect((await server.request('GET', `/v1/collections/${c}/spaces`, { token: user.token })).status).toBe(404);
        expect(await listedCollectionIds(user)).not.toEqual(expect.arrayContaining([c]));
        expect(await listedCollectionIds(user)).not.toContain(nested);
        expect(await listedSpaceIds(user)).not.toContain(s);
      }
      // Writes answer 404 too, never 403, so the item's existence does not leak.
      expect(
        (await server.request('PATCH', `/v1/collections/${c}`, { token: editor.token, body: { title: 'x' } })).status,
      ).toBe(404);
      expect(
        (await server.request('PATCH', `/v1/spaces/${s}`, { token: editor.token, body: { title: 'x' } })).status,
      ).toBe(404);
      expect((await server.request('DELETE', `/v1/spaces/${s}`, { token: editor.token })).status).toBe(404);
      // A hidden collection cannot be used as a parent either.
      const create = await server.request('POST', `/v1/orgs/${server.orgId}/spaces`, {
        token: creatorB.token,
        body: { title: 'x', parent: c },
      });
      expect(create.status).toBe(400);
      expect(create.body.error.issues.map((i: { path: string }) => i.path)).toContain('parent');
    });

    it('hides a space at the root from members whose role is higher', async () => {
      const s = (await newSpace(server, server.orgId, { title: 'S' })).id;
      await setLevel('spaces', s, null);
      for (const user of [reader, editor, creatorB]) expect((await get('spaces', s, user)).status).toBe(404);
      expect(await listedSpaceIds(editor)).not.toContain(s);
      // Back to inherit: visible again with the org role.
      await setLevel('spaces', s, 'inherit');
      expect(await spacePerms(s, editor)).toMatchObject({ view: true, edit: true, admin: false });
    });

    it("on a space beats its collection's level", async () => {
      const c = (await newCollection(server, server.orgId, { title: 'C' })).id;
      await setLevel('collections', c, 'admin');
      const s = (await newSpace(server, server.orgId, { title: 'S', parent: c })).id;
      await setLevel('spaces', s, null);
      expect((await get('collections', c, reader)).status).toBe(200);
      expect((await get('spaces', s, reader)).status).toBe(404);
      expect(await listedSpaceIds(reader, `/v1/collections/${c}/spaces`)).not.toContain(s);
      expect(await listedSpaceIds(reader)).not.toContain(s);
    });
  });

  describe('creators', () => {
    it('with the create role are admin of the collections and spaces they created, even when hidden', async () => {
      const c = (await newCollection(server, server.orgId, { title: 'C', token: creatorA.token })).id;
      const s = (await newSpace(server, server.orgId, { title: 'S', token: creatorA.token })).id;
      const inside = (await newSpace(server, server.orgId, { title: 'S', parent: c, token: creatorA.token })).id;
      await setLevel('collections', c, null);
      await setLevel('spaces', s, null);

      expect((await get('collections', c, creatorA)).body.permissions).toMatchObject({ view: true, admin: true });
      expect(await spacePerms(s, creatorA)).toMatchObject({ view: true, admin: true });
      expect(await spacePerms(inside, creatorA)).toMatchObject({ admin: true });
      expect(
        (await server.request('PATCH', `/v1/spaces/${s}`, { token: creatorA.token, body: { visibility: 'public' } }))
          .status,
      ).toBe(200);
      expect(await listedCollectionIds(creatorA)).toContain(c);
      expect(await listedSpaceIds(creatorA)).toEqual(expect.arrayContaining([s]));

      // Another member with the same role gets nothing.
      expect((await get('collections', c, creatorB)).status).toBe(404);
      expect((await get('spaces', s, creatorB)).status).toBe(404);
      expect(await listedSpaceIds(creatorB)).not.toContain(s);
    });

    it('stay admin when the defaultLevel of their item is lower', async () => {
      const s = (await newSpace(server, server.orgId, { title: 'S', token: creatorA.token })).id;
      await setLevel('spaces', s, 'read');
      expect(await spacePerms(s, creatorA)).toMatchObject({ admin: true });
      expect(await spacePerms(s, creatorB)).toMatchObject({ view: true, edit: false, admin: false });
      expect((await server.request('DELETE', `/v1/spaces/${s}`, { token: creatorA.token })).status).toBe(205);
    });

    it('lose the creator rule when their role drops below create', async () => {
      const demoted = await server.member('create');
      const s = (await newSpace(server, server.orgId, { title: 'S', token: demoted.token })).id;
      expect(await spacePerms(s, demoted)).toMatchObject({ admin: true });
      const demote = await server.request('PATCH', `/v1/orgs/${server.orgId}/members/${demoted.id}`, {
        body: { role: 'read' },
      });
      expect(demote.status).toBe(200);
      expect(await spacePerms(s, demoted)).toMatchObject({ view: true, admin: false, edit: false });
      expect((await server.request('DELETE', `/v1/spaces/${s}`, { token: demoted.token })).status).toBe(403);
    });
  });

  describe('disabled members', () => {
    it('are treated as outsiders (404 everywhere)', async () => {
      const user = await server.member('edit');
      const s = (await newSpace(server, server.orgId, { title: 'S' })).id;
      expect((await get('spaces', s, user)).status).toBe(200);
      // Disabled by hand: no endpoint disables a member.
      await server.storage.db
        .updateTable('members')
        .set({ disabled: 1 })
        .where('organization_id', '=', server.orgId)
        .where('user_id', '=', user.id)
        .execute();
      expect((await get('spaces', s, user)).status).toBe(404);
      expect((await server.request('GET', `/v1/orgs/${server.orgId}`, { token: user.token })).status).toBe(404);
      const orgs = await server.request('GET', '/v1/orgs', { token: user.token });
      expect(orgs.body.items).toEqual([]);
      expect(orgs.body.count).toBe(0);
    });
  });
});

describeEachDialect('permissions: lists agree with direct access', (dialect) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(dialect);
  });
  afterAll(() => server.close());

  it('a creator of a hidden collection does not see, in lists, the spaces others put in it', async () => {
    const creator = await server.member('create');
    const hidden = await server.request('POST', `/v1/orgs/${server.orgId}/collections`, {
      token: creator.token,
      body: { title: 'Hidden' },
    });
    await server.request('PATCH', `/v1/collections/${hidden.body.id}`, { body: { defaultLevel: null } });
    const space = await server.request('POST', `/v1/orgs/${server.orgId}/spaces`, {
      body: { title: 'Owner only', parent: hidden.body.id },
    });
    expect((await server.request('GET', `/v1/spaces/${space.body.id}`, { token: creator.token })).status).toBe(404);
    for (const path of [`/v1/orgs/${server.orgId}/spaces`, `/v1/collections/${hidden.body.id}/spaces`]) {
      const list = await server.request('GET', `${path}?limit=1000`, { token: creator.token });
      expect(
        list.body.items.map((s: { id: string }) => s.id),
        path,
      ).not.toContain(space.body.id);
    }
    // The collection itself stays theirs.
    const collections = await server.request('GET', `/v1/orgs/${server.orgId}/collections`, { token: creator.token });
    expect(collections.body.items.map((c: { id: string }) => c.id)).toContain(hidden.body.id);
  });

  it('deleting a collection gives nobody access to the spaces that were hidden in it', async () => {
    const reader = await server.member('read');
    const hidden = await server.request('POST', `/v1/orgs/${server.orgId}/collections`, { body: { title: 'Private' } });
    await server.request('PATCH', `/v1/collections/${hidden.body.id}`, { body: { defaultLevel: null } });
    const space = await server.request('POST', `/v1/orgs/${server.orgId}/spaces`, {
      body: { title: 'Secret', parent: hidden.body.id },
    });
    await server.request('PATCH', `/v1/spaces/${space.body.id}`, { body: { visibility: 'in-collection' } });
    expect((await server.request('GET', `/v1/spaces/${space.body.id}`, { token: reader.token })).status).toBe(404);

    expect((await server.request('DELETE', `/v1/collections/${hidden.body.id}`)).status).toBe(205);
    expect((await server.request('GET', `/v1/spaces/${space.body.id}`, { token: reader.token })).status).toBe(404);
    const trash = await server.request('GET', `/v1/orgs/${server.orgId}/spaces?deleted=true`, { token: reader.token });
    expect(trash.body.items.map((s: { id: string }) => s.id)).not.toContain(space.body.id);

    const restored = await server.request('POST', `/v1/spaces/${space.body.id}/restore`);
    expect(restored.status).toBe(200);
    expect(restored.body).toMatchObject({ defaultLevel: null, visibility: 'private' });
    expect(restored.body.parent).toBeUndefined();
    expect((await server.request('GET', `/v1/spaces/${space.body.id}`, { token: reader.token })).status).toBe(404);
  });
});
