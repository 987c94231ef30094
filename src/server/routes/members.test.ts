import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDialect, startTestServer, type TestServer } from '../test/harness.js';

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
    const org = (await server.request('POST', '/v1/orgs', { body: { title: 'Race org' } })).body.id as string;
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
