import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Role } from '../../shared/contract/common.js';
import {
  describeEachDialect,
  startTestServer,
  type ApiResponse,
  type TestServer,
  type TestUser,
} from '../test/harness.js';
import { PETSTORE_V1 } from '../test/openapi-fixtures.js';

type Flags = Record<string, boolean>;

const ROLES: Array<Role | null> = ['admin', 'create', 'review', 'edit', 'comment', 'read', null];

/**
 * Rule 4 of the architecture, checked over HTTP: for every organization role (which, with default levels left at
 * `inherit`, is also the member's level on content the owner created), the `permissions` flags a resource shows
 * say exactly what the services then allow. Each action tried is cheap and leaves the resource as it was (or
 * acts on something made for this role alone). A refused action must be refused for permission (403 or 404),
 * not for some other reason; a resource the caller cannot read shows no flags, so every action on it is refused.
 */
describeEachDialect('policies: the permissions flags agree with the services', (dialect) => {
  let server: TestServer;
  const users = new Map<Role | null, TestUser>();
  let org: string;
  let spaceId: string;
  let collectionId: string;
  let siteId: string;
  let teamId: string;
  let translationId: string;
  let adaptiveSchema: unknown;
  /** An installation of `policy-shared` on the organization, to install on spaces and sites. */
  let installation: string;

  const manifest = (name: string) => ({
    title: `Policy ${name}`,
    description: 'For the policy agreement test',
    scopes: ['space:content:read'],
    target: 'all',
    script: 'export default {};',
    organization: server.orgId,
    visibility: 'private',
  });

  beforeAll(async () => {
    server = await startTestServer(dialect);
    org = `/v1/orgs/${server.orgId}`;
    const members = await Promise.all(ROLES.map((role) => server.member(role)));
    ROLES.forEach((role, i) => users.set(role, members[i]!));
    const created = await Promise.all([
      server.request('POST', `${org}/spaces`, { body: { title: 'Policy space' } }),
      server.request('POST', `${org}/collections`, { body: { title: 'Policy collection' } }),
      server.request('POST', `${org}/sites`, { body: { title: 'Policy site' } }),
      server.request('PUT', `${org}/teams`, { body: { title: 'Policy team' } }),
      server.request('POST', `${org}/translations`, { body: { title: 'Policy translation' } }),
      server.request('POST', `${org}/openapi`, { body: { slug: 'petstore', source: { text: PETSTORE_V1 } } }),
    ]);
    for (const res of created) expect(res.status, JSON.stringify(res.body)).toBe(201);
    const ids = created.map((res) => res.body.id as string);
    [spaceId, collectionId, siteId, teamId, translationId] = [ids[0]!, ids[1]!, ids[2]!, ids[3]!, ids[4]!];
    adaptiveSchema = (await server.request('GET', `${org}/sites/${siteId}/adaptive-schema`)).body.jsonSchema;
    // One integration each role may try to install on the organization, and one installed already.
    for (const name of ['shared', ...ROLES.map((role) => role ?? 'guest')]) {
      const published = await server.request('POST', `/v1/integrations/policy-${name}`, { body: manifest(name) });
      expect(published.status, JSON.stringify(published.body)).toBe(200);
    }
    const installed = await server.request('POST', '/v1/integrations/policy-shared/installations', {
      body: { organization: server.orgId },
    });
    expect(installed.status, JSON.stringify(installed.body)).toBe(201);
    installation = `/v1/integrations/policy-shared/installations/${installed.body.id}`;
  });
  afterAll(() => server.close());

  const as = (user: TestUser) => (method: string, path: string, body?: unknown) =>
    server.request(method, path, { token: user.token, ...(body !== undefined ? { body } : {}) });

  /** The flags a GET shows (none when the caller cannot read the resource). */
  const flagsOf = (res: ApiResponse): Flags => (res.status === 200 ? (res.body.permissions as Flags) : {});

  /**
   * The action succeeded iff the flag said it may; a refusal is a permission refusal (403 or 404, or `refusals`
   * where the API answers otherwise for a reason of its own).
   */
  function agree(what: string, flag: boolean | undefined, res: ApiResponse, refusals = [403, 404]) {
    const allowed = res.status >= 200 && res.status < 300;
    const said = `${what}: flag ${String(flag)}, answer ${res.status} ${allowed ? '' : JSON.stringify(res.body)}`;
    expect(allowed, said).toBe(flag === true);
    if (!allowed) expect(refusals, said).toContain(res.status);
  }

  for (const role of ROLES) {
    const name = role ?? 'guest';

    it(`${name}: spaces, change requests and comments`, async () => {
      const req = as(users.get(role)!);
      const space = `/v1/spaces/${spaceId}`;
      const s = flagsOf(await req('GET', space));
      agree('space view', s.view, await req('GET', `${space}/content`));
      agree('space edit', s.edit, await req('PATCH', space, { title: 'Policy space' }));
      agree('space admin', s.admin, await req('PATCH', space, { defaultLevel: 'inherit' }));
      agree(
        'space admin (grants)',
        s.admin,
        await req('POST', `${space}/permissions`, { role: null, users: [server.owner.id] }),
      );

      // A change request of someone else (the owner), made for this role alone.
      const theirs = (await server.request('POST', `${space}/change-requests`, { body: { subject: 'Theirs' } })).body;
      const cr = `${space}/change-requests/${theirs.id}`;
      const c = flagsOf(await req('GET', cr));
      expect(c.comment ?? false).toBe(s.comment ?? false);
      agree('change request edit', c.edit, await req('PATCH', cr, { subject: 'Theirs' }));
      agree('change request comment', c.comment, await req('POST', `${cr}/comments`, { body: { markdown: 'hi' } }));
      agree('change request review', c.review, await req('POST', `${cr}/reviews`, { status: 'approved' }));
      agree('change request merge', c.merge, await req('POST', `${cr}/merge`));

      // Their own change request: creating one needs the space's edit; its author may not review it.
      const mine = await req('POST', `${space}/change-requests`, { subject: 'Mine' });
      agree('space edit (create a change request)', s.edit, mine);
      if (mine.status === 201) {
        const own = `${space}/change-requests/${mine.body.id}`;
        const o = flagsOf(await req('GET', own));
        expect(o.review).toBe(false);
        agree('own change request edit', o.edit, await req('PATCH', own, { subject: 'Mine' }));
        agree('own change request review', o.review, await req('POST', `${own}/reviews`, { status: 'approved' }));
      }

      // A comment of someone else (the owner) on the space, then one of their own.
      const posted = await server.request('POST', `${space}/comments`, { body: { body: { markdown: 'Theirs' } } });
      const comment = `${space}/comments/${posted.body.id}`;
      const t = flagsOf(await req('GET', comment));
      agree('space comment', s.comment, await req('POST', `${space}/comments`, { body: { markdown: 'Mine' } }));
      agree('comment reply', t.reply, await req('POST', `${comment}/replies`, { body: { markdown: 'Re' } }));
      agree('comment resolve', t.resolve, await req('PUT', comment, { resolved: true }));
      agree('comment edit', t.edit, await req('PUT', comment, { body: { markdown: 'Edited' } }));
      agree('comment delete', t.delete, await req('DELETE', comment));
      const ownPost = await req('POST', `${space}/comments`, { body: { markdown: 'Own' } });
      if (ownPost.status === 201) {
        const own = `${space}/comments/${ownPost.body.id}`;
        const o = flagsOf(await req('GET', own));
        agree('own comment edit', o.edit, await req('PUT', own, { body: { markdown: 'Own, edited' } }));
        agree('own comment delete', o.delete, await req('DELETE', own));
      }
    });

    it(`${name}: collections, the organization, sites, teams, translations and OpenAPI`, async () => {
      const req = as(users.get(role)!);
      const collection = `/v1/collections/${collectionId}`;
      const c = flagsOf(await req('GET', collection));
      agree('collection admin', c.admin, await req('PATCH', collection, { title: 'Policy collection' }));
      // A parent the caller cannot see is no such collection to them (400 naming `parent`).
      const inside = await req('POST', `${org}/spaces`, { title: 'In', parent: collectionId });
      agree('collection create', c.create, inside, c.view ? [403] : [400]);

      const o = flagsOf(await req('GET', org));
      expect(o.view).toBe(true);
      agree('organization admin', o.admin, await req('PATCH', org, {}));
      agree('organization admin (invite links)', o.admin, await req('GET', `${org}/link-invites`));
      agree('organization listMembers', o.listMembers, await req('GET', `${org}/members`));
      agree('organization createContent', o.createContent, await req('POST', `${org}/spaces`, { title: 'Top' }));
      // Everyone in the organization lists its teams; `listTeams` says whether that is all of them (a guest sees
      // only the teams they are in).
      const listed = await req('GET', `${org}/teams`);
      expect(listed.status).toBe(200);
      expect((listed.body.items as Array<{ id: string }>).some((t) => t.id === teamId)).toBe(o.listTeams);
      agree('organization listIntegrations', o.listIntegrations, await req('GET', `${org}/integrations`));
      agree(
        'organization installIntegration',
        o.installIntegration,
        await req('POST', `/v1/integrations/policy-${name}/installations`, { organization: server.orgId }),
      );
      const integration = flagsOf(await req('GET', '/v1/integrations/policy-shared'));
      agree(
        'integration admin',
        integration.admin,
        await req('POST', '/v1/integrations/policy-shared', manifest('shared')),
      );
      agree(
        'organization listInstallations',
        o.listInstallations,
        await req('GET', '/v1/integrations/policy-shared/installations'),
      );

      const site = `${org}/sites/${siteId}`;
      const si = flagsOf(await req('GET', site));
      agree('site view', si.view, await req('GET', `${site}/sections`));
      agree('site edit', si.edit, await req('PATCH', site, { title: 'Policy site' }));
      agree('site viewAdaptiveSchema', si.viewAdaptiveSchema, await req('GET', `${site}/adaptive-schema`));
      agree(
        'site editAdaptiveSchema',
        si.editAdaptiveSchema,
        await req('PUT', `${site}/adaptive-schema`, { jsonSchema: adaptiveSchema }),
      );

      // A site made for this role alone: installing an integration on it, then deleting it.
      const own = `${org}/sites/${(await server.request('POST', `${org}/sites`, { body: { title: `Site ${name}` } })).body.id}`;
      const ownSite = flagsOf(await req('GET', own));
      agree(
        'site installIntegration',
        ownSite.installIntegration,
        await req('POST', `${installation}/sites`, { siteId: own.split('/').pop() }),
      );
      agree('site admin', ownSite.admin, await req('DELETE', own));

      const team = `${org}/teams/${teamId}`;
      const te = flagsOf(await req('GET', team));
      agree('team admin', te.admin, await req('PATCH', team, { title: 'Policy team' }));

      const translation = `${org}/translations/${translationId}`;
      const tr = flagsOf(await req('GET', translation));
      agree('translation edit', tr.edit, await req('PUT', translation, { title: 'Policy translation' }));

      const spec = `${org}/openapi/petstore`;
      const sp = flagsOf(await req('GET', spec));
      expect(sp.edit ?? false).toBe(o.createOpenAPISpec);
      agree('openapi edit', sp.edit, await req('PATCH', spec, { visibility: 'private' }));
    });
  }

  it('a level granted on a space gives the flags and the actions of that level', async () => {
    for (const role of ['read', null] as const) {
      const user = users.get(role)!;
      for (const granted of ['admin', 'review', 'comment'] as const) {
        const made = await server.request('POST', `${org}/spaces`, { body: { title: `Granted ${granted}` } });
        const space = `/v1/spaces/${made.body.id}`;
        const grant = await server.request('POST', `${space}/permissions`, {
          body: { role: granted, users: [user.id] },
        });
        expect(grant.status, JSON.stringify(grant.body)).toBe(204);
        const req = as(user);
        const s = flagsOf(await req('GET', space));
        expect(s.view).toBe(true);
        agree(`${granted} by grant: space edit`, s.edit, await req('PATCH', space, { title: 'Granted' }));
        agree(
          `${granted} by grant: space comment`,
          s.comment,
          await req('POST', `${space}/comments`, { body: { markdown: 'Hi' } }),
        );
        agree(
          `${granted} by grant: space installIntegration`,
          s.installIntegration,
          await req('POST', `${installation}/spaces`, { space: made.body.id }),
        );
        agree(`${granted} by grant: space admin`, s.admin, await req('PATCH', space, { defaultLevel: 'inherit' }));
      }
    }
  });

  it("a space's creator (create role) administers it: adds it to the organization's installation, removes it", async () => {
    const creator = users.get('create')!;
    const req = as(creator);
    const made = await req('POST', `${org}/spaces`, { title: 'Created by create' });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const space = `/v1/spaces/${made.body.id}`;
    const s = flagsOf(await req('GET', space));
    expect(s.admin).toBe(true);
    expect(s.installIntegration).toBe(true);
    agree(
      'creator: space installIntegration',
      s.installIntegration,
      await req('POST', `${installation}/spaces`, { space: made.body.id }),
    );
    agree(
      'creator: space installIntegration (remove)',
      s.installIntegration,
      await req('DELETE', `${installation}/spaces/${made.body.id}`),
    );
    // The organization's own installation stays an organization admin's: the creator may not change it.
    const o = flagsOf(await req('GET', org));
    expect(o.installIntegration).toBe(false);
    agree(
      'creator: installation configuration',
      o.installIntegration,
      await req('PATCH', installation, { configuration: {} }),
    );
  });

  it("a team's owner manages it without being an organization admin", async () => {
    const guest = users.get(null)!;
    const created = await server.request('PUT', `${org}/teams`, { body: { title: 'Owned' } });
    const team = `${org}/teams/${created.body.id}`;
    const before = flagsOf(await as(guest)('GET', team));
    expect(before).toEqual({});
    agree('team admin (not in it)', before.admin, await as(guest)('PATCH', team, { title: 'Owned' }));
    expect((await server.request('PUT', `${team}/members/${guest.id}`, { body: { role: 'owner' } })).status).toBe(204);
    const after = flagsOf(await as(guest)('GET', team));
    expect(after).toEqual({ admin: true, view: true });
    agree('team admin (owner)', after.admin, await as(guest)('PATCH', team, { title: 'Owned' }));
  });
});
