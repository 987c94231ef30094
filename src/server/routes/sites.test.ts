import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeEachDialect, startTestServer, type TestServer, type TestUser } from '../test/harness.js';
import { newOrg, newSite, newSpace } from '../test/factories.js';
import { ADAPTIVE_CLAIMS_MAX } from '../../shared/contract/sites.js';

function paths(body: { error: { issues?: Array<{ path: string }> } }): string[] {
  return (body.error.issues ?? []).map((i) => i.path);
}

const ids = (items: Array<{ id: string }>) => items.map((i) => i.id);

describeEachDialect('sites API', (dialect) => {
  let server: TestServer;
  let creator: TestUser;
  let editor: TestUser;
  let reader: TestUser;
  let guest: TestUser;
  let outsider: TestUser;

  beforeAll(async () => {
    server = await startTestServer(dialect);
    [creator, editor, reader, guest, outsider] = await Promise.all([
      server.member('create'),
      server.member('edit'),
      server.member('read'),
      server.member(null),
      server.signup('outsider'),
    ]);
  });
  afterAll(() => server.close());

  const org = (orgId = server.orgId) => `/v1/orgs/${orgId}`;

  /** A site with sections made from new spaces; returns the site path and the sections. */
  async function sectioned(titles: string[]) {
    const s = await newSite(server, server.orgId);
    const base = `${org()}/sites/${s.id}`;
    const sections = [];
    for (const title of titles) {
      const sp = await newSpace(server, server.orgId, { title });
      const res = await server.request('POST', `${base}/sections`, { body: { spaceId: sp.id } });
      expect(res.status).toBe(201);
      sections.push(res.body as { id: string; path: string; siteSpaces: Array<{ id: string }> });
    }
    return { id: s.id, base, sections };
  }

  describe('sites', () => {
    it('creates a site: 201 + Location, the basic type, spaces added at the root, every required field', async () => {
      const a = await newSpace(server, server.orgId, { title: 'Alpha' });
      const b = await newSpace(server, server.orgId, { title: 'Beta' });
      const res = await server.request('POST', `${org()}/sites`, {
        body: { title: 'Product docs', visibility: 'unlisted', spaces: [a.id, b.id] },
      });
      expect(res.status).toBe(201);
      expect(res.headers.get('location')).toBe(res.body.urls.location);
      expect(res.body).toMatchObject({
        object: 'site',
        type: 'basic',
        appliedType: 'basic',
        title: 'Product docs',
        visibility: 'unlisted',
        defaultLevel: 'inherit',
        published: false,
        siteSpaces: 2,
        adaptiveContent: { enabled: false },
        features: [],
        permissions: { view: true, edit: true, admin: true, editAdaptiveSchema: true },
      });
      expect(res.body.urls.published).toBeUndefined();
      const list = await server.request('GET', `${org()}/sites/${res.body.id}/site-spaces`);
      expect(list.body.items.map((s: { space: { id: string } }) => s.space.id)).toEqual([a.id, b.id]);
      expect(list.body.items.map((s: { default: boolean }) => s.default)).toEqual([true, false]);
    });

    it('creates a site without a body', async () => {
      const res = await server.request('POST', `${org()}/sites`);
      expect(res.status).toBe(201);
      expect(res.body.title).toBe('Untitled site');
    });

    it('validates the title (2..128), the type, and refuses spaces it cannot use, naming the field', async () => {
      expect((await server.request('POST', `${org()}/sites`, { body: { title: 'ab' } })).status).toBe(201);
      expect((await server.request('POST', `${org()}/sites`, { body: { title: 't'.repeat(128) } })).status).toBe(201);
      for (const title of ['a', 't'.repeat(129)]) {
        const res = await server.request('POST', `${org()}/sites`, { body: { title } });
        expect(res.status).toBe(400);
        expect(paths(res.body)).toContain('title');
      }
      const type = await server.request('POST', `${org()}/sites`, { body: { type: 'gold' } });
      expect(type.status).toBe(400);
      expect(paths(type.body)).toContain('type');
      const otherOrg = (await newOrg(server, 'Other org')).id;
      const foreign = await newSpace(server, otherOrg, { title: 'Foreign' });
      const res = await server.request('POST', `${org()}/sites`, { body: { spaces: ['nope', foreign.id] } });
      expect(res.status).toBe(400);
      expect(paths(res.body)).toEqual(['spaces.0']);
      const res2 = await server.request('POST', `${org()}/sites`, { body: { spaces: [foreign.id] } });
      expect(paths(res2.body)).toEqual(['spaces.0']);
    });

    it('gets, lists with filters and pagination', async () => {
      const sp = await newSpace(server, server.orgId, { title: 'Filtered' });
      const tagged = await newSite(server, server.orgId, { title: 'Zebra handbook', spaces: [sp.id] });
      const got = await server.request('GET', `${org()}/sites/${tagged.id}`);
      expect(got.status).toBe(200);
      expect(got.body.id).toBe(tagged.id);

      const bySpace = await server.request('GET', `${org()}/sites?space=${sp.id}`);
      expect(ids(bySpace.body.items)).toEqual([tagged.id]);
      const byTitle = await server.request('GET', `${org()}/sites?title=zebra`);
      expect(ids(byTitle.body.items)).toEqual([tagged.id]);
      await server.request('POST', `${org()}/sites/${tagged.id}/publish`);
      const published = await server.request('GET', `${org()}/sites?published=true`);
      expect(ids(published.body.items)).toContain(tagged.id);
      expect(published.body.items.every((s: { published: boolean }) => s.published)).toBe(true);
      const unpublished = await server.request('GET', `${org()}/sites?published=false`);
      expect(ids(unpublished.body.items)).not.toContain(tagged.id);

      const all = await server.request('GET', `${org()}/sites?limit=1000`);
      expect(all.body.count).toBe(all.body.items.length);
      const seen: string[] = [];
      let page: string | undefined;
      do {
        const res = await server.request('GET', `${org()}/sites?limit=2${page ? `&page=${page}` : ''}`);
        expect(res.body.items.length).toBeLessThanOrEqual(2);
        seen.push(...ids(res.body.items));
        page = res.body.next?.page;
      } while (page);
      expect(seen).toEqual(ids(all.body.items));
      expect((await server.request('GET', `${org()}/sites?limit=1001`)).status).toBe(400);
      expect((await server.request('GET', `${org()}/sites?page=garbage`)).status).toBe(400);
    });

    it('patches title, visibility, basename, adaptive content, agents context and the proxy (null removes it)', async () => {
      const s = await newSite(server, server.orgId);
      const path = `${org()}/sites/${s.id}`;
      const res = await server.request('PATCH', path, {
        body: {
          title: 'Renamed',
          visibility: 'share-link',
          basename: 'api',
          adaptiveContent: { enabled: true },
          agentsContext: 'excluded',
          proxy: 'example.com/docs',
        },
      });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        title: 'Renamed',
        visibility: 'share-link',
        basename: 'api',
        adaptiveContent: { enabled: true },
        agentsContext: 'excluded',
        proxy: { origin: 'example.com/docs', target: `${server.config.publicUrl}/sites/${s.id}` },
      });
      const removed = await server.request('PATCH', path, { body: { proxy: null, basename: null } });
      expect(removed.body.proxy).toBeUndefined();
      expect(removed.body.basename).toBeUndefined();
      for (const proxy of ['example.com', 'not a host/docs', `example.com/${'a'.repeat(510)}`]) {
        const bad = await server.request('PATCH', path, { body: { proxy } });
        expect(bad.status).toBe(400);
        expect(paths(bad.body)).toContain('proxy');
      }
      const vis = await server.request('PATCH', path, { body: { visibility: 'private' } });
      expect(paths(vis.body)).toContain('visibility');
    });

    it('sets the default section and default site space, refusing ones that are not there', async () => {
      const { id, base, sections } = await sectioned(['First', 'Second']);
      const path = `${org()}/sites/${id}`;
      const [first, second] = sections;
      expect(
        (await server.request('GET', `${base}/sections`)).body.items.map((s: { default: boolean }) => s.default),
      ).toEqual([true, false]);
      await server.request('PATCH', path, { body: { defaultSiteSection: second!.id } });
      const after = (await server.request('GET', `${base}/sections`)).body.items;
      expect(after.map((s: { default: boolean }) => s.default)).toEqual([false, true]);

      const extra = await newSpace(server, server.orgId, { title: 'Extra' });
      const added = await server.request('POST', `${base}/site-spaces`, { body: { spaceId: extra.id } });
      expect(added.body.section).toBe(second!.id);
      expect(added.body.default).toBe(false);
      const set = await server.request('PATCH', path, { body: { defaultSiteSpace: added.body.id } });
      expect(set.status).toBe(200);
      const defaults = await server.request('GET', `${base}/site-spaces?default=true`);
      expect(ids(defaults.body.items)).toEqual([added.body.id]);
      const others = await server.request('GET', `${base}/site-spaces?default=false`);
      expect(ids(others.body.items)).not.toContain(added.body.id);
      expect(others.body.items.length).toBe(2);

      const notInDefault = await server.request('PATCH', path, {
        body: { defaultSiteSpace: first!.siteSpaces[0]!.id },
      });
      expect(notInDefault.status).toBe(400);
      expect(paths(notInDefault.body)).toEqual(['defaultSiteSpace']);
      const noSection = await server.request('PATCH', path, { body: { defaultSiteSection: 'nope' } });
      expect(paths(noSection.body)).toEqual(['defaultSiteSection']);
    });

    it('deletes a site: 205, then 204', async () => {
      const s = await newSite(server, server.orgId, {
        spaces: [(await newSpace(server, server.orgId, { title: 'Space' })).id],
      });
      expect((await server.request('DELETE', `${org()}/sites/${s.id}`)).status).toBe(205);
      expect((await server.request('DELETE', `${org()}/sites/${s.id}`)).status).toBe(204);
      expect((await server.request('GET', `${org()}/sites/${s.id}`)).status).toBe(404);
    });

    it('publishes and unpublishes: urls.published appears under PUBLIC_URL', async () => {
      const s = await newSite(server, server.orgId);
      const res = await server.request('POST', `${org()}/sites/${s.id}/publish`);
      expect(res.status).toBe(200);
      expect(res.body.published).toBe(true);
      expect(res.body.urls.published).toBe(`${server.config.publicUrl}/sites/${s.id}`);
      const un = await server.request('POST', `${org()}/sites/${s.id}/unpublish`);
      expect(un.body.published).toBe(false);
      expect(un.body.urls.published).toBeUndefined();
    });
  });

  describe('permissions', () => {
    let siteId: string;
    beforeAll(async () => {
      siteId = (
        await newSite(server, server.orgId, { spaces: [(await newSpace(server, server.orgId, { title: 'Space' })).id] })
      ).id;
    });

    it('answers 401 without a token and 404 to outsiders', async () => {
      expect((await server.request('GET', `${org()}/sites`, { token: null })).status).toBe(401);
      expect((await server.request('GET', `${org()}/sites/${siteId}`, { token: outsider.token })).status).toBe(404);
      expect((await server.request('GET', `${org()}/sites`, { token: outsider.token })).status).toBe(404);
      const del = await server.request('DELETE', `${org()}/sites/${siteId}`, { token: outsider.token });
      expect(del.status).toBe(404);
    });

    it('answers 404 for a site of another organization', async () => {
      const otherOrg = (await newOrg(server, 'Second org')).id;
      expect((await server.request('GET', `${org(otherOrg)}/sites/${siteId}`)).status).toBe(404);
      expect((await server.request('GET', `${org(otherOrg)}/sites/${siteId}/sections`)).status).toBe(404);
    });

    it('lets readers see sites but not change them (403); guests see nothing (403)', async () => {
      expect((await server.request('GET', `${org()}/sites`, { token: reader.token })).status).toBe(200);
      const got = await server.request('GET', `${org()}/sites/${siteId}`, { token: reader.token });
      expect(got.status).toBe(200);
      expect(got.body.permissions).toMatchObject({ view: true, edit: false, admin: false, editAdaptiveSchema: false });
      expect(
        (await server.request('GET', `${org()}/sites/${siteId}/site-spaces`, { token: reader.token })).status,
      ).toBe(200);
      for (const token of [reader.token, editor.token]) {
        expect(
          (await server.request('PATCH', `${org()}/sites/${siteId}`, { token, body: { title: 'No' } })).status,
        ).toBe(403);
        expect((await server.request('POST', `${org()}/sites`, { token, body: {} })).status).toBe(403);
        expect((await server.request('POST', `${org()}/sites/${siteId}/publish`, { token })).status).toBe(403);
        expect((await server.request('DELETE', `${org()}/sites/${siteId}`, { token })).status).toBe(403);
        expect((await server.request('GET', `${org()}/sites/${siteId}/share-links`, { token })).status).toBe(403);
        expect((await server.request('GET', `${org()}/sites/${siteId}/publishing/auth`, { token })).status).toBe(403);
      }
      expect((await server.request('GET', `${org()}/sites`, { token: guest.token })).status).toBe(403);
      expect((await server.request('GET', `${org()}/sites/${siteId}`, { token: guest.token })).status).toBe(403);
    });

    it('lets the create role manage sites', async () => {
      const sp = await newSpace(server, server.orgId, { title: 'Creator space', token: creator.token });
      const s = await newSite(server, server.orgId, { spaces: [sp.id], token: creator.token });
      const base = `${org()}/sites/${s.id}`;
      expect((await server.request('PATCH', base, { token: creator.token, body: { title: 'Mine' } })).status).toBe(200);
      expect(
        (await server.request('POST', `${base}/sections`, { token: creator.token, body: { spaceId: sp.id } })).status,
      ).toBe(201);
      expect((await server.request('POST', `${base}/publish`, { token: creator.token })).status).toBe(200);
    });
  });

  describe('adaptive schema', () => {
    const valid = {
      $schema: 'http://json-schema.org/draft-07/schema#',
      type: 'object',
      properties: {
        beta: { type: 'boolean', description: 'the visitor joined the beta' },
        unsigned: {
          type: 'object',
          description: 'Unsigned claims of the site visitor.',
          properties: { darkMode: { type: 'boolean', description: 'prefers dark mode' } },
          additionalProperties: false,
        },
      },
      additionalProperties: false,
    };

    it('has an empty schema at first, accepts a valid draft-07 schema and lists template conditions', async () => {
      const s = await newSite(server, server.orgId);
      const path = `${org()}/sites/${s.id}/adaptive-schema`;
      const first = await server.request('GET', path);
      expect(first.status).toBe(200);
      expect(first.body).toMatchObject({ object: 'site-adaptive-schema', jsonSchema: { type: 'object' } });
      expect((await server.request('GET', `${path}/template-conditions`)).body.items).toEqual([]);

      const put = await server.request('PUT', path, { body: { jsonSchema: valid } });
      expect(put.status).toBe(200);
      expect(put.body.jsonSchema).toEqual(valid);
      expect((await server.request('GET', path)).body.jsonSchema).toEqual(valid);
      const templates = (await server.request('GET', `${path}/template-conditions`)).body.items;
      expect(templates.map((t: { condition: string }) => t.condition)).toEqual([
        'visitor.claims.beta === true',
        'visitor.claims.beta !== true',
        'visitor.claims.unsigned.darkMode === true',
        'visitor.claims.unsigned.darkMode !== true',
      ]);
      expect(templates[0].description).toBe('Show to visitors who joined the beta');
      expect(templates[1].description).toBe('Hide from visitors who joined the beta');
      // Every template condition is accepted as a section condition.
      const { base, sections } = await sectioned(['Templated']);
      for (const t of templates) {
        const res = await server.request('PATCH', `${base}/sections/${sections[0]!.id}`, {
          body: { condition: t.condition },
        });
        expect(res.status).toBe(200);
      }
    });

    it('refuses schemas that are not valid draft-07, or not of the documented shape, with the reason', async () => {
      const s = await newSite(server, server.orgId);
      const path = `${org()}/sites/${s.id}/adaptive-schema`;
      const invalid = await server.request('PUT', path, { body: { jsonSchema: { ...valid, type: 'objekt' } } });
      expect(invalid.status).toBe(400);
      expect(invalid.body.error.message).toMatch(/draft-07/);
      const badRef = await server.request('PUT', path, {
        body: { jsonSchema: { ...valid, properties: { a: { $ref: '#/definitions/missing' } } } },
      });
      expect(badRef.status).toBe(400);
      const notBoolean = await server.request('PUT', path, {
        body: { jsonSchema: { ...valid, properties: { plan: { type: 'string', description: 'plan' } } } },
      });
      expect(notBoolean.status).toBe(400);
      expect(paths(notBoolean.body)[0]).toBe('jsonSchema.properties.plan.type');
      const open = await server.request('PUT', path, {
        body: { jsonSchema: { ...valid, additionalProperties: true } },
      });
      expect(paths(open.body)[0]).toBe('jsonSchema.additionalProperties');
      const badName = await server.request('PUT', path, {
        body: { jsonSchema: { ...valid, properties: { 'bad name': { type: 'boolean', description: 'x' } } } },
      });
      expect(badName.status).toBe(400);
      expect((await server.request('PUT', path, { body: {} })).status).toBe(400);
      // Whatever a client sends as a schema is a 400 naming the field, never a server error.
      const schemaNumber = await server.request('PUT', path, { body: { jsonSchema: { ...valid, $schema: 7 } } });
      expect(schemaNumber.status).toBe(400);
      expect(paths(schemaNumber.body)[0]).toBe('jsonSchema.$schema');
      for (const jsonSchema of [
        { ...valid, $schema: 'http://json-schema.org/draft-04/schema#' },
        { ...valid, $schema: 'https://example.com/unknown-meta-schema' },
        { ...valid, $schema: null },
        { ...valid, properties: { a: { $ref: 'https://example.com/remote.json' } } },
        { ...valid, properties: { a: { type: 'string', pattern: '(' } } },
        { ...valid, $id: 42 },
        { ...valid, properties: { a: { type: 'boolean', description: 'x', format: 'no-such-format' } } },
        { ...valid, properties: [] },
        { ...valid, required: 'a' },
      ]) {
        const res = await server.request('PUT', path, { body: { jsonSchema } });
        expect(res.status, JSON.stringify(jsonSchema).slice(0, 120)).toBe(400);
        expect(paths(res.body)[0], JSON.stringify(jsonSchema).slice(0, 120)).toMatch(/^jsonSchema/);
      }
      // Claims past the bound are refused by the shape, before the schema is compiled (a 700 kB schema of claims took
      // seconds of the event loop to compile).
      const claims = (n: number) =>
        Object.fromEntries(Array.from({ length: n }, (_, i) => [`claim_${i}`, { type: 'boolean', description: 'x' }]));
      const unsigned = (n: number) => ({
        ...valid,
        properties: { unsigned: { type: 'object', properties: claims(n), additionalProperties: false } },
      });
      expect((await server.request('PUT', path, { body: { jsonSchema: unsigned(ADAPTIVE_CLAIMS_MAX) } })).status).toBe(
        200,
      );
      for (const jsonSchema of [unsigned(ADAPTIVE_CLAIMS_MAX + 1), unsigned(12_000)]) {
        const res = await server.request('PUT', path, { body: { jsonSchema } });
        expect(res.status).toBe(400);
        expect(paths(res.body)[0]).toBe('jsonSchema.properties.unsigned.properties');
        expect(res.body.error.message).toMatch(/500/);
      }
      const signed = await server.request('PUT', path, {
        body: { jsonSchema: { ...valid, properties: claims(ADAPTIVE_CLAIMS_MAX + 2) } },
      });
      expect(paths(signed.body)[0]).toBe('jsonSchema.properties');
      expect((await server.request('PUT', path, { token: reader.token, body: { jsonSchema: valid } })).status).toBe(
        403,
      );
    });
  });

  describe('published profile', () => {
    it('returns the site, its structure, customizations per site space and scripts; shareKey resolves URLs', async () => {
      const { id, base, sections } = await sectioned(['One', 'Two']);
      const group = await server.request('POST', `${base}/section-groups`, {
        body: { title: 'Grouped', sections: [sections[1]!.id] },
      });
      expect(group.status).toBe(201);
      await server.request('PATCH', `${org()}/sites/${id}`, { body: { visibility: 'share-link' } });
      await server.request('POST', `${base}/publish`);
      const res = await server.request('GET', `${base}/published`);
      expect(res.status).toBe(200);
      expect(res.body.object).toBe('published-content-site');
      expect(res.body.site.id).toBe(id);
      expect(res.body.structure.type).toBe('sections');
      expect(res.body.structure.structure.map((i: { object: string }) => i.object)).toEqual([
        'site-section',
        'site-section-group',
      ]);
      expect(res.body.structure.structure[1].sections[0].id).toBe(sections[1]!.id);
      expect(Object.keys(res.body.customizations.siteSpaces).sort()).toEqual(
        sections.map((s) => s.siteSpaces[0]!.id).sort(),
      );
      expect(res.body.scripts).toEqual([]);
      expect(res.body.structure.structure[0].urls.published).toBe(`${server.config.publicUrl}/sites/${id}/one`);

      const link = (await server.request('POST', `${base}/share-links`, { body: { name: 'x' } })).body;
      const key = link.urls.published.split('/~share/')[1];
      const shared = await server.request('GET', `${base}/published?shareKey=${key}`);
      expect(shared.body.structure.structure[0].urls.published).toBe(
        `${server.config.publicUrl}/sites/${id}/~share/${key}/one`,
      );
      const sectionsShared = await server.request('GET', `${base}/sections?shareKey=${key}`);
      expect(sectionsShared.body.items[0].siteSpaces[0].urls.published).toBe(
        `${server.config.publicUrl}/sites/${id}/~share/${key}/one/one`,
      );
      const bad = await server.request('GET', `${base}/published?shareKey=wrong`);
      expect(bad.status).toBe(400);
      expect(paths(bad.body)).toEqual(['shareKey']);
    });

    it('returns a siteSpaces structure for a site without sections', async () => {
      const s = await newSite(server, server.orgId, {
        spaces: [(await newSpace(server, server.orgId, { title: 'Solo' })).id],
      });
      const res = await server.request('GET', `${org()}/sites/${s.id}/published`);
      expect(res.body.structure.type).toBe('siteSpaces');
      expect(res.body.structure.structure[0].space.title).toBe('Solo');
    });
  });

  describe('sections', () => {
    it('adds a section from a space: 201 + Location, path from the title, the first is the default', async () => {
      const s = await newSite(server, server.orgId);
      const sp = await newSpace(server, server.orgId, { title: 'Getting Started' });
      const base = `${org()}/sites/${s.id}`;
      const res = await server.request('POST', `${base}/sections`, { body: { spaceId: sp.id, icon: 'book' } });
      expect(res.status).toBe(201);
      expect(res.headers.get('location')).toBe(`${server.config.publicUrl}${base}/sections/${res.body.id}`);
      expect(res.body).toMatchObject({
        object: 'site-section',
        title: 'Getting Started',
        path: 'getting-started',
        default: true,
        icon: 'book',
        siteSpaces: [{ object: 'site-space', default: true, space: { id: sp.id } }],
      });
      const again = await server.request('POST', `${base}/sections`, { body: { spaceId: sp.id, title: null } });
      expect(again.body.path).toBe('getting-started-2');
      expect(again.body.default).toBe(false);
      const short = await server.request('POST', `${base}/sections`, { body: { spaceId: sp.id, title: 'x' } });
      expect(paths(short.body)).toContain('title');
      const none = await server.request('POST', `${base}/sections`, { body: {} });
      expect(paths(none.body)).toContain('spaceId');
      const unknown = await server.request('POST', `${base}/sections`, { body: { spaceId: 'nope' } });
      expect(paths(unknown.body)).toEqual(['spaceId']);
    });

    it('turns root site spaces into the default section when the first section is added', async () => {
      const a = await newSpace(server, server.orgId, { title: 'Root one' });
      const s = await newSite(server, server.orgId, { spaces: [a.id] });
      const base = `${org()}/sites/${s.id}`;
      const b = await newSpace(server, server.orgId, { title: 'New section' });
      await server.request('POST', `${base}/sections`, { body: { spaceId: b.id } });
      const sections = (await server.request('GET', `${base}/sections`)).body.items;
      expect(sections.map((x: { title: string; default: boolean }) => [x.title, x.default])).toEqual([
        ['Root one', true],
        ['New section', false],
      ]);
      expect(sections[0].siteSpaces[0].space.id).toBe(a.id);
    });

    it('patches title, path, condition, icon and description within their limits; null removes', async () => {
      const { base, sections } = await sectioned(['Limits']);
      const path = `${base}/sections/${sections[0]!.id}`;
      const ok = await server.request('PATCH', path, {
        body: {
          title: 't'.repeat(128),
          path: 'p'.repeat(100),
          condition: `visitor.claims.a == "${'x'.repeat(1024 - 22)}"`,
          icon: 'i'.repeat(50),
          description: 'd'.repeat(256),
        },
      });
      expect(ok.status).toBe(200);
      expect(ok.body.condition.length).toBe(1024);
      expect(ok.body.description.length).toBe(256);
      const tooLong: Array<[string, unknown]> = [
        ['title', 't'.repeat(129)],
        ['title', 'a'],
        ['path', 'p'.repeat(101)],
        ['path', ''],
        ['path', 'has space'],
        ['path', '~share'],
        ['condition', 'x'.repeat(1025)],
        ['condition', ''],
        ['icon', 'i'.repeat(51)],
        ['description', 'd'.repeat(257)],
      ];
      for (const [field, value] of tooLong) {
        const res = await server.request('PATCH', path, { body: { [field]: value } });
        expect(res.status, `${field}=${String(value).slice(0, 20)}`).toBe(400);
        expect(paths(res.body)).toContain(field);
      }
      const cleared = await server.request('PATCH', path, { body: { condition: null, icon: null, description: null } });
      expect(cleared.body.condition).toBeUndefined();
      expect(cleared.body.icon).toBeUndefined();
      expect(cleared.body.description).toBeUndefined();
      // Unset keeps.
      await server.request('PATCH', path, { body: { condition: 'visitor.claims.a' } });
      expect((await server.request('PATCH', path, { body: { title: 'Kept' } })).body.condition).toBe(
        'visitor.claims.a',
      );
    });

    it('rejects a malformed condition when it is saved, naming the field', async () => {
      const { base, sections } = await sectioned(['Conditions']);
      const path = `${base}/sections/${sections[0]!.id}`;
      for (const condition of [
        'visitor.claims.a ===',
        'process.exit()',
        'visitor.claims.a = 1',
        'constructor.constructor("x")()',
        'visitor.claims.a ? 1 : 2',
        'this',
        'visitor.claims[visitor.claims.key]',
        'a; b',
      ]) {
        const res = await server.request('PATCH', path, { body: { condition } });
        expect(res.status, condition).toBe(400);
        expect(paths(res.body)).toEqual(['condition']);
      }
      const ok = await server.request('PATCH', path, {
        body: {
          condition: '(visitor.claims.plan == "pro" || visitor.claims.seats > 5) && !visitor.claims.unsigned.off',
        },
      });
      expect(ok.status).toBe(200);
    });

    it('keeps section paths unique (409 naming path)', async () => {
      const { base, sections } = await sectioned(['Alpha', 'Beta']);
      const res = await server.request('PATCH', `${base}/sections/${sections[1]!.id}`, { body: { path: 'alpha' } });
      expect(res.status).toBe(409);
      expect(paths(res.body)).toEqual(['path']);
      expect(
        (await server.request('PATCH', `${base}/sections/${sections[0]!.id}`, { body: { path: 'alpha' } })).status,
      ).toBe(200);
    });

    it('answers 204 with Preference-Applied for Prefer: return=minimal', async () => {
      const { base, sections } = await sectioned(['Minimal']);
      const res = await server.request('PATCH', `${base}/sections/${sections[0]!.id}`, {
        body: { title: 'Quiet' },
        headers: { prefer: 'return=minimal' },
      });
      expect(res.status).toBe(204);
      expect(res.headers.get('preference-applied')).toBe('return=minimal');
      expect((await server.request('GET', `${base}/sections`)).body.items[0].title).toBe('Quiet');
    });

    it('sets the default site space of a section', async () => {
      const { base, sections } = await sectioned(['Variants']);
      const other = await server.request('POST', `${base}/site-spaces`, {
        body: { spaceId: (await newSpace(server, server.orgId, { title: 'v2' })).id, sectionId: sections[0]!.id },
      });
      const res = await server.request('PATCH', `${base}/sections/${sections[0]!.id}`, {
        body: { defaultSiteSpace: other.body.id },
      });
      expect(res.body.siteSpaces.map((s: { default: boolean }) => s.default)).toEqual([false, true]);
      const bad = await server.request('PATCH', `${base}/sections/${sections[0]!.id}`, {
        body: { defaultSiteSpace: 'x' },
      });
      expect(paths(bad.body)).toEqual(['defaultSiteSpace']);
    });

    it('deletes a section (205, then 204); removing the default promotes another', async () => {
      const { base, sections } = await sectioned(['A', 'B', 'C']);
      expect((await server.request('DELETE', `${base}/sections/${sections[0]!.id}`)).status).toBe(205);
      expect((await server.request('DELETE', `${base}/sections/${sections[0]!.id}`)).status).toBe(204);
      const left = (await server.request('GET', `${base}/sections`)).body.items;
      expect(left.map((s: { id: string; default: boolean }) => [s.id, s.default])).toEqual([
        [sections[1]!.id, true],
        [sections[2]!.id, false],
      ]);
      // Its site spaces went with it.
      const spaces = (await server.request('GET', `${base}/site-spaces`)).body.items;
      expect(spaces.map((s: { section: string }) => s.section)).toEqual([sections[1]!.id, sections[2]!.id]);
      expect(
        (await server.request('PATCH', `${base}/sections/${sections[0]!.id}`, { body: { title: 'Gone' } })).status,
      ).toBe(404);
    });

    it('lists sections with pagination in structure order', async () => {
      const { base, sections } = await sectioned(['P1', 'P2', 'P3']);
      const first = await server.request('GET', `${base}/sections?limit=2`);
      expect(ids(first.body.items)).toEqual([sections[0]!.id, sections[1]!.id]);
      expect(first.body.count).toBe(3);
      const second = await server.request('GET', `${base}/sections?limit=2&page=${first.body.next.page}`);
      expect(ids(second.body.items)).toEqual([sections[2]!.id]);
      expect(second.body.next).toBeUndefined();
    });

    it('moves a section (deprecated move) before or after a sibling', async () => {
      const { base, sections } = await sectioned(['M1', 'M2', 'M3']);
      const [a, b, c] = sections.map((s) => s.id);
      const res = await server.request('POST', `${base}/sections/${c}/move`, {
        body: { position: { before: { type: 'site-section', siteSection: a } } },
      });
      expect(res.status).toBe(200);
      expect(ids((await server.request('GET', `${base}/sections`)).body.items)).toEqual([c, a, b]);
      await server.request('POST', `${base}/sections/${c}/move`, { body: {} });
      expect(ids((await server.request('GET', `${base}/sections`)).body.items)).toEqual([a, b, c]);
      const bad = await server.request('POST', `${base}/sections/${c}/move`, {
        body: { position: { after: { type: 'site-section', siteSection: 'nope' } } },
      });
      expect(bad.status).toBe(400);
      expect(paths(bad.body)).toEqual(['position.after']);
    });
  });

  describe('site spaces', () => {
    it('adds to a section, to the default section, or to the root; paths unique among siblings', async () => {
      const sp = await newSpace(server, server.orgId, { title: 'Shared' });
      const rootSite = await newSite(server, server.orgId);
      const rootBase = `${org()}/sites/${rootSite.id}`;
      const r1 = await server.request('POST', `${rootBase}/site-spaces`, { body: { spaceId: sp.id } });
      expect(r1.status).toBe(201);
      expect(r1.headers.get('location')).toBe(`${server.config.publicUrl}${rootBase}/site-spaces/${r1.body.id}`);
      expect(r1.body).toMatchObject({ object: 'site-space', path: 'shared', default: true, title: 'Shared' });
      expect(r1.body.section).toBeUndefined();
      const r2 = await server.request('POST', `${rootBase}/site-spaces`, { body: { spaceId: sp.id } });
      expect(r2.body.path).toBe('shared-2');
      const conflict = await server.request('PATCH', `${rootBase}/site-spaces/${r2.body.id}`, {
        body: { path: 'shared' },
      });
      expect(conflict.status).toBe(409);
      expect(paths(conflict.body)).toEqual(['path']);

      const { base, sections } = await sectioned(['S1', 'S2']);
      const inDefault = await server.request('POST', `${base}/site-spaces`, { body: { spaceId: sp.id } });
      expect(inDefault.body.section).toBe(sections[0]!.id);
      const inSecond = await server.request('POST', `${base}/site-spaces`, {
        body: { spaceId: sp.id, sectionId: sections[1]!.id },
      });
      expect(inSecond.body.section).toBe(sections[1]!.id);
      // The same path in another section is fine.
      expect(inSecond.body.path).toBe(inDefault.body.path);
      const bad = await server.request('POST', `${base}/site-spaces`, { body: { spaceId: sp.id, sectionId: 'nope' } });
      expect(paths(bad.body)).toEqual(['sectionId']);
      const minimal = await server.request('POST', `${base}/site-spaces`, {
        body: { spaceId: sp.id },
        headers: { prefer: 'return=minimal' },
      });
      expect(minimal.status).toBe(204);
      expect(minimal.headers.get('preference-applied')).toBe('return=minimal');
    });

    it('patches path, condition (null removes) and the target space', async () => {
      const s = await newSite(server, server.orgId, {
        spaces: [(await newSpace(server, server.orgId, { title: 'One' })).id],
      });
      const base = `${org()}/sites/${s.id}`;
      const ss = (await server.request('GET', `${base}/site-spaces`)).body.items[0];
      const two = await newSpace(server, server.orgId, { title: 'Two' });
      const res = await server.request('PATCH', `${base}/site-spaces/${ss.id}`, {
        body: { path: 'v1', condition: 'visitor.claims.v1', spaceId: two.id },
      });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        path: 'v1',
        condition: 'visitor.claims.v1',
        space: { id: two.id },
        title: 'Two',
      });
      const cleared = await server.request('PATCH', `${base}/site-spaces/${ss.id}`, { body: { condition: null } });
      expect(cleared.body.condition).toBeUndefined();
      for (const [field, value] of [
        ['condition', 'x'.repeat(1025)],
        ['condition', 'visitor.claims.a +'],
        ['path', 'p'.repeat(101)],
        ['spaceId', 'nope'],
      ] as const) {
        const bad = await server.request('PATCH', `${base}/site-spaces/${ss.id}`, { body: { [field]: value } });
        expect(bad.status).toBe(400);
        expect(paths(bad.body)).toContain(field);
      }
      const minimal = await server.request('PATCH', `${base}/site-spaces/${ss.id}`, {
        body: { path: 'v2' },
        headers: { prefer: 'return=minimal' },
      });
      expect(minimal.status).toBe(204);
      expect((await server.request('PATCH', `${base}/site-spaces/nope`, { body: { path: 'x' } })).status).toBe(404);
    });

    it('deletes a site space (205, then 204); removing the default promotes another', async () => {
      const s = await newSite(server, server.orgId, {
        spaces: [
          (await newSpace(server, server.orgId, { title: 'D1' })).id,
          (await newSpace(server, server.orgId, { title: 'D2' })).id,
        ],
      });
      const base = `${org()}/sites/${s.id}`;
      const [a, b] = (await server.request('GET', `${base}/site-spaces`)).body.items;
      expect(a.default).toBe(true);
      expect((await server.request('DELETE', `${base}/site-spaces/${a.id}`)).status).toBe(205);
      expect((await server.request('DELETE', `${base}/site-spaces/${a.id}`)).status).toBe(204);
      const left = (await server.request('GET', `${base}/site-spaces`)).body.items;
      expect(left.map((x: { id: string; default: boolean }) => [x.id, x.default])).toEqual([[b.id, true]]);
      expect((await server.request('GET', `${org()}/sites/${s.id}`)).body.siteSpaces).toBe(1);
    });

    it('lists with pagination and moves (deprecated move)', async () => {
      const s = await newSite(server, server.orgId, {
        spaces: [
          (await newSpace(server, server.orgId, { title: 'L1' })).id,
          (await newSpace(server, server.orgId, { title: 'L2' })).id,
          (await newSpace(server, server.orgId, { title: 'L3' })).id,
        ],
      });
      const base = `${org()}/sites/${s.id}`;
      const all = (await server.request('GET', `${base}/site-spaces`)).body.items.map((x: { id: string }) => x.id);
      const p1 = await server.request('GET', `${base}/site-spaces?limit=2`);
      const p2 = await server.request('GET', `${base}/site-spaces?limit=2&page=${p1.body.next.page}`);
      expect([...ids(p1.body.items), ...ids(p2.body.items)]).toEqual(all);
      const moved = await server.request('POST', `${base}/site-spaces/${all[0]}/move`, {
        body: { position: { after: { type: 'site-space', siteSpace: all[2] } } },
      });
      expect(moved.status).toBe(200);
      expect(ids((await server.request('GET', `${base}/site-spaces`)).body.items)).toEqual([all[1], all[2], all[0]]);
    });
  });

  /**
   * A site space shows its space's title and metadata: members who cannot read the space (a null default level, or
   * a collection hiding it) do not see the site space at all, as GET /v1/spaces/{id} would not show the space.
   */
  describe('site spaces whose space is hidden from the caller', () => {
    async function hide(kind: 'spaces' | 'collections', id: string) {
      const res = await server.request('PATCH', `/v1/${kind}/${id}`, { body: { defaultLevel: null } });
      expect(res.status).toBe(200);
    }

    /** A root-level site: Secret (null default level, the default site space), Open A, Plans (hidden collection), Open B. */
    async function siteWithHiddenSpaces() {
      const secret = await newSpace(server, server.orgId, { title: 'Secret roadmap' });
      await hide('spaces', secret.id);
      const hidingCollection = await server.request('POST', `${org()}/collections`, { body: { title: 'Board' } });
      await hide('collections', hidingCollection.body.id);
      const plans = await server.request('POST', `${org()}/spaces`, {
        body: { title: 'Merger plans', parent: hidingCollection.body.id },
      });
      const openA = await newSpace(server, server.orgId, { title: 'Open A' });
      const openB = await newSpace(server, server.orgId, { title: 'Open B' });
      const s = await newSite(server, server.orgId, { spaces: [secret.id, openA.id, plans.body.id, openB.id] });
      const base = `${org()}/sites/${s.id}`;
      const all = (await server.request('GET', `${base}/site-spaces`)).body.items as Array<{
        id: string;
        space: { id: string };
      }>;
      expect(all).toHaveLength(4);
      const bySpace = (id: string) => all.find((x) => x.space.id === id)!.id;
      return {
        siteId: s.id,
        base,
        secret: { space: secret.id, ss: bySpace(secret.id) },
        plans: { space: plans.body.id as string, ss: bySpace(plans.body.id) },
        open: [bySpace(openA.id), bySpace(openB.id)],
      };
    }

    const leaks = (body: unknown, t: Awaited<ReturnType<typeof siteWithHiddenSpaces>>) => {
      const text = JSON.stringify(body);
      return ['Secret roadmap', 'Merger plans', t.secret.space, t.plans.space, t.secret.ss, t.plans.ss].filter((x) =>
        text.includes(x),
      );
    };

    it('leaves them out of GET …/site-spaces for a reader: items, count, pages and the default filter agree', async () => {
      const t = await siteWithHiddenSpaces();
      expect((await server.request('GET', `/v1/spaces/${t.secret.space}`, { token: reader.token })).status).toBe(404);
      expect((await server.request('GET', `/v1/spaces/${t.plans.space}`, { token: reader.token })).status).toBe(404);

      const list = await server.request('GET', `${t.base}/site-spaces`, { token: reader.token });
      expect(list.status).toBe(200);
      expect(ids(list.body.items)).toEqual(t.open);
      expect(list.body.count).toBe(2);
      expect(leaks(list.body, t)).toEqual([]);
      const seen: string[] = [];
      let page: string | undefined;
      do {
        const res = await server.request(
          'GET',
          `${t.base}/site-spaces?limit=1${page ? `&page=${encodeURIComponent(page)}` : ''}`,
          { token: reader.token },
        );
        expect(res.body.count).toBe(2);
        expect(leaks(res.body, t)).toEqual([]);
        seen.push(...ids(res.body.items));
        page = res.body.next?.page;
      } while (page);
      expect(seen).toEqual(t.open);
      // The default site space is the hidden one: the reader is shown no default, not the hidden one.
      const defaults = await server.request('GET', `${t.base}/site-spaces?default=true`, { token: reader.token });
      expect(defaults.body).toMatchObject({ items: [], count: 0 });
      const others = await server.request('GET', `${t.base}/site-spaces?default=false`, { token: reader.token });
      expect(ids(others.body.items)).toEqual(t.open);

      // Nothing changed: the owner still sees all four, and the spaces are still hidden from the reader.
      const owner = await server.request('GET', `${t.base}/site-spaces`);
      expect(owner.body.count).toBe(4);
      expect((await server.request('GET', `/v1/spaces/${t.secret.space}`, { token: reader.token })).status).toBe(404);
    });

    it('leaves them out of the site, its structure, sections and published profile, and out of ?space=', async () => {
      const t = await siteWithHiddenSpaces();
      const got = await server.request('GET', `${org()}/sites/${t.siteId}`, { token: reader.token });
      expect(got.body.siteSpaces).toBe(2);
      expect((await server.request('GET', `${org()}/sites/${t.siteId}`)).body.siteSpaces).toBe(4);
      const listed = await server.request('GET', `${org()}/sites`, { token: reader.token });
      expect(listed.body.items.find((x: { id: string }) => x.id === t.siteId).siteSpaces).toBe(2);

      const profile = await server.request('GET', `${org()}/sites/${t.siteId}/published`, { token: reader.token });
      expect(profile.status).toBe(200);
      expect(profile.body.structure.structure.map((x: { id: string }) => x.id)).toEqual(t.open);
      expect(Object.keys(profile.body.customizations.siteSpaces).sort()).toEqual([...t.open].sort());
      expect(leaks(profile.body, t)).toEqual([]);

      for (const hidden of [t.secret.space, t.plans.space]) {
        const bySpace = await server.request('GET', `${org()}/sites?space=${hidden}`, { token: reader.token });
        expect(bySpace.body).toMatchObject({ items: [], count: 0 });
        const asOwner = await server.request('GET', `${org()}/sites?space=${hidden}`);
        expect(ids(asOwner.body.items)).toEqual([t.siteId]);
      }

      // In a section: the owner adds a section, then puts the hidden space in it too.
      const { base, sections } = await sectioned(['Visible section']);
      const added = await server.request('POST', `${base}/site-spaces`, {
        body: { spaceId: t.secret.space, sectionId: sections[0]!.id },
      });
      expect(added.status).toBe(201);
      const listedSections = await server.request('GET', `${base}/sections`, { token: reader.token });
      expect(listedSections.body.items[0].siteSpaces).toHaveLength(1);
      expect(JSON.stringify(listedSections.body)).not.toContain('Secret roadmap');
      const ownerSections = await server.request('GET', `${base}/sections`);
      expect(ownerSections.body.items[0].siteSpaces).toHaveLength(2);
    });

    it('shows one once a grant lets the reader read its space, as GET /v1/spaces/{id} does', async () => {
      const t = await siteWithHiddenSpaces();
      const grant = await server.request('POST', `/v1/spaces/${t.secret.space}/permissions`, {
        body: { role: 'read', users: [reader.id] },
      });
      expect(grant.status).toBe(204);
      expect((await server.request('GET', `/v1/spaces/${t.secret.space}`, { token: reader.token })).status).toBe(200);
      const list = await server.request('GET', `${t.base}/site-spaces`, { token: reader.token });
      expect(ids(list.body.items)).toEqual([t.secret.ss, ...t.open]);
      expect(list.body.items[0]).toMatchObject({ title: 'Secret roadmap', default: true });
    });

    it('answers 404 to a manager who cannot read the space when they change, move or sort its site space; nothing changes', async () => {
      const t = await siteWithHiddenSpaces();
      expect((await server.request('GET', `/v1/spaces/${t.secret.space}`, { token: creator.token })).status).toBe(404);
      const url = `${t.base}/site-spaces/${t.secret.ss}`;
      const patched = await server.request('PATCH', url, { token: creator.token, body: { path: 'exposed' } });
      expect(patched.status).toBe(404);
      expect(leaks(patched.body, t)).toEqual([]);
      const moved = await server.request('POST', `${url}/move`, {
        token: creator.token,
        body: { position: { after: { type: 'site-space', siteSpace: t.open[1] } } },
      });
      expect(moved.status).toBe(404);
      const sorted = await server.request('PATCH', `${t.base}/structure/sort`, {
        token: creator.token,
        body: {
          item: { type: 'site-space', id: t.secret.ss },
          position: { after: { type: 'site-space', id: t.open[1] } },
        },
      });
      expect(sorted.status).toBe(404);
      const asDefault = await server.request('PATCH', `${org()}/sites/${t.siteId}`, {
        token: creator.token,
        body: { defaultSiteSpace: t.secret.ss },
      });
      expect(asDefault.status).toBe(400);
      expect(paths(asDefault.body)).toEqual(['defaultSiteSpace']);
      // What the creator sees of the site after their own changes leaves the hidden ones out too.
      const visible = await server.request('PATCH', `${t.base}/site-spaces/${t.open[0]}`, {
        token: creator.token,
        body: { path: 'open-a' },
      });
      expect(visible.status).toBe(200);
      expect(leaks(visible.body, t)).toEqual([]);

      const after = await server.request('GET', `${t.base}/site-spaces`);
      expect(ids(after.body.items)).toEqual([t.secret.ss, t.open[0], t.plans.ss, t.open[1]]);
      expect(after.body.items[0]).toMatchObject({ path: 'secret-roadmap', default: true });

      // The first section turns the root site spaces into a section named after the default one's space: not after
      // a space the caller cannot read.
      const mine = await newSpace(server, server.orgId, { title: 'Creator notes', token: creator.token });
      const section = await server.request('POST', `${t.base}/sections`, {
        token: creator.token,
        body: { spaceId: mine.id },
      });
      expect(section.status).toBe(201);
      const sectionsNow = await server.request('GET', `${t.base}/sections`, { token: creator.token });
      expect(sectionsNow.body.items.map((x: { title: string }) => x.title)).toEqual(['Section', 'Creator notes']);
      expect(leaks(sectionsNow.body, t)).toEqual([]);
    });
  });

  describe('section groups', () => {
    it('creates with sections, renames, adds and removes sections, moves and deletes', async () => {
      const { base, sections } = await sectioned(['G1', 'G2', 'G3']);
      const [a, b, c] = sections.map((s) => s.id);
      const created = await server.request('POST', `${base}/section-groups`, {
        body: { title: 'Guides', icon: 'book', sections: [b] },
      });
      expect(created.status).toBe(201);
      expect(created.headers.get('location')).toBe(
        `${server.config.publicUrl}${base}/section-groups/${created.body.id}`,
      );
      expect(created.body).toMatchObject({ object: 'site-section-group', title: 'Guides', icon: 'book' });
      expect(ids(created.body.sections)).toEqual([b]);
      expect(ids(created.body.children)).toEqual([b]);
      const g = created.body.id as string;
      // The group took its first section's place.
      expect(ids((await server.request('GET', `${base}/sections`)).body.items)).toEqual([a, b, c]);

      const renamed = await server.request('PATCH', `${base}/section-groups/${g}`, {
        body: { title: 'Tutorials', icon: null },
      });
      expect(renamed.body.title).toBe('Tutorials');
      expect(renamed.body.icon).toBeUndefined();
      const minimal = await server.request('PATCH', `${base}/section-groups/${g}`, {
        body: { title: 'T' },
        headers: { prefer: 'return=minimal' },
      });
      expect(minimal.status).toBe(204);
      for (const title of ['', 't'.repeat(101)]) {
        expect(
          paths((await server.request('PATCH', `${base}/section-groups/${g}`, { body: { title } })).body),
        ).toContain('title');
      }

      const added = await server.request('POST', `${base}/section-groups/${g}/sections`, { body: { sectionId: c } });
      expect(added.status).toBe(201);
      expect(ids(added.body.sections)).toEqual([b, c]);
      expect((await server.request('GET', `${base}/sections`)).body.items[2].sectionGroup).toBe(g);
      const badAdd = await server.request('POST', `${base}/section-groups/${g}/sections`, { body: { sectionId: 'x' } });
      expect(paths(badAdd.body)).toEqual(['sectionId']);

      expect((await server.request('DELETE', `${base}/section-groups/${g}/sections/${b}`)).status).toBe(205);
      expect((await server.request('DELETE', `${base}/section-groups/${g}/sections/${b}`)).status).toBe(204);
      const listed = await server.request('GET', `${base}/section-groups`);
      expect(listed.body.count).toBe(1);
      expect(ids(listed.body.items[0].sections)).toEqual([c]);

      const moved = await server.request('POST', `${base}/section-groups/${g}/move`, {
        body: { position: { before: { type: 'site-section', id: a } } },
      });
      expect(moved.status).toBe(200);
      const structure = (await server.request('GET', `${base}/published`)).body.structure.structure;
      expect(structure.map((i: { id: string }) => i.id)).toEqual([g, a, b]);

      expect((await server.request('DELETE', `${base}/section-groups/${g}`)).status).toBe(205);
      expect((await server.request('DELETE', `${base}/section-groups/${g}`)).status).toBe(204);
      // Its sections stay, where the group was.
      expect(ids((await server.request('GET', `${base}/sections`)).body.items)).toEqual([c, a, b]);
      expect((await server.request('PATCH', `${base}/section-groups/${g}`, { body: { title: 'x' } })).status).toBe(404);
    });

    it('refuses unknown or repeated sections, naming the item', async () => {
      const { base, sections } = await sectioned(['R1']);
      const twice = await server.request('POST', `${base}/section-groups`, {
        body: { title: 'G', sections: [sections[0]!.id, sections[0]!.id] },
      });
      expect(paths(twice.body)).toEqual(['sections.1']);
      const none = await server.request('POST', `${base}/section-groups`, { body: { icon: 'x' } });
      expect(paths(none.body)).toContain('title');
    });
  });

  describe('structure sort', () => {
    it('reorders siblings of every kind; 400 for a pointer that is not a sibling, 404 for an unknown item', async () => {
      const { base, sections } = await sectioned(['X1', 'X2']);
      const [a, b] = sections.map((s) => s.id);
      const res = await server.request('PATCH', `${base}/structure/sort`, {
        body: { item: { type: 'site-section', id: b }, position: { before: { type: 'site-section', id: a } } },
      });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ object: 'site-section', id: b });
      expect(ids((await server.request('GET', `${base}/sections`)).body.items)).toEqual([b, a]);

      const ss = await server.request('POST', `${base}/site-spaces`, {
        body: { spaceId: (await newSpace(server, server.orgId, { title: 'Variant' })).id, sectionId: a },
      });
      const first = sections[0]!.siteSpaces[0]!.id;
      const sorted = await server.request('PATCH', `${base}/structure/sort`, {
        body: { item: { type: 'site-space', id: ss.body.id }, position: { before: { type: 'site-space', id: first } } },
        headers: { prefer: 'return=minimal' },
      });
      expect(sorted.status).toBe(204);
      const inA = (await server.request('GET', `${base}/sections`)).body.items.find((s: { id: string }) => s.id === a);
      expect(ids(inA.siteSpaces)).toEqual([ss.body.id, first]);

      const notSibling = await server.request('PATCH', `${base}/structure/sort`, {
        body: { item: { type: 'site-space', id: ss.body.id }, position: { after: { type: 'site-section', id: b } } },
      });
      expect(notSibling.status).toBe(400);
      expect(paths(notSibling.body)).toEqual(['position.after']);
      const unknown = await server.request('PATCH', `${base}/structure/sort`, {
        body: { item: { type: 'site-section', id: 'nope' } },
      });
      expect(unknown.status).toBe(404);
      const link = await server.request('PATCH', `${base}/structure/sort`, {
        body: { item: { type: 'site-external-link', id: 'x' } },
      });
      expect(link.status).toBe(404);
      const bad = await server.request('PATCH', `${base}/structure/sort`, {
        body: { item: { type: 'page', id: 'x' } },
      });
      expect(paths(bad.body)).toContain('item.type');
    });
  });

  describe('share links', () => {
    it('creates (201 + Location), renames, deactivates and deletes; lists with pagination', async () => {
      const s = await newSite(server, server.orgId, { visibility: 'share-link' });
      const path = `${org()}/sites/${s.id}/share-links`;
      const created = await server.request('POST', path, { body: { name: 'n'.repeat(50) } });
      expect(created.status).toBe(201);
      expect(created.headers.get('location')).toBe(`${server.config.publicUrl}${path}/${created.body.id}`);
      expect(created.body).toMatchObject({ object: 'share-link', name: 'n'.repeat(50), active: true });
      expect(created.body.urls.published).toMatch(new RegExp(`/sites/${s.id}/~share/[A-Za-z0-9_-]{32}$`));
      expect(paths((await server.request('POST', path, { body: { name: 'n'.repeat(51) } })).body)).toContain('name');
      const unnamed = await server.request('POST', path);
      expect(unnamed.status).toBe(201);
      expect(unnamed.body.name).toBeUndefined();

      const patched = await server.request('PATCH', `${path}/${created.body.id}`, {
        body: { name: 'Partners', active: false },
      });
      expect(patched.status).toBe(200);
      expect(patched.body).toMatchObject({ name: 'Partners', active: false });
      expect((await server.request('PATCH', `${path}/${created.body.id}`, { body: {} })).status).toBe(400);
      expect((await server.request('PATCH', `${path}/nope`, { body: { active: true } })).status).toBe(404);

      const page1 = await server.request('GET', `${path}?limit=1`);
      expect(page1.body.count).toBe(2);
      expect(page1.body.items.length).toBe(1);
      const page2 = await server.request('GET', `${path}?limit=1&page=${page1.body.next.page}`);
      expect(ids([...page1.body.items, ...page2.body.items]).sort()).toEqual([created.body.id, unnamed.body.id].sort());
      expect(page2.body.next).toBeUndefined();

      expect((await server.request('DELETE', `${path}/${created.body.id}`)).status).toBe(205);
      expect((await server.request('DELETE', `${path}/${created.body.id}`)).status).toBe(204);
    });
  });

  describe('visitor signing key', () => {
    it('is readable by managers, settable by hand (at least 32 characters) or regenerated', async () => {
      const s = await newSite(server, server.orgId);
      const path = `${org()}/sites/${s.id}/publishing/auth`;
      const got = await server.request('GET', path);
      expect(got.body).toMatchObject({ object: 'publishing-auth', backend: 'custom' });
      expect(got.body.privateKey.length).toBeGreaterThanOrEqual(43);
      // The key never appears in the site itself.
      expect(JSON.stringify((await server.request('GET', `${org()}/sites/${s.id}`)).body)).not.toContain(
        got.body.privateKey,
      );
      const key = 'k'.repeat(32);
      expect((await server.request('PATCH', path, { body: { privateKey: key } })).body.privateKey).toBe(key);
      const short = await server.request('PATCH', path, { body: { privateKey: 'k'.repeat(31) } });
      expect(paths(short.body)).toContain('privateKey');
      const fallback = await server.request('PATCH', path, { body: { fallbackURL: 'javascript:alert(1)' } });
      expect(paths(fallback.body)).toContain('fallbackURL');
      const regenerated = await server.request('POST', `${path}/regenerate`);
      expect(regenerated.body.privateKey).not.toBe(key);
    });
  });

  describe('concurrency', () => {
    it('keeps exactly one default section when sections are added and removed at once', async () => {
      const s = await newSite(server, server.orgId);
      const base = `${org()}/sites/${s.id}`;
      const spaces = await Promise.all(
        [1, 2, 3, 4, 5, 6].map((n) => newSpace(server, server.orgId, { title: `C${n}` })),
      );
      const added = await Promise.all(
        spaces.map((sp) => server.request('POST', `${base}/sections`, { body: { spaceId: sp.id } })),
      );
      expect(added.every((r) => r.status === 201)).toBe(true);
      const list = (await server.request('GET', `${base}/sections`)).body.items;
      expect(new Set(list.map((x: { path: string }) => x.path)).size).toBe(6);
      expect(list.filter((x: { default: boolean }) => x.default).length).toBe(1);
      await Promise.all(
        list.slice(0, 3).map((x: { id: string }) => server.request('DELETE', `${base}/sections/${x.id}`)),
      );
      const left = (await server.request('GET', `${base}/sections`)).body.items;
      expect(left.length).toBe(3);
      expect(left.filter((x: { default: boolean }) => x.default).length).toBe(1);
    });
  });
});
