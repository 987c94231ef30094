import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeEachDialect, startTestServer, type TestServer } from '../test/harness.js';
import { startFixtureServer, type FixtureServer } from '../test/fixtures.js';
import {
  PETSTORE_31_JSON,
  PETSTORE_SWAGGER,
  PETSTORE_V1,
  PETSTORE_V2,
  allOfChain,
  processedSpec,
} from '../test/openapi-fixtures.js';

/** Polls a spec until its processing is complete (`base` is the organization's …/openapi). */
const processed = (server: TestServer, base: string, slug: string, token?: string) =>
  processedSpec(server, base.split('/')[3]!, slug, token);

describeEachDialect('OpenAPI specifications', (dialect) => {
  let server: TestServer;
  let fixtures: FixtureServer;
  let base: string;
  beforeAll(async () => {
    fixtures = await startFixtureServer();
    server = await startTestServer(dialect, { allowPrivateFetch: ['127.0.0.0/8'] });
    base = `/v1/orgs/${server.orgId}/openapi`;
  });
  afterAll(async () => {
    await server.close();
    await fixtures.close();
  });

  it('creates a spec from text (201, pending), processes it in the background and keeps a version', async () => {
    const created = await server.request('POST', base, { body: { slug: 'petstore', source: { text: PETSTORE_V1 } } });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      object: 'openapi-spec',
      slug: 'petstore',
      processingState: 'pending',
      visibility: 'private',
      permissions: { view: true, edit: true },
      urls: {
        location: `http://docs.test${base}/petstore`,
        app: `http://docs.test/o/${server.orgId}/openapi/petstore`,
      },
    });
    expect(created.headers.get('location')).toBeNull();
    const spec = await processed(server, base, 'petstore');
    expect(spec.lastVersion).toEqual(expect.any(String));
    expect(spec.lastProcessedAt).toEqual(expect.any(String));
    expect(spec.lastProcessErrorCode).toBeUndefined();

    const versions = await server.request('GET', `${base}/petstore/versions`);
    expect(versions.status).toBe(200);
    expect(versions.body.items).toHaveLength(1);
    const [version] = versions.body.items;
    expect(version).toMatchObject({ object: 'openapi-spec-version', id: spec.lastVersion });
    expect((await server.request('GET', `${base}/petstore/versions/latest`)).body).toEqual(version);
    expect((await server.request('GET', `${base}/petstore/versions/${version.id}`)).body).toEqual(version);

    const content = await server.request('GET', `${base}/petstore/versions/latest/content`);
    expect(content.status).toBe(200);
    expect(content.body.url).toBe(version.url);
    expect(content.body.filesystem['openapi.yaml']).toMatchObject({ openapi: '3.0.3', info: { title: 'Pet store' } });
    const raw = await fetch(`${server.url}${new URL(version.url).pathname}`, {
      headers: { authorization: `Bearer ${server.owner.token}` },
    });
    expect(raw.status).toBe(200);
    expect(await raw.text()).toBe(PETSTORE_V1);
  });

  it('creates a new version only when the content changed (PUT 200), and creates on PUT of a new slug (201)', async () => {
    const put = await server.request('PUT', `${base}/petstore`, { body: { source: { text: PETSTORE_V1 } } });
    expect(put.status).toBe(200);
    expect(put.body.processingState).toBe('pending');
    const same = await processed(server, base, 'petstore');
    expect((await server.request('GET', `${base}/petstore/versions`)).body.items).toHaveLength(1);

    await server.request('PUT', `${base}/petstore`, { body: { source: { text: PETSTORE_V2 } } });
    const changed = await processed(server, base, 'petstore');
    expect(changed.lastVersion).not.toBe(same.lastVersion);
    const versions = (await server.request('GET', `${base}/petstore/versions`)).body.items;
    expect(versions.map((v: { id: string }) => v.id)).toEqual([changed.lastVersion, same.lastVersion]);

    const fresh = await server.request('PUT', `${base}/petstore-31`, { body: { source: { text: PETSTORE_31_JSON } } });
    expect(fresh.status).toBe(201);
    const spec = await processed(server, base, 'petstore-31');
    const content = await server.request('GET', `${base}/petstore-31/versions/${spec.lastVersion}/content`);
    expect(content.body.filesystem['openapi.json'].openapi).toBe('3.1.0');
  });

  it('processes Swagger 2.0 and URL sources; reports fetch and parse failures with their codes', async () => {
    fixtures.set('/swagger.yaml', { type: 'application/yaml', body: PETSTORE_SWAGGER });
    const created = await server.request('POST', base, {
      body: { slug: 'swagger', source: { url: `${fixtures.url}/swagger.yaml` } },
    });
    expect(created.body.sourceURL).toBe(`${fixtures.url}/swagger.yaml`);
    const spec = await processed(server, base, 'swagger');
    expect(spec.lastProcessErrorCode).toBeUndefined();
    const content = await server.request('GET', `${base}/swagger/versions/latest/content`);
    expect(content.body.filesystem['swagger.yaml'].swagger).toBe('2.0');

    // The server answers 404: a fetch error; the last good version stays.
    await server.request('PUT', `${base}/swagger`, { body: { source: { url: `${fixtures.url}/gone.yaml` } } });
    const missing = await processed(server, base, 'swagger');
    expect(missing.lastProcessErrorCode).toBe('FETCH_ERROR');
    expect(missing.lastProcessedErrors[0].message).toMatch(/404/);
    expect(missing.lastVersion).toBe(spec.lastVersion);

    const cases: Array<[string, RegExp]> = [
      ['openapi: 3.0.0\ninfo: [unclosed', /Not valid JSON or YAML/],
      ['title: not a spec\n', /no "openapi"/],
      ['openapi: 3.0.0\ninfo:\n  title: x\npaths: {}\n', /version/],
      [
        'openapi: 3.0.0\ninfo: {title: x, version: "1"}\npaths:\n  /a:\n    get:\n      responses:\n        "200": {$ref: "#/components/responses/Missing"}\n',
        /Missing/,
      ],
    ];
    for (const [text, message] of cases) {
      await server.request('PUT', `${base}/broken`, { body: { source: { text } } });
      const broken = await processed(server, base, 'broken');
      expect(broken.lastProcessErrorCode, text).toBe('PARSE_ERROR');
      expect(broken.lastProcessedErrorCount).toBeGreaterThan(0);
      expect(broken.lastProcessedErrors[0].message).toMatch(message);
    }
    expect((await server.request('GET', `${base}/broken/versions/latest`)).status).toBe(404);
  });

  it('refuses private addresses unless allowed, and gives up a slow fetch with FETCH_TIMEOUT', async () => {
    const strict = await startTestServer(dialect);
    try {
      const strictBase = `/v1/orgs/${strict.orgId}/openapi`;
      await strict.request('POST', strictBase, {
        body: { slug: 'local', source: { url: `${fixtures.url}/swagger.yaml` } },
      });
      const spec = await processed(strict, strictBase, 'local');
      expect(spec.lastProcessErrorCode).toBe('FETCH_ERROR');
      expect(spec.lastProcessedErrors[0].message).toMatch(/private or local/);
    } finally {
      await strict.close();
    }
  });

  it('reports a document too costly to check (references of references) as a parse error, not retried', async () => {
    const text = allOfChain(9, 10);
    const costly = await startTestServer(dialect, {}, { openApi: { parseTimeoutMs: 1500 } });
    try {
      const costlyBase = `/v1/orgs/${costly.orgId}/openapi`;
      await costly.request('POST', costlyBase, { body: { slug: 'costly', source: { text } } });
      const spec = await processed(costly, costlyBase, 'costly');
      expect(spec.lastProcessErrorCode).toBe('PARSE_ERROR');
      expect(spec.lastProcessedErrors[0]).toMatchObject({ code: 'TOO_COMPLEX' });
      const jobs = await costly.storage.db.selectFrom('jobs').selectAll().execute();
      expect(jobs.map((j) => [j.state, j.attempts])).toEqual([['done', 1]]);
      // The server answered meanwhile.
      expect((await costly.request('GET', '/v1/health', { token: null })).status).toBe(200);
    } finally {
      await costly.close();
    }
  });

  it('refuses a YAML text whose aliases expand past the text limit: nothing of it is stored', async () => {
    // A 60 kB text whose 1,000 aliases of a 50 kB string expanded to a 50 MB stored version.
    const text = `openapi: 3.0.0\ninfo: {title: Bomb, version: "1"}\npaths: {}\nx-big: &big "${'a'.repeat(50_000)}"\nx-copies:\n${'  - *big\n'.repeat(1000)}`;
    await server.request('POST', base, { body: { slug: 'alias-bomb', source: { text } } });
    const spec = await processed(server, base, 'alias-bomb');
    expect(spec.lastProcessErrorCode).toBe('PARSE_ERROR');
    expect(spec.lastProcessedErrors[0]).toMatchObject({ code: 'TOO_LARGE', message: expect.stringMatching(/10 MB/) });
    expect((await server.request('GET', `${base}/alias-bomb/versions/latest`)).status).toBe(404);
    const largest = await server.storage.db
      .selectFrom('openapi_versions')
      .select((eb) => eb.fn.max(eb.fn('length', ['document'])).as('n'))
      .executeTakeFirst();
    expect(Number(largest?.n ?? 0)).toBeLessThan(1024 * 1024);
  });

  it('validates input with 400 naming the field, 409 for a taken slug, 404 for unknown specs', async () => {
    for (const [body, field] of [
      [{ slug: 'Bad Slug', source: { text: 'x' } }, 'slug'],
      [{ slug: 'a--b', source: { text: 'x' } }, 'slug'],
      [{ slug: 'x'.repeat(101), source: { text: 'x' } }, 'slug'],
      [{ slug: 'ok', source: { url: 'ftp://example.com/a.yaml' } }, 'source'],
      [{ slug: 'ok', source: { url: `https://example.com/${'a'.repeat(2048)}` } }, 'source'],
      [{ slug: 'ok', source: { text: '' } }, 'source'],
      [{ slug: 'ok', source: {} }, 'source'],
      [{ slug: 'ok' }, 'source'],
    ] as const) {
      const res = await server.request('POST', base, { body });
      expect(res.status, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(res.body.error.message).toContain(field);
    }
    expect((await server.request('GET', `${base}/ok`)).status).toBe(404);
    const taken = await server.request('POST', base, { body: { slug: 'petstore', source: { text: PETSTORE_V1 } } });
    expect(taken.status).toBe(409);
    expect((await server.request('GET', `${base}/nope`)).status).toBe(404);
    expect((await server.request('GET', `${base}/nope/versions`)).status).toBe(404);
    expect((await server.request('GET', `${base}/petstore/versions/nope`)).status).toBe(404);
    expect((await server.request('PATCH', `${base}/petstore`, { body: { visibility: 'everyone' } })).status).toBe(400);
  });

  it('serves a version as a reference, one operation, and a comparison with breaking changes flagged', async () => {
    const versions = (await server.request('GET', `${base}/petstore/versions`)).body.items;
    const [v2, v1] = versions.map((v: { id: string }) => v.id);
    const reference = await server.request('GET', `${base}/petstore/versions/${v1}/reference`);
    expect(reference.status).toBe(200);
    expect(reference.body).toMatchObject({ title: 'Pet store', version: '1.0.0', specification: 'openapi 3.0.3' });
    expect(reference.body.operations.map((o: { method: string; path: string }) => `${o.method} ${o.path}`)).toEqual([
      'get /pets',
      'post /pets',
      'get /pets/{petId}',
      'delete /pets/{petId}',
    ]);

    expect(reference.body).toMatchObject({ count: 4, total: 4 });
    expect(reference.body.next).toBeUndefined();
    const paged = await server.request('GET', `${base}/petstore/versions/${v1}/reference?limit=3`);
    expect(paged.body.operations).toHaveLength(3);
    const rest = await server.request(
      'GET',
      `${base}/petstore/versions/${v1}/reference?limit=3&page=${paged.body.next.page}`,
    );
    expect(rest.body.operations.map((o: { method: string }) => o.method)).toEqual(['delete']);
    const found = await server.request('GET', `${base}/petstore/versions/${v1}/reference?q=remove`);
    expect(found.body).toMatchObject({
      count: 1,
      total: 4,
      operations: [{ method: 'delete', summary: 'Remove a pet' }],
    });
    expect((await server.request('GET', `${base}/petstore/versions/${v1}/reference?limit=0`)).status).toBe(400);

    const op = await server.request('GET', `${base}/petstore/versions/latest/operation?path=/pets&method=post`);
    expect(op.status).toBe(200);
    expect(op.body.requestBody).toMatchObject({ required: true, contentType: 'application/json' });
    expect(op.body.requestBody.schema.properties.map((p: { name: string }) => p.name)).toEqual(['name', 'age']);
    expect(op.body.example).toContain("--url 'https://pets.example.com/v1/pets'");
    expect(op.body.example).toContain('Authorization: Bearer');
    // Pet refers to Owner, which refers to Pet: shown once, then cut.
    const created = op.body.responses.find((r: { status: string }) => r.status === '201');
    const owner = created.schema.properties.find((p: { name: string }) => p.name === 'owner');
    expect(owner.schema.properties[1].schema.items).toMatchObject({ ref: 'Pet', truncated: true });
    expect(
      (await server.request('GET', `${base}/petstore/versions/latest/operation?path=/nope&method=get`)).status,
    ).toBe(404);
    expect(
      (await server.request('GET', `${base}/petstore/versions/latest/operation?path=/pets&method=fly`)).status,
    ).toBe(400);

    const compare = await server.request('GET', `${base}/petstore/compare?from=${v1}&to=${v2}`);
    expect(compare.status).toBe(200);
    expect(compare.body.added).toEqual([{ method: 'get', path: '/stores', summary: 'List stores' }]);
    expect(compare.body.removed).toEqual([{ method: 'delete', path: '/pets/{petId}', summary: 'Remove a pet' }]);
    const messages = compare.body.changed.flatMap((c: { method: string; path: string; changes: unknown[] }) =>
      c.changes.map((change) => ({ op: `${c.method} ${c.path}`, ...(change as object) })),
    );
    expect(messages).toEqual(
      expect.arrayContaining([
        { op: 'get /pets', breaking: true, message: 'Required query parameter "store" added' },
        { op: 'post /pets', breaking: true, message: 'body.tag: property removed' },
        { op: 'post /pets', breaking: true, message: 'body.age: type changed from number to integer' },
      ]),
    );
    expect(compare.body.breaking).toBeGreaterThanOrEqual(4);
  });

  it('lets members read, only the create role and above write, and hides everything from outsiders', async () => {
    const editor = await server.member('edit');
    const creator = await server.member('create');
    const guest = await server.member(null);
    const outsider = await server.signup('outsider');

    const asEditor = await server.request('GET', `${base}/petstore`, { token: editor.token });
    expect(asEditor.status).toBe(200);
    expect(asEditor.body.permissions).toEqual({ view: true, edit: false });
    const refused = await server.request('PUT', `${base}/petstore`, {
      token: editor.token,
      body: { source: { text: PETSTORE_V1 } },
    });
    expect(refused.status).toBe(403);
    expect((await server.request('DELETE', `${base}/petstore`, { token: editor.token })).status).toBe(403);
    expect(
      (await server.request('POST', base, { token: editor.token, body: { slug: 'mine', source: { text: 'x' } } }))
        .status,
    ).toBe(403);
    expect((await server.request('GET', `${base}/mine`)).status).toBe(404);

    const byCreator = await server.request('POST', base, {
      token: creator.token,
      body: { slug: 'creators', source: { text: PETSTORE_31_JSON } },
    });
    expect(byCreator.status).toBe(201);
    expect(byCreator.body.permissions.edit).toBe(true);

    expect((await server.request('GET', base, { token: guest.token })).status).toBe(403);
    for (const path of [
      base,
      `${base}/petstore`,
      `${base}/petstore/versions`,
      `${base}/petstore/versions/latest/content`,
    ]) {
      expect((await server.request('GET', path, { token: outsider.token })).status, path).toBe(404);
    }
    expect(
      (await server.request('PUT', `${base}/petstore`, { token: outsider.token, body: { source: { text: 'x' } } }))
        .status,
    ).toBe(404);
    expect((await server.request('GET', base, { token: null })).status).toBe(401);

    // A version's text: members only while the spec is private; anyone once it is public.
    const latest = (await server.request('GET', `${base}/petstore/versions/latest`)).body;
    const rawPath = new URL(latest.url).pathname;
    expect((await server.request('GET', rawPath, { token: null })).status).toBe(404);
    expect((await server.request('GET', rawPath, { token: outsider.token })).status).toBe(404);
    expect(
      (await server.request('PATCH', `${base}/petstore`, { token: editor.token, body: { visibility: 'public' } }))
        .status,
    ).toBe(403);
    const published = await server.request('PATCH', `${base}/petstore`, { body: { visibility: 'public' } });
    expect(published.body).toMatchObject({ visibility: 'public', urls: { published: expect.any(String) } });
    const anonymous = await server.request('GET', rawPath, { token: null });
    expect(anonymous.status).toBe(200);
    expect(anonymous.body).toBe(PETSTORE_V2);
  });

  it('lists specs by slug with pagination, and deletes (205, then 204) with their versions', async () => {
    const page1 = await server.request('GET', `${base}?limit=2`);
    expect(page1.body.items).toHaveLength(2);
    expect(page1.body.count).toBeGreaterThanOrEqual(4);
    const page2 = await server.request('GET', `${base}?limit=2&page=${page1.body.next.page}`);
    const slugs = [...page1.body.items, ...page2.body.items].map((s: { slug: string }) => s.slug);
    expect(slugs).toEqual([...slugs].sort());
    expect(new Set(slugs).size).toBe(slugs.length);

    expect((await server.request('DELETE', `${base}/petstore-31`)).status).toBe(205);
    expect((await server.request('DELETE', `${base}/petstore-31`)).status).toBe(204);
    expect((await server.request('GET', `${base}/petstore-31/versions/latest`)).status).toBe(404);
  });
});

describe('a job left running by a process that died', () => {
  it('is picked up again once its lease runs out, and the spec is processed', async () => {
    const server = await startTestServer('sqlite');
    try {
      const base = `/v1/orgs/${server.orgId}/openapi`;
      const db = server.storage.db;
      // A process claimed the job, marked the spec `progress` and died: its lease is in the past.
      await server.request('POST', base, { body: { slug: 'crashed', source: { text: PETSTORE_V1 } } });
      await processed(server, base, 'crashed');
      const spec = (await db.selectFrom('openapi_specs').selectAll().where('slug', '=', 'crashed').executeTakeFirst())!;
      await db.deleteFrom('openapi_versions').where('spec_id', '=', spec.id).execute();
      await db
        .updateTable('openapi_specs')
        .set({ processing_state: 'progress', last_version_id: null, source_text: PETSTORE_V1, source_revision: 2 })
        .where('id', '=', spec.id)
        .execute();
      await db
        .insertInto('jobs')
        .values({
          id: 'job-of-a-dead-process',
          kind: 'openapi-process',
          key: spec.id,
          payload: JSON.stringify({ specId: spec.id, revision: 2 }),
          state: 'running',
          attempts: 1,
          run_after: '2026-01-01T00:00:00.000Z',
          locked_until: new Date(Date.now() - 1000).toISOString(),
          locked_by: 'dead-process',
          last_error: null,
          created_at: '2026-01-01T00:00:00.000Z',
          updated_at: '2026-01-01T00:00:00.000Z',
        })
        .execute();
      const recovered = await processed(server, base, 'crashed');
      expect(recovered.lastVersion).toEqual(expect.any(String));
      const job = await db.selectFrom('jobs').selectAll().where('id', '=', 'job-of-a-dead-process').executeTakeFirst();
      expect(job).toMatchObject({ state: 'done', attempts: 2 });
    } finally {
      await server.close();
    }
  });
});
