import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  describeEachDialect,
  startTestServer,
  withClockAhead,
  type TestServer,
  type TestUser,
} from '../test/harness.js';
import { newCollection, newOrg, newSpace } from '../test/factories.js';

function paths(body: { error: { issues?: Array<{ path: string }> } }): string[] {
  return (body.error.issues ?? []).map((i) => i.path);
}

function ids(items: Array<{ id: string }>): string[] {
  return items.map((i) => i.id);
}

describeEachDialect('collections', (dialect) => {
  let server: TestServer;
  let editor: TestUser;
  let reader: TestUser;
  let outsider: TestUser;

  beforeAll(async () => {
    server = await startTestServer(dialect);
    [editor, reader, outsider] = await Promise.all([
      server.member('edit'),
      server.member('read'),
      server.signup('outsider'),
    ]);
  });
  afterAll(() => server.close());

  async function listAll(path: string): Promise<Array<{ id: string; [k: string]: unknown }>> {
    const res = await server.request('GET', path);
    expect(res.status).toBe(200);
    return res.body.items;
  }

  describe('POST /v1/orgs/{id}/collections', () => {
    it('creates a collection: 201 with a Location header', async () => {
      const res = await server.request('POST', `/v1/orgs/${server.orgId}/collections`, { body: { title: 'Guides' } });
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({
        object: 'collection',
        title: 'Guides',
        organization: server.orgId,
        defaultLevel: 'inherit',
        permissions: { view: true, admin: true, viewInviteLinks: true, create: true },
      });
      expect(res.body.parent).toBeUndefined();
      expect(res.headers.get('location')).toBe(res.body.urls.location);
      expect(res.headers.get('location')).toMatch(new RegExp(`/v1/collections/${res.body.id}$`));
      expect((await server.request('GET', `/v1/collections/${res.body.id}`)).status).toBe(200);
    });

    it('nests a collection in a parent', async () => {
      const parent = await newCollection(server, server.orgId, { title: 'C' });
      const res = await server.request('POST', `/v1/orgs/${server.orgId}/collections`, {
        body: { title: 'Child', parent: parent.id },
      });
      expect(res.status).toBe(201);
      expect(res.body.parent).toBe(parent.id);
    });

    it('accepts a title of 50 characters and refuses 51 (400 naming title)', async () => {
      const ok = await server.request('POST', `/v1/orgs/${server.orgId}/collections`, {
        body: { title: 't'.repeat(50) },
      });
      expect(ok.status).toBe(201);
      expect(ok.body.title).toBe('t'.repeat(50));
      const bad = await server.request('POST', `/v1/orgs/${server.orgId}/collections`, {
        body: { title: 't'.repeat(51) },
      });
      expect(bad.status).toBe(400);
      expect(paths(bad.body)).toContain('title');
    });

    it('refuses a parent from another organization (400 naming parent)', async () => {
      const other = (await newOrg(server, 'Collections org')).id;
      const foreign = await newCollection(server, other, { title: 'C' });
      const res = await server.request('POST', `/v1/orgs/${server.orgId}/collections`, {
        body: { title: 'X', parent: foreign.id },
      });
      expect(res.status).toBe(400);
      expect(paths(res.body)).toContain('parent');
    });

    it('answers 403 to members below the create role, 404 to an outsider, 401 without a token', async () => {
      for (const user of [reader, editor]) {
        const res = await server.request('POST', `/v1/orgs/${server.orgId}/collections`, {
          token: user.token,
          body: { title: 'Nope' },
        });
        expect(res.status).toBe(403);
      }
      const hidden = await server.request('POST', `/v1/orgs/${server.orgId}/collections`, {
        token: outsider.token,
        body: { title: 'Nope' },
      });
      expect(hidden.status).toBe(404);
      expect(
        (await server.request('POST', `/v1/orgs/${server.orgId}/collections`, { token: null, body: { title: 'N' } }))
          .status,
      ).toBe(401);
    });
  });

  describe('GET /v1/collections/{id}', () => {
    it('returns the collection with the permissions of the caller', async () => {
      const c = await newCollection(server, server.orgId, { title: 'Visible' });
      const res = await server.request('GET', `/v1/collections/${c.id}`, { token: reader.token });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        object: 'collection',
        id: c.id,
        title: 'Visible',
        organization: server.orgId,
        permissions: { view: true, admin: false, viewInviteLinks: false, create: false },
      });
    });

    it('answers 404 to an outsider and for an unknown id, 401 without a token', async () => {
      const c = await newCollection(server, server.orgId, { title: 'C' });
      expect((await server.request('GET', `/v1/collections/${c.id}`, { token: outsider.token })).status).toBe(404);
      expect((await server.request('GET', '/v1/collections/no-such-collection')).status).toBe(404);
      expect((await server.request('GET', `/v1/collections/${c.id}`, { token: null })).status).toBe(401);
    });
  });

  describe('PATCH /v1/collections/{id}', () => {
    it('changes title, description and defaultLevel', async () => {
      const c = await newCollection(server, server.orgId, { title: 'C' });
      const res = await server.request('PATCH', `/v1/collections/${c.id}`, {
        body: { title: 'New title', description: 'About it', defaultLevel: 'comment' },
      });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ title: 'New title', description: 'About it', defaultLevel: 'comment' });
      const got = await server.request('GET', `/v1/collections/${c.id}`);
      expect(got.body).toMatchObject({ title: 'New title', description: 'About it', defaultLevel: 'comment' });
      const nulled = await server.request('PATCH', `/v1/collections/${c.id}`, { body: { defaultLevel: null } });
      expect(nulled.status).toBe(200);
      expect(nulled.body.defaultLevel).toBeNull();
    });

    it('accepts a title of 50 and a description of 100 characters, refuses 51 and 101', async () => {
      const c = await newCollection(server, server.orgId, { title: 'C' });
      const url = `/v1/collections/${c.id}`;
      expect((await server.request('PATCH', url, { body: { title: 'x'.repeat(50) } })).status).toBe(200);
      expect((await server.request('PATCH', url, { body: { description: 'd'.repeat(100) } })).status).toBe(200);
      const title = await server.request('PATCH', url, { body: { title: 'x'.repeat(51) } });
      expect(title.status).toBe(400);
      expect(paths(title.body)).toContain('title');
      const description = await server.request('PATCH', url, { body: { description: 'd'.repeat(101) } });
      expect(description.status).toBe(400);
      expect(paths(description.body)).toContain('description');
      const got = await server.request('GET', url);
      expect(got.body).toMatchObject({ title: 'x'.repeat(50), description: 'd'.repeat(100) });
    });

    it('refuses an unknown defaultLevel (400)', async () => {
      const c = await newCollection(server, server.orgId, { title: 'C' });
      const res = await server.request('PATCH', `/v1/collections/${c.id}`, { body: { defaultLevel: 'owner' } });
      expect(res.status).toBe(400);
      expect(paths(res.body)).toContain('defaultLevel');
    });

    it('answers 403 to an edit member, 404 to an outsider, 401 without a token', async () => {
      const c = await newCollection(server, server.orgId, { title: 'Keep' });
      const url = `/v1/collections/${c.id}`;
      expect((await server.request('PATCH', url, { token: editor.token, body: { title: 'Nope' } })).status).toBe(403);
      expect((await server.request('PATCH', url, { token: outsider.token, body: { title: 'Nope' } })).status).toBe(404);
      expect((await server.request('PATCH', url, { token: null, body: { title: 'Nope' } })).status).toBe(401);
      expect((await server.request('GET', url)).body.title).toBe('Keep');
    });
  });

  describe('DELETE /v1/collections/{id}', () => {
    it('deletes it (205) with its nested collections; their spaces go to the trash, restorable at the root', async () => {
      const orgId = (await newOrg(server, 'Collections org')).id;
      const top = await newCollection(server, orgId, { title: 'Top' });
      const nested = await newCollection(server, orgId, { title: 'Nested', parent: top.id });
      const direct = await newSpace(server, orgId, { title: 'Direct', parent: top.id });
      const deep = await newSpace(server, orgId, { title: 'Deep', parent: nested.id });
      const outside = await newSpace(server, orgId, { title: 'Outside' });

      const del = await server.request('DELETE', `/v1/collections/${top.id}`);
      expect(del.status).toBe(205);
      expect(del.body).toBeUndefined();
      expect((await server.request('GET', `/v1/collections/${top.id}`)).status).toBe(404);
      expect((await server.request('GET', `/v1/collections/${nested.id}`)).status).toBe(404);

      const live = ids(await listAll(`/v1/orgs/${orgId}/spaces`));
      expect(live).toEqual([outside.id]);
      const trash = await listAll(`/v1/orgs/${orgId}/spaces?deleted=true`);
      expect(ids(trash).sort()).toEqual([direct.id, deep.id].sort());
      for (const s of trash) expect(typeof s.deletedAt).toBe('string');
      expect(ids(await listAll(`/v1/orgs/${orgId}/collections`))).toEqual([]);

      for (const s of [direct, deep]) {
        const restored = await server.request('POST', `/v1/spaces/${s.id}/restore`);
        expect(restored.status).toBe(200);
        expect(restored.body.deletedAt).toBeUndefined();
        expect(restored.body.parent).toBeUndefined();
        const got = await server.request('GET', `/v1/spaces/${s.id}`);
        expect(got.status).toBe(200);
        expect(got.body.parent).toBeUndefined();
      }
      expect(ids(await listAll(`/v1/orgs/${orgId}/spaces`)).sort()).toEqual([outside.id, direct.id, deep.id].sort());
      expect(ids(await listAll(`/v1/orgs/${orgId}/spaces?deleted=true`))).toEqual([]);
    });

    it('keeps the original deletion time of a space already in the trash', async () => {
      const orgId = (await newOrg(server, 'Collections org')).id;
      const c = await newCollection(server, orgId, { title: 'C' });
      const s = await newSpace(server, orgId, { title: 'S', parent: c.id });
      expect((await server.request('DELETE', `/v1/spaces/${s.id}`)).status).toBe(205);
      const before = (await server.request('GET', `/v1/spaces/${s.id}`)).body.deletedAt;
      const deleted = await withClockAhead(1000, () => server.request('DELETE', `/v1/collections/${c.id}`));
      expect(deleted.status).toBe(205);
      expect((await server.request('GET', `/v1/spaces/${s.id}`)).body.deletedAt).toBe(before);
    });

    it('keeps a space hidden by the collection hidden when it was already in the trash as the collection is deleted', async () => {
      const orgId = (await newOrg(server, 'Collections org')).id;
      const reader2 = await server.member('read', orgId);
      const c = await newCollection(server, orgId, { title: 'Hidden' });
      expect((await server.request('PATCH', `/v1/collections/${c.id}`, { body: { defaultLevel: null } })).status).toBe(
        200,
      );
      const s = await newSpace(server, orgId, { title: 'Trashed secret', parent: c.id });
      expect((await server.request('DELETE', `/v1/spaces/${s.id}`)).status).toBe(205);
      expect((await server.request('GET', `/v1/spaces/${s.id}`, { token: reader2.token })).status).toBe(404);
      expect((await server.request('DELETE', `/v1/collections/${c.id}`)).status).toBe(205);
      expect((await server.request('GET', `/v1/spaces/${s.id}`, { token: reader2.token })).status).toBe(404);
      const restored = await server.request('POST', `/v1/spaces/${s.id}/restore`);
      expect(restored.status).toBe(200);
      expect(restored.body.defaultLevel).toBeNull();
      expect((await server.request('GET', `/v1/spaces/${s.id}`, { token: reader2.token })).status).toBe(404);
    });

    it('answers 403 to an edit member, 404 to an outsider, 401 without a token; nothing is deleted', async () => {
      const c = await newCollection(server, server.orgId, { title: 'C' });
      const url = `/v1/collections/${c.id}`;
      expect((await server.request('DELETE', url, { token: editor.token })).status).toBe(403);
      expect((await server.request('DELETE', url, { token: outsider.token })).status).toBe(404);
      expect((await server.request('DELETE', url, { token: null })).status).toBe(401);
      expect((await server.request('GET', url)).status).toBe(200);
    });
  });

  describe('GET /v1/collections/{id}/spaces', () => {
    it('lists the live spaces of the collection in order, paginated with a total count', async () => {
      const orgId = (await newOrg(server, 'Collections org')).id;
      const c = await newCollection(server, orgId, { title: 'C' });
      const other = await newCollection(server, orgId, { title: 'C' });
      const a = await newSpace(server, orgId, { title: 'A', parent: c.id });
      const b = await newSpace(server, orgId, { title: 'B', parent: c.id });
      const gone = await newSpace(server, orgId, { title: 'Gone', parent: c.id });
      const d = await newSpace(server, orgId, { title: 'D', parent: c.id });
      await newSpace(server, orgId, { title: 'Elsewhere', parent: other.id });
      await newSpace(server, orgId, { title: 'Root' });
      expect((await server.request('DELETE', `/v1/spaces/${gone.id}`)).status).toBe(205);

      const all = await server.request('GET', `/v1/collections/${c.id}/spaces`);
      expect(all.status).toBe(200);
      expect(ids(all.body.items)).toEqual([a.id, b.id, d.id]);
      expect(all.body.count).toBe(3);
      expect(all.body.items[0]).toMatchObject({ object: 'space', parent: c.id, organization: orgId });

      const first = await server.request('GET', `/v1/collections/${c.id}/spaces?limit=2`);
      expect(ids(first.body.items)).toEqual([a.id, b.id]);
      expect(first.body.count).toBe(3);
      const second = await server.request(
        'GET',
        `/v1/collections/${c.id}/spaces?limit=2&page=${encodeURIComponent(first.body.next.page)}`,
      );
      expect(ids(second.body.items)).toEqual([d.id]);
      expect(second.body.next).toBeUndefined();
    });

    it('answers 404 to an outsider, 401 without a token', async () => {
      const c = await newCollection(server, server.orgId, { title: 'C' });
      expect((await server.request('GET', `/v1/collections/${c.id}/spaces`, { token: outsider.token })).status).toBe(
        404,
      );
      expect((await server.request('GET', `/v1/collections/${c.id}/spaces`, { token: null })).status).toBe(401);
      expect((await server.request('GET', '/v1/collections/nope/spaces')).status).toBe(404);
    });
  });

  describe('GET /v1/orgs/{id}/collections', () => {
    it('lists every collection by default (nested=true), only top-level ones with nested=false', async () => {
      const orgId = (await newOrg(server, 'Collections org')).id;
      const a = await newCollection(server, orgId, { title: 'A' });
      const b = await newCollection(server, orgId, { title: 'B' });
      const a1 = await newCollection(server, orgId, { title: 'A1', parent: a.id });
      const a1x = await newCollection(server, orgId, { title: 'A1x', parent: a1.id });

      const all = await server.request('GET', `/v1/orgs/${orgId}/collections`);
      expect(all.status).toBe(200);
      expect(ids(all.body.items).sort()).toEqual([a.id, b.id, a1.id, a1x.id].sort());
      expect(all.body.count).toBe(4);
      const explicit = await server.request('GET', `/v1/orgs/${orgId}/collections?nested=true`);
      expect(ids(explicit.body.items).sort()).toEqual(ids(all.body.items).sort());

      const top = await server.request('GET', `/v1/orgs/${orgId}/collections?nested=false`);
      expect(top.status).toBe(200);
      expect(ids(top.body.items)).toEqual([a.id, b.id]);
      expect(top.body.count).toBe(2);
    });

    it('paginates with next.page and a total count', async () => {
      const orgId = (await newOrg(server, 'Collections org')).id;
      const created: string[] = [];
      for (let i = 0; i < 5; i += 1) created.push((await newCollection(server, orgId, { title: `C${i}` })).id);
      const seen: string[] = [];
      let page: string | undefined;
      for (let i = 0; i < 10; i += 1) {
        const res = await server.request(
          'GET',
          `/v1/orgs/${orgId}/collections?limit=2${page ? `&page=${encodeURIComponent(page)}` : ''}`,
        );
        expect(res.status).toBe(200);
        expect(res.body.count).toBe(5);
        seen.push(...ids(res.body.items));
        page = res.body.next?.page;
        if (!page) break;
      }
      expect(seen).toEqual(created);
    });

    it('refuses an invalid nested value (400 naming nested)', async () => {
      const res = await server.request('GET', `/v1/orgs/${server.orgId}/collections?nested=maybe`);
      expect(res.status).toBe(400);
      expect(paths(res.body)).toContain('nested');
    });

    it('answers 404 to an outsider, 401 without a token', async () => {
      expect(
        (await server.request('GET', `/v1/orgs/${server.orgId}/collections`, { token: outsider.token })).status,
      ).toBe(404);
      expect((await server.request('GET', `/v1/orgs/${server.orgId}/collections`, { token: null })).status).toBe(401);
    });
  });

  describe('POST /v1/collections/{id}/move', () => {
    it('reorders among siblings with position before/after', async () => {
      const orgId = (await newOrg(server, 'Collections org')).id;
      const a = await newCollection(server, orgId, { title: 'A' });
      const b = await newCollection(server, orgId, { title: 'B' });
      const c = await newCollection(server, orgId, { title: 'C' });
      const top = () => listAll(`/v1/orgs/${orgId}/collections?nested=false`).then(ids);
      expect(await top()).toEqual([a.id, b.id, c.id]);

      const before = await server.request('POST', `/v1/collections/${c.id}/move`, {
        body: { position: { before: { type: 'collection', collection: a.id } } },
      });
      expect(before.status).toBe(200);
      expect(before.body.id).toBe(c.id);
      expect(await top()).toEqual([c.id, a.id, b.id]);

      const after = await server.request('POST', `/v1/collections/${c.id}/move`, {
        body: { position: { after: { type: 'collection', collection: a.id } } },
      });
      expect(after.status).toBe(200);
      expect(await top()).toEqual([a.id, c.id, b.id]);

      const both = await server.request('POST', `/v1/collections/${a.id}/move`, {
        body: {
          position: {
            after: { type: 'collection', collection: c.id },
            before: { type: 'collection', collection: b.id },
          },
        },
      });
      expect(both.status).toBe(200);
      expect(await top()).toEqual([c.id, a.id, b.id]);
    });

    it('orders collections and spaces together: a pointer may be a sibling space', async () => {
      const orgId = (await newOrg(server, 'Collections org')).id;
      const s = await newSpace(server, orgId, { title: 'S' });
      const c = await newCollection(server, orgId, { title: 'C' });
      const res = await server.request('POST', `/v1/collections/${c.id}/move`, {
        body: { position: { before: { type: 'space', space: s.id } } },
      });
      expect(res.status).toBe(200);
    });

    it('moves into another parent and back to the root (parent null)', async () => {
      const orgId = (await newOrg(server, 'Collections org')).id;
      const target = await newCollection(server, orgId, { title: 'Target' });
      const moved = await newCollection(server, orgId, { title: 'Moved' });
      const inside = await newSpace(server, orgId, { title: 'S', parent: moved.id });
      const res = await server.request('POST', `/v1/collections/${moved.id}/move`, { body: { parent: target.id } });
      expect(res.status).toBe(200);
      expect(res.body.parent).toBe(target.id);
      expect(ids(await listAll(`/v1/orgs/${orgId}/collections?nested=false`))).toEqual([target.id]);
      // Its spaces go with it.
      expect((await server.request('GET', `/v1/spaces/${inside.id}`)).body.parent).toBe(moved.id);

      const back = await server.request('POST', `/v1/collections/${moved.id}/move`, { body: { parent: null } });
      expect(back.status).toBe(200);
      expect(back.body.parent).toBeUndefined();
      expect(ids(await listAll(`/v1/orgs/${orgId}/collections?nested=false`))).toEqual([target.id, moved.id]);
    });

    it('refuses a move into itself or into its own descendant (400 naming parent)', async () => {
      const orgId = (await newOrg(server, 'Collections org')).id;
      const a = await newCollection(server, orgId, { title: 'C' });
      const child = await newCollection(server, orgId, { title: 'C', parent: a.id });
      const grandchild = await newCollection(server, orgId, { title: 'C', parent: child.id });
      for (const parent of [a.id, child.id, grandchild.id]) {
        const res = await server.request('POST', `/v1/collections/${a.id}/move`, { body: { parent } });
        expect(res.status).toBe(400);
        expect(paths(res.body)).toContain('parent');
      }
      expect((await server.request('GET', `/v1/collections/${a.id}`)).body.parent).toBeUndefined();
    });

    it('answers 409 for a move that changes nothing', async () => {
      const orgId = (await newOrg(server, 'Collections org')).id;
      const a = await newCollection(server, orgId, { title: 'C' });
      const b = await newCollection(server, orgId, { title: 'C' });
      const afterA = await server.request('POST', `/v1/collections/${b.id}/move`, {
        body: { position: { after: { type: 'collection', collection: a.id } } },
      });
      expect(afterA.status).toBe(409);
      expect(afterA.body.error.code).toBe(409);
      const beforeB = await server.request('POST', `/v1/collections/${a.id}/move`, {
        body: { position: { before: { type: 'collection', collection: b.id } } },
      });
      expect(beforeB.status).toBe(409);
      // Already last at the root.
      expect((await server.request('POST', `/v1/collections/${b.id}/move`, { body: { parent: null } })).status).toBe(
        409,
      );
    });

    it('refuses a pointer that is not a sibling in the target parent (400 naming position)', async () => {
      const orgId = (await newOrg(server, 'Collections org')).id;
      const a = await newCollection(server, orgId, { title: 'C' });
      const b = await newCollection(server, orgId, { title: 'C' });
      const nested = await newCollection(server, orgId, { title: 'C', parent: a.id });
      const notSibling = await server.request('POST', `/v1/collections/${b.id}/move`, {
        body: { position: { before: { type: 'collection', collection: nested.id } } },
      });
      expect(notSibling.status).toBe(400);
      expect(paths(notSibling.body)).toContain('position.before');
      const unknown = await server.request('POST', `/v1/collections/${b.id}/move`, {
        body: { position: { after: { type: 'space', space: 'no-such-space' } } },
      });
      expect(unknown.status).toBe(400);
      expect(paths(unknown.body)).toContain('position.after');
      const self = await server.request('POST', `/v1/collections/${b.id}/move`, {
        body: { position: { before: { type: 'collection', collection: b.id } } },
      });
      expect(self.status).toBe(400);
    });

    it('refuses before/after that are not adjacent, an empty body, and a parent of another organization', async () => {
      const orgId = (await newOrg(server, 'Collections org')).id;
      const a = await newCollection(server, orgId, { title: 'C' });
      const b = await newCollection(server, orgId, { title: 'C' });
      const c = await newCollection(server, orgId, { title: 'C' });
      const apart = await server.request('POST', `/v1/collections/${c.id}/move`, {
        body: {
          position: {
            after: { type: 'collection', collection: b.id },
            before: { type: 'collection', collection: a.id },
          },
        },
      });
      expect(apart.status).toBe(400);
      expect((await server.request('POST', `/v1/collections/${a.id}/move`, { body: {} })).status).toBe(400);
      const foreign = await newCollection(server, (await newOrg(server, 'Collections org')).id, { title: 'C' });
      const res = await server.request('POST', `/v1/collections/${a.id}/move`, { body: { parent: foreign.id } });
      expect(res.status).toBe(400);
      expect(paths(res.body)).toContain('parent');
    });

    it('answers 403 to an edit member, 404 to an outsider, 401 without a token', async () => {
      const a = await newCollection(server, server.orgId, { title: 'C' });
      const url = `/v1/collections/${a.id}/move`;
      const body = { parent: null };
      expect((await server.request('POST', url, { token: editor.token, body })).status).toBe(403);
      expect((await server.request('POST', url, { token: outsider.token, body })).status).toBe(404);
      expect((await server.request('POST', url, { token: null, body })).status).toBe(401);
    });
  });

  describe('POST /v1/collections/{id}/transfer', () => {
    it('moves the collection, its nested collections and their spaces to another organization the caller administers', async () => {
      const source = (await newOrg(server, 'Collections org')).id;
      const target = (await newOrg(server, 'Collections org')).id;
      const parent = await newCollection(server, source, { title: 'Parent' });
      const c = await newCollection(server, source, { title: 'Moving', parent: parent.id });
      const nested = await newCollection(server, source, { title: 'Nested', parent: c.id });
      const s1 = await newSpace(server, source, { title: 'S', parent: c.id });
      const s2 = await newSpace(server, source, { title: 'S', parent: nested.id });

      const res = await server.request('POST', `/v1/collections/${c.id}/transfer`, { body: { organization: target } });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ id: c.id, organization: target });
      expect(res.body.parent).toBeUndefined();

      expect((await server.request('GET', `/v1/collections/${nested.id}`)).body).toMatchObject({
        organization: target,
        parent: c.id,
      });
      for (const s of [s1, s2]) {
        expect((await server.request('GET', `/v1/spaces/${s.id}`)).body.organization).toBe(target);
      }
      expect(ids(await listAll(`/v1/orgs/${target}/collections`)).sort()).toEqual([c.id, nested.id].sort());
      expect(ids(await listAll(`/v1/orgs/${source}/collections`))).toEqual([parent.id]);
      expect(ids(await listAll(`/v1/orgs/${target}/spaces`)).sort()).toEqual([s1.id, s2.id].sort());
      expect(ids(await listAll(`/v1/orgs/${source}/spaces`))).toEqual([]);
    });

    it('answers 409 when the target is the organization it is already in', async () => {
      const orgId = (await newOrg(server, 'Collections org')).id;
      const c = await newCollection(server, orgId, { title: 'C' });
      const res = await server.request('POST', `/v1/collections/${c.id}/transfer`, { body: { organization: orgId } });
      expect(res.status).toBe(409);
    });

    it('answers 403 when the caller is in the target organization but not its admin', async () => {
      const other = await server.signup('otherowner');
      const target = (await newOrg(server, 'Collections org', { token: other.token })).id;
      const link = await server.request('POST', `/v1/orgs/${target}/link-invites`, {
        token: other.token,
        body: { role: 'create' },
      });
      expect(
        (await server.request('POST', `/v1/orgs/${target}/invites/${link.body.id}`, { token: server.owner.token }))
          .status,
      ).toBe(200);
      const c = await newCollection(server, server.orgId, { title: 'C' });
      const res = await server.request('POST', `/v1/collections/${c.id}/transfer`, { body: { organization: target } });
      expect(res.status).toBe(403);
      expect((await server.request('GET', `/v1/collections/${c.id}`)).body.organization).toBe(server.orgId);
    });

    it('answers 400 naming organization when the caller is not in the target organization, or it does not exist', async () => {
      const other = await server.signup('stranger');
      const target = (await newOrg(server, 'Collections org', { token: other.token })).id;
      const c = await newCollection(server, server.orgId, { title: 'C' });
      for (const organization of [target, 'no-such-org']) {
        const res = await server.request('POST', `/v1/collections/${c.id}/transfer`, { body: { organization } });
        expect(res.status).toBe(400);
        expect(paths(res.body)).toContain('organization');
      }
      expect((await server.request('POST', `/v1/collections/${c.id}/transfer`, { body: {} })).status).toBe(400);
    });

    it('answers 403 to an edit member, 404 to an outsider, 401 without a token', async () => {
      const c = await newCollection(server, server.orgId, { title: 'C' });
      const url = `/v1/collections/${c.id}/transfer`;
      const target = (await newOrg(server, 'Collections org')).id;
      const body = { organization: target };
      expect((await server.request('POST', url, { token: editor.token, body })).status).toBe(403);
      expect((await server.request('POST', url, { token: outsider.token, body })).status).toBe(404);
      expect((await server.request('POST', url, { token: null, body })).status).toBe(401);
    });
  });

  /**
   * Rule 7 of the resolver: a member with the create role is admin of the collections they create (rule 5), but
   * what others put inside is not theirs: moving, transferring, deleting or re-levelling the collection needs
   * admin on every item it affects.
   */
  describe('operations that affect what others put inside a collection', () => {
    /** An organization of the owner with a creator (create role) who made a collection, and their own org. */
    async function setup() {
      const orgId = (await newOrg(server, 'Collections org')).id;
      const creator = await server.member('create', orgId);
      const made = await server.request('POST', `/v1/orgs/${orgId}/collections`, {
        token: creator.token,
        body: { title: 'Mine' },
      });
      expect(made.status).toBe(201);
      const own = await server.request('POST', '/v1/orgs', { token: creator.token, body: { title: 'Loot' } });
      expect(own.status).toBe(201);
      return { orgId, creator, collectionId: made.body.id as string, lootOrg: own.body.id as string };
    }

    /** A space the owner puts in the collection; `hidden` gives it the null default level. */
    async function othersSpace(orgId: string, parent: string, title: string, hidden = false) {
      const s = await newSpace(server, orgId, { title, parent });
      if (hidden) {
        const res = await server.request('PATCH', `/v1/spaces/${s.id}`, { body: { defaultLevel: null } });
        expect(res.status).toBe(200);
      }
      return s.id;
    }

    async function asOwner(path: string) {
      const res = await server.request('GET', path);
      expect(res.status).toBe(200);
      return res.body;
    }

    it('refuses to transfer a collection holding a space hidden from the caller (403 naming it by id only); nothing moves', async () => {
      const { orgId, creator, collectionId, lootOrg } = await setup();
      const secret = await othersSpace(orgId, collectionId, 'Secret', true);
      expect((await server.request('GET', `/v1/spaces/${secret}`, { token: creator.token })).status).toBe(404);

      const res = await server.request('POST', `/v1/collections/${collectionId}/transfer`, {
        token: creator.token,
        body: { organization: lootOrg },
      });
      expect(res.status).toBe(403);
      expect(res.body.error.message).toBe(
        `You need the admin level on space ${secret} inside this collection to transfer it`,
      );
      expect(res.body.error.message).not.toContain('Secret');

      expect(await asOwner(`/v1/collections/${collectionId}`)).toMatchObject({ organization: orgId });
      expect(await asOwner(`/v1/spaces/${secret}`)).toMatchObject({ organization: orgId, parent: collectionId });
      for (const what of ['spaces', 'collections']) {
        const loot = await server.request('GET', `/v1/orgs/${lootOrg}/${what}`, { token: creator.token });
        expect(loot.body.count).toBe(0);
      }
    });

    it('refuses to transfer a collection whose nested collection holds a visible space of someone else (named with its title)', async () => {
      const { orgId, creator, collectionId, lootOrg } = await setup();
      const nested = await server.request('POST', `/v1/orgs/${orgId}/collections`, {
        token: creator.token,
        body: { title: 'Nested', parent: collectionId },
      });
      expect(nested.status).toBe(201);
      const shared = await othersSpace(orgId, nested.body.id, 'Shared');
      const res = await server.request('POST', `/v1/collections/${collectionId}/transfer`, {
        token: creator.token,
        body: { organization: lootOrg },
      });
      expect(res.status).toBe(403);
      expect(res.body.error.message).toBe(
        `You need the admin level on space "Shared" (${shared}) inside this collection to transfer it`,
      );
      expect(await asOwner(`/v1/collections/${nested.body.id}`)).toMatchObject({
        organization: orgId,
        parent: collectionId,
      });
      expect(await asOwner(`/v1/spaces/${shared}`)).toMatchObject({ organization: orgId });
    });

    it("refuses to delete a collection holding others' spaces (403); nothing goes to the trash", async () => {
      const { orgId, creator, collectionId } = await setup();
      const secret = await othersSpace(orgId, collectionId, 'Secret', true);
      const res = await server.request('DELETE', `/v1/collections/${collectionId}`, { token: creator.token });
      expect(res.status).toBe(403);
      expect(res.body.error.message).toBe(
        `You need the admin level on space ${secret} inside this collection to delete it`,
      );
      expect((await server.request('GET', `/v1/collections/${collectionId}`)).status).toBe(200);
      expect((await asOwner(`/v1/spaces/${secret}`)).deletedAt).toBeUndefined();
      expect(ids(await listAll(`/v1/orgs/${orgId}/spaces?deleted=true`))).toEqual([]);
    });

    it("refuses to raise a default level that others' spaces inherit (403); no level changes", async () => {
      const { orgId, creator, collectionId } = await setup();
      const shared = await othersSpace(orgId, collectionId, 'Shared');
      const before = await server.request('GET', `/v1/spaces/${shared}`, { token: creator.token });
      expect(before.body.permissions.admin).toBe(false);

      const res = await server.request('PATCH', `/v1/collections/${collectionId}`, {
        token: creator.token,
        body: { defaultLevel: 'admin' },
      });
      expect(res.status).toBe(403);
      expect(res.body.error.message).toBe(
        `You need the admin level on space "Shared" (${shared}) inside this collection to change its default level`,
      );
      expect((await asOwner(`/v1/collections/${collectionId}`)).defaultLevel).toBe('inherit');
      const after = await server.request('GET', `/v1/spaces/${shared}`, { token: creator.token });
      expect(after.body.permissions.admin).toBe(false);
      // Renaming changes no one's level: still allowed.
      const renamed = await server.request('PATCH', `/v1/collections/${collectionId}`, {
        token: creator.token,
        body: { title: 'Renamed' },
      });
      expect(renamed.status).toBe(200);
    });

    it('refuses to lift a null default level that hides an inheriting space from the caller (named by id); it stays hidden', async () => {
      const { orgId, creator, collectionId } = await setup();
      expect(
        (await server.request('PATCH', `/v1/collections/${collectionId}`, { body: { defaultLevel: null } })).status,
      ).toBe(200);
      const hidden = await othersSpace(orgId, collectionId, 'Hidden plans');
      expect((await server.request('GET', `/v1/spaces/${hidden}`, { token: creator.token })).status).toBe(404);
      const res = await server.request('PATCH', `/v1/collections/${collectionId}`, {
        token: creator.token,
        body: { defaultLevel: 'read' },
      });
      expect(res.status).toBe(403);
      expect(res.body.error.message).toContain(`on space ${hidden} inside this collection`);
      expect(res.body.error.message).not.toContain('Hidden plans');
      expect((await asOwner(`/v1/collections/${collectionId}`)).defaultLevel).toBeNull();
      expect((await server.request('GET', `/v1/spaces/${hidden}`, { token: creator.token })).status).toBe(404);
    });

    it("refuses to move a collection holding others' spaces under another parent (403); reordering stays allowed", async () => {
      const { orgId, creator, collectionId } = await setup();
      const shared = await othersSpace(orgId, collectionId, 'Shared');
      const target = await newCollection(server, orgId, { title: 'Open to all' });
      expect(
        (await server.request('PATCH', `/v1/collections/${target.id}`, { body: { defaultLevel: 'admin' } })).status,
      ).toBe(200);
      const res = await server.request('POST', `/v1/collections/${collectionId}/move`, {
        token: creator.token,
        body: { parent: target.id },
      });
      expect(res.status).toBe(403);
      expect(res.body.error.message).toBe(
        `You need the admin level on space "Shared" (${shared}) inside this collection to move it`,
      );
      expect((await asOwner(`/v1/collections/${collectionId}`)).parent).toBeUndefined();
      expect(
        (await server.request('GET', `/v1/spaces/${shared}`, { token: creator.token })).body.permissions.admin,
      ).toBe(false);
      const reorder = await server.request('POST', `/v1/collections/${collectionId}/move`, {
        token: creator.token,
        body: { position: { after: { type: 'collection', collection: target.id } } },
      });
      expect(reorder.status).toBe(200);
    });

    it('lets the creator transfer, re-level and delete a collection holding only their own content', async () => {
      const { orgId, creator, collectionId, lootOrg } = await setup();
      const mine = await server.request('POST', `/v1/orgs/${orgId}/spaces`, {
        token: creator.token,
        body: { title: 'My space', parent: collectionId },
      });
      expect(mine.status).toBe(201);
      const url = `/v1/collections/${collectionId}`;
      const patched = await server.request('PATCH', url, { token: creator.token, body: { defaultLevel: 'comment' } });
      expect(patched.status).toBe(200);
      const moved = await server.request('POST', `${url}/transfer`, {
        token: creator.token,
        body: { organization: lootOrg },
      });
      expect(moved.status).toBe(200);
      expect(moved.body.organization).toBe(lootOrg);
      expect((await server.request('DELETE', url, { token: creator.token })).status).toBe(205);
    });

    it('lets an admin grant on the collection, or the organization admin role, pass for everything inside', async () => {
      const { orgId, creator, collectionId } = await setup();
      await othersSpace(orgId, collectionId, 'Secret', true);
      const grant = await server.request('POST', `/v1/collections/${collectionId}/permissions`, {
        body: { role: 'admin', users: [creator.id] },
      });
      expect(grant.status).toBe(204);
      const patched = await server.request('PATCH', `/v1/collections/${collectionId}`, {
        token: creator.token,
        body: { defaultLevel: 'read' },
      });
      expect(patched.status).toBe(200);
      expect((await server.request('DELETE', `/v1/collections/${collectionId}`, { token: creator.token })).status).toBe(
        205,
      );
      const other = await setup();
      await othersSpace(other.orgId, other.collectionId, 'Secret', true);
      expect((await server.request('DELETE', `/v1/collections/${other.collectionId}`)).status).toBe(205);
    });
  });
});
