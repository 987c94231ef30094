import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  describeEachDialect,
  startTestServer,
  withClockAhead,
  type TestServer,
  MEMBER_PASSWORD,
} from '../test/harness.js';
import { joinOrg, newOrg, newSpace, newTeam } from '../test/factories.js';

describeEachDialect('members', (dialect) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(dialect);
  });
  afterAll(() => server.close());

  const path = (userId: string, orgId = server.orgId) => `/v1/orgs/${orgId}/members/${userId}`;

  it('shows a member to other members, and 404 to outsiders', async () => {
    const reader = await server.member('read');
    const res = await server.request('GET', path(reader.id), { token: reader.token });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ object: 'member', id: reader.id, role: 'read', user: { email: reader.email } });
    const outsider = await server.signup('outsider');
    expect((await server.request('GET', path(reader.id), { token: outsider.token })).status).toBe(404);
    expect((await server.request('GET', path(reader.id), { token: null })).status).toBe(401);
  });

  it("refuses a guest another member's record (403, no e-mail), as the member list does; a guest reads themselves", async () => {
    const guest = await server.member(null);
    const reader = await server.member('read');
    for (const target of [reader.id, server.owner.id, 'no-such-user']) {
      const res = await server.request('GET', path(target), { token: guest.token });
      expect(res.status).toBe(403);
      expect(JSON.stringify(res.body)).not.toContain('@example.com');
    }
    const self = await server.request('GET', path(guest.id), { token: guest.token });
    expect(self.status).toBe(200);
    expect(self.body).toMatchObject({ id: guest.id, user: { email: guest.email } });
    expect(self.body.role).toBeNull();
    // Nothing changed: the reader is still there, with their role, for those allowed to see them.
    const after = await server.request('GET', path(reader.id), { token: reader.token });
    expect(after.body).toMatchObject({ id: reader.id, role: 'read', user: { email: reader.email } });
  });

  it('lets admins change roles; others get 403; bad roles 400', async () => {
    const editor = await server.member('edit');
    const res = await server.request('PATCH', path(editor.id), { body: { role: 'review' } });
    expect(res.status).toBe(200);
    expect(res.body.role).toBe('review');
    expect(
      (await server.request('PATCH', path(server.owner.id), { token: editor.token, body: { role: 'read' } })).status,
    ).toBe(403);
    const bad = await server.request('PATCH', path(editor.id), { body: { role: 'owner' } });
    expect(bad.status).toBe(400);
    expect(bad.body.error.issues[0].path).toBe('role');
  });

  it('never demotes or removes the last admin', async () => {
    const demote = await server.request('PATCH', path(server.owner.id), { body: { role: 'edit' } });
    expect(demote.status).toBe(409);
    expect(demote.body.error.message).toMatch(/at least one admin/);
    expect((await server.request('DELETE', path(server.owner.id))).status).toBe(409);
    expect((await server.request('GET', path(server.owner.id))).body.role).toBe('admin');
  });

  it('keeps one admin when two admins demote each other at once', async () => {
    const org = (await newOrg(server, 'Race org')).id;
    const other = await server.member('admin', org);
    const [a, b] = await Promise.all([
      server.request('PATCH', path(other.id, org), { body: { role: 'read' } }),
      server.request('PATCH', path(server.owner.id, org), { token: other.token, body: { role: 'read' } }),
    ]);
    // One demotion wins; the other is refused, as last admin (409) or because its caller is no longer admin (403).
    const statuses = [a.status, b.status].sort();
    expect(statuses[0]).toBe(200);
    expect([403, 409]).toContain(statuses[1]);
    const roles = await Promise.all([
      server.request('GET', path(other.id, org)),
      server.request('GET', path(server.owner.id, org), { token: other.token }),
    ]);
    expect(roles.filter((r) => r.body.role === 'admin')).toHaveLength(1);
  });

  it('removes members (205), answers 204 for non-members, and lets a member leave', async () => {
    const reader = await server.member('read');
    expect((await server.request('DELETE', path(reader.id))).status).toBe(205);
    expect((await server.request('DELETE', path(reader.id))).status).toBe(204);
    expect((await server.request('GET', `/v1/orgs/${server.orgId}`, { token: reader.token })).status).toBe(404);
    const leaver = await server.member('comment');
    expect((await server.request('DELETE', path(leaver.id), { token: leaver.token })).status).toBe(205);
    const victim = await server.member('read');
    const editor = await server.member('edit');
    expect((await server.request('DELETE', path(victim.id), { token: editor.token })).status).toBe(403);
  });
});

describeEachDialect('members: lists, ping, SSO flag, spaces and teams', (dialect) => {
  let server: TestServer;
  let org: string;
  beforeAll(async () => {
    server = await startTestServer(dialect);
    org = server.orgId;
  });
  afterAll(() => server.close());

  const list = (query: string, token?: string) => server.request('GET', `/v1/orgs/${org}/members?${query}`, { token });
  const ids = (res: { body: { items: Array<{ id: string }> } }) => res.body.items.map((m) => m.id);

  it('searches display names and e-mails, filters by role (guests too), orders and paginates', async () => {
    const a = await server.member('read');
    const b = await server.member('edit');
    const g = await server.member(null);
    // Search: e-mail fragment, display-name fragment, case-insensitive; % and _ are literal.
    expect(ids(await list(`search=${encodeURIComponent(a.email.slice(0, 12).toUpperCase())}`))).toEqual([a.id]);
    expect(ids(await list('search=GUEST'))).toEqual([g.id]);
    expect((await list('search=%25')).body.items).toEqual([]);
    expect(ids(await list('role=guest'))).toEqual([g.id]);
    expect(ids(await list('role=edit'))).toEqual([b.id]);
    expect(ids(await list('role=admin'))).toEqual([server.owner.id]);
    const all = await list('limit=1000');
    expect(all.body.count).toBe(4);
    // Newest first by default; asc reverses.
    expect(ids(all)).toEqual([g.id, b.id, a.id, server.owner.id]);
    expect(ids(await list('order=asc'))).toEqual([server.owner.id, a.id, b.id, g.id]);
    // Keyset pages of 1 walk the same order, with no repeat.
    const walked: string[] = [];
    let page: string | undefined;
    do {
      const res = await list(`limit=1${page ? `&page=${page}` : ''}`);
      expect(res.body.count).toBe(4);
      walked.push(...ids(res));
      page = res.body.next?.page;
    } while (page);
    expect(walked).toEqual(ids(all));
  });

  it('sorts by last-seen time, listing only members seen at least once; ping sets it', async () => {
    const x = await server.member('read');
    const y = await server.member('read');
    expect(ids(await list('sort=lastSeenAt'))).not.toContain(x.id);
    expect((await server.request('POST', `/v1/orgs/${org}/ping`, { token: x.token })).status).toBe(200);
    const pinged = await withClockAhead(1000, () => server.request('POST', `/v1/orgs/${org}/ping`, { token: y.token }));
    expect(pinged.status).toBe(200);
    const seen = await list('sort=lastSeenAt');
    expect(ids(seen)).toEqual([y.id, x.id]);
    expect(seen.body.count).toBe(2);
    expect(seen.body.items[0].lastSeenAt).toEqual(expect.any(String));
    expect(ids(await list('sort=lastSeenAt&order=asc'))).toEqual([x.id, y.id]);
    // A cursor belongs to its sort.
    const first = await list('sort=lastSeenAt&limit=1');
    expect(ids(await list(`sort=lastSeenAt&limit=1&page=${first.body.next.page}`))).toEqual([x.id]);
    const mixed = await list(`sort=joinedAt&page=${first.body.next.page}`);
    expect(mixed.status).toBe(400);
    expect(mixed.body.error.issues[0].path).toBe('page');
  });

  it('refuses bad list parameters with a 400 naming them; limit 1000 passes, 1001 does not', async () => {
    for (const [query, field] of [
      ['sort=name', 'sort'],
      ['role=owner', 'role'],
      ['order=up', 'order'],
      ['limit=1001', 'limit'],
      [`search=${'x'.repeat(101)}`, 'search'],
      ['page=garbage', 'page'],
    ]) {
      const res = await list(query!);
      expect(res.status, query).toBe(400);
      expect(res.body.error.issues.map((i: { path: string }) => i.path)).toContain(field);
    }
    expect((await list('limit=1000')).status).toBe(200);
    expect((await list(`search=${'x'.repeat(100)}`)).status).toBe(200);
  });

  it('lists members to members only: 403 for guests, 404 for outsiders, 401 without a token', async () => {
    const guest = await server.member(null);
    const outsider = await server.signup('outsider');
    expect((await list('', guest.token)).status).toBe(403);
    expect((await list('', outsider.token)).status).toBe(404);
    expect((await server.request('GET', `/v1/orgs/${org}/members`, { token: null })).status).toBe(401);
  });

  it('ping answers serviceVisitorClaims: a JWT that any process of the deployment verifies', async () => {
    const editor = await server.member('edit');
    const team = await server.request('PUT', `/v1/orgs/${org}/teams`, {
      body: { title: 'Claims', members: [editor.id] },
    });
    const res = await server.request('POST', `/v1/orgs/${org}/ping`, { token: editor.token });
    expect(res.status).toBe(200);
    const token = res.body.serviceVisitorClaims as string;
    expect(token.split('.')).toHaveLength(3);
    // Another process: its own connection to the same database, nothing shared in memory.
    const { openStorage } = await import('../storage/db.js');
    const { verifyServiceVisitorClaims } = await import('../domain/auth/visitor-claims.js');
    const other = openStorage(server.config.storage);
    try {
      const claims = await verifyServiceVisitorClaims(other.db, token);
      expect(claims).toMatchObject({
        userId: editor.id,
        organization: org,
        role: 'edit',
        email: editor.email,
        teams: [team.body.id],
        sso: false,
      });
      expect(claims!.expiresAt).toBeGreaterThan(Date.now() / 1000);
      const [h, p, s] = token.split('.');
      const forged = Buffer.from(
        JSON.stringify({ ...JSON.parse(Buffer.from(p!, 'base64url').toString()), role: 'admin' }),
      ).toString('base64url');
      expect(await verifyServiceVisitorClaims(other.db, `${h}.${forged}.${s}`)).toBeNull();
      expect(await verifyServiceVisitorClaims(other.db, 'not-a-jwt')).toBeNull();
      // One key in the database, however many processes signed.
      const second = await server.request('POST', `/v1/orgs/${org}/ping`, { token: editor.token });
      expect(await verifyServiceVisitorClaims(other.db, second.body.serviceVisitorClaims)).not.toBeNull();
      const keys = await other.db.selectFrom('server_secrets').selectAll().execute();
      expect(keys).toHaveLength(1);
    } finally {
      await other.close();
    }
    const outsider = await server.signup('outsider');
    expect((await server.request('POST', `/v1/orgs/${org}/ping`, { token: outsider.token })).status).toBe(404);
    expect((await server.request('POST', `/v1/orgs/${org}/ping`, { token: null })).status).toBe(401);
  });

  it('marks SSO members (admins only; 404 for non-members and across organizations)', async () => {
    const reader = await server.member('read');
    const path = `/v1/orgs/${org}/members/${reader.id}/sso`;
    expect((await server.request('POST', path, { token: reader.token })).status).toBe(403);
    const res = await server.request('POST', path);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: reader.id, sso: true });
    expect((await server.request('GET', `/v1/orgs/${org}/members/${reader.id}`)).body.sso).toBe(true);
    const outsider = await server.signup('outsider');
    expect((await server.request('POST', `/v1/orgs/${org}/members/${outsider.id}/sso`)).status).toBe(404);
    const org2 = (await newOrg(server, 'Theirs', { token: outsider.token })).id;
    expect((await server.request('POST', `/v1/orgs/${org2}/members/${outsider.id}/sso`)).status).toBe(404);
  });

  it("lists a member's granted spaces with their level, and their teams with a title filter; counts are exact", async () => {
    const reader = await server.member('read');
    const mk = async (title: string) => (await newSpace(server, org, { title })).id;
    const [direct, viaTeam, trashed] = [await mk('Direct'), await mk('Via team'), await mk('Trashed')];
    const team = (await newTeam(server, org, { title: 'Writers', members: [reader.id] })).id;
    await server.request('PUT', `/v1/orgs/${org}/teams`, { body: { title: 'Readers club', members: [reader.id] } });
    expect(
      (
        await server.request('PATCH', `/v1/spaces/${direct}/permissions/users/${reader.id}`, {
          body: { role: 'comment' },
        })
      ).status,
    ).toBe(204);
    await server.request('PATCH', `/v1/spaces/${viaTeam}/permissions/teams/${team}`, { body: { role: 'edit' } });
    await server.request('PATCH', `/v1/spaces/${trashed}/permissions/users/${reader.id}`, { body: { role: 'edit' } });
    await server.request('DELETE', `/v1/spaces/${trashed}`);

    const member = await server.request('GET', `/v1/orgs/${org}/members/${reader.id}`);
    expect(member.body).toMatchObject({ spaces: 2, teams: 2 });
    const spaces = await server.request('GET', `/v1/orgs/${org}/members/${reader.id}/spaces?order=asc`);
    expect(spaces.status).toBe(200);
    expect(spaces.body.count).toBe(2);
    expect(spaces.body.items.map((i: any) => [i.space.id, i.permission])).toEqual([
      [direct, 'comment'],
      [viaTeam, 'edit'],
    ]);
    const own = await server.request('GET', `/v1/orgs/${org}/members/${reader.id}/spaces`, { token: reader.token });
    expect(own.body.items[0].space.permissions).toMatchObject({ view: true, edit: true, admin: false });
    const other = await server.member('edit');
    expect(
      (await server.request('GET', `/v1/orgs/${org}/members/${reader.id}/spaces`, { token: other.token })).status,
    ).toBe(403);

    const teams = await server.request('GET', `/v1/orgs/${org}/members/${reader.id}/teams?title=WRIT`);
    expect(teams.status).toBe(200);
    expect(teams.body.items).toHaveLength(1);
    expect(teams.body.items[0]).toMatchObject({
      team: { id: team, title: 'Writers', members: 1, spaces: 1 },
      member: { role: 'member' },
    });
    expect((await server.request('GET', `/v1/orgs/${org}/members/${reader.id}/teams`)).body.count).toBe(2);
    expect((await server.request('GET', `/v1/orgs/${org}/members/01nobody/teams`)).status).toBe(404);
  });

  it('a removed member loses access at once, tokens included, with their teams and grants', async () => {
    const user = await server.member('edit');
    const space = (await newSpace(server, org, { title: 'Team space' })).id;
    const team = (await newTeam(server, org, { title: 'Leavers', members: [user.id] })).id;
    await server.request('PATCH', `/v1/spaces/${space}/permissions/users/${user.id}`, { body: { role: 'admin' } });
    expect((await server.request('GET', `/v1/spaces/${space}`, { token: user.token })).status).toBe(200);
    // A lasting API token of theirs, besides the sign-in one.
    const lasting = (
      await server.request('POST', '/v1/user/tokens', {
        token: user.token,
        body: { label: 'ci', password: MEMBER_PASSWORD },
      })
    ).body.token as string;
    expect((await server.request('DELETE', `/v1/orgs/${org}/members/${user.id}`)).status).toBe(205);
    for (const token of [user.token, lasting]) {
      expect((await server.request('GET', `/v1/spaces/${space}`, { token })).status).toBe(404);
      expect((await server.request('GET', `/v1/orgs/${org}`, { token })).status).toBe(404);
      expect((await server.request('GET', `/v1/orgs/${org}/members`, { token })).status).toBe(404);
    }
    const left = await server.request('GET', `/v1/orgs/${org}/teams/${team}`);
    expect(left.body.members).toBe(0);
    expect((await server.request('GET', `/v1/spaces/${space}/permissions/users`)).body.items).toEqual([]);
  });
});

describeEachDialect('members: search', (dialect) => {
  let server: TestServer;
  let org: string;
  let otherOrg: string;
  beforeAll(async () => {
    server = await startTestServer(dialect);
    org = server.orgId;
    otherOrg = (await newOrg(server, 'Elsewhere')).id;
  });
  afterAll(() => server.close());

  interface Listed {
    id: string;
    user: { email: string; displayName: string };
  }
  const search = (query: string, orgId = org) =>
    server.request<{ items: Listed[]; count: number; next?: { page: string } }>(
      'GET',
      `/v1/orgs/${orgId}/members?limit=1000&search=${encodeURIComponent(query)}`,
    );
  const ids = (res: { body: { items: Listed[] } }) => res.body.items.map((m) => m.id);

  /** A new account with this e-mail and name, joined to `orgId` through an invite link. */
  async function join(email: string, displayName: string, orgId = org): Promise<string> {
    const signup = await server.request('POST', '/v1/auth/signup', {
      token: null,
      body: { email, password: 'a-good-password', displayName },
    });
    expect(signup.status).toBe(201);
    await joinOrg(server, orgId, { id: signup.body.user.id, email, token: signup.body.token }, 'read');
    return signup.body.user.id;
  }

  /** What the search promises: a case-insensitive part of the name or e-mail, in the list's own order. */
  async function expected(query: string, orgId = org): Promise<string[]> {
    const q = query.trim().toLowerCase();
    const all = await server.request<{ items: Listed[] }>('GET', `/v1/orgs/${orgId}/members?limit=1000`);
    return all.body.items
      .filter((m) => m.user.displayName.toLowerCase().includes(q) || m.user.email.toLowerCase().includes(q))
      .map((m) => m.id);
  }

  it('finds a part of the name or e-mail of 1, 2, 3 or more characters, in any case, with % and _ literal', async () => {
    const ada = await join('ada.l@analytical.test', 'Ada Lovelace');
    const grace = await join('cobol_fan@navy.test', 'Grace Hopper');
    const pct = await join('pct@example.test', 'Sure 100% Of It');
    const emile = await join('ez@lettres.test', 'Émile Zola');
    const quentin = await join('xq@k.test', 'Quentin "Q" Blake');
    // The same name and e-mail domain, in another organization.
    const outsider = await join('ada.o@analytical.test', 'Ada Outsider', otherOrg);

    const cases: Array<[string, string[]]> = [
      // 1 and 2 characters: no trigram.
      ['q', [quentin]],
      ['Z', [emile]],
      ['%', [pct]],
      ['_', [grace]],
      ['xQ', [quentin]],
      ['0%', [pct]],
      // 3 and more: the trigram index.
      ['ADA', [ada]],
      ['ada l', [ada]],
      ['ANALYTICAL', [ada]],
      ['ada.l@analytical.test', [ada]],
      ['l_f', [grace]],
      ['c_b', []],
      ['100%', [pct]],
      ['1%0', []],
      ['0% o', [pct]],
      ['émile', [emile]],
      ['ÉMILE', [emile]],
      ['mile z', [emile]],
      ['"q"', [quentin]],
      ['lovelace', [ada]],
      ['outsider', []],
      ['ada.o', []],
      ['no such member', []],
    ];
    for (const [query, want] of cases) {
      const res = await search(query);
      expect(res.status, query).toBe(200);
      expect(ids(res), query).toEqual(want);
      expect(res.body.count, query).toBe(want.length);
      expect(want, query).toEqual(await expected(query));
    }
    // Fragments many members share, matched in names and e-mails at once, newest first.
    for (const query of ['a', 'e', '.t', '.test', 'ex', 'owner', 'OWNER@EXAMPLE.COM', 'er']) {
      const res = await search(query);
      expect(ids(res), query).toEqual(await expected(query));
      expect(res.body.count, query).toBe(res.body.items.length);
    }
    expect(ids(await search('.test'))).toEqual([quentin, emile, pct, grace, ada]);
    // The other organization sees its own member, and only in its own list.
    expect(ids(await search('analytical', otherOrg))).toEqual([outsider]);
    expect(ids(await search('ada', otherOrg))).toEqual([outsider]);
  });

  it('pages a search with its cursor, in both orders, with the count of all matches', async () => {
    const joined: string[] = [];
    for (let i = 0; i < 5; i++) joined.push(await join(`pager-${i}@paging.test`, `Pager ${i}`));
    await join('pager-x@paging.test', 'Pager Elsewhere', otherOrg);
    for (const [order, want] of [
      ['desc', [...joined].reverse()],
      ['asc', joined],
    ] as const) {
      for (const query of ['PAGER', 'paging.test', 'er-']) {
        const walked: string[] = [];
        let page: string | undefined;
        do {
          const res = await server.request(
            'GET',
            `/v1/orgs/${org}/members?limit=2&order=${order}&search=${query}${page ? `&page=${page}` : ''}`,
          );
          expect(res.status).toBe(200);
          expect(res.body.count).toBe(5);
          walked.push(...ids(res));
          page = res.body.next?.page;
        } while (page);
        expect(walked, `${query} ${order}`).toEqual(want);
      }
    }
    // With a role filter too: the owner is the only admin.
    const res = await server.request('GET', `/v1/orgs/${org}/members?role=admin&search=owner`);
    expect(ids(res)).toEqual([server.owner.id]);
    expect((await server.request('GET', `/v1/orgs/${org}/members?role=read&search=owner`)).body.items).toEqual([]);
  });

  it('finds a user by a new name or e-mail and no longer by the old one; a deleted user is gone', async () => {
    const id = await join('before.change@renamed.test', 'Firstname Oldsurname');
    expect(ids(await search('oldsurname'))).toEqual([id]);
    // Changed in the table: no endpoint changes an e-mail address or deletes an account.
    const db = server.storage.db;
    await db
      .updateTable('users')
      .set({ display_name: 'Firstname Newsurname', email: 'after.change@moved.test' })
      .where('id', '=', id)
      .execute();
    for (const old of ['oldsurname', 'before.change', 'renamed']) expect(ids(await search(old)), old).toEqual([]);
    for (const now of ['Newsurname', 'after.change', 'moved.test', 'firstname n']) {
      expect(ids(await search(now)), now).toEqual([id]);
    }
    // A name changed alone keeps the e-mail findable.
    await db.updateTable('users').set({ display_name: 'Someone Else' }).where('id', '=', id).execute();
    expect(ids(await search('newsurname'))).toEqual([]);
    expect(ids(await search('someone else'))).toEqual([id]);
    expect(ids(await search('after.change'))).toEqual([id]);

    await db.deleteFrom('users').where('id', '=', id).execute();
    expect(ids(await search('someone else'))).toEqual([]);
    expect(ids(await search('after.change'))).toEqual([]);
    if (dialect === 'sqlite') {
      // The index holds exactly one row per user, none left behind.
      const { sql } = await import('kysely');
      const counts = await sql<{ users: number; rows: number; indexed: number }>`select
        (select count(*) from users) as users,
        (select count(*) from user_search_rows) as rows,
        (select count(*) from user_search) as indexed`.execute(db);
      const c = counts.rows[0]!;
      expect(c.rows).toBe(c.users);
      expect(c.indexed).toBe(c.users);
    }
  });
});
