import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeEachDialect, startTestServer, type TestServer, type TestUser } from '../test/harness.js';
import { joinOrg, newCollection, newInviteLink, newOrg, newSite, newSpace, newTeam } from '../test/factories.js';

/** DELETE /v1/orgs/{organizationId} (extension): admins only, and nothing outside the organization changes. */
describeEachDialect('deleting an organization', (dialect) => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer(dialect);
  });
  afterAll(() => server.close());

  async function ok<T = any>(method: string, path: string, opts: { token?: string; body?: unknown } = {}) {
    const res = await server.request<T>(method, path, opts);
    if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  }

  /** An organization with content, people and settings: what a deletion must remove, or must leave alone. */
  async function populatedOrg(admin: TestUser, title: string) {
    const as = { token: admin.token };
    const org = await newOrg(server, title, as);
    const collection = await newCollection(server, org.id, { title: 'Guides', ...as });
    const space = await newSpace(server, org.id, { title: 'Handbook', parent: collection.id, ...as });
    const site = await newSite(server, org.id, { title: 'Docs', ...as });
    const team = await newTeam(server, org.id, { title: 'Writers', ...as });
    await newInviteLink(server, org.id, 'read', as);
    await ok('PATCH', `/v1/orgs/${org.id}`, { token: admin.token, body: { emailDomains: [`${title}.example`] } });
    return { id: org.id, space: space.id, site: site.id, team: team.id };
  }

  /** Rows that still name the organization, table by table (only tables holding some). */
  async function rowsOf(orgId: string) {
    const db = server.storage.db;
    const tables = [
      'members',
      'invite_links',
      'org_invitations',
      'org_domains',
      'collections',
      'spaces',
      'sites',
      'teams',
      'team_members',
    ] as const;
    const found: Record<string, number> = {};
    for (const table of tables) {
      const r = await db
        .selectFrom(table)
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('organization_id', '=', orgId)
        .executeTakeFirstOrThrow();
      if (Number(r.n) > 0) found[table] = Number(r.n);
    }
    return found;
  }

  describe('who may delete', () => {
    let orgA: Awaited<ReturnType<typeof populatedOrg>>;
    let adminA: TestUser;
    let editor: TestUser;
    let guest: TestUser;
    let removed: TestUser;
    let adminB: TestUser;
    let orgB: Awaited<ReturnType<typeof populatedOrg>>;

    beforeAll(async () => {
      adminA = await server.signup('admin-a');
      orgA = await populatedOrg(adminA, 'alpha');
      editor = await joinOrg(server, orgA.id, await server.signup('editor'), 'edit', { token: adminA.token });
      guest = await joinOrg(server, orgA.id, await server.signup('guest'), null, { token: adminA.token });
      removed = await joinOrg(server, orgA.id, await server.signup('removed'), 'admin', { token: adminA.token });
      await ok('DELETE', `/v1/orgs/${orgA.id}/members/${removed.id}`, { token: adminA.token });
      adminB = await server.signup('admin-b');
      orgB = await populatedOrg(adminB, 'beta');
    });

    it('refuses a non-admin member and a guest (403), and deletes nothing', async () => {
      for (const user of [editor, guest]) {
        const res = await server.request('DELETE', `/v1/orgs/${orgA.id}`, { token: user.token });
        expect(res.status).toBe(403);
        expect(res.body.error.message).toMatch(/admin role/);
      }
      expect((await server.request('GET', `/v1/orgs/${orgA.id}`, { token: adminA.token })).status).toBe(200);
      expect((await server.request('GET', `/v1/spaces/${orgA.space}`, { token: adminA.token })).status).toBe(200);
    });

    it("answers 404 to another organization's admin, a removed admin and the owner of the instance", async () => {
      for (const token of [adminB.token, removed.token, server.owner.token]) {
        const res = await server.request('DELETE', `/v1/orgs/${orgA.id}`, { token });
        expect(res.status).toBe(404);
        expect(res.body.error.message).toBe('Organization not found');
      }
      expect((await server.request('GET', `/v1/orgs/${orgA.id}`, { token: adminA.token })).status).toBe(200);
      expect(await rowsOf(orgA.id)).toMatchObject({ members: 3, spaces: 1, sites: 1, teams: 1 });
      // The other admin's own organization did not move either.
      expect(await rowsOf(orgB.id)).toMatchObject({ members: 1, spaces: 1, sites: 1, teams: 1 });
    });

    it('answers 401 without credentials and 404 for an unknown organization', async () => {
      expect((await server.request('DELETE', `/v1/orgs/${orgA.id}`, { token: null })).status).toBe(401);
      expect((await server.request('DELETE', '/v1/orgs/nope', { token: adminA.token })).status).toBe(404);
      expect((await server.request('GET', `/v1/orgs/${orgA.id}`, { token: adminA.token })).status).toBe(200);
    });
  });

  it('an admin deletes it with everything in it; other organizations and every account stay', async () => {
    const admin = await server.signup('admin');
    const org = await populatedOrg(admin, 'gamma');
    const other = await server.signup('other');
    const otherOrg = await populatedOrg(other, 'delta');
    // A member of both organizations, in a team of the deleted one; an invited account; a second admin.
    const both = await joinOrg(server, org.id, await server.signup('both'), 'edit', { token: admin.token });
    await ok('PUT', `/v1/orgs/${org.id}/teams/${org.team}/members`, { token: admin.token, body: { add: [both.id] } });
    const otherLink = await ok('POST', `/v1/orgs/${otherOrg.id}/link-invites`, {
      token: other.token,
      body: { role: 'comment' },
    });
    await ok('POST', `/v1/orgs/${otherOrg.id}/invites/${otherLink.id}`, { token: both.token });
    const invited = await server.signup('invited');
    const invitation = await ok('POST', `/v1/orgs/${org.id}/invites`, {
      token: admin.token,
      body: { emails: [invited.email], role: 'read' },
    });
    expect(invitation.invited).toBe(1);
    const secondAdmin = await joinOrg(server, org.id, await server.signup('second'), 'admin', { token: admin.token });
    const otherBefore = await rowsOf(otherOrg.id);

    const res = await server.request('DELETE', `/v1/orgs/${org.id}`, { token: secondAdmin.token });
    expect(res.status).toBe(205);
    expect(res.body).toBeUndefined();

    expect(await rowsOf(org.id)).toEqual({});
    const revisions = await server.storage.db
      .selectFrom('revisions')
      .select('id')
      .where('space_id', '=', org.space)
      .execute();
    expect(revisions).toEqual([]);
    for (const user of [admin, secondAdmin, both]) {
      expect((await server.request('GET', `/v1/orgs/${org.id}`, { token: user.token })).status).toBe(404);
      expect((await server.request('GET', `/v1/spaces/${org.space}`, { token: user.token })).status).toBe(404);
      const mine = await ok<{ items: Array<{ id: string }> }>('GET', '/v1/orgs', { token: user.token });
      expect(mine.items.map((o) => o.id)).not.toContain(org.id);
    }
    expect((await server.request('DELETE', `/v1/orgs/${org.id}`, { token: admin.token })).status).toBe(404);
    // The pending invitation went with it.
    expect((await ok('GET', '/v1/user/invitations', { token: invited.token })).items).toEqual([]);

    // Accounts are global: each still signs in and keeps its tokens.
    for (const user of [admin, secondAdmin, both, invited]) {
      const me = await server.request('GET', '/v1/user', { token: user.token });
      expect(me.status).toBe(200);
      expect(me.body.id).toBe(user.id);
    }
    const login = await server.request('POST', '/v1/auth/login', {
      token: null,
      body: { email: admin.email, password: 'a-good-password' },
    });
    expect(login.status).toBe(200);

    // The other organization is whole, and the person in both is still its member.
    expect(await rowsOf(otherOrg.id)).toEqual(otherBefore);
    expect((await server.request('GET', `/v1/orgs/${otherOrg.id}`, { token: other.token })).status).toBe(200);
    expect((await server.request('GET', `/v1/spaces/${otherOrg.space}`, { token: other.token })).status).toBe(200);
    expect(
      (await server.request('GET', `/v1/orgs/${otherOrg.id}/sites/${otherOrg.site}`, { token: other.token })).status,
    ).toBe(200);
    const stillMember = await server.request('GET', `/v1/orgs/${otherOrg.id}/members/${both.id}`, {
      token: other.token,
    });
    expect(stillMember.status).toBe(200);
    expect(stillMember.body.role).toBe('comment');
    // The instance owner's own organization is untouched too.
    expect((await server.request('GET', `/v1/orgs/${server.orgId}`)).status).toBe(200);
  });

  it('is refused (409) while other organizations use an integration it publishes, and then deletes nothing', async () => {
    const admin = await server.signup('publisher');
    const org = await populatedOrg(admin, 'epsilon');
    const published = await server.request('POST', '/v1/integrations/epsilon-tool', {
      token: admin.token,
      body: {
        title: 'Epsilon tool',
        description: 'Does things',
        scopes: [],
        script: 'export default {};',
        organization: org.id,
        visibility: 'public',
      },
    });
    expect(published.status).toBe(200);
    const installer = await server.signup('installer');
    const installerOrg = await populatedOrg(installer, 'zeta');
    const installed = await server.request('POST', '/v1/integrations/epsilon-tool/installations', {
      token: installer.token,
      body: { organization: installerOrg.id },
    });
    expect(installed.status).toBe(201);

    const refused = await server.request('DELETE', `/v1/orgs/${org.id}`, { token: admin.token });
    expect(refused.status).toBe(409);
    expect(refused.body.error.message).toContain('"Epsilon tool" (epsilon-tool)');
    expect((await server.request('GET', `/v1/orgs/${org.id}`, { token: admin.token })).status).toBe(200);
    expect(await rowsOf(org.id)).toMatchObject({ spaces: 1, sites: 1 });

    // Unpublished (the publisher's own decision about the installations), the organization can go.
    const unpublished = await server.request('DELETE', '/v1/integrations/epsilon-tool', { token: admin.token });
    expect(unpublished.status).toBeLessThan(300);
    expect((await server.request('DELETE', `/v1/orgs/${org.id}`, { token: admin.token })).status).toBe(205);
    expect((await server.request('GET', `/v1/orgs/${installerOrg.id}`, { token: installer.token })).status).toBe(200);
  });

  it('deletes an organization whose integrations only it installed', async () => {
    const admin = await server.signup('solo');
    const org = await populatedOrg(admin, 'eta');
    const published = await server.request('POST', '/v1/integrations/eta-tool', {
      token: admin.token,
      body: {
        title: 'Eta tool',
        description: 'Does things',
        scopes: [],
        script: 'export default {};',
        organization: org.id,
        visibility: 'public',
      },
    });
    expect(published.status).toBe(200);
    const installed = await server.request('POST', '/v1/integrations/eta-tool/installations', {
      token: admin.token,
      body: { organization: org.id },
    });
    expect(installed.status).toBe(201);
    expect((await server.request('DELETE', `/v1/orgs/${org.id}`, { token: admin.token })).status).toBe(205);
    expect((await server.request('GET', '/v1/integrations/eta-tool', { token: admin.token })).status).toBe(404);
  });
});
