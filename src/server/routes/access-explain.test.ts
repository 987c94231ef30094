import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeEachDialect, startTestServer, type TestServer, type TestUser } from '../test/harness.js';
import { newCollection, newOrg, newSpace, newTeam } from '../test/factories.js';

/**
 * "Why can this member see this?" (`GET …/permissions/explain?user=`): each rule of the resolver, named, and the
 * explained level is always the level the member's own requests get.
 */
describeEachDialect('access explanations', (dialect) => {
  let server: TestServer;
  let org: string;
  let reader: TestUser;
  let guest: TestUser;
  let creator: TestUser;
  let team: string;

  beforeAll(async () => {
    server = await startTestServer(dialect);
    org = server.orgId;
    [reader, guest, creator] = [await server.member('read'), await server.member(null), await server.member('create')];
    team = (await newTeam(server, org, { title: 'Writers', members: [reader.id, guest.id] })).id;
  });
  afterAll(() => server.close());

  const level = (kind: 'spaces' | 'collections', id: string, defaultLevel: string | null) =>
    server.request('PATCH', `/v1/${kind}/${id}`, { body: { defaultLevel } });
  const explain = (kind: 'spaces' | 'collections', id: string, user: TestUser, token?: string) =>
    server.request('GET', `/v1/${kind}/${id}/permissions/explain?user=${user.id}`, { token });

  /** The explanation, checked against what the member's own GET of the item says they may do. */
  async function why(kind: 'spaces' | 'collections', id: string, user: TestUser) {
    const res = await explain(kind, id, user);
    expect(res.status).toBe(200);
    expect(res.body.user.id).toBe(user.id);
    expect(res.body.reasons[0]).toEqual(res.body.reason);
    const own = await server.request('GET', `/v1/${kind}/${id}`, { token: user.token });
    if (res.body.level === null) expect(own.status).toBe(404);
    else {
      expect(own.status).toBe(200);
      expect(own.body.permissions.admin).toBe(res.body.level === 'admin');
      if (kind === 'spaces')
        expect(own.body.permissions.edit).toBe(['admin', 'create', 'review', 'edit'].includes(res.body.level));
    }
    return res.body;
  }

  it('names the organization role of an admin', async () => {
    const s = (await newSpace(server, org, { title: 'Item' })).id;
    const body = await why('spaces', s, server.owner);
    expect(body.level).toBe('admin');
    expect(body.reason).toEqual({ rule: 'organization-admin', role: 'admin' });
  });

  it('names the organization role when every default level inherits', async () => {
    const s = (await newSpace(server, org, { title: 'Plain' })).id;
    const body = await why('spaces', s, reader);
    expect(body).toMatchObject({ level: 'read', reason: { rule: 'organization-role', role: 'read' } });
  });

  it("names the space's own default level", async () => {
    const s = (await newSpace(server, org, { title: 'Open' })).id;
    expect((await level('spaces', s, 'comment')).status).toBe(200);
    const body = await why('spaces', s, reader);
    expect(body.level).toBe('comment');
    expect(body.reason).toEqual({
      rule: 'default-level',
      role: 'comment',
      item: { object: 'space', id: s, title: 'Open' },
    });
  });

  it('names the collection a space inherits its default level from, however deep', async () => {
    const outer = (await newCollection(server, org, { title: 'Guides' })).id;
    const inner = (await newCollection(server, org, { title: 'Inner', parent: outer })).id;
    const s = (await newSpace(server, org, { title: 'Deep', parent: inner })).id;
    await level('collections', outer, 'edit');
    const body = await why('spaces', s, reader);
    expect(body.level).toBe('edit');
    expect(body.reason).toEqual({
      rule: 'default-level',
      role: 'edit',
      item: { object: 'collection', id: outer, title: 'Guides' },
    });
    // On the collection itself too.
    expect((await why('collections', inner, reader)).reason.item.id).toBe(outer);
  });

  it('names a user grant, and the default level it raises', async () => {
    const s = (await newSpace(server, org, { title: 'Hidden' })).id;
    await level('spaces', s, null);
    expect((await why('spaces', s, creator)).reason).toMatchObject({ rule: 'default-level', role: null });
    await server.request('PATCH', `/v1/spaces/${s}/permissions/users/${creator.id}`, { body: { role: 'review' } });
    const body = await why('spaces', s, creator);
    expect(body.level).toBe('review');
    expect(body.reason).toEqual({
      rule: 'user-grant',
      role: 'review',
      item: { object: 'space', id: s, title: 'Hidden' },
    });
    expect(body.reasons[1]).toMatchObject({ rule: 'default-level', role: null, item: { id: s } });
  });

  it('names a team grant on a containing collection, naming the team', async () => {
    const guides = (await newCollection(server, org, { title: 'Team guides' })).id;
    const s = (await newSpace(server, org, { title: 'Handbook', parent: guides })).id;
    await level('collections', guides, null);
    await server.request('PATCH', `/v1/collections/${guides}/permissions/teams/${team}`, { body: { role: 'edit' } });
    const body = await why('spaces', s, reader);
    expect(body.level).toBe('edit');
    expect(body.reason).toEqual({
      rule: 'team-grant',
      role: 'edit',
      item: { object: 'collection', id: guides, title: 'Team guides' },
      team: { id: team, title: 'Writers' },
    });
  });

  it('gives the highest of several rules, listing the others after it', async () => {
    const box = (await newCollection(server, org, { title: 'Box' })).id;
    const s = (await newSpace(server, org, { title: 'Several', parent: box })).id;
    await level('spaces', s, 'comment');
    await server.request('PATCH', `/v1/spaces/${s}/permissions/users/${reader.id}`, { body: { role: 'read' } });
    await server.request('PATCH', `/v1/collections/${box}/permissions/teams/${team}`, { body: { role: 'review' } });
    const body = await why('spaces', s, reader);
    expect(body.level).toBe('review');
    expect(body.reasons.map((r: { rule: string; role: string }) => [r.rule, r.role])).toEqual([
      ['team-grant', 'review'],
      ['default-level', 'comment'],
      ['user-grant', 'read'],
    ]);
  });

  it('names the creator rule', async () => {
    const s = (await newSpace(server, org, { title: 'Mine', token: creator.token })).id;
    await level('spaces', s, 'read');
    const body = await why('spaces', s, creator);
    expect(body.level).toBe('admin');
    expect(body.reason).toEqual({ rule: 'creator', role: 'admin', item: { object: 'space', id: s, title: 'Mine' } });
  });

  it('says a guest gets nothing from default levels, until a grant', async () => {
    const s = (await newSpace(server, org, { title: 'For members' })).id;
    await level('spaces', s, 'edit');
    let body = await why('spaces', s, guest);
    expect(body).toMatchObject({ level: null, reason: { rule: 'guest', role: null } });
    await server.request('PATCH', `/v1/spaces/${s}/permissions/teams/${team}`, { body: { role: 'comment' } });
    body = await why('spaces', s, guest);
    expect(body).toMatchObject({ level: 'comment', reason: { rule: 'team-grant', team: { title: 'Writers' } } });
    expect(body.reasons[1]).toEqual({ rule: 'guest', role: null });
  });

  describe('who may ask', () => {
    it('lets a member ask about themselves, and only admins of the item ask about others', async () => {
      const s = (await newSpace(server, org, { title: 'Asked' })).id;
      expect((await explain('spaces', s, reader, reader.token)).status).toBe(200);
      const other = await explain('spaces', s, creator, reader.token);
      expect(other.status).toBe(403);
      expect(other.body.error.message).toContain('admin level on this space');
      // Even about someone who is not a member: the 403 comes first, so it tells nothing about them.
      const outsider = await server.signup('nobody');
      expect((await explain('spaces', s, outsider, reader.token)).status).toBe(403);
      // The creator is admin of what they made: they may ask about anyone.
      const mine = (await newCollection(server, org, { title: 'Made', token: creator.token })).id;
      expect((await explain('collections', mine, reader, creator.token)).status).toBe(200);
    });

    it('answers 404 to outsiders, to members who cannot see the item, and for users of another organization', async () => {
      const s = (await newSpace(server, org, { title: 'Private' })).id;
      const c = (await newCollection(server, org, { title: 'Private box' })).id;
      const stranger = await server.signup('stranger');
      const theirOrg = (await newOrg(server, 'Theirs', { token: stranger.token })).id;
      for (const [kind, id] of [
        ['spaces', s],
        ['collections', c],
      ] as const) {
        expect((await explain(kind, id, stranger, stranger.token)).status).toBe(404);
        expect((await explain(kind, id, reader, stranger.token)).status).toBe(404);
        const foreign = await explain(kind, id, stranger);
        expect(foreign.status).toBe(404);
        expect(foreign.body.error.message).toBe('Member not found');
        await level(kind, id, null);
        expect((await explain(kind, id, reader, reader.token)).status).toBe(404);
      }
      // Their organization's admin gets nothing about ours either.
      const theirSpace = await server.request('POST', `/v1/orgs/${theirOrg}/spaces`, {
        token: stranger.token,
        body: { title: 'Theirs' },
      });
      expect((await explain('spaces', theirSpace.body.id, reader, stranger.token)).status).toBe(404);
      expect((await explain('spaces', 'nope', reader)).status).toBe(404);
    });

    it('answers 400 naming the field for bad input', async () => {
      const s = (await newSpace(server, org, { title: 'Item' })).id;
      const missing = await server.request('GET', `/v1/spaces/${s}/permissions/explain`);
      expect(missing.status).toBe(400);
      expect(missing.body.error.issues[0].path).toBe('user');
      const empty = await server.request('GET', `/v1/collections/${s}/permissions/explain?user=`);
      expect(empty.status).toBe(400);
      expect(empty.body.error.issues[0].path).toBe('user');
      const long = await server.request('GET', `/v1/spaces/${s}/permissions/explain?user=${'x'.repeat(500)}`);
      expect(long.status).toBe(400);
    });

    it('needs a credential', async () => {
      const s = (await newSpace(server, org, { title: 'Item' })).id;
      const res = await fetch(`${server.url}/v1/spaces/${s}/permissions/explain?user=${reader.id}`);
      expect(res.status).toBe(401);
    });
  });

  it("counts a team's spaces through its grants on spaces and on collections, at any depth", async () => {
    const counted = (await newTeam(server, org, { title: 'Counted' })).id;
    const spaces = async () => {
      const [one, listed, granted] = await Promise.all([
        server.request('GET', `/v1/orgs/${org}/teams/${counted}`),
        server.request('GET', `/v1/orgs/${org}/teams?limit=100`),
        server.request('GET', `/v1/spaces/${direct}/permissions/teams`),
      ]);
      const inList = listed.body.items.find((t: { id: string }) => t.id === counted).spaces;
      const inGrants = granted.body.items.find((g: { team: { id: string } }) => g.team.id === counted)?.team.spaces;
      expect(inList).toBe(one.body.spaces);
      if (inGrants !== undefined) expect(inGrants).toBe(one.body.spaces);
      return one.body.spaces as number;
    };
    const direct = (await newSpace(server, org, { title: 'Direct' })).id;
    const outer = (await newCollection(server, org, { title: 'Counted outer' })).id;
    const inner = (await newCollection(server, org, { title: 'Counted inner', parent: outer })).id;
    const [a, b] = [
      (await newSpace(server, org, { title: 'Item', parent: outer })).id,
      (await newSpace(server, org, { title: 'Item', parent: inner })).id,
    ];
    expect(await spaces()).toBe(0);
    await server.request('PATCH', `/v1/spaces/${direct}/permissions/teams/${counted}`, { body: { role: 'read' } });
    expect(await spaces()).toBe(1);
    await server.request('PATCH', `/v1/collections/${outer}/permissions/teams/${counted}`, { body: { role: 'edit' } });
    expect(await spaces()).toBe(3);
    // Granted twice (on the space and on its collection): counted once.
    await server.request('PATCH', `/v1/spaces/${b}/permissions/teams/${counted}`, { body: { role: 'admin' } });
    expect(await spaces()).toBe(3);
    // A space in the trash is not counted.
    expect((await server.request('DELETE', `/v1/spaces/${a}`)).status).toBeLessThan(300);
    expect(await spaces()).toBe(2);
  });
});
