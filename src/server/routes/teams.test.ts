import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDialect, startTestServer, type TestServer } from '../test/harness.js';
import { newOrg } from '../test/factories.js';

describeEachDialect('teams', (dialect) => {
  let server: TestServer;
  let org: string;
  beforeAll(async () => {
    server = await startTestServer(dialect);
    org = server.orgId;
  });
  afterAll(() => server.close());

  const teams = `/v1/orgs/${'ORG'}/teams`;
  const path = (suffix = '') => `${teams.replace('ORG', org)}${suffix}`;
  const create = (body: unknown, token?: string) => server.request('PUT', path(), { body, token });
  const memberIds = async (teamId: string) =>
    (await server.request('GET', path(`/${teamId}/members?limit=1000`))).body.items.map(
      (m: { organization: { id: string }; team: { role: string } }) => `${m.organization.id}:${m.team.role}`,
    );

  it('creates a team with members (PUT, 201); title 1..64; members must belong to the organization', async () => {
    const a = await server.member('read');
    const res = await create({ title: 'Docs', members: [a.id] });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      object: 'team',
      title: 'Docs',
      members: 1,
      spaces: 0,
      permissions: { admin: true, view: true },
    });
    expect(res.body.createdAt).toEqual(expect.any(String));
    expect(await memberIds(res.body.id)).toEqual([`${a.id}:member`]);

    expect((await create({ title: 'x'.repeat(64) })).status).toBe(201);
    for (const [body, field] of [
      [{ title: 'x'.repeat(65) }, 'title'],
      [{ title: '' }, 'title'],
      [{ title: '   ' }, 'title'],
      [{}, 'title'],
      [{ title: 'T', members: 'nope' }, 'members'],
    ] as const) {
      const bad = await create(body);
      expect(bad.status, JSON.stringify(body)).toBe(400);
      expect(bad.body.error.issues.map((i: { path: string }) => i.path)).toContain(field);
    }
    const outsider = await server.signup('outsider');
    const foreign = await create({ title: 'T', members: [a.id, outsider.id] });
    expect(foreign.status).toBe(400);
    expect(foreign.body.error.issues[0].path).toBe('members.1');
  });

  it('is created by admins only: 403 for members, 404 for outsiders, 401 without a token', async () => {
    const editor = await server.member('edit');
    const outsider = await server.signup('outsider');
    expect((await create({ title: 'T' }, editor.token)).status).toBe(403);
    expect((await create({ title: 'T' }, outsider.token)).status).toBe(404);
    expect((await server.request('PUT', path(), { token: null, body: { title: 'T' } })).status).toBe(401);
  });

  it('lists teams with title and owner filters, paginated', async () => {
    const owner = await server.member('read');
    const t1 = (await create({ title: 'Alpha squad' })).body.id;
    const t2 = (await create({ title: 'Beta SQUAD' })).body.id;
    await create({ title: 'Gamma' });
    await server.request('PUT', path(`/${t2}/members/${owner.id}`), { body: { role: 'owner' } });
    const bySquad = await server.request('GET', path('?title=squad'));
    expect(bySquad.body.items.map((t: { id: string }) => t.id)).toEqual([t1, t2]);
    expect(bySquad.body.count).toBe(2);
    const owned = await server.request('GET', path(`?owner=${owner.id}`));
    expect(owned.body.items.map((t: { id: string }) => t.id)).toEqual([t2]);
    // An admin can manage every team.
    const all = await server.request('GET', path('?limit=1000'));
    expect((await server.request('GET', path(`?owner=${server.owner.id}&limit=1000`))).body.count).toBe(all.body.count);
    const unknownOwner = await server.request('GET', path('?owner=01nobody'));
    expect(unknownOwner.status).toBe(400);
    expect(unknownOwner.body.error.issues[0].path).toBe('owner');
    // Pages of one walk every team once.
    const seen: string[] = [];
    let page: string | undefined;
    do {
      const res = await server.request('GET', path(`?limit=1${page ? `&page=${page}` : ''}`));
      seen.push(...res.body.items.map((t: { id: string }) => t.id));
      page = res.body.next?.page;
    } while (page);
    expect(seen).toEqual(all.body.items.map((t: { id: string }) => t.id));
    // Members see teams; the list's permissions say who manages them.
    const asOwner = await server.request('GET', path('?title=squad'), { token: owner.token });
    expect(asOwner.body.items.map((t: { permissions: { admin: boolean } }) => t.permissions.admin)).toEqual([
      false,
      true,
    ]);
  });

  it('lets team owners manage their team without being admins; plain members get 403', async () => {
    const owner = await server.member('read');
    const plain = await server.member('read');
    const other = await server.member('edit');
    const team = (await create({ title: 'Owned', members: [plain.id] })).body.id;
    expect(
      (await server.request('PUT', path(`/${team}/members/${owner.id}`), { body: { role: 'owner' } })).status,
    ).toBe(204);
    const asOwner = await server.request('GET', path(`/${team}`), { token: owner.token });
    expect(asOwner.body.permissions).toEqual({ admin: true, view: true });
    const asPlain = await server.request('GET', path(`/${team}`), { token: plain.token });
    expect(asPlain.body.permissions).toEqual({ admin: false, view: true });

    expect(
      (await server.request('PATCH', path(`/${team}`), { token: owner.token, body: { title: 'Renamed' } })).body.title,
    ).toBe('Renamed');
    expect(
      (
        await server.request('PUT', path(`/${team}/members/${other.id}`), {
          token: owner.token,
          body: { role: 'member' },
        })
      ).status,
    ).toBe(204);
    expect(
      (await server.request('PUT', path(`/${team}/members`), { token: owner.token, body: { remove: [other.email] } }))
        .status,
    ).toBe(204);
    for (const [method, suffix, body] of [
      ['PATCH', `/${team}`, { title: 'Mine' }],
      ['PUT', `/${team}/members/${other.id}`, { role: 'owner' }],
      ['PUT', `/${team}/members`, { add: [other.id] }],
      ['DELETE', `/${team}/members/${owner.id}`, undefined],
      ['DELETE', `/${team}`, undefined],
    ] as const) {
      expect(
        (await server.request(method, path(suffix), { token: plain.token, body })).status,
        `${method} ${suffix}`,
      ).toBe(403);
    }
    // A member may leave on their own.
    expect((await server.request('DELETE', path(`/${team}/members/${plain.id}`), { token: plain.token })).status).toBe(
      205,
    );
    expect((await server.request('DELETE', path(`/${team}`), { token: owner.token })).status).toBe(205);
    expect((await server.request('DELETE', path(`/${team}`))).status).toBe(204);
    expect((await server.request('GET', path(`/${team}`))).status).toBe(404);
  });

  it('bulk-updates members: add by id or e-mail, roles, remove wins over add; all or nothing', async () => {
    const [a, b, c, d] = await Promise.all([
      server.member('read'),
      server.member('read'),
      server.member('read'),
      server.member('read'),
    ]);
    const team = (await create({ title: 'Bulk', members: [d.id] })).body.id;
    const res = await server.request('PUT', path(`/${team}/members`), {
      body: {
        add: [a.id, b.email.toUpperCase(), c.id],
        remove: [c.email, d.id],
        memberships: { [a.id]: { role: 'owner' } },
      },
    });
    expect(res.status).toBe(204);
    expect(res.body).toBeUndefined();
    expect((await memberIds(team)).sort()).toEqual([`${a.id}:owner`, `${b.id}:member`].sort());
    expect((await server.request('GET', path(`/${team}`))).body.members).toBe(2);

    const outsider = await server.signup('outsider');
    const bad = await server.request('PUT', path(`/${team}/members`), { body: { add: [c.id, outsider.email] } });
    expect(bad.status).toBe(400);
    expect(bad.body.error.issues[0].path).toBe('add.1');
    // Nothing of the refused request applied.
    expect((await memberIds(team)).sort()).toEqual([`${a.id}:owner`, `${b.id}:member`].sort());
    // At most 1000 users per list.
    const tooMany = await server.request('PUT', path(`/${team}/members`), {
      body: { add: Array.from({ length: 1001 }, () => a.id) },
    });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.error.issues[0].path).toBe('add');
    const max = await server.request('PUT', path(`/${team}/members`), {
      body: { add: Array.from({ length: 1000 }, () => a.id) },
    });
    expect(max.status).toBe(204);
    const badRole = await server.request('PUT', path(`/${team}/members`), {
      body: { memberships: { [b.id]: { role: 'boss' } } },
    });
    expect(badRole.status).toBe(400);
    const notMember = await server.request('PUT', path(`/${team}/members`), {
      body: { memberships: { [outsider.id]: { role: 'member' } } },
    });
    expect(notMember.status).toBe(400);
    expect(notMember.body.error.issues[0].path).toBe(`memberships.${outsider.id}`);

    // One member: 204 added or changed; 404 for a non-member; 205/204 on removal.
    expect((await server.request('PUT', path(`/${team}/members/${b.id}`), { body: { role: 'owner' } })).status).toBe(
      204,
    );
    expect(await memberIds(team)).toContain(`${b.id}:owner`);
    expect(
      (await server.request('PUT', path(`/${team}/members/${outsider.id}`), { body: { role: 'member' } })).status,
    ).toBe(404);
    expect((await server.request('PUT', path(`/${team}/members/${b.id}`), { body: { role: 'boss' } })).status).toBe(
      400,
    );
    expect((await server.request('DELETE', path(`/${team}/members/${b.id}`))).status).toBe(205);
    expect((await server.request('DELETE', path(`/${team}/members/${b.id}`))).status).toBe(204);
  });

  it('answers 404 across organizations and to outsiders; guests see only their own teams', async () => {
    const team = (await create({ title: 'Private matters' })).body.id;
    const outsider = await server.signup('outsider');
    const theirOrg = (await newOrg(server, 'Theirs', { token: outsider.token })).id;
    expect((await server.request('GET', path(`/${team}`), { token: outsider.token })).status).toBe(404);
    expect((await server.request('GET', `/v1/orgs/${theirOrg}/teams/${team}`, { token: outsider.token })).status).toBe(
      404,
    );
    expect(
      (
        await server.request('PATCH', `/v1/orgs/${theirOrg}/teams/${team}`, {
          token: outsider.token,
          body: { title: 'x' },
        })
      ).status,
    ).toBe(404);
    const guest = await server.member(null);
    expect((await server.request('GET', path(`/${team}`), { token: guest.token })).status).toBe(404);
    const own = (await create({ title: 'With guest', members: [guest.id] })).body.id;
    expect((await server.request('GET', path(`/${own}`), { token: guest.token })).status).toBe(200);
    const listed = await server.request('GET', path('?limit=1000'), { token: guest.token });
    expect(listed.body.items.map((t: { id: string }) => t.id)).toEqual([own]);
    expect((await server.request('GET', path(`/${team}/members`), { token: null })).status).toBe(401);
  });
});
