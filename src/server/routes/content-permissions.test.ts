import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeEachDialect, startTestServer, type TestServer, type TestUser } from '../test/harness.js';
import { newCollection, newOrg, newSpace, newTeam, seedPage } from '../test/factories.js';

/**
 * Grants on spaces and collections (to users and teams) through the API, and how the one resolver combines
 * them with default levels: grants only raise, cover everything inside a collection, and every list that
 * depends on access (organization spaces, collection spaces, collections, search) agrees with a direct GET.
 */
describeEachDialect('space and collection grants', (dialect) => {
  let server: TestServer;
  let org: string;
  let reader: TestUser;
  let guest: TestUser;
  let editor: TestUser;
  let team: string;

  beforeAll(async () => {
    server = await startTestServer(dialect);
    org = server.orgId;
    [reader, guest, editor] = [await server.member('read'), await server.member(null), await server.member('edit')];
    team = (await newTeam(server, org, { title: 'Granted', members: [reader.id, guest.id] })).id;
  });
  afterAll(() => server.close());

  /** A space with one page saying its title, so that the organization search (of page text) finds it. */
  async function space(body: Record<string, unknown> = {}) {
    const title = (body.title as string | undefined) ?? 'Grant me';
    const { id } = await newSpace(server, org, { ...body, title });
    await seedPage(server, id, title, `About the ${title}.`);
    return id;
  }

  const hide = (kind: 'spaces' | 'collections', id: string) =>
    server.request('PATCH', `/v1/${kind}/${id}`, { body: { defaultLevel: null } });
  const get = (kind: 'spaces' | 'collections', id: string, user: TestUser) =>
    server.request('GET', `/v1/${kind}/${id}`, { token: user.token });

  /** Everything that lists spaces for the user, by id. */
  async function listings(user: TestUser, query: string) {
    const [orgSpaces, search] = await Promise.all([
      server.request('GET', `/v1/orgs/${org}/spaces?limit=1000`, { token: user.token }),
      server.request('GET', `/v1/orgs/${org}/search?query=${encodeURIComponent(query)}&limit=1000`, {
        token: user.token,
      }),
    ]);
    return {
      spaces: orgSpaces.body.items.map((s: { id: string }) => s.id) as string[],
      search: search.body.items.map((s: { id: string }) => s.id) as string[],
      permissions: new Map(
        orgSpaces.body.items.map((s: { id: string; permissions: unknown }) => [s.id, s.permissions] as const),
      ),
    };
  }

  describe('a team grant on a hidden space', () => {
    it('shows it to the team (also to a guest in it), in every list, with the granted level', async () => {
      const s = await space({ title: 'Hidden handbook' });
      await hide('spaces', s);
      expect((await get('spaces', s, reader)).status).toBe(404);
      expect((await listings(reader, 'hidden handbook')).spaces).not.toContain(s);

      expect(
        (await server.request('PATCH', `/v1/spaces/${s}/permissions/teams/${team}`, { body: { role: 'edit' } })).status,
      ).toBe(204);
      for (const user of [reader, guest]) {
        const direct = await get('spaces', s, user);
        expect(direct.status).toBe(200);
        expect(direct.body.permissions).toMatchObject({ view: true, edit: true, admin: false });
        const listed = await listings(user, 'hidden handbook');
        expect(listed.spaces).toContain(s);
        expect(listed.search).toContain(s);
        expect(listed.permissions.get(s)).toEqual(direct.body.permissions);
      }
      // Not in the team: still hidden.
      expect((await get('spaces', s, editor)).status).toBe(404);
      expect((await listings(editor, 'hidden handbook')).search).not.toContain(s);

      // Leaving the team takes the access away at once.
      await server.request('DELETE', `/v1/orgs/${org}/teams/${team}/members/${guest.id}`);
      expect((await get('spaces', s, guest)).status).toBe(404);
      expect((await listings(guest, 'hidden handbook')).spaces).not.toContain(s);
      await server.request('PUT', `/v1/orgs/${org}/teams/${team}/members/${guest.id}`, { body: { role: 'member' } });

      // Removing the grant too.
      expect((await server.request('DELETE', `/v1/spaces/${s}/permissions/teams/${team}`)).status).toBe(205);
      expect((await server.request('DELETE', `/v1/spaces/${s}/permissions/teams/${team}`)).status).toBe(204);
      expect((await get('spaces', s, reader)).status).toBe(404);
      expect((await listings(reader, 'hidden handbook')).spaces).not.toContain(s);
    });
  });

  describe('a user grant on a collection', () => {
    it('covers the collection and everything nested in it, in the collection lists too', async () => {
      const outer = (await newCollection(server, org, { title: 'Outer' })).id;
      const inner = (await newCollection(server, org, { title: 'Inner', parent: outer })).id;
      const s = await space({ title: 'Deep space', parent: inner });
      const own = await space({ title: 'Own level', parent: inner });
      await hide('collections', outer);
      await hide('spaces', own);
      expect((await get('spaces', s, editor)).status).toBe(404);

      const invite = await server.request('POST', `/v1/collections/${outer}/permissions`, {
        body: { role: 'comment', users: [editor.id] },
      });
      expect(invite.status).toBe(204);
      for (const id of [outer, inner]) {
        const res = await get('collections', id, editor);
        expect(res.status).toBe(200);
        expect(res.body.permissions).toMatchObject({ view: true, admin: false });
      }
      for (const id of [s, own]) {
        expect((await get('spaces', id, editor)).body.permissions).toMatchObject({
          view: true,
          comment: true,
          edit: false,
        });
      }
      const collections = await server.request('GET', `/v1/orgs/${org}/collections?limit=1000`, {
        token: editor.token,
      });
      expect(collections.body.items.map((c: { id: string }) => c.id)).toEqual(expect.arrayContaining([outer, inner]));
      const inInner = await server.request('GET', `/v1/collections/${inner}/spaces`, { token: editor.token });
      expect(inInner.body.items.map((x: { id: string }) => x.id).sort()).toEqual([s, own].sort());
      const listed = await listings(editor, 'space');
      expect(listed.spaces).toEqual(expect.arrayContaining([s]));
      expect(listed.search).toContain(s);

      const users = await server.request('GET', `/v1/collections/${outer}/permissions/users`);
      expect(users.body.items).toEqual([
        expect.objectContaining({ permission: 'comment', user: expect.objectContaining({ id: editor.id }) }),
      ]);
      // null takes it away.
      expect(
        (
          await server.request('PATCH', `/v1/collections/${outer}/permissions/users/${editor.id}`, {
            body: { role: null },
          })
        ).status,
      ).toBe(204);
      expect((await get('spaces', s, editor)).status).toBe(404);
      expect((await get('collections', inner, editor)).status).toBe(404);
    });
  });

  it('grants only raise: a lower grant leaves a higher default level alone', async () => {
    const s = await space();
    await server.request('PATCH', `/v1/spaces/${s}/permissions/users/${editor.id}`, { body: { role: 'read' } });
    expect((await get('spaces', s, editor)).body.permissions).toMatchObject({ edit: true });
    await server.request('PATCH', `/v1/spaces/${s}/permissions/users/${reader.id}`, { body: { role: 'admin' } });
    expect((await get('spaces', s, reader)).body.permissions).toMatchObject({ admin: true });
    expect(
      (await server.request('PATCH', `/v1/spaces/${s}`, { token: reader.token, body: { visibility: 'public' } }))
        .status,
    ).toBe(200);
  });

  it('lists teams and users granted on a space; invites are validated; only space admins change grants', async () => {
    const s = await space();
    const bad = await server.request('POST', `/v1/spaces/${s}/permissions`, {
      body: { role: 'edit', users: [reader.id, '01nobody'] },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error.issues[0].path).toBe('users.1');
    const org2 = (await newOrg(server, 'Second')).id;
    const foreignTeam = (await newTeam(server, org2, { title: 'Foreign' })).id;
    const badTeam = await server.request('POST', `/v1/spaces/${s}/permissions`, {
      body: { role: 'edit', teams: [foreignTeam] },
    });
    expect(badTeam.status).toBe(400);
    expect(badTeam.body.error.issues[0].path).toBe('teams.0');
    expect(
      (await server.request('PATCH', `/v1/spaces/${s}/permissions/teams/${foreignTeam}`, { body: { role: 'read' } }))
        .status,
    ).toBe(404);
    const neither = await server.request('POST', `/v1/spaces/${s}/permissions`, { body: { role: 'edit' } });
    expect(neither.status).toBe(400);
    const badRole = await server.request('POST', `/v1/spaces/${s}/permissions`, {
      body: { role: 'owner', users: [reader.id] },
    });
    expect(badRole.status).toBe(400);
    expect(badRole.body.error.issues[0].path).toBe('role');

    const ok = await server.request('POST', `/v1/spaces/${s}/permissions`, {
      body: { role: 'review', users: [reader.id], teams: [team] },
    });
    expect(ok.status).toBe(204);
    const teams = await server.request('GET', `/v1/spaces/${s}/permissions/teams`, { token: reader.token });
    expect(teams.status).toBe(200);
    expect(teams.body.items).toEqual([
      {
        permission: 'review',
        team: expect.objectContaining({ id: team, title: 'Granted', spaces: expect.any(Number) }),
      },
    ]);
    const users = await server.request('GET', `/v1/spaces/${s}/permissions/users`);
    expect(users.body.items.map((u: { user: { id: string } }) => u.user.id)).toEqual([reader.id]);

    // An editor of the space cannot change who has access; an outsider does not see the space.
    expect(
      (
        await server.request('PATCH', `/v1/spaces/${s}/permissions/users/${guest.id}`, {
          token: editor.token,
          body: { role: 'admin' },
        })
      ).status,
    ).toBe(403);
    expect(
      (await server.request('DELETE', `/v1/spaces/${s}/permissions/users/${reader.id}`, { token: editor.token }))
        .status,
    ).toBe(403);
    const outsider = await server.signup('outsider');
    expect((await server.request('GET', `/v1/spaces/${s}/permissions/users`, { token: outsider.token })).status).toBe(
      404,
    );
    expect((await server.request('GET', `/v1/spaces/${s}/permissions/users`, { token: null })).status).toBe(401);
    expect((await server.request('DELETE', `/v1/spaces/${s}/permissions/users/${reader.id}`)).status).toBe(205);
    expect((await server.request('DELETE', `/v1/spaces/${s}/permissions/users/${reader.id}`)).status).toBe(204);
  });

  it("a team's spaces counter follows its live granted spaces", async () => {
    const counted = (await newTeam(server, org, { title: 'Counter' })).id;
    const [a, b] = [await space(), await space()];
    for (const id of [a, b]) {
      await server.request('PATCH', `/v1/spaces/${id}/permissions/teams/${counted}`, { body: { role: 'read' } });
    }
    expect((await server.request('GET', `/v1/orgs/${org}/teams/${counted}`)).body.spaces).toBe(2);
    await server.request('DELETE', `/v1/spaces/${b}`);
    expect((await server.request('GET', `/v1/orgs/${org}/teams/${counted}`)).body.spaces).toBe(1);
    // Deleting the team deletes its grants.
    await server.request('DELETE', `/v1/orgs/${org}/teams/${counted}`);
    expect((await server.request('GET', `/v1/spaces/${a}/permissions/teams`)).body.items).toEqual([]);
  });

  it('drops the grants of content transferred to another organization, whose people differ', async () => {
    const s = await space({ title: 'Leaving' });
    const c = (await newCollection(server, org, { title: 'Leaving box' })).id;
    const inside = await space({ title: 'In the box', parent: c });
    await server.request('PATCH', `/v1/spaces/${s}/permissions/teams/${team}`, { body: { role: 'edit' } });
    await server.request('PATCH', `/v1/collections/${c}/permissions/users/${reader.id}`, { body: { role: 'edit' } });
    await server.request('PATCH', `/v1/spaces/${inside}/permissions/users/${reader.id}`, { body: { role: 'edit' } });
    const target = (await newOrg(server, 'Destination')).id;
    expect((await server.request('POST', `/v1/spaces/${s}/transfer`, { body: { organization: target } })).status).toBe(
      200,
    );
    expect(
      (await server.request('POST', `/v1/collections/${c}/transfer`, { body: { organization: target } })).status,
    ).toBe(200);
    expect((await server.request('GET', `/v1/spaces/${s}/permissions/teams`)).body.items).toEqual([]);
    expect((await server.request('GET', `/v1/collections/${c}/permissions/users`)).body.items).toEqual([]);
    expect((await server.request('GET', `/v1/spaces/${inside}/permissions/users`)).body.items).toEqual([]);
    expect((await get('spaces', s, reader)).status).toBe(404);
  });

  it('limits one invitation to 100 users: 100 pass validation, 101 are a 400 naming users', async () => {
    const s = await space();
    const many = (n: number) => Array.from({ length: n }, () => reader.id);
    const ok = await server.request('POST', `/v1/spaces/${s}/permissions`, {
      body: { role: 'read', users: many(100) },
    });
    expect(ok.status).toBe(204);
    const tooMany = await server.request('POST', `/v1/spaces/${s}/permissions`, {
      body: { role: 'read', users: many(101) },
    });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.error.issues[0].path).toBe('users');
  });
});
