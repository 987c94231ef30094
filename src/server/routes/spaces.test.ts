import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  describeEachDialect,
  startTestServer,
  type TestServer,
  type TestUser,
  MEMBER_PASSWORD,
} from '../test/harness.js';
import { newCollection, newOrg, newSpace } from '../test/factories.js';
import { purgeOnce } from '../jobs/purge.js';

const DAY_MS = 24 * 3600 * 1000;

function paths(body: { error: { issues?: Array<{ path: string }> } }): string[] {
  return (body.error.issues ?? []).map((i) => i.path);
}

function ids(items: Array<{ id: string }>): string[] {
  return items.map((i) => i.id);
}

describeEachDialect('spaces', (dialect) => {
  let server: TestServer;
  let creator: TestUser;
  let editor: TestUser;
  let reader: TestUser;
  let outsider: TestUser;

  beforeAll(async () => {
    server = await startTestServer(dialect);
    [creator, editor, reader, outsider] = await Promise.all([
      server.member('create'),
      server.member('edit'),
      server.member('read'),
      server.signup('outsider'),
    ]);
  });
  afterAll(() => server.close());

  async function listIds(path: string): Promise<string[]> {
    const res = await server.request('GET', path);
    expect(res.status).toBe(200);
    return ids(res.body.items);
  }

  /** Moves a space's deletion back in time: the API can only delete now. */
  async function setDeletedAt(spaceId: string, daysAgo: number) {
    await server.storage.db
      .updateTable('spaces')
      .set({ deleted_at: new Date(Date.now() - daysAgo * DAY_MS).toISOString() })
      .where('id', '=', spaceId)
      .execute();
  }

  describe('POST /v1/orgs/{id}/spaces', () => {
    it('creates a space: 201 + Location, zero counters, a revision', async () => {
      const res = await server.request('POST', `/v1/orgs/${server.orgId}/spaces`, {
        body: { title: 'Handbook', emoji: '📘', editMode: 'locked' },
      });
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({
        object: 'space',
        title: 'Handbook',
        emoji: '📘',
        editMode: 'locked',
        visibility: 'private',
        organization: server.orgId,
        defaultLevel: 'inherit',
        comments: 0,
        changeRequests: 0,
        changeRequestsOpen: 0,
        changeRequestsDraft: 0,
      });
      expect(typeof res.body.revision).toBe('string');
      expect(res.body.revision.length).toBeGreaterThan(0);
      expect(res.body.deletedAt).toBeUndefined();
      expect(typeof res.body.createdAt).toBe('string');
      expect(typeof res.body.updatedAt).toBe('string');
      expect(res.headers.get('location')).toBe(res.body.urls.location);
      expect(res.headers.get('location')).toMatch(new RegExp(`/v1/spaces/${res.body.id}$`));
      expect(res.body.permissions).toMatchObject({ view: true, admin: true, edit: true, comment: true });
    });

    it('creates a space inside a collection', async () => {
      const c = await newCollection(server, server.orgId, { title: 'C' });
      const s = await newSpace(server, server.orgId, { title: 'S', parent: c.id });
      expect(s.parent).toBe(c.id);
    });

    it('accepts a title and an emoji of 50 characters and refuses 51', async () => {
      const ok = await server.request('POST', `/v1/orgs/${server.orgId}/spaces`, {
        body: { title: 't'.repeat(50), emoji: 'e'.repeat(50) },
      });
      expect(ok.status).toBe(201);
      const title = await server.request('POST', `/v1/orgs/${server.orgId}/spaces`, {
        body: { title: 't'.repeat(51) },
      });
      expect(title.status).toBe(400);
      expect(paths(title.body)).toContain('title');
      const emoji = await server.request('POST', `/v1/orgs/${server.orgId}/spaces`, {
        body: { emoji: 'e'.repeat(51) },
      });
      expect(emoji.status).toBe(400);
      expect(paths(emoji.body)).toContain('emoji');
    });

    it('refuses a parent of another organization (400 naming parent)', async () => {
      const foreign = await newCollection(server, (await newOrg(server, 'Spaces org')).id, { title: 'C' });
      const res = await server.request('POST', `/v1/orgs/${server.orgId}/spaces`, { body: { parent: foreign.id } });
      expect(res.status).toBe(400);
      expect(paths(res.body)).toContain('parent');
    });

    it('answers 403 below the create role, 404 to an outsider, 401 without a token', async () => {
      const url = `/v1/orgs/${server.orgId}/spaces`;
      for (const user of [reader, editor]) {
        expect((await server.request('POST', url, { token: user.token, body: { title: 'x' } })).status).toBe(403);
      }
      expect((await server.request('POST', url, { token: creator.token, body: { title: 'x' } })).status).toBe(201);
      expect((await server.request('POST', url, { token: outsider.token, body: { title: 'x' } })).status).toBe(404);
      expect((await server.request('POST', url, { token: null, body: { title: 'x' } })).status).toBe(401);
    });
  });

  describe('GET /v1/orgs/{id}/spaces', () => {
    it('lists live spaces ordered by position, with a total count', async () => {
      const orgId = (await newOrg(server, 'Spaces org')).id;
      const a = await newSpace(server, orgId, { title: 'A' });
      const b = await newSpace(server, orgId, { title: 'B' });
      const c = await newSpace(server, orgId, { title: 'C' });
      expect(await listIds(`/v1/orgs/${orgId}/spaces`)).toEqual([a.id, b.id, c.id]);
      const moved = await server.request('POST', `/v1/spaces/${c.id}/move`, {
        body: { position: { before: { type: 'space', space: a.id } } },
      });
      expect(moved.status).toBe(200);
      const res = await server.request('GET', `/v1/orgs/${orgId}/spaces`);
      expect(ids(res.body.items)).toEqual([c.id, a.id, b.id]);
      expect(res.body.count).toBe(3);
    });

    it('lists the trash with deleted=true, newest deletions included, live spaces excluded', async () => {
      const orgId = (await newOrg(server, 'Spaces org')).id;
      const live = await newSpace(server, orgId, { title: 'S' });
      const trashed = await newSpace(server, orgId, { title: 'S' });
      expect((await server.request('DELETE', `/v1/spaces/${trashed.id}`)).status).toBe(205);
      expect(await listIds(`/v1/orgs/${orgId}/spaces`)).toEqual([live.id]);
      const trash = await server.request('GET', `/v1/orgs/${orgId}/spaces?deleted=true`);
      expect(ids(trash.body.items)).toEqual([trashed.id]);
      expect(trash.body.count).toBe(1);
      expect(typeof trash.body.items[0].deletedAt).toBe('string');
      expect(await listIds(`/v1/orgs/${orgId}/spaces?deleted=false`)).toEqual([live.id]);
    });

    it('answers 404 to an outsider, 401 without a token', async () => {
      const url = `/v1/orgs/${server.orgId}/spaces`;
      expect((await server.request('GET', url, { token: outsider.token })).status).toBe(404);
      expect((await server.request('GET', url, { token: null })).status).toBe(401);
    });
  });

  describe('GET /v1/spaces/{id}', () => {
    it('returns the space with zero counters and a revision', async () => {
      const s = await newSpace(server, server.orgId, { title: 'Readable' });
      const res = await server.request('GET', `/v1/spaces/${s.id}`, { token: reader.token });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        object: 'space',
        id: s.id,
        title: 'Readable',
        comments: 0,
        changeRequests: 0,
        changeRequestsOpen: 0,
        changeRequestsDraft: 0,
        revision: s.revision,
      });
      expect(res.body.revision).not.toBe('');
      expect(res.body.permissions).toMatchObject({ view: true, access: true, edit: false, admin: false });
    });

    it('answers 404 to an outsider and for an unknown id, 401 without a token', async () => {
      const s = await newSpace(server, server.orgId, { title: 'S' });
      expect((await server.request('GET', `/v1/spaces/${s.id}`, { token: outsider.token })).status).toBe(404);
      expect((await server.request('GET', '/v1/spaces/no-such-space')).status).toBe(404);
      expect((await server.request('GET', `/v1/spaces/${s.id}`, { token: null })).status).toBe(401);
    });

    // Reads of one space read it in the statement that authenticates them (plugins/auth.ts): each of these is
    // decided by that statement's answer, not by a second look-up.
    it('reads authenticated in one statement keep every answer: revoked, expired, removed, malformed', async () => {
      const s = await newSpace(server, server.orgId, { title: 'Prefetched' });
      const user = await server.member('read');
      const made = await server.request('POST', '/v1/user/tokens', {
        token: user.token,
        body: { label: 'ci', password: MEMBER_PASSWORD },
      });
      expect(made.status).toBe(201);
      const lasting = made.body.token as string;
      expect((await server.request('GET', `/v1/spaces/${s.id}`, { token: lasting })).status).toBe(200);
      expect((await server.request('HEAD', `/v1/spaces/${s.id}`, { token: lasting })).status).toBe(200);

      // A sub-resource read takes the same path.
      expect((await server.request('GET', `/v1/spaces/${s.id}/content`, { token: lasting })).status).toBe(200);

      // Unknown space, too long an id, a NUL in it: 404, 400 naming spaceId, 404.
      expect((await server.request('GET', '/v1/spaces/nope', { token: lasting })).status).toBe(404);
      const long = await server.request('GET', `/v1/spaces/${'x'.repeat(65)}`, { token: lasting });
      expect(long.status).toBe(400);
      expect(paths(long.body)).toContain('spaceId');
      expect((await server.request('GET', '/v1/spaces/a%00b', { token: lasting })).status).toBe(404);

      // Expired: 401, though the space exists and the user is a member.
      await server.storage.db
        .updateTable('api_tokens')
        .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
        .where('id', '=', made.body.id)
        .execute();
      expect((await server.request('GET', `/v1/spaces/${s.id}`, { token: lasting })).status).toBe(401);

      // Revoked: 401.
      const again = await server.request('POST', '/v1/user/tokens', {
        token: user.token,
        body: { label: 'ci2', password: MEMBER_PASSWORD },
      });
      expect((await server.request('GET', `/v1/spaces/${s.id}`, { token: again.body.token })).status).toBe(200);
      expect((await server.request('DELETE', `/v1/user/tokens/${again.body.id}`, { token: user.token })).status).toBe(
        205,
      );
      expect((await server.request('GET', `/v1/spaces/${s.id}`, { token: again.body.token })).status).toBe(401);

      // Removed from the organization: the token still authenticates, the space is no longer theirs to see.
      const removed = await server.request('DELETE', `/v1/orgs/${server.orgId}/members/${user.id}`);
      expect(removed.status).toBeLessThan(300);
      const after = await server.request('GET', `/v1/spaces/${s.id}`, { token: user.token });
      expect(after.status).toBe(404);
      expect(JSON.stringify(after.body)).not.toContain('Prefetched');
      expect((await server.request('GET', '/v1/user', { token: user.token })).status).toBe(200);
    });

    it('a space of another organization reads as unknown, even to that organization’s admin token elsewhere', async () => {
      const theirOrg = (await newOrg(server, 'Spaces org', { token: outsider.token })).id;
      const theirs = await newSpace(server, theirOrg, { title: 'Theirs', token: outsider.token });
      const mine = await newSpace(server, server.orgId, { title: 'Mine' });
      const res = await server.request('GET', `/v1/spaces/${mine.id}`, { token: outsider.token });
      expect(res.status).toBe(404);
      expect(JSON.stringify(res.body)).not.toContain('Mine');
      const back = await server.request('GET', `/v1/spaces/${theirs.id}`);
      expect(back.status).toBe(404);
      expect((await server.request('GET', `/v1/spaces/${theirs.id}`, { token: outsider.token })).body.title).toBe(
        'Theirs',
      );
    });
  });

  describe('PATCH /v1/spaces/{id}', () => {
    it('changes title, emoji, visibility, editMode and defaultLevel', async () => {
      const s = await newSpace(server, server.orgId, { title: 'S' });
      const res = await server.request('PATCH', `/v1/spaces/${s.id}`, {
        body: { title: 'New', emoji: '🚀', visibility: 'unlisted', editMode: 'locked', defaultLevel: 'comment' },
      });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        title: 'New',
        emoji: '🚀',
        visibility: 'unlisted',
        editMode: 'locked',
        defaultLevel: 'comment',
      });
      const got = await server.request('GET', `/v1/spaces/${s.id}`);
      expect(got.body).toMatchObject({ title: 'New', emoji: '🚀', visibility: 'unlisted', editMode: 'locked' });
      const cleared = await server.request('PATCH', `/v1/spaces/${s.id}`, { body: { emoji: null } });
      expect(cleared.status).toBe(200);
      expect(cleared.body.emoji).toBe('');
    });

    it('accepts a title and an emoji of 50 characters, refuses 51', async () => {
      const s = await newSpace(server, server.orgId, { title: 'S' });
      const url = `/v1/spaces/${s.id}`;
      expect((await server.request('PATCH', url, { body: { title: 't'.repeat(50) } })).status).toBe(200);
      expect((await server.request('PATCH', url, { body: { emoji: 'e'.repeat(50) } })).status).toBe(200);
      const title = await server.request('PATCH', url, { body: { title: 't'.repeat(51) } });
      expect(title.status).toBe(400);
      expect(paths(title.body)).toContain('title');
      const emoji = await server.request('PATCH', url, { body: { emoji: 'e'.repeat(51) } });
      expect(emoji.status).toBe(400);
      expect(paths(emoji.body)).toContain('emoji');
      expect((await server.request('GET', url)).body).toMatchObject({ title: 't'.repeat(50), emoji: 'e'.repeat(50) });
    });

    it('refuses an empty or blank title with a plain message, and keeps the old one', async () => {
      const s = await newSpace(server, server.orgId, { title: 'S' });
      const url = `/v1/spaces/${s.id}`;
      for (const title of ['', '   ']) {
        const res = await server.request('PATCH', url, { body: { title } });
        expect(res.status).toBe(400);
        expect(res.body.error.issues).toEqual([{ path: 'title', message: 'Title is required' }]);
      }
      const long = await server.request('PATCH', url, { body: { title: 't'.repeat(51) } });
      expect(long.body.error.message).toBe('Invalid title: Use at most 50 characters');
      expect((await server.request('GET', url)).body.title).toBe(s.title);
    });

    it('refuses unknown visibility, editMode and defaultLevel values (400 naming the field)', async () => {
      const s = await newSpace(server, server.orgId, { title: 'S' });
      for (const [field, value] of [
        ['visibility', 'secret'],
        ['editMode', 'frozen'],
        ['defaultLevel', 'owner'],
      ] as const) {
        const res = await server.request('PATCH', `/v1/spaces/${s.id}`, { body: { [field]: value } });
        expect(res.status).toBe(400);
        expect(paths(res.body)).toContain(field);
      }
    });

    it('accepts every documented visibility inside a collection; in-collection at the root is 400', async () => {
      const c = await newCollection(server, server.orgId, { title: 'C' });
      const inside = await newSpace(server, server.orgId, { title: 'S', parent: c.id });
      for (const visibility of ['public', 'unlisted', 'share-link', 'visitor-auth', 'in-collection', 'private']) {
        const res = await server.request('PATCH', `/v1/spaces/${inside.id}`, { body: { visibility } });
        expect(res.status).toBe(200);
        expect(res.body.visibility).toBe(visibility);
      }
      const root = await newSpace(server, server.orgId, { title: 'S' });
      const res = await server.request('PATCH', `/v1/spaces/${root.id}`, { body: { visibility: 'in-collection' } });
      expect(res.status).toBe(400);
      expect(paths(res.body)).toContain('visibility');
    });

    it('lets the edit level change title and emoji, but not visibility, editMode or defaultLevel (admin)', async () => {
      const s = await newSpace(server, server.orgId, { title: 'S' });
      const url = `/v1/spaces/${s.id}`;
      const t = { token: editor.token };
      expect((await server.request('PATCH', url, { ...t, body: { title: 'By editor' } })).status).toBe(200);
      expect((await server.request('PATCH', url, { ...t, body: { emoji: '✏️' } })).status).toBe(200);
      for (const body of [{ visibility: 'public' }, { editMode: 'locked' }, { defaultLevel: 'admin' }]) {
        const res = await server.request('PATCH', url, { ...t, body });
        expect(res.status).toBe(403);
      }
      // A mixed request is refused as a whole.
      expect(
        (await server.request('PATCH', url, { ...t, body: { title: 'Mixed', visibility: 'public' } })).status,
      ).toBe(403);
      const got = await server.request('GET', url);
      expect(got.body).toMatchObject({ title: 'By editor', emoji: '✏️', visibility: 'private', editMode: 'live' });
    });

    it('answers 403 to a reader, 404 to an outsider, 401 without a token', async () => {
      const s = await newSpace(server, server.orgId, { title: 'Keep' });
      const url = `/v1/spaces/${s.id}`;
      expect((await server.request('PATCH', url, { token: reader.token, body: { title: 'x' } })).status).toBe(403);
      expect((await server.request('PATCH', url, { token: outsider.token, body: { title: 'x' } })).status).toBe(404);
      expect((await server.request('PATCH', url, { token: null, body: { title: 'x' } })).status).toBe(401);
      expect((await server.request('GET', url)).body.title).toBe('Keep');
    });
  });

  describe('DELETE /v1/spaces/{id} and POST /v1/spaces/{id}/restore', () => {
    it('DELETE answers 205, then 204 when already in the trash; restore brings it back (200)', async () => {
      const s = await newSpace(server, server.orgId, { title: 'S' });
      const first = await server.request('DELETE', `/v1/spaces/${s.id}`);
      expect(first.status).toBe(205);
      expect(first.body).toBeUndefined();
      const second = await server.request('DELETE', `/v1/spaces/${s.id}`);
      expect(second.status).toBe(204);
      expect(second.body).toBeUndefined();

      const got = await server.request('GET', `/v1/spaces/${s.id}`);
      expect(typeof got.body.deletedAt).toBe('string');

      const restored = await server.request('POST', `/v1/spaces/${s.id}/restore`);
      expect(restored.status).toBe(200);
      expect(restored.body).toMatchObject({ object: 'space', id: s.id });
      expect(restored.body.deletedAt).toBeUndefined();
      expect(await listIds(`/v1/orgs/${server.orgId}/spaces`)).toContain(s.id);
    });

    it('restores a space into its collection when the collection still exists', async () => {
      const c = await newCollection(server, server.orgId, { title: 'C' });
      const s = await newSpace(server, server.orgId, { title: 'S', parent: c.id });
      await server.request('DELETE', `/v1/spaces/${s.id}`);
      const restored = await server.request('POST', `/v1/spaces/${s.id}/restore`);
      expect(restored.status).toBe(200);
      expect(restored.body.parent).toBe(c.id);
    });

    it('restore answers 409 for a space that is not deleted', async () => {
      const s = await newSpace(server, server.orgId, { title: 'S' });
      const res = await server.request('POST', `/v1/spaces/${s.id}/restore`);
      expect(res.status).toBe(409);
    });

    it('restore answers 410 for a space deleted more than 7 days ago, and 200 at 6 days', async () => {
      const old = await newSpace(server, server.orgId, { title: 'S' });
      const recent = await newSpace(server, server.orgId, { title: 'S' });
      for (const s of [old, recent]) expect((await server.request('DELETE', `/v1/spaces/${s.id}`)).status).toBe(205);
      await setDeletedAt(old.id, 8);
      await setDeletedAt(recent.id, 6);
      const trash = await listIds(`/v1/orgs/${server.orgId}/spaces?deleted=true`);
      expect(trash).toContain(recent.id);
      expect(trash).not.toContain(old.id);
      const gone = await server.request('POST', `/v1/spaces/${old.id}/restore`);
      expect(gone.status).toBe(410);
      expect(gone.body.error.code).toBe(410);
      expect((await server.request('POST', `/v1/spaces/${recent.id}/restore`)).status).toBe(200);
    });

    it('DELETE and restore need the admin level: 403 for an edit member; 404 to an outsider; 401 without a token', async () => {
      const s = await newSpace(server, server.orgId, { title: 'S' });
      const url = `/v1/spaces/${s.id}`;
      expect((await server.request('DELETE', url, { token: editor.token })).status).toBe(403);
      expect((await server.request('DELETE', url, { token: outsider.token })).status).toBe(404);
      expect((await server.request('DELETE', url, { token: null })).status).toBe(401);
      expect((await server.request('GET', url)).body.deletedAt).toBeUndefined();

      expect((await server.request('DELETE', url)).status).toBe(205);
      expect((await server.request('POST', `${url}/restore`, { token: editor.token })).status).toBe(403);
      expect((await server.request('POST', `${url}/restore`, { token: outsider.token })).status).toBe(404);
      expect((await server.request('POST', `${url}/restore`, { token: null })).status).toBe(401);
      expect(typeof (await server.request('GET', url)).body.deletedAt).toBe('string');
    });

    it('a space in the trash cannot be changed, moved or duplicated (409)', async () => {
      const s = await newSpace(server, server.orgId, { title: 'S' });
      await server.request('DELETE', `/v1/spaces/${s.id}`);
      expect((await server.request('PATCH', `/v1/spaces/${s.id}`, { body: { title: 'x' } })).status).toBe(409);
      expect((await server.request('POST', `/v1/spaces/${s.id}/move`, { body: { parent: null } })).status).toBe(409);
      expect((await server.request('POST', `/v1/spaces/${s.id}/duplicate`)).status).toBe(409);
    });
  });

  describe('purge job', () => {
    it('removes spaces deleted 8 days ago and keeps those deleted 1 day ago and live ones', async () => {
      const old = await newSpace(server, server.orgId, { title: 'S' });
      const recent = await newSpace(server, server.orgId, { title: 'S' });
      const live = await newSpace(server, server.orgId, { title: 'S' });
      for (const s of [old, recent]) await server.request('DELETE', `/v1/spaces/${s.id}`);
      await setDeletedAt(old.id, 8);
      await setDeletedAt(recent.id, 1);

      const result = await purgeOnce(server.storage.db);
      expect(result.spaces).toBeGreaterThanOrEqual(1);

      expect((await server.request('GET', `/v1/spaces/${old.id}`)).status).toBe(404);
      expect((await server.request('POST', `/v1/spaces/${old.id}/restore`)).status).toBe(404);
      const row = await server.storage.db.selectFrom('spaces').select('id').where('id', '=', old.id).executeTakeFirst();
      expect(row).toBeUndefined();
      expect((await server.request('GET', `/v1/spaces/${recent.id}`)).status).toBe(200);
      expect((await server.request('POST', `/v1/spaces/${recent.id}/restore`)).status).toBe(200);
      expect((await server.request('GET', `/v1/spaces/${live.id}`)).status).toBe(200);

      // Running it again changes nothing.
      await purgeOnce(server.storage.db);
      expect((await server.request('GET', `/v1/spaces/${recent.id}`)).status).toBe(200);
    });
  });

  describe('POST /v1/spaces/{id}/duplicate', () => {
    it('makes a copy next to the original: 201 + Location, a new revision, zero counters', async () => {
      const c = await newCollection(server, server.orgId, { title: 'C' });
      const s = await newSpace(server, server.orgId, { title: 'Original', emoji: '📗', parent: c.id });
      const res = await server.request('POST', `/v1/spaces/${s.id}/duplicate`);
      expect(res.status).toBe(201);
      expect(res.body.id).not.toBe(s.id);
      expect(res.body).toMatchObject({
        object: 'space',
        title: 'Original (copy)',
        emoji: '📗',
        parent: c.id,
        organization: server.orgId,
        comments: 0,
        changeRequests: 0,
        changeRequestsOpen: 0,
        changeRequestsDraft: 0,
      });
      expect(res.body.revision).toEqual(expect.any(String));
      expect(res.body.revision).not.toBe('');
      expect(res.body.revision).not.toBe(s.revision);
      expect(res.headers.get('location')).toMatch(new RegExp(`/v1/spaces/${res.body.id}$`));
      expect(await listIds(`/v1/collections/${c.id}/spaces`)).toEqual([s.id, res.body.id]);
    });

    it('keeps the title within 50 characters', async () => {
      const s = await newSpace(server, server.orgId, { title: 't'.repeat(50) });
      const res = await server.request('POST', `/v1/spaces/${s.id}/duplicate`);
      expect(res.status).toBe(201);
      expect(res.body.title.length).toBeLessThanOrEqual(50);
    });

    it('answers 403 to a reader (cannot create), 404 to an outsider, 401 without a token', async () => {
      const s = await newSpace(server, server.orgId, { title: 'S' });
      const url = `/v1/spaces/${s.id}/duplicate`;
      expect((await server.request('POST', url, { token: reader.token })).status).toBe(403);
      expect((await server.request('POST', url, { token: outsider.token })).status).toBe(404);
      expect((await server.request('POST', url, { token: null })).status).toBe(401);
      expect((await server.request('POST', url, { token: creator.token })).status).toBe(201);
    });
  });

  describe('POST /v1/spaces/{id}/move', () => {
    it('moves into a collection and back to the root', async () => {
      const orgId = (await newOrg(server, 'Spaces org')).id;
      const c = await newCollection(server, orgId, { title: 'C' });
      const s = await newSpace(server, orgId, { title: 'S' });
      const into = await server.request('POST', `/v1/spaces/${s.id}/move`, { body: { parent: c.id } });
      expect(into.status).toBe(200);
      expect(into.body.parent).toBe(c.id);
      expect(await listIds(`/v1/collections/${c.id}/spaces`)).toEqual([s.id]);
      await server.request('PATCH', `/v1/spaces/${s.id}`, { body: { visibility: 'in-collection' } });

      const out = await server.request('POST', `/v1/spaces/${s.id}/move`, { body: { parent: null } });
      expect(out.status).toBe(200);
      expect(out.body.parent).toBeUndefined();
      // in-collection makes no sense at the root.
      expect(out.body.visibility).not.toBe('in-collection');
      expect(await listIds(`/v1/collections/${c.id}/spaces`)).toEqual([]);
    });

    it('places the space with before/after among collections and spaces', async () => {
      const orgId = (await newOrg(server, 'Spaces org')).id;
      const c = await newCollection(server, orgId, { title: 'C' });
      const a = await newSpace(server, orgId, { title: 'S', parent: c.id });
      const b = await newSpace(server, orgId, { title: 'S', parent: c.id });
      const s = await newSpace(server, orgId, { title: 'S' });
      const res = await server.request('POST', `/v1/spaces/${s.id}/move`, {
        body: { parent: c.id, position: { after: { type: 'space', space: a.id } } },
      });
      expect(res.status).toBe(200);
      expect(await listIds(`/v1/collections/${c.id}/spaces`)).toEqual([a.id, s.id, b.id]);
    });

    it('answers 409 for a move that changes nothing', async () => {
      const orgId = (await newOrg(server, 'Spaces org')).id;
      const a = await newSpace(server, orgId, { title: 'S' });
      const b = await newSpace(server, orgId, { title: 'S' });
      const res = await server.request('POST', `/v1/spaces/${b.id}/move`, {
        body: { position: { after: { type: 'space', space: a.id } } },
      });
      expect(res.status).toBe(409);
      expect((await server.request('POST', `/v1/spaces/${b.id}/move`, { body: { parent: null } })).status).toBe(409);
    });

    it('refuses a pointer that is not a sibling, and a parent from another organization (400)', async () => {
      const orgId = (await newOrg(server, 'Spaces org')).id;
      const c = await newCollection(server, orgId, { title: 'C' });
      const inside = await newSpace(server, orgId, { title: 'S', parent: c.id });
      const s = await newSpace(server, orgId, { title: 'S' });
      const res = await server.request('POST', `/v1/spaces/${s.id}/move`, {
        body: { position: { before: { type: 'space', space: inside.id } } },
      });
      expect(res.status).toBe(400);
      expect(paths(res.body)).toContain('position.before');
      const foreign = await newCollection(server, (await newOrg(server, 'Spaces org')).id, { title: 'C' });
      const cross = await server.request('POST', `/v1/spaces/${s.id}/move`, { body: { parent: foreign.id } });
      expect(cross.status).toBe(400);
      expect(paths(cross.body)).toContain('parent');
      expect((await server.request('POST', `/v1/spaces/${s.id}/move`, { body: {} })).status).toBe(400);
    });

    it('answers 403 to an edit member, 404 to an outsider, 401 without a token', async () => {
      const c = await newCollection(server, server.orgId, { title: 'C' });
      const s = await newSpace(server, server.orgId, { title: 'S' });
      const url = `/v1/spaces/${s.id}/move`;
      const body = { parent: c.id };
      expect((await server.request('POST', url, { token: editor.token, body })).status).toBe(403);
      expect((await server.request('POST', url, { token: outsider.token, body })).status).toBe(404);
      expect((await server.request('POST', url, { token: null, body })).status).toBe(401);
      expect((await server.request('GET', `/v1/spaces/${s.id}`)).body.parent).toBeUndefined();
    });
  });

  describe('POST /v1/spaces/{id}/transfer', () => {
    it('moves the space to the root of another organization of the caller', async () => {
      const source = (await newOrg(server, 'Spaces org')).id;
      const target = (await newOrg(server, 'Spaces org')).id;
      const c = await newCollection(server, source, { title: 'C' });
      const s = await newSpace(server, source, { title: 'S', parent: c.id });
      await server.request('PATCH', `/v1/spaces/${s.id}`, { body: { visibility: 'in-collection' } });
      const res = await server.request('POST', `/v1/spaces/${s.id}/transfer`, { body: { organization: target } });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ id: s.id, organization: target });
      expect(res.body.parent).toBeUndefined();
      expect(res.body.visibility).not.toBe('in-collection');
      expect(await listIds(`/v1/orgs/${target}/spaces`)).toEqual([s.id]);
      expect(await listIds(`/v1/orgs/${source}/spaces`)).toEqual([]);
      expect(await listIds(`/v1/collections/${c.id}/spaces`)).toEqual([]);
    });

    it('answers 409 when the space is already in the target organization', async () => {
      const s = await newSpace(server, server.orgId, { title: 'S' });
      const res = await server.request('POST', `/v1/spaces/${s.id}/transfer`, { body: { organization: server.orgId } });
      expect(res.status).toBe(409);
    });

    it('answers 400 naming organization for an organization the caller is not in', async () => {
      const other = await server.signup('stranger');
      const target = (await newOrg(server, 'Spaces org', { token: other.token })).id;
      const s = await newSpace(server, server.orgId, { title: 'S' });
      const res = await server.request('POST', `/v1/spaces/${s.id}/transfer`, { body: { organization: target } });
      expect(res.status).toBe(400);
      expect(paths(res.body)).toContain('organization');
      expect((await server.request('GET', `/v1/spaces/${s.id}`)).body.organization).toBe(server.orgId);
    });

    it('answers 403 when the caller may not create in the target organization', async () => {
      const other = await server.signup('host');
      const target = (await newOrg(server, 'Spaces org', { token: other.token })).id;
      const link = await server.request('POST', `/v1/orgs/${target}/link-invites`, {
        token: other.token,
        body: { role: 'read' },
      });
      await server.request('POST', `/v1/orgs/${target}/invites/${link.body.id}`);
      const s = await newSpace(server, server.orgId, { title: 'S' });
      const res = await server.request('POST', `/v1/spaces/${s.id}/transfer`, { body: { organization: target } });
      expect(res.status).toBe(403);
      expect((await server.request('GET', `/v1/spaces/${s.id}`)).body.organization).toBe(server.orgId);
    });

    it('answers 403 to an edit member, 404 to an outsider, 401 without a token', async () => {
      const s = await newSpace(server, server.orgId, { title: 'S' });
      const target = (await newOrg(server, 'Spaces org')).id;
      const url = `/v1/spaces/${s.id}/transfer`;
      const body = { organization: target };
      expect((await server.request('POST', url, { token: editor.token, body })).status).toBe(403);
      expect((await server.request('POST', url, { token: outsider.token, body })).status).toBe(404);
      expect((await server.request('POST', url, { token: null, body })).status).toBe(401);
    });
  });
});
