import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDialect, startTestServer, withClockAhead, type TestServer } from '../test/harness.js';
import { newOrg } from '../test/factories.js';
import { TRANSLATION_LANGUAGES } from '../../shared/contract/translations.js';

describeEachDialect('translation settings', (dialect) => {
  let server: TestServer;
  let base: string;
  beforeAll(async () => {
    server = await startTestServer(dialect);
    base = `/v1/orgs/${server.orgId}/translations`;
  });
  afterAll(() => server.close());

  it('creates (201), reads, updates and deletes (205, then 204) settings with their fields', async () => {
    const created = await server.request('POST', base, {
      body: { title: 'Docs in Europe', languages: ['fr', 'de', 'pt-br'] },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      object: 'translation-settings',
      title: 'Docs in Europe',
      languages: ['fr', 'de', 'pt-br'],
      permissions: { view: true, edit: true },
      urls: { location: `http://docs.test${base}/${created.body.id}` },
    });
    expect(created.body.createdAt).toBe(created.body.updatedAt);
    const id = created.body.id as string;
    expect((await server.request('GET', `${base}/${id}`)).body).toEqual(created.body);

    const updated = await withClockAhead(1000, () =>
      server.request('PUT', `${base}/${id}`, { body: { title: 'Docs abroad', languages: ['zh-tw'] } }),
    );
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({
      title: 'Docs abroad',
      languages: ['zh-tw'],
      createdAt: created.body.createdAt,
    });
    expect(updated.body.updatedAt > created.body.updatedAt).toBe(true);
    const titleOnly = await server.request('PUT', `${base}/${id}`, { body: { title: 'Renamed' } });
    expect(titleOnly.body.languages).toEqual(['zh-tw']);

    const list = await server.request('GET', base);
    expect(list.body.items.map((t: { id: string }) => t.id)).toContain(id);
    expect((await server.request('DELETE', `${base}/${id}`)).status).toBe(205);
    expect((await server.request('DELETE', `${base}/${id}`)).status).toBe(204);
    expect((await server.request('GET', `${base}/${id}`)).status).toBe(404);
    expect((await server.request('PUT', `${base}/${id}`, { body: { title: 'x' } })).status).toBe(404);
  });

  it('accepts every listed language code and refuses others, duplicates and bad titles with a 400 naming the field', async () => {
    const all = await server.request('POST', base, { body: { title: 'All', languages: [...TRANSLATION_LANGUAGES] } });
    expect(all.status).toBe(201);
    expect(all.body.languages).toHaveLength(TRANSLATION_LANGUAGES.length);
    for (const [body, field] of [
      [{ title: 'T', languages: ['fr', 'xx'] }, 'languages.1'],
      [{ title: 'T', languages: ['FR'] }, 'languages.0'],
      [{ title: 'T', languages: ['fr', 'fr'] }, 'languages'],
      [{ title: 'T', languages: 'fr' }, 'languages'],
      [{ title: '' }, 'title'],
      [{ title: 'x'.repeat(129) }, 'title'],
      [{}, 'title'],
    ] as const) {
      const res = await server.request('POST', base, { body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.issues.map((i: { path: string }) => i.path)).toContain(field);
    }
    expect((await server.request('POST', base, { body: { title: 'x'.repeat(128) } })).status).toBe(201);
    const bad = await server.request('PUT', `${base}/${all.body.id}`, { body: { languages: ['klingon'] } });
    expect(bad.status).toBe(400);
    expect(bad.body.error.issues[0].path).toBe('languages.0');
  });

  it('is read by members, changed by admins; guests 403, outsiders and other organizations 404, 401 without a token', async () => {
    const id = (await server.request('POST', base, { body: { title: 'Shared' } })).body.id as string;
    const editor = await server.member('edit');
    const seen = await server.request('GET', `${base}/${id}`, { token: editor.token });
    expect(seen.status).toBe(200);
    expect(seen.body.permissions).toEqual({ view: true, edit: false });
    expect((await server.request('PUT', `${base}/${id}`, { token: editor.token, body: { title: 'x' } })).status).toBe(
      403,
    );
    expect((await server.request('POST', base, { token: editor.token, body: { title: 'x' } })).status).toBe(403);
    expect((await server.request('DELETE', `${base}/${id}`, { token: editor.token })).status).toBe(403);
    const guest = await server.member(null);
    expect((await server.request('GET', base, { token: guest.token })).status).toBe(403);
    const outsider = await server.signup('outsider');
    expect((await server.request('GET', `${base}/${id}`, { token: outsider.token })).status).toBe(404);
    const theirs = (await newOrg(server, 'Theirs', { token: outsider.token })).id;
    expect(
      (await server.request('GET', `/v1/orgs/${theirs}/translations/${id}`, { token: outsider.token })).status,
    ).toBe(404);
    expect((await server.request('GET', base, { token: null })).status).toBe(401);
  });
});
