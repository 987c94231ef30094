import fs from 'node:fs';
import path from 'node:path';
import v8 from 'node:v8';
import http from 'node:http';
import vm from 'node:vm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDialect, INTEGRATIONS_ON_OWN_HOST, startTestServer, type TestServer } from '../test/harness.js';
import { newOrg, newSite, newSpace, publishSite, seedContent, seedPage } from '../test/factories.js';

/** A 1×1 PNG. */
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

describeEachDialect('integrations', (dialect) => {
  let server: TestServer;
  const manifest = (extra: Record<string, unknown> = {}) => ({
    title: 'Analytics',
    description: 'Counts page views',
    scopes: ['site:views:read', 'site:script:inject'],
    categories: ['analytics'],
    script: 'export default { fetch() { return new Response("ok"); } };',
    organization: server.orgId,
    visibility: 'public',
    icon: PNG,
    previewImages: [PNG],
    secrets: { API_KEY: 'sekret-value' },
    contentSecurityPolicy: "script-src 'self'",
    configurations: {
      account: {
        properties: {
          siteId: { type: 'string', title: 'Site ID' },
          mode: { type: 'string', enum: ['fast', 'full'] },
          sample: { type: 'number' },
        },
        required: ['siteId'],
      },
      space: { properties: { enabled: { type: 'boolean' } } },
    },
    blocks: [{ id: 'chart', title: 'Chart', urlUnfurl: ['https://charts.example.com/*'] }],
    externalLinks: [{ url: 'https://example.com/docs', label: 'Docs' }],
    ...extra,
  });

  beforeAll(async () => {
    // Integrations' endpoints are served on a host of their own (routes/integration-endpoints.ts).
    server = await startTestServer(dialect, {
      integrations: INTEGRATIONS_ON_OWN_HOST,
    });
  });
  afterAll(() => server.close());

  /**
   * Publishes `name` with `script` (`extra` of the manifest besides), installs it on the test organization and on
   * `spaces`; answers the installation.
   */
  const publishAndInstall = async (
    name: string,
    script: string,
    extra: Record<string, unknown> = {},
    spaces: string[] = [],
  ): Promise<{ id: string; urls: { publicEndpoint: string } }> => {
    const published = await server.request('POST', `/v1/integrations/${name}`, {
      body: manifest({ title: name, script, configurations: undefined, ...extra }),
    });
    expect(published.status, JSON.stringify(published.body)).toBe(200);
    const installed = await server.request('POST', `/v1/integrations/${name}/installations`, {
      body: { organization: server.orgId },
    });
    expect(installed.status).toBe(201);
    for (const space of spaces) {
      const added = await server.request('POST', `/v1/integrations/${name}/installations/${installed.body.id}/spaces`, {
        body: { space },
      });
      expect(added.status).toBe(201);
    }
    return installed.body;
  };

  /**
   * A script answering events of `type` by running `body` (JavaScript with `event` and `env` in scope: the event and
   * the environment it was delivered with), then "OK"; any other event is not handled (406).
   */
  const handling = (type: string, body: string) => `export default {
    async fetch(request) {
      const form = await request.formData();
      const event = JSON.parse(form.get('event'));
      const env = JSON.parse(form.get('environment'));
      if (event.type !== '${type}') return new Response('not handled', { status: 406 });
      ${body}
      return new Response('OK');
    },
  };`;

  /** What the script of `name` logged first (as JSON) handling its first event of `type` (once delivered). */
  const firstLog = async <T>(name: string, type: string): Promise<T> => {
    await server.drainJobs();
    const [event] = (await server.request('GET', `/v1/integrations/${name}/events?limit=10`)).body.items.filter(
      (e: { payload: { type: string } }) => e.payload.type === type,
    );
    const { trace } = (await server.request('GET', `/v1/integrations/${name}/events/${event.id}`)).body;
    return JSON.parse(trace.logs[0].message) as T;
  };

  it('publishes (version 1, then 2), serves icon, previews and script with its CSP, never the secrets', async () => {
    const first = await server.request('POST', '/v1/integrations/analytics', { body: manifest() });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({
      object: 'integration',
      name: 'analytics',
      version: 1,
      title: 'Analytics',
      visibility: 'public',
      target: 'all',
      scopes: ['site:views:read', 'site:script:inject'],
      owner: { id: server.orgId },
      permissions: { admin: true },
      externalLinks: [{ url: 'https://example.com/docs', label: 'Docs' }],
    });
    expect(JSON.stringify(first.body)).not.toContain('sekret');
    const stored = await server.storage.db.selectFrom('integrations').select('secrets').executeTakeFirstOrThrow();
    expect(stored.secrets).not.toContain('sekret');

    const icon = await fetch(server.url + new URL(first.body.urls.icon).pathname);
    expect(icon.status).toBe(200);
    expect(icon.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await icon.arrayBuffer()).toString('base64')).toBe(PNG);
    expect((await fetch(server.url + new URL(first.body.previewImages[0]).pathname)).status).toBe(200);
    expect(first.body.urls.publicEndpoint).toBe('http://integrations.test/v1/integrations/analytics');
    const script = await fetch(`${server.url}/v1/integrations/analytics/public`);
    expect(script.headers.get('content-security-policy')).toBe("script-src 'self'");
    expect(await script.text()).toContain('new Response("ok")');

    const second = await server.request('POST', '/v1/integrations/analytics', {
      body: manifest({ title: 'Analytics 2', icon: undefined }),
    });
    expect(second.body).toMatchObject({ version: 2, title: 'Analytics 2' });
    expect(second.body.urls.icon).toBeUndefined();
    expect((await fetch(server.url + new URL(first.body.urls.icon).pathname)).status).toBe(404);
    expect((await server.request('GET', '/v1/integrations/analytics')).body.version).toBe(2);
  });

  it('refuses bad input with a 400 naming the field, and changes nothing', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ title: 'A' }, 'title'],
      [{ description: 'x'.repeat(101) }, 'description'],
      [{ scopes: ['space:everything'] }, 'scopes.0'],
      [{ categories: ['games'] }, 'categories.0'],
      [{ previewImages: [PNG, PNG, PNG, PNG] }, 'previewImages'],
      [{ icon: Buffer.from('<svg onload="alert(1)"/>').toString('base64') }, 'icon'],
      [{ icon: '!!not base64!!' }, 'icon'],
      [{ externalLinks: [{ url: 'javascript:alert(1)', label: 'x' }] }, 'externalLinks.0.url'],
      [{ script: '' }, 'script'],
      [{ organization: 'no-such-org' }, 'organization'],
      [{ contentSecurityPolicy: "default-src 'none'\nX-Injected: yes" }, 'contentSecurityPolicy'],
      [{ contentSecurityPolicy: { 'script-src': 'self\r\n' } }, 'contentSecurityPolicy'],
    ];
    for (const [extra, field] of cases) {
      const res = await server.request('POST', '/v1/integrations/bad-one', { body: manifest(extra) });
      expect(res.status, field).toBe(400);
      expect(res.body.error.message).toContain(field);
    }
    expect((await server.request('POST', '/v1/integrations/bad name', { body: manifest() })).status).toBe(400);
    expect((await server.request('POST', '/v1/integrations/..', { body: manifest() })).status).not.toBe(200);
    expect((await server.request('POST', '/v1/integrations/...', { body: manifest() })).status).toBe(400);
    expect((await server.request('GET', '/v1/integrations/bad-one')).status).toBe(404);
  });

  it('lets only the owner organization admins publish again or unpublish; private ones are invisible to others', async () => {
    const outsider = await server.signup('dev');
    const theirOrg = await newOrg(server, 'Theirs', { token: outsider.token });
    const taken = await server.request('POST', '/v1/integrations/analytics', {
      token: outsider.token,
      body: manifest({ organization: theirOrg.id }),
    });
    expect(taken.status).toBe(409);
    // Publishing for an organization the caller does not administer.
    const editor = await server.member('edit');
    expect(
      (await server.request('POST', '/v1/integrations/mine', { token: editor.token, body: manifest() })).status,
    ).toBe(403);
    expect(
      (await server.request('POST', '/v1/integrations/mine', { token: outsider.token, body: manifest() })).status,
    ).toBe(400);
    expect((await server.request('DELETE', '/v1/integrations/analytics', { token: outsider.token })).status).toBe(403);

    await server.request('POST', '/v1/integrations/internal-tool', { body: manifest({ visibility: 'private' }) });
    expect((await server.request('GET', '/v1/integrations/internal-tool', { token: outsider.token })).status).toBe(404);
    expect((await server.request('GET', '/v1/integrations/internal-tool', { token: editor.token })).status).toBe(200);
    const script = await fetch(`${server.url}/v1/integrations/internal-tool/public`);
    expect(script.status).toBe(404);
    const listed = await server.request('GET', '/v1/integrations?limit=100', { token: outsider.token });
    expect(listed.body.items.map((i: { name: string }) => i.name)).not.toContain('internal-tool');
    expect((await server.request('GET', '/v1/integrations', { token: null })).status).toBe(401);
  });

  it('lists with every filter and pagination', async () => {
    await server.request('POST', '/v1/integrations/git-sync', {
      body: manifest({
        title: 'Git sync',
        categories: ['gitsync'],
        scopes: ['space:git:sync'],
        target: 'space',
        blocks: undefined,
      }),
    });
    await server.request('POST', '/v1/integrations/hidden', { body: manifest({ visibility: 'unlisted' }) });
    const names = async (query: string) =>
      ((await server.request('GET', `/v1/integrations?${query}`)).body.items as Array<{ name: string }>).map(
        (i) => i.name,
      );
    expect(await names('search=git')).toEqual(['git-sync']);
    expect(await names('category=gitsync')).toEqual(['git-sync']);
    expect(await names('scope=space:git:sync')).toEqual(['git-sync']);
    // Unlisted and private integrations are listed to members of their owner only.
    expect(await names('target=site')).toEqual(['analytics', 'hidden', 'internal-tool']);
    const outsider = await server.signup('lister');
    const theirs = await server.request('GET', '/v1/integrations?limit=100', { token: outsider.token });
    expect(theirs.body.items.map((i: { name: string }) => i.name)).toEqual(['analytics', 'git-sync']);
    expect((await server.request('GET', '/v1/integrations/hidden', { token: outsider.token })).status).toBe(200);
    expect(await names('blocks=false')).toEqual(['git-sync']);
    expect(await names('blocks=true')).toEqual(['analytics', 'hidden', 'internal-tool']);
    expect(await names('contentSources=true')).toEqual([]);
    expect(await names('blockDomain=charts.example.com')).toEqual(['analytics', 'hidden', 'internal-tool']);
    expect(await names('blockDomain=example.org')).toEqual([]);
    expect(await names(`owner=${server.orgId}&limit=100`)).toEqual([
      'analytics',
      'git-sync',
      'hidden',
      'internal-tool',
    ]);
    const page1 = await server.request('GET', '/v1/integrations?limit=1');
    expect(page1.body.count).toBe(4);
    const page2 = await server.request('GET', `/v1/integrations?limit=1&page=${page1.body.next.page}`);
    expect(page2.body.items[0].name).not.toBe(page1.body.items[0].name);
    expect((await server.request('GET', '/v1/integrations?category=games')).status).toBe(400);
  });

  it('delivers events to the script in its sandbox, with environment and secrets; shows what it logged and its refusals', async () => {
    const script = `export default {
      async fetch(request) {
        const form = await request.formData();
        const event = JSON.parse(form.get('event'));
        const env = JSON.parse(form.get('environment'));
        console.log('got ' + event.type + ' for ' + env.installation?.id + ' of ' + env.integration.name + ' key ' + env.secrets.API_KEY);
        if (event.type === 'installation_setup') {
          // Our API, reached in process: without a token of its own yet, the script is not let in.
          const me = await fetch(env.apiEndpoint + '/v1/user');
          console.log('api ' + me.status);
          return new Response('OK');
        }
        if (event.type === 'installation_deleted') return new Response('bad', { status: 400 });
        return new Response('Integration does not handle it', { status: 406 });
      },
    };`;
    const published = await server.request('POST', '/v1/integrations/listener', {
      body: manifest({ title: 'Listener', script, configurations: undefined }),
    });
    expect(published.status, JSON.stringify(published.body)).toBe(200);
    const installed = await server.request('POST', '/v1/integrations/listener/installations', {
      body: { organization: server.orgId },
    });
    const id = installed.body.id as string;
    const space = await newSpace(server, server.orgId, { title: 'Listened' });
    const added = await server.request('POST', `/v1/integrations/listener/installations/${id}/spaces`, {
      body: { space: space.id },
    });
    expect(added.status).toBe(201);
    await server.request('DELETE', `/v1/integrations/listener/installations/${id}`);
    await server.drainJobs();

    const events = (await server.request('GET', '/v1/integrations/listener/events?limit=10')).body.items;
    type Listed = { id: string; status: string; payload: { type: string } };
    const byType = new Map<string, Listed>(events.map((e: Listed) => [e.payload.type, e]));
    expect(byType.get('installation_setup')).toMatchObject({
      status: 'success',
      installationId: id,
      attempts: 1,
      durationMs: expect.any(Number),
    });
    // Not handled (406): delivered all the same. Refused (400): failed, never retried.
    expect(byType.get('space_installation_setup')).toMatchObject({ status: 'success' });
    expect(byType.get('installation_deleted')).toMatchObject({ status: 'failed' });
    const setup = (
      await server.request('GET', `/v1/integrations/listener/events/${byType.get('installation_setup')!.id}`)
    ).body;
    expect(setup.trace.logs).toEqual([
      { level: 'log', message: `got installation_setup for ${id} of listener key sekret-value` },
      { level: 'log', message: 'api 401' },
    ]);
    const deleted = (
      await server.request('GET', `/v1/integrations/listener/events/${byType.get('installation_deleted')!.id}`)
    ).body;
    expect(deleted.trace.logs.at(-1)).toEqual({ level: 'error', message: 'bad' });
    const row = await server.storage.db
      .selectFrom('integration_events')
      .select(['attempts', 'status'])
      .where('id', '=', byType.get('installation_deleted')!.id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ attempts: 1, status: 'failed' });
  });

  it('hands the script tokens that reach exactly what its installation was granted, and nothing once uninstalled', async () => {
    // The script calls our API back with the installation's token, and logs the tokens for the test to try.
    const script = handling(
      'space_installation_setup',
      `        const as = (token) => ({ headers: { authorization: 'Bearer ' + token } });
        const content = await fetch(env.apiEndpoint + '/v1/spaces/' + event.spaceId + '/content', as(env.apiTokens.installation));
        const user = await fetch(env.apiEndpoint + '/v1/user', as(env.apiTokens.installation));
        console.log(JSON.stringify({
          content: content.status, user: user.status, tokens: env.apiTokens,
          spaceInstallation: env.spaceInstallation?.space,
        }));`,
    );
    const chosen = await newSpace(server, server.orgId, { title: 'Chosen' });
    const other = await newSpace(server, server.orgId, { title: 'Not chosen' });
    const elsewhere = await newOrg(server, 'Another organization');
    const foreign = await newSpace(server, elsewhere.id, { title: 'Foreign' });
    const installation = (await publishAndInstall('reader', script, { scopes: ['space:content:read'] }, [chosen.id]))
      .id;
    const seen = await firstLog<{
      content: number;
      user: number;
      tokens: { integration: string; installation: string };
      spaceInstallation: string;
    }>('reader', 'space_installation_setup');
    // Called back from the sandbox: the chosen space's content, and no account.
    expect(seen).toMatchObject({ content: 200, user: 403, spaceInstallation: chosen.id });
    const { integration: own, installation: scoped } = seen.tokens;
    const as = (token: string) => ({ token });

    // The installation's token: the content of the chosen space, with the scope it was granted, nothing more.
    expect((await server.request('GET', `/v1/spaces/${chosen.id}/content`, as(scoped))).status).toBe(200);
    expect((await server.request('GET', `/v1/spaces/${chosen.id}/content/pages`, as(scoped))).status).toBe(200);
    expect((await server.request('GET', `/v1/spaces/${chosen.id}/change-requests`, as(scoped))).status).toBe(200);
    expect((await server.request('GET', `/v1/spaces/${other.id}/content`, as(scoped))).status).toBe(404);
    expect((await server.request('GET', `/v1/spaces/${foreign.id}/content`, as(scoped))).status).toBe(404);
    const metadata = await server.request('GET', `/v1/spaces/${chosen.id}`, as(scoped));
    expect(metadata.status).toBe(403);
    expect(metadata.body.error.message).toContain('space:metadata:read');
    for (const [method, path] of [
      ['GET', '/v1/user'],
      ['GET', `/v1/orgs/${server.orgId}/spaces`],
      ['PATCH', `/v1/spaces/${chosen.id}`],
      ['POST', `/v1/spaces/${chosen.id}/change-requests`],
      ['GET', `/v1/orgs/${server.orgId}/members`],
      ['GET', `/v1/orgs/${server.orgId}/openapi`],
      ['GET', `/v1/orgs/${server.orgId}/sites`],
    ] as const) {
      const body = method === 'GET' ? {} : { body: {} };
      expect((await server.request(method, path, { ...as(scoped), ...body })).status, path).toBe(403);
    }
    // It reads its own installation, and cannot widen what it reaches.
    expect(
      (await server.request('GET', `/v1/integrations/reader/installations/${installation}`, as(scoped))).status,
    ).toBe(200);
    const widen = await server.request('PATCH', `/v1/integrations/reader/installations/${installation}`, {
      ...as(own),
      body: { space_selection: 'all' },
    });
    expect(widen.status).toBe(403);
    expect(widen.body.error.message).toContain('space_selection');

    // The integration's own token: its installations, no content.
    const kept = await server.request('PATCH', `/v1/integrations/reader/installations/${installation}`, {
      ...as(own),
      body: { externalIds: ['account-7'] },
    });
    expect(kept.status).toBe(200);
    expect(kept.body.externalIds).toEqual(['account-7']);
    expect((await server.request('GET', '/v1/integrations/reader/installations', as(own))).body.count).toBe(1);
    expect(
      (
        await server.request(
          'GET',
          `/v1/integrations/reader/installations/${installation}/spaces/${chosen.id}`,
          as(own),
        )
      ).status,
    ).toBe(200);
    expect((await server.request('GET', `/v1/spaces/${chosen.id}/content`, as(own))).status).toBe(403);
    // Where a webhook belongs: its spaces across installations, by the external id it gave one.
    const tagged = await server.request(
      'PATCH',
      `/v1/integrations/reader/installations/${installation}/spaces/${chosen.id}`,
      {
        ...as(own),
        body: { externalIds: ['repo-42'] },
      },
    );
    expect(tagged.status).toBe(200);
    const spaces = await server.request('GET', '/v1/integrations/reader/spaces?externalId=repo-42', as(own));
    expect(spaces.status).toBe(200);
    expect(spaces.body).toMatchObject({ count: 1, items: [{ space: chosen.id }] });
    expect((await server.request('GET', '/v1/integrations/reader/spaces?externalId=repo-4', as(own))).body.count).toBe(
      0,
    );
    expect((await server.request('GET', '/v1/integrations/reader/spaces', as(scoped))).body.count).toBe(1);
    expect((await server.request('GET', '/v1/integrations/reader/spaces')).status).toBe(403);
    expect((await server.request('GET', `/v1/spaces/${chosen.id}/revisions`, as(scoped))).status).toBe(200);
    // It makes a token of its installation itself (createIntegrationInstallationToken), for work outside an event.
    const made = await server.request('POST', `/v1/integrations/reader/installations/${installation}/tokens`, as(own));
    expect(made.status).toBe(200);
    expect((await server.request('GET', `/v1/spaces/${chosen.id}/content`, as(made.body.token))).status).toBe(200);
    for (const token of [scoped, server.owner.token]) {
      const refused = await server.request('POST', `/v1/integrations/reader/installations/${installation}/tokens`, {
        token,
      });
      expect(refused.status).toBe(403);
    }
    // Another integration's installations are not its own.
    await server.request('POST', '/v1/integrations/neighbour', { body: manifest({ title: 'Neighbour' }) });
    const neighbour = (
      await server.request('POST', '/v1/integrations/neighbour/installations', { body: { organization: server.orgId } })
    ).body.id as string;
    expect((await server.request('GET', `/v1/integrations/neighbour/installations/${neighbour}`, as(own))).status).toBe(
      404,
    );
    expect((await server.request('GET', '/v1/integrations/neighbour/installations', as(own))).status).toBe(404);
    expect(
      (await server.request('POST', `/v1/integrations/neighbour/installations/${neighbour}/tokens`, as(own))).status,
    ).toBe(404);
    expect((await server.request('GET', '/v1/integrations/neighbour/spaces', as(own))).status).toBe(404);

    // A new version declaring more scopes gets no more through this installation: the organization granted
    // what it declared when installed.
    const republished = await server.request('POST', '/v1/integrations/reader', {
      body: manifest({
        title: 'reader',
        script,
        scopes: ['space:content:read', 'space:metadata:read'],
        configurations: undefined,
      }),
    });
    expect(republished.body.version).toBe(2);
    await server.request('POST', `/v1/integrations/reader/installations/${installation}/spaces`, {
      body: { space: other.id },
    });
    await server.drainJobs();
    const latest = (await server.request('GET', '/v1/integrations/reader/events?limit=10')).body.items.find(
      (e: { payload: { type: string; spaceId?: string } }) =>
        e.payload.type === 'space_installation_setup' && e.payload.spaceId === other.id,
    );
    const logged = (await server.request('GET', `/v1/integrations/reader/events/${latest.id}`)).body.trace.logs[0]
      .message;
    const later = JSON.parse(logged).tokens.installation as string;
    expect((await server.request('GET', `/v1/spaces/${other.id}/content`, as(later))).status).toBe(200);
    expect((await server.request('GET', `/v1/spaces/${other.id}`, as(later))).status).toBe(403);

    // Removing the space from the installation counts from the next request; uninstalling ends both tokens.
    await server.request('DELETE', `/v1/integrations/reader/installations/${installation}/spaces/${chosen.id}`);
    expect((await server.request('GET', `/v1/spaces/${chosen.id}/content`, as(scoped))).status).toBe(404);
    await server.request('DELETE', `/v1/integrations/reader/installations/${installation}`);
    expect((await server.request('GET', `/v1/spaces/${chosen.id}/content`, as(scoped))).status).toBe(401);
    expect((await server.request('GET', '/v1/integrations/reader/installations', as(own))).status).toBe(200);
    // A token past its hour is refused.
    await server.storage.db.updateTable('integration_tokens').set({ expires_at: '2020-01-01T00:00:00.000Z' }).execute();
    expect((await server.request('GET', '/v1/integrations/reader/installations', as(own))).status).toBe(401);
    await server.drainJobs();
    expect((await server.request('DELETE', '/v1/integrations/neighbour')).status).toBe(204);
  });

  it('writes with the write scopes it was granted, as its own account, and merges nothing', async () => {
    // From its sandbox, with the installation's token: a change request with a page in it.
    const script = handling(
      'space_installation_setup',
      `        const call = (method, path, body) => fetch(env.apiEndpoint + '/v1' + path, {
          method,
          headers: { authorization: 'Bearer ' + env.apiTokens.installation, 'content-type': 'application/json' },
          body: JSON.stringify(body),
        }).then(async (r) => ({ status: r.status, body: await r.json() }));
        const cr = await call('POST', '/spaces/' + event.spaceId + '/change-requests', { subject: 'Release notes' });
        const edit = await call('POST', '/spaces/' + event.spaceId + '/change-requests/' + cr.body.id + '/content', {
          changes: [{ operation: 'insert_page', title: 'Release 2.0', document: { markdown: 'Shipped **today**.' } }],
        });
        console.log(JSON.stringify({ cr: cr.status, id: cr.body.id, edit: edit.status, token: env.apiTokens.installation }));`,
    );
    const chosen = await newSpace(server, server.orgId, { title: 'Written' });
    const other = await newSpace(server, server.orgId, { title: 'Not chosen either' });
    const installation = (
      await publishAndInstall('writer', script, { scopes: ['space:content:write', 'space:metadata:write'] }, [
        chosen.id,
      ])
    ).id;
    const seen = await firstLog<{ cr: number; id: string; edit: number; token: string }>(
      'writer',
      'space_installation_setup',
    );
    expect(seen).toMatchObject({ cr: 201, edit: 200 });
    const as = { token: seen.token };

    // Its change request names it (its title and icon, no address), and holds its page; people see it as theirs.
    const cr = (await server.request('GET', `/v1/spaces/${chosen.id}/change-requests/${seen.id}`)).body;
    expect(cr.createdBy.displayName).toBe('writer (integration)');
    expect(cr.createdBy.email).toBeUndefined();
    expect(cr.createdBy.photoURL).toMatch(/\/v1\/integrations\/writer\/assets\//);
    const pages = await server.request('GET', `/v1/spaces/${chosen.id}/change-requests/${seen.id}/content/pages`, as);
    expect(pages.status).toBe(200);
    expect(pages.body.pages.map((p: { title: string }) => p.title)).toContain('Release 2.0');
    // It imports into its change request too (not into the space: that merges).
    const imported = await fetch(`${server.url}/v1/spaces/${chosen.id}/change-requests/${seen.id}/content/import`, {
      method: 'POST',
      headers: { authorization: `Bearer ${seen.token}`, 'content-type': 'text/markdown' },
      body: '# Changelog\n\nImported by the integration.',
    });
    expect(imported.status, await imported.clone().text()).toBe(201);
    const after = await server.request('GET', `/v1/spaces/${chosen.id}/change-requests/${seen.id}/content/pages`, as);
    expect(after.body.pages.map((p: { title: string }) => p.title)).toEqual(['Release 2.0', 'Changelog']);
    const direct = await fetch(`${server.url}/v1/spaces/${chosen.id}/content/import`, {
      method: 'POST',
      headers: { authorization: `Bearer ${seen.token}`, 'content-type': 'text/markdown' },
      body: '# Straight in',
    });
    expect(direct.status).toBe(403);
    // A write scope reads what it writes.
    expect((await server.request('GET', `/v1/spaces/${chosen.id}`, as)).status).toBe(200);
    // space:metadata:write: the title, not what takes a space admin.
    const renamed = await server.request('PATCH', `/v1/spaces/${chosen.id}`, { ...as, body: { title: 'Renamed' } });
    expect(renamed.status).toBe(200);
    expect(renamed.body.title).toBe('Renamed');
    expect(
      (await server.request('PATCH', `/v1/spaces/${chosen.id}`, { ...as, body: { visibility: 'public' } })).status,
    ).toBe(403);
    // Merging stays with people; nothing outside the installation's spaces; nothing an organization does.
    const merge = await server.request('POST', `/v1/spaces/${chosen.id}/change-requests/${seen.id}/merge`, as);
    expect(merge.status).toBe(403);
    expect(
      (await server.request('POST', `/v1/spaces/${other.id}/change-requests`, { ...as, body: { subject: 'x' } }))
        .status,
    ).toBe(404);
    for (const [method, path] of [
      ['DELETE', `/v1/spaces/${chosen.id}`],
      ['POST', `/v1/spaces/${chosen.id}/change-requests/${seen.id}/comments`],
      ['POST', `/v1/spaces/${chosen.id}/change-requests/${seen.id}/reviews`],
      ['POST', `/v1/orgs/${server.orgId}/spaces`],
    ] as const) {
      expect((await server.request(method, path, { ...as, body: {} })).status, path).toBe(403);
    }
    // Its account is nobody's to sign in as, and no one signs up with such an address.
    const account = await server.storage.db
      .selectFrom('users')
      .innerJoin('integrations', 'integrations.account_id', 'users.id')
      .select(['users.email'])
      .where('integrations.name', '=', 'writer')
      .executeTakeFirstOrThrow();
    const signin = await server.request('POST', '/v1/auth/login', {
      token: null,
      body: { email: account.email, password: 'anything' },
    });
    expect(signin.status).toBe(401);
    const signup = await server.request('POST', '/v1/auth/signup', {
      token: null,
      body: { email: 'someone@integrations.invalid', password: 'correct horse battery', displayName: 'Someone' },
    });
    expect(signup.status).toBe(400);
    expect(JSON.stringify(signup.body)).toContain('email');
    const invited = await server.request('POST', `/v1/orgs/${server.orgId}/invites`, {
      body: { emails: [account.email], role: 'read' },
    });
    expect(invited.status).toBe(400);

    // A person merges it; its account follows nothing and is told nothing (it has no inbox).
    expect((await server.request('POST', `/v1/spaces/${chosen.id}/change-requests/${seen.id}/merge`)).status).toBe(200);
    await server.request('POST', `/v1/spaces/${chosen.id}/change-requests`, { body: { subject: 'After it' } });
    await server.drainJobs();
    const accountId = cr.createdBy.id as string;
    for (const table of ['notification_watchers', 'notifications'] as const) {
      const rows = await server.storage.db
        .selectFrom(table)
        .select('user_id')
        .where('user_id', '=', accountId)
        .execute();
      expect(rows, table).toEqual([]);
    }

    // Uninstalled: its token writes nothing more; what it wrote stays its.
    await server.request('DELETE', `/v1/integrations/writer/installations/${installation}`);
    expect(
      (await server.request('POST', `/v1/spaces/${chosen.id}/change-requests`, { ...as, body: { subject: 'y' } }))
        .status,
    ).toBe(401);
    await server.drainJobs();
    expect((await server.request('DELETE', '/v1/integrations/writer')).status).toBe(204);
    const kept = (await server.request('GET', `/v1/spaces/${chosen.id}/change-requests/${seen.id}`)).body;
    expect(kept.createdBy).toMatchObject({ displayName: 'writer (integration)' });
    expect(kept.createdBy.photoURL).toBeUndefined();
  });

  it('reads and writes the sites it was installed on, and its organization’s OpenAPI specs, as its scopes say', async () => {
    const script = handling(
      'site_installation_setup',
      `        console.log(JSON.stringify({ site: event.siteId, token: env.apiTokens.installation }));`,
    );
    const chosen = await newSite(server, server.orgId, { title: 'Flagged' });
    const other = await newSite(server, server.orgId, { title: 'Not flagged' });
    const installation = await publishAndInstall('flags', script, {
      scopes: ['site:metadata:read', 'site:adaptive:write', 'openapi:write'],
    });
    const added = await server.request('POST', `/v1/integrations/flags/installations/${installation.id}/sites`, {
      body: { siteId: chosen.id },
    });
    expect(added.status).toBe(201);
    const as = { token: (await firstLog<{ token: string }>('flags', 'site_installation_setup')).token };
    const site = (id: string) => `/v1/orgs/${server.orgId}/sites/${id}`;

    const got = await server.request('GET', site(chosen.id), as);
    expect(got.status).toBe(200);
    expect(got.body).toMatchObject({ id: chosen.id, title: 'Flagged', permissions: { editAdaptiveSchema: true } });
    const schema = {
      type: 'object',
      properties: { beta: { type: 'boolean', description: 'In the beta (a flag of the vendor)' } },
      additionalProperties: false,
    };
    const put = await server.request('PUT', `${site(chosen.id)}/adaptive-schema`, {
      ...as,
      body: { jsonSchema: schema },
    });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    expect((await server.request('GET', `${site(chosen.id)}/adaptive-schema`)).body.jsonSchema).toEqual(schema);
    expect((await server.request('GET', `${site(chosen.id)}/adaptive-schema`, as)).status).toBe(200);
    // Not the site it was not installed on; not what its scopes do not name.
    expect((await server.request('GET', site(other.id), as)).status).toBe(404);
    expect(
      (await server.request('PUT', `${site(other.id)}/adaptive-schema`, { ...as, body: { jsonSchema: schema } }))
        .status,
    ).toBe(404);
    for (const [method, path] of [
      ['PATCH', site(chosen.id)],
      ['POST', `${site(chosen.id)}/publish`],
      ['DELETE', site(chosen.id)],
      ['GET', `/v1/orgs/${server.orgId}/sites`],
    ] as const) {
      const body = method === 'GET' || method === 'DELETE' ? {} : { body: {} };
      expect((await server.request(method, path, { ...as, ...body })).status, path).toBe(403);
    }

    // openapi:write: the installing organization's specifications, and no other's.
    const specs = `/v1/orgs/${server.orgId}/openapi`;
    const spec = 'openapi: 3.0.3\ninfo: {title: Flags, version: "1"}\npaths: {}\n';
    const created = await server.request('POST', specs, { ...as, body: { slug: 'flags', source: { text: spec } } });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body.permissions).toEqual({ view: true, edit: true });
    expect((await server.request('GET', `${specs}/flags`, as)).status).toBe(200);
    expect((await server.request('GET', `${specs}/flags`)).body.slug).toBe('flags');
    const elsewhere = await newOrg(server, 'Not installed there');
    expect((await server.request('GET', `/v1/orgs/${elsewhere.id}/openapi`, as)).status).toBe(404);
    expect((await server.request('DELETE', `${specs}/flags`, as)).status).toBe(205);

    await server.request('DELETE', `/v1/integrations/flags/installations/${installation.id}`);
    expect((await server.request('GET', site(chosen.id), as)).status).toBe(401);
  });

  it('tells the script of merges into its spaces, and runs the tasks it queues, now or later', async () => {
    const script = `export default {
      async fetch(request) {
        const form = await request.formData();
        const event = JSON.parse(form.get('event'));
        const env = JSON.parse(form.get('environment'));
        const api = (path, token, init = {}) => fetch(env.apiEndpoint + path, {
          ...init, headers: { authorization: 'Bearer ' + token, 'content-type': 'application/json' },
        });
        if (event.type === 'space_installation_setup') {
          const queued = await api('/v1/integrations/worker/tasks', env.apiTokens.integration, {
            method: 'POST', body: JSON.stringify({ task: { kind: 'welcome', space: event.spaceId } }),
          });
          console.log('queued ' + queued.status);
        } else if (event.type === 'task') {
          console.log('task ' + JSON.stringify(event.task) + ' for ' + (env.installation?.id ?? 'none'));
        } else if (event.type === 'space_content_updated') {
          const content = await api('/v1/spaces/' + event.spaceId + '/content', env.apiTokens.installation);
          const read = await content.json();
          console.log('updated ' + event.revisionId + ' read ' + read.id);
        } else return new Response('not handled', { status: 406 });
        return new Response('OK');
      },
    };`;
    const watched = await newSpace(server, server.orgId, { title: 'Watched' });
    const unwatched = await newSpace(server, server.orgId, { title: 'Unwatched' });
    const installation = (await publishAndInstall('worker', script, { scopes: ['space:content:read'] }, [watched.id]))
      .id;
    await server.drainJobs();
    const merged = await seedContent(server, watched.id, [{ operation: 'insert_page', title: 'News' }]);
    await seedContent(server, unwatched.id, [{ operation: 'insert_page', title: 'Elsewhere' }]);
    await server.drainJobs();

    type Listed = { id: string; status: string; installationId?: string; payload: Record<string, unknown> };
    const events: Listed[] = (await server.request('GET', '/v1/integrations/worker/events?limit=20')).body.items;
    const logsOf = async (e: Listed) =>
      (await server.request('GET', `/v1/integrations/worker/events/${e.id}`)).body.trace.logs.map(
        (l: { message: string }) => l.message,
      );
    const setup = events.find((e) => e.payload.type === 'space_installation_setup')!;
    expect(await logsOf(setup)).toEqual(['queued 204']);
    const task = events.find((e) => e.payload.type === 'task')!;
    expect(task).toMatchObject({ status: 'success', payload: { task: { kind: 'welcome', space: watched.id } } });
    expect(await logsOf(task)).toEqual([`task {"kind":"welcome","space":"${watched.id}"} for none`]);
    // One merge into the chosen space, none for the other.
    const updates = events.filter((e) => e.payload.type === 'space_content_updated');
    expect(updates).toHaveLength(1);
    expect(updates[0]).toMatchObject({
      status: 'success',
      installationId: installation,
      payload: { spaceId: watched.id, revisionId: merged.revision },
    });
    expect(await logsOf(updates[0]!)).toEqual([`updated ${merged.revision} read ${merged.revision}`]);

    // A task for later waits; bad input is refused, naming the field; a stranger may not queue.
    const later = await server.request('POST', '/v1/integrations/worker/tasks', {
      body: { task: { kind: 'reminder' }, schedule: 3600 },
    });
    expect(later.status).toBe(204);
    await server.drainJobs();
    const waiting = (
      await server.storage.db
        .selectFrom('integration_events')
        .select(['status', 'payload'])
        .where('integration_name', '=', 'worker')
        .where('status', '=', 'pending')
        .execute()
    ).map((e) => JSON.parse(e.payload).task);
    expect(waiting).toEqual([{ kind: 'reminder' }]);
    const tooLate = await server.request('POST', '/v1/integrations/worker/tasks', {
      body: { task: {}, schedule: 90_000 },
    });
    expect(tooLate.status).toBe(400);
    expect(JSON.stringify(tooLate.body)).toContain('schedule');
    const big = await server.request('POST', '/v1/integrations/worker/tasks', {
      body: { task: { text: 'x'.repeat(65_600) } },
    });
    expect(big.status).toBe(400);
    expect(JSON.stringify(big.body)).toContain('task');
    const stranger = await server.signup('task-stranger');
    const strangerOrg = await newOrg(server, 'Stranger org', { token: stranger.token });
    expect(strangerOrg.id).toBeTruthy();
    const refused = await server.request('POST', '/v1/integrations/worker/tasks', {
      token: stranger.token,
      body: { task: {} },
    });
    expect(refused.status).toBe(403);
    expect(
      (await server.request('POST', '/v1/integrations/worker/tasks', { token: null, body: { task: {} } })).status,
    ).toBe(401);
    // Unpublished, it goes with its waiting task.
    expect((await server.request('DELETE', '/v1/integrations/worker')).status).toBe(204);
  });

  /** A request to the server as if to another host (the integrations' own: `integrations.test`). */
  const onHost = (host: string, method: string, path: string, body?: string, headers: Record<string, string> = {}) =>
    new Promise<{ status: number; headers: http.IncomingHttpHeaders; text: string }>((resolve, reject) => {
      const req = http.request(server.url + path, { method, headers: { host, ...headers } }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode!, headers: res.headers, text: Buffer.concat(chunks).toString() }),
        );
      });
      req.on('error', reject);
      req.end(body);
    });

  it('adds the scripts of integrations granted site:script:inject to its sites’ pages, from their own host', async () => {
    const script = `export default {
      async fetch(request) {
        const form = await request.formData();
        const event = JSON.parse(form.get('event'));
        if (event.type !== 'fetch_published_script') return new Response('', { status: 406 });
        return new Response('console.log("counting " + ' + JSON.stringify(event.siteId) + ');', {
          headers: { 'content-type': 'text/html', 'cache-control': 'max-age=600' },
        });
      },
    };`;
    const space = await newSpace(server, server.orgId, { title: 'Counted' });
    await seedPage(server, space.id, 'Home', 'Welcome.');
    const site = await newSite(server, server.orgId, { title: 'Counted', spaces: [space.id] });
    const onSite = async (name: string, scopes: string[]) => {
      const installed = await publishAndInstall(name, script, { scopes });
      const added = await server.request('POST', `/v1/integrations/${name}/installations/${installed.id}/sites`, {
        body: { siteId: site.id },
      });
      expect(added.status).toBe(201);
      return installed.id;
    };
    const counting = await onSite('counting', ['site:script:inject']);
    const quiet = await onSite('quiet', ['site:views:read']);
    const published = (await publishSite(server, server.orgId, site.id)).urls.published;
    const page = await fetch(`${published.replace('http://docs.test', server.url)}/home`);
    const html = await page.text();
    const src = `http://integrations.test/v1/integrations/counting/installations/${counting}/sites/${site.id}/script.js`;
    expect(html).toContain(`<script src="${src}?v=1" async></script>`);
    expect(html).not.toContain('/integrations/quiet/');
    expect(page.headers.get('content-security-policy')).toContain(` ${src};`);
    // Served from the integrations' host as JavaScript, whatever type the script gave.
    const served = await onHost('integrations.test', 'GET', new URL(src).pathname);
    expect(served.status).toBe(200);
    expect(served.headers['content-type']).toBe('application/javascript; charset=utf-8');
    expect(served.headers['cache-control']).toBe('public, max-age=600');
    expect(served.text).toBe(`console.log("counting " + "${site.id}");`);
    // Not granted, not on that site, not on that host: no script.
    const path = (name: string, id: string, siteId = site.id) =>
      `/v1/integrations/${name}/installations/${id}/sites/${siteId}/script.js`;
    expect((await onHost('integrations.test', 'GET', path('quiet', quiet))).status).toBe(404);
    const other = await newSite(server, server.orgId, { title: 'Other' });
    expect((await onHost('integrations.test', 'GET', path('counting', counting, other.id))).status).toBe(404);
    expect((await fetch(`${server.url}${new URL(src).pathname}`)).status).not.toBe(200);
    for (const name of ['counting', 'quiet']) {
      expect((await server.request('DELETE', `/v1/integrations/${name}`)).status).toBe(204);
    }
  });

  it('asks readers of its sites whether a page helped, and sends their answers to it (page_feedback)', async () => {
    const script = `export default {
      async fetch(request) {
        const form = await request.formData();
        const event = JSON.parse(form.get('event'));
        if (event.type !== 'page_feedback') return new Response('', { status: 406 });
        console.log('feedback ' + event.feedback.rating + ' ' + (event.feedback.comment ?? '-') + ' on ' + event.pageId);
        return new Response('OK');
      },
    };`;
    const space = await newSpace(server, server.orgId, { title: 'Rated' });
    const pageId = await seedPage(server, space.id, 'Guide', 'How to.');
    const site = await newSite(server, server.orgId, { title: 'Rated', spaces: [space.id] });
    const published = (await publishSite(server, server.orgId, site.id)).urls.published.replace(
      'http://docs.test',
      server.url,
    );
    const at = `${published}/~feedback/guide`;
    const send = (body: string, type = 'application/json', to = at) =>
      fetch(to, { method: 'POST', headers: { 'content-type': type }, body, redirect: 'manual' });
    // A site no integration reads feedback of: no form, and nowhere to send it.
    const other = await newSite(server, server.orgId, { title: 'Unrated', spaces: [space.id] });
    const unrated = (await publishSite(server, server.orgId, other.id)).urls.published.replace(
      'http://docs.test',
      server.url,
    );
    expect(await (await fetch(`${unrated}/guide`)).text()).not.toContain('page-feedback');
    expect((await send('{"rating":"good"}', 'application/json', `${unrated}/~feedback/guide`)).status).toBe(404);

    const installed = await publishAndInstall('feedback-reader', script, { scopes: ['page:feedback:read'] });
    const added = await server.request('POST', `/v1/integrations/feedback-reader/installations/${installed.id}/sites`, {
      body: { siteId: site.id },
    });
    expect(added.status).toBe(201);
    const page = await (await fetch(`${published}/guide`)).text();
    expect(page).toMatch(/<form class="page-feedback" method="post" action="[^"]*\/~feedback\/[^"]*guide"/);
    // A form sent without the site's script goes back to the page; the script's JSON is answered 204.
    const form = await send('rating=bad&comment=Too+short', 'application/x-www-form-urlencoded');
    expect(form.status).toBe(303);
    expect(form.headers.get('location')).toMatch(/\/guide#page-feedback-sent$/);
    expect((await send('{"rating":"good"}')).status).toBe(204);
    const bad = await send('{"rating":"great"}');
    expect(bad.status).toBe(400);
    expect(await bad.text()).toContain('rating');
    expect((await send('{"rating":"ok","comment":"' + 'x'.repeat(513) + '"}')).status).toBe(400);
    expect(
      (
        await fetch(`${published}/~feedback/no-such-page`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: '{"rating":"ok"}',
        })
      ).status,
    ).toBe(404);
    const feedbackEvents = () =>
      server.storage.db
        .selectFrom('integration_events')
        .select(['payload', 'status'])
        .where('integration_name', '=', 'feedback-reader')
        .where('payload', 'like', '%page_feedback%')
        .execute();
    // Delivered by the queue (the server's own runner may hold them a moment: they are awaited, not assumed).
    await server.drainJobs();
    await expect
      .poll(async () => (await feedbackEvents()).map((e) => e.status), { timeout: 20_000 })
      .toEqual(['success', 'success']);
    const logged = await feedbackEvents();
    const payloads = logged.map((e) => JSON.parse(e.payload) as Record<string, unknown>);
    expect(payloads).toContainEqual(
      expect.objectContaining({
        type: 'page_feedback',
        siteId: site.id,
        spaceId: space.id,
        pageId,
        feedback: { rating: 'bad', comment: 'Too short' },
        url: expect.stringMatching(/\/guide$/),
      }),
    );
    expect((await server.request('DELETE', '/v1/integrations/feedback-reader')).status).toBe(204);
  });

  it('renders a block through the script (ui_render) for those who see the space, cached as it says, 502 on failure', async () => {
    const script = `export default {
      async fetch(request) {
        const form = await request.formData();
        const event = JSON.parse(form.get('event'));
        if (event.type !== 'ui_render') return new Response('not handled', { status: 406 });
        if (event.componentId === 'broken') throw new Error('boom');
        if (event.componentId === 'garbled') return new Response('<html>');
        // Each render its own mark: an answer from the cache repeats it (a count would restart with its process).
        const mark = crypto.randomUUID().slice(0, 8);
        const clicks = (event.state?.clicks ?? 0) + (event.action?.action === 'click' ? 1 : 0);
        const text = 'render ' + mark + ', ' + clicks + ' clicks, ' + event.props.name + ', ' + event.context.type;
        return Response.json(
          { element: { type: 'block', children: [{ type: 'text', children: [text] }] }, state: { clicks }, props: event.props },
          { headers: event.componentId === 'cached' ? { 'cache-control': 'max-age=60' } : {} },
        );
      },
    };`;
    const space = await newSpace(server, server.orgId, { title: 'With blocks' });
    const bare = await newSpace(server, server.orgId, { title: 'Without' });
    await publishAndInstall('blocks', script, {}, [space.id]);
    const render = (body: Record<string, unknown>, token?: string | null) =>
      server.request('POST', '/v1/integrations/blocks/render', {
        ...(token !== undefined ? { token } : {}),
        body: {
          componentId: 'chart',
          props: { name: 'sales' },
          context: { type: 'document', spaceId: space.id, editable: true },
          ...body,
        },
      });
    const textOf = (res: { body: { element: { children: Array<{ children: string[] }> } } }) =>
      res.body.element.children[0]!.children[0];

    const first = await render({});
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body).toMatchObject({ state: { clicks: 0 }, props: { name: 'sales' } });
    expect(textOf(first)).toMatch(/^render \w{8}, 0 clicks, sales, document$/);
    // An action round-trips with the state the script gave.
    const clicked = await render({ state: { clicks: 0 }, action: { action: 'click' } });
    expect(textOf(clicked)).toMatch(/^render \w{8}, 1 clicks, sales, document$/);
    // Uncached unless the script says so; with max-age, the same render is answered from the cache.
    const again = textOf(await render({}));
    expect(again).toMatch(/, 0 clicks, sales, document$/);
    expect(again).not.toBe(textOf(first));
    const cached = textOf(await render({ componentId: 'cached' }));
    expect(textOf(await render({ componentId: 'cached' }))).toBe(cached);
    expect(textOf(await render({ componentId: 'cached', props: { name: 'costs' } }))).not.toBe(cached);

    // A script that throws or answers no ContentKit: 502, said plainly.
    const broken = await render({ componentId: 'broken' });
    expect(broken.status).toBe(502);
    expect(broken.body.error.message).toContain('could not render');
    expect((await render({ componentId: 'garbled' })).status).toBe(502);
    // Not installed on that space, bad input, strangers, a reader configuring, anonymous.
    expect((await render({ context: { type: 'document', spaceId: bare.id, editable: false } })).status).toBe(404);
    const bad = await render({ context: { type: 'document' } });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toContain('context');
    const stranger = await server.signup('render-stranger');
    expect((await render({}, stranger.token)).status).toBe(404);
    const reader = await server.member('read');
    expect((await render({}, reader.token)).status).toBe(200);
    const configuring = await render(
      { context: { type: 'configuration_account', organizationId: server.orgId } },
      reader.token,
    );
    expect(configuring.status).toBe(403);
    expect(
      textOf(await render({ context: { type: 'configuration_account', organizationId: server.orgId } })),
    ).toContain('configuration_account');
    expect((await render({}, null)).status).toBe(401);
    expect((await server.request('DELETE', '/v1/integrations/blocks')).status).toBe(204);
  });

  it('fills in selects whose options are at one of its own endpoints, with the state the render gave', async () => {
    const script = `export default {
      async fetch(request) {
        const form = await request.formData();
        const event = JSON.parse(form.get('event'));
        if (event.type === 'fetch') {
          const url = new URL(event.request.url);
          if (url.pathname.endsWith('/broken')) return new Response('nope', { status: 500 });
          const kind = url.searchParams.get('kind');
          return Response.json([{ id: kind + '-1', label: 'First ' + kind }, { id: 2 }, { label: 'no id' }, 'junk']);
        }
        if (event.type !== 'ui_render') return new Response('not handled', { status: 406 });
        const kind = event.state?.kind ?? 'fruit';
        const at = (pathname, query) => ({ url: { host: 'ignored.example', pathname, query } });
        return Response.json({
          state: { kind },
          props: {},
          element: { type: 'block', children: [
            { type: 'select', state: 'choice', options: at('/v1/integrations/picker/installations/' + event.installationId + '/choices', { kind: { $state: 'kind' }, v: 3 }) },
            { type: 'input', label: 'Nested', element: { type: 'select', state: 'nested', options: at('/v1/integrations/picker/broken', {}) } },
            { type: 'select', state: 'foreign', options: { url: 'https://evil.example/v1/integrations/other/list' } },
            { type: 'select', state: 'fixed', options: [{ id: 'a', label: 'A' }] },
            { type: 'select', state: 'climbing', options: at('/v1/integrations/picker/%2e%2e/blocks/x', {}) },
            { type: 'select', state: 'nul', options: at('/v1/integrations/picker/installations/%00/x', {}) },
          ] },
        });
      },
    };`;
    const space = await newSpace(server, server.orgId, { title: 'With a picker' });
    await publishAndInstall('picker', script, {}, [space.id]);
    const render = (state?: Record<string, unknown>) =>
      server.request('POST', '/v1/integrations/picker/render', {
        body: {
          componentId: 'chart',
          props: {},
          ...(state ? { state } : {}),
          context: { type: 'document', spaceId: space.id, editable: true },
        },
      });
    const first = await render();
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    const [choice, nested, foreign, fixed, climbing, nul] = first.body.element.children;
    for (const refused of [climbing, nul]) {
      expect(refused).toMatchObject({ options: [], placeholder: 'The choices could not be loaded' });
    }
    expect(choice.options).toEqual([
      { id: 'fruit-1', label: 'First fruit' },
      { id: '2', label: '2' },
    ]);
    expect(nested.element).toMatchObject({ options: [], placeholder: 'The choices could not be loaded' });
    expect(foreign).toMatchObject({ options: [], placeholder: 'The choices could not be loaded' });
    expect(fixed.options).toEqual([{ id: 'a', label: 'A' }]);
    // Another state, other options.
    const other = await render({ kind: 'tree' });
    expect(other.body.element.children[0].options[0]).toEqual({ id: 'tree-1', label: 'First tree' });
    expect((await server.request('DELETE', '/v1/integrations/picker')).status).toBe(204);
  });

  it('shows its blocks on the published site as the script renders them for readers, escaped; its label when it cannot', async () => {
    const script = `export default {
      async fetch(request) {
        const form = await request.formData();
        const event = JSON.parse(form.get('event'));
        if (event.type !== 'ui_render') return new Response('', { status: 406 });
        if (event.componentId === 'broken') throw new Error('boom');
        if (event.componentId === 'file') {
          // As GitHub files: an embed of a link it unfurls is its block, made from the link.
          if (event.action?.action !== '@link.unfurl' || event.action.url.includes('broken')) throw new Error('no file');
          return Response.json({ element: { type: 'block', children: ['File ' + event.action.url] }, state: {}, props: { url: event.action.url } });
        }
        // Each render its own mark: a page served again from what was rendered repeats it.
        const mark = crypto.randomUUID().slice(0, 8);
        const who = event.auth ? 'user' : 'reader';
        return Response.json({
          element: { type: 'block', children: [
            { type: 'card', title: 'Chart of ' + event.props.name + (event.action ? ' (' + event.action.action + ' by ' + event.state.who + ')' : ''), hint: '<script>alert(1)</script>', children: [
              { type: 'markdown', content: '**bold** <img src=x onerror=alert(1)> [x](javascript:alert(1))' },
              { type: 'button', label: 'Refresh', onPress: { action: 'refresh' } },
              { type: 'webframe', source: { url: 'https://frames.example.com/f' }, data: { content: { $state: 'content' } } },
              { type: 'image', source: { url: 'javascript:alert(1)' }, aspectRatio: 1 },
            ] },
          ] },
          state: { content: ['graph', event.props.name, event.context.type, event.context.editable, who, mark].join(' ') },
          props: event.props,
        }, { headers: { 'cache-control': 'max-age=60' } });
      },
    };`;
    const space = await newSpace(server, server.orgId, { title: 'Published blocks' });
    const blocks = [
      // As Mermaid's: a fence of its language is the block, its code the `name` prop.
      { id: 'chart', title: 'Chart', markdown: { codeblock: 'chart', body: 'name' } },
      { id: 'broken', title: 'Broken' },
      { id: 'file', title: 'File', urlUnfurl: ['https://files.example.com/**'] },
    ];
    await publishAndInstall('site-blocks', script, { blocks }, [space.id]);
    const markdown = [
      'Intro.',
      '',
      '{% @site-blocks/chart name="sales" %}',
      '',
      '{% @site-blocks/broken %}',
      '',
      '{% @not-installed/x a="1" %}',
      '',
      '```chart',
      'costs',
      '```',
      '',
      '{% embed url="https://files.example.com/src/a.ts" %}',
      '',
      '{% embed url="https://files.example.com/broken.ts" %}',
      '',
      '{% embed url="https://other.example.com/x" %}',
      '',
    ].join('\n');
    await seedPage(server, space.id, 'Charts', markdown);
    const site = await newSite(server, server.orgId, { title: 'Blocks', spaces: [space.id] });
    const published = (await publishSite(server, server.orgId, site.id)).urls.published;
    const read = async () => {
      const res = await fetch(`${published.replace('http://docs.test', server.url)}/charts`);
      expect(res.status).toBe(200);
      return res.text();
    };
    const page = await read();
    expect(page).toContain('Chart of sales');
    expect(page).toContain('Chart of costs');
    expect(page).not.toContain('<code class="language-chart">');
    // An embed of a link the block unfurls is the block; one it cannot render stays the embed it was; others too.
    expect(page).toContain('File https://files.example.com/src/a.ts');
    expect(page).toMatch(
      /class="gb-embed"><p class="gb-embed-link"><a href="https:\/\/files\.example\.com\/broken\.ts"/,
    );
    expect(page).toContain('https://other.example.com/x');
    expect(page).not.toContain('$unfurl');
    expect(page).toContain('<strong>bold</strong>');
    expect(page).toContain('&#x3C;script>alert(1)&#x3C;/script>');
    expect(page).not.toMatch(/<script>alert|onerror=|javascript:alert|<img src="x"/);
    expect(page).toMatch(
      /<button type="button" class="ck-button ck-button-secondary" data-ck-action="[^"]*refresh[^"]*">Refresh<\/button>/,
    );
    // Its webframe is sandboxed, and carries the data it is sent, rendered for the space's readers (no one signed in).
    const frame = /<iframe[^>]*>/.exec(page)?.[0] ?? '';
    expect(frame).toContain('src="https://frames.example.com/f"');
    expect(frame).toContain('sandbox="allow-scripts allow-popups allow-forms"');
    const mark = /data-ck-webframe="[^"]*graph sales document false reader (\w{8})/.exec(frame)?.[1];
    expect(mark).toBeDefined();
    // A block that failed, and one of an integration not installed here: their label, and why.
    expect(page.match(/This block could not be shown/g)).toHaveLength(2);
    expect(page).toContain('not-installed · x');
    // Pages may frame (sandboxed) webframes, nothing else changed in their policy.
    const res = await fetch(`${published.replace('http://docs.test', server.url)}/charts`);
    expect(res.headers.get('content-security-policy')).toContain('frame-src http: https:');
    // The script said 60 seconds: the page is not rendered by it again meanwhile.
    expect(await read()).toContain(`graph sales document false reader ${mark}`);

    // A reader's action, posted to the page's address by the site's script: the block rendered again, for readers.
    const act = (body: unknown, at = `${published.replace('http://docs.test', server.url)}/charts`) =>
      fetch(at, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const action = {
      integration: 'site-blocks',
      block: 'chart',
      props: { name: 'sales' },
      state: { who: 'ann' },
      action: { action: 'refresh' },
    };
    const acted = await act(action);
    expect(acted.status).toBe(200);
    const again = (await acted.json()) as { html: string; state: { content: string }; props: unknown };
    expect(again.html).toContain('Chart of sales (refresh by ann)');
    expect(again.html).not.toMatch(/<script>alert|onerror=/);
    expect(again.props).toEqual({ name: 'sales' });
    // Bad input names its field; an integration not installed, a site that does not exist: 404.
    const bad = await act({ ...action, action: {} });
    expect(bad.status).toBe(400);
    expect(await bad.text()).toContain('action');
    expect((await act({ ...action, integration: 'not-installed' })).status).toBe(404);
    expect((await act(action, `${server.url}/sites/${site.id}x/charts`)).status).toBe(404);
    // Once the site is unpublished, its readers' actions go nowhere either.
    const unpublished = await server.request('POST', `/v1/orgs/${server.orgId}/sites/${site.id}/unpublish`);
    expect(unpublished.status).toBe(200);
    expect((await act(action)).status).toBe(404);
    expect((await server.request('DELETE', '/v1/integrations/site-blocks')).status).toBe(204);
  });

  it('retries an event once its runtime process was killed in the middle of it, and it goes through', async () => {
    // The script remembers its first attempt through our API (the installation's externalIds, with its own token),
    // then spins until its process is killed; the second attempt, in a new process, answers.
    const script = `export default {
      async fetch(request) {
        const form = await request.formData();
        const event = JSON.parse(form.get('event'));
        const env = JSON.parse(form.get('environment'));
        if (event.type !== 'installation_setup') return new Response('not handled', { status: 406 });
        const at = env.apiEndpoint + '/v1/integrations/crashy/installations/' + env.installation.id;
        const headers = { authorization: 'Bearer ' + env.apiTokens.integration, 'content-type': 'application/json' };
        const installation = await (await fetch(at, { headers })).json();
        if (installation.externalIds.includes('tried')) {
          console.log('second attempt');
          return new Response('OK');
        }
        await fetch(at, { method: 'PATCH', headers, body: JSON.stringify({ externalIds: ['tried'] }) });
        console.log('first attempt, spinning: crashy-marker-${server.orgId}');
        // Busy, not waiting: workerd answers 500 at once to a promise that can never settle.
        for (;;) {}
      },
    };`;
    const installation = (await publishAndInstall('crashy', script)).id;
    const draining = server.drainJobs();
    const tried = async () =>
      (await server.request('GET', `/v1/integrations/crashy/installations/${installation}`)).body.externalIds;
    while (!(await tried()).includes('tried')) await new Promise((r) => setTimeout(r, 50));
    // The workerd process running this script (its directory holds the script, marked with this server's
    // organization: the other database's run of this file has its own), killed as the OOM killer would.
    const pids = fs.readdirSync('/proc').filter((entry) => /^\d+$/.test(entry));
    const running = pids.filter((pid) => {
      try {
        return fs
          .readFileSync(path.join(fs.readlinkSync(`/proc/${pid}/cwd`), 'script.js'), 'utf8')
          .includes(`crashy-marker-${server.orgId}`);
      } catch {
        return false;
      }
    });
    expect(running).toHaveLength(1);
    process.kill(Number(running[0]), 'SIGKILL');
    await draining;
    const event = async () =>
      server.storage.db
        .selectFrom('integration_events')
        .select(['status', 'attempts', 'error', 'id'])
        .where('integration_name', '=', 'crashy')
        .where('payload', 'like', '%"installation_setup"%')
        .executeTakeFirstOrThrow();
    const first = await event();
    expect(first).toMatchObject({ status: 'pending', attempts: 1 });
    expect(first.error).toBeTruthy();
    // Its retry is due (the queue waits 15 s first); it runs once, in a new process, and goes through.
    await server.storage.db
      .updateTable('jobs')
      .set({ run_after: new Date(0).toISOString() })
      .where('key', '=', first.id)
      .execute();
    await server.drainJobs();
    const second = await event();
    expect(second, JSON.stringify(second)).toMatchObject({ status: 'success', attempts: 2 });
    const { trace } = (await server.request('GET', `/v1/integrations/crashy/events/${first.id}`)).body;
    expect(trace.logs.map((l: { message: string }) => l.message)).toEqual(['second attempt']);
    expect((await server.request('DELETE', '/v1/integrations/crashy')).status).toBe(204);
  });

  it('serves its HTTP endpoints on the integrations’ own host, without cookies, and nothing else there', async () => {
    const script = `export default {
      async fetch(request) {
        const form = await request.formData();
        const event = JSON.parse(form.get('event'));
        if (event.type !== 'fetch') return new Response('not handled', { status: 406 });
        const body = form.get('fetch-body');
        return Response.json(
          {
            method: event.request.method,
            url: event.request.url,
            cookie: event.request.headers.cookie ?? null,
            signature: event.request.headers['x-signature'] ?? null,
            authorization: event.request.headers.authorization ?? null,
            body: body ? await body.text() : null,
            installationId: event.installationId ?? null,
            spaceId: event.spaceId ?? null,
          },
          { status: 201, headers: { 'set-cookie': 'tracker=1', 'x-handled-by': 'hooks' } },
        );
      },
    };`;
    const space = await newSpace(server, server.orgId, { title: 'Hooked' });
    const installed = await publishAndInstall('hooks', script, {}, [space.id]);
    const installation = installed.id;
    expect(installed.urls.publicEndpoint).toBe(
      `http://integrations.test/v1/integrations/hooks/installations/${installation}`,
    );
    const endpoint = `/v1/integrations/hooks/installations/${installation}/spaces/${space.id}/incoming?x=1`;
    const posted = await onHost('integrations.test', 'POST', endpoint, '{"ping":true}', {
      'content-type': 'application/json',
      cookie: `ds_session=stolen`,
      'x-signature': 'sha256=abc',
      authorization: `Bearer ${server.owner.token.replace(/^/, 'ds_')}`,
    });
    expect(posted.status, posted.text).toBe(201);
    expect(JSON.parse(posted.text)).toEqual({
      method: 'post',
      url: `http://integrations.test${endpoint}`,
      cookie: null,
      signature: 'sha256=abc',
      // This server's credentials never reach a script; a webhook's own scheme does.
      authorization: null,
      body: '{"ping":true}',
      installationId: installation,
      spaceId: space.id,
    });
    expect(posted.headers['set-cookie']).toBeUndefined();
    expect(posted.headers['x-handled-by']).toBe('hooks');
    expect(posted.headers['x-content-type-options']).toBe('nosniff');
    const plain = await onHost('integrations.test', 'GET', '/v1/integrations/hooks/status');
    expect(JSON.parse(plain.text)).toMatchObject({ method: 'get', body: null, installationId: null, spaceId: null });

    // Nothing else of the server on that host (a browser is sent to PUBLIC_URL), and the endpoints nowhere else.
    const user = await onHost('integrations.test', 'GET', '/v1/user', undefined, {
      authorization: `Bearer ${server.owner.token}`,
    });
    expect(user.status).toBe(307);
    expect(user.headers.location).toBe('http://docs.test/v1/user');
    expect((await onHost('integrations.test', 'GET', '/')).headers.location).toBe('http://docs.test/');
    expect((await onHost('integrations.test', 'POST', '/v1/orgs', '{}')).status).toBe(404);
    // The host as browsers and proxies may spell it; a path that names another host.
    for (const host of ['Integrations.Test.', 'integrations.test:80']) {
      const status = await onHost(host, 'GET', '/v1/integrations/hooks/status', undefined, {
        authorization: 'Basic eDp5',
      });
      expect(JSON.parse(status.text)).toMatchObject({ method: 'get', authorization: 'Basic eDp5' });
    }
    expect((await onHost('integrations.test', 'POST', '//evil.test/v1/integrations/hooks/x', '{}')).status).toBe(404);
    expect((await onHost('integrations.test', 'POST', '//[', '{}')).status).toBe(404);
    expect((await onHost('integrations.test', 'GET', '/v1/integrations/nobody/x')).status).toBe(404);
    expect((await onHost('integrations.test', 'GET', '/v1/integrations/hooks/installations/nothing/x')).status).toBe(
      404,
    );
    for (const path of [
      '/~integration-endpoints/v1/integrations/hooks/status',
      '/%7Eintegration-endpoints/v1/integrations/hooks/status',
    ]) {
      expect((await onHost('docs.test', 'GET', path)).status).toBe(404);
      expect((await onHost('docs.test', 'POST', path, '{}')).status).toBe(404);
    }
    expect((await server.request('DELETE', '/v1/integrations/hooks')).status).toBe(204);
  });

  it('installs on an organization, configures with the schema, picks spaces and sites, records events, uninstalls', async () => {
    const installed = await server.request('POST', '/v1/integrations/analytics/installations', {
      body: { organization: server.orgId },
    });
    expect(installed.status).toBe(201);
    const id = installed.body.id as string;
    expect(installed.body).toMatchObject({ status: 'active', spaces: 0, target: { organization: server.orgId } });
    expect(
      (
        await server.request('POST', '/v1/integrations/analytics/installations', {
          body: { organization: server.orgId },
        })
      ).status,
    ).toBe(409);
    const base = `/v1/integrations/analytics/installations/${id}`;
    for (const [configuration, field] of [
      [{}, 'configuration.siteId'],
      [{ siteId: 3 }, 'configuration.siteId'],
      [{ siteId: 'x', mode: 'slow' }, 'configuration.mode'],
      [{ siteId: 'x', other: 1 }, 'configuration.other'],
    ] as const) {
      const res = await server.request('PATCH', base, { body: { configuration } });
      expect(res.status, field).toBe(400);
      expect(res.body.error.message).toContain(field);
    }
    const configured = await server.request('PATCH', base, {
      body: { configuration: { siteId: 'abc', mode: 'fast' }, externalIds: ['ext-1'], site_selection: 'selected' },
    });
    expect(configured.body).toMatchObject({ configuration: { siteId: 'abc', mode: 'fast' }, externalIds: ['ext-1'] });
    const byExternal = await server.request('GET', `/v1/integrations/analytics/installations?externalId=ext-1`);
    expect(byExternal.body.items.map((i: { id: string }) => i.id)).toEqual([id]);
    expect(byExternal.body.count).toBe(1);
    // LIKE's wildcards in an id match themselves only.
    expect(
      (await server.request('GET', `/v1/integrations/analytics/installations?externalId=ext_1`)).body.items,
    ).toEqual([]);
    expect((await server.request('GET', `/v1/integrations/analytics/installations?externalId=%25`)).body.items).toEqual(
      [],
    );
    expect((await server.request('GET', `/v1/integrations/analytics/installations?externalId=ext`)).body.items).toEqual(
      [],
    );

    const space = await newSpace(server, server.orgId, { title: 'Docs' });
    const site = await newSite(server, server.orgId, { title: 'Site' });
    expect((await server.request('POST', `${base}/spaces`, { body: { space: space.id } })).status).toBe(201);
    expect((await server.request('POST', `${base}/sites`, { body: { siteId: site.id } })).status).toBe(201);
    expect((await server.request('GET', base)).body.spaces).toBe(1);
    const spaceConfig = await server.request('PATCH', `${base}/spaces/${space.id}`, {
      body: { configuration: { enabled: 'yes' } },
    });
    expect(spaceConfig.status).toBe(400);
    expect((await server.request('GET', `${base}/sites`)).body.items).toMatchObject([
      { site: site.id, installation: id },
    ]);
    const onSpace = await server.request('GET', `/v1/spaces/${space.id}/integrations`);
    expect(onSpace.body, JSON.stringify(onSpace.body)).toMatchObject({
      items: [{ name: 'analytics', installation: id }],
    });
    const onSite = await server.request('GET', `/v1/orgs/${server.orgId}/sites/${site.id}/integrations`);
    expect(onSite.body.items).toMatchObject([{ name: 'analytics', installation: id }]);
    const org = (await server.request('GET', `/v1/orgs/${server.orgId}/integrations`)).body.items;
    expect(org.map((i: { name: string }) => i.name)).toEqual(['analytics']);

    // A space of another organization cannot be chosen; another organization's admin cannot touch the installation.
    const outsider = await server.signup('other');
    const theirs = await newOrg(server, 'Other', { token: outsider.token });
    const theirSpace = await newSpace(server, theirs.id, { title: 'X', token: outsider.token });
    expect((await server.request('POST', `${base}/spaces`, { body: { space: theirSpace.id } })).status).toBe(400);
    expect((await server.request('GET', base, { token: outsider.token })).status).toBe(404);
    expect((await server.request('GET', `/v1/spaces/${space.id}/integrations`, { token: outsider.token })).status).toBe(
      404,
    );
    expect((await server.request('DELETE', base, { token: outsider.token })).status).toBe(404);
    const member = await server.member('edit');
    expect((await server.request('PATCH', base, { token: member.token, body: { externalIds: [] } })).status).toBe(403);
    // The private integration of this organization cannot be installed elsewhere.
    expect(
      (
        await server.request('POST', '/v1/integrations/internal-tool/installations', {
          token: outsider.token,
          body: { organization: theirs.id },
        })
      ).status,
    ).toBe(404);

    expect((await server.request('DELETE', `${base}/spaces/${space.id}`)).status).toBe(205);
    expect((await server.request('DELETE', `${base}/spaces/${space.id}`)).status).toBe(204);
    expect((await server.request('DELETE', base)).status).toBe(205);
    expect((await server.request('GET', base)).status).toBe(404);

    // Each event was delivered to the integration's script (workers/sandbox), which answered 200. A delivery that
    // failed is tried again 15 s later (as GitBook retries), and is listed once it has an outcome: on a loaded
    // machine, a script's first answer can miss its deadline.
    const listed = async () => {
      await server.drainJobs();
      return server.request('GET', '/v1/integrations/analytics/events?limit=20');
    };
    await expect.poll(async () => (await listed()).body.items.length, { timeout: 45_000, interval: 1_000 }).toBe(6);
    const events = await listed();
    expect(events.status).toBe(200);
    expect(new Set(events.body.items.map((e: { status: string }) => e.status))).toEqual(new Set(['success']));
    expect(events.body.items.map((e: { payload: { type: string } }) => e.payload.type)).toEqual([
      'installation_deleted',
      'space_installation_deleted',
      'site_installation_setup',
      'space_installation_setup',
      'installation_setup',
      'installation_setup',
    ]);
    const one = await server.request('GET', `/v1/integrations/analytics/events/${events.body.items[0].id}`);
    expect(one.body).toMatchObject({
      event: { integrationId: 'analytics', installationId: id, status: 'success' },
      trace: { logs: [] },
    });
    expect((await server.request('GET', '/v1/integrations/analytics/events', { token: outsider.token })).status).toBe(
      403,
    );
  });

  it('records development mode, and unpublishes (204) with everything of the integration', async () => {
    expect(
      (await server.request('PUT', '/v1/integrations/analytics/dev', { body: { tunnelUrl: 'https://t.example.com' } }))
        .status,
    ).toBe(204);
    expect((await server.request('DELETE', '/v1/integrations/analytics/dev')).status).toBe(205);
    expect((await server.request('DELETE', '/v1/integrations/git-sync')).status).toBe(204);
    expect((await server.request('GET', '/v1/integrations/git-sync')).status).toBe(404);
    expect((await server.request('DELETE', '/v1/integrations/git-sync')).status).toBe(404);
  });
  it('refuses a configuration schema Ajv cannot compile when published (400 naming it), and keeps no memory per save', async () => {
    for (const [configurations, field] of [
      [{ account: { properties: { mode: { type: 'string', enum: ['a', 'a'] } } } }, 'configurations.account'],
      [{ space: { properties: { on: { type: 'boolean' } }, required: ['on', 'on'] } }, 'configurations.space'],
    ] as const) {
      const res = await server.request('POST', '/v1/integrations/duplicates', { body: manifest({ configurations }) });
      expect(res.status, field).toBe(400);
      expect(res.body.error.message).toContain(field);
    }
    expect((await server.request('GET', '/v1/integrations/duplicates')).status).toBe(404);

    // Saving a configuration compiles its schema once: when every save compiled it again, Ajv kept each compilation.
    // A configuration of 200 settings, as a large integration has: its compiled validator is ~100 kB.
    const properties = Object.fromEntries(
      Array.from({ length: 200 }, (_, i) => [`setting${i}`, { type: 'string', enum: ['a', 'b', 'c', `d${i}`] }]),
    );
    const saved = await server.request('POST', '/v1/integrations/saved', {
      body: manifest({ visibility: 'private', configurations: { account: { properties } } }),
    });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    const installed = await server.request('POST', '/v1/integrations/saved/installations', {
      body: { organization: server.orgId },
    });
    const installation = `/v1/integrations/saved/installations/${installed.body.id}`;
    v8.setFlagsFromString('--expose-gc');
    const gc = vm.runInNewContext('gc') as () => void;
    const save = async (i: number) => {
      const res = await server.request('PATCH', installation, {
        body: { configuration: { setting0: 'a', [`setting${i % 200}`]: 'b' } },
      });
      expect(res.status).toBe(200);
    };
    for (let i = 0; i < 20; i++) await save(i);
    gc();
    const before = process.memoryUsage().heapUsed;
    for (let i = 0; i < 200; i++) await save(i);
    gc();
    expect(process.memoryUsage().heapUsed - before).toBeLessThan(10 * 1024 * 1024);
  });
});

describeEachDialect('integrations in development (gitbook dev)', (dialect) => {
  let server: TestServer;
  let tunnel: http.Server;
  let tunnelUrl: string;
  const delivered: Array<{ path: string; type: string; environment: { integration: { name: string } } }> = [];
  beforeAll(async () => {
    // The developer's machine behind the tunnel is on loopback here: the server may fetch it.
    server = await startTestServer(dialect, { allowPrivateFetch: ['127.0.0.0/8'] });
    tunnel = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        void new Request('http://tunnel', {
          method: 'POST',
          headers: { 'content-type': req.headers['content-type'] ?? '' },
          body: Buffer.concat(chunks),
        })
          .formData()
          .then((form) => {
            delivered.push({
              path: req.url ?? '',
              type: (JSON.parse(String(form.get('event'))) as { type: string }).type,
              environment: JSON.parse(String(form.get('environment'))) as { integration: { name: string } },
            });
            res.end('OK');
          });
      });
    });
    await new Promise<void>((resolve) => tunnel.listen(0, '127.0.0.1', resolve));
    tunnelUrl = `http://127.0.0.1:${(tunnel.address() as { port: number }).port}`;
  });
  afterAll(async () => {
    await server.close();
    await new Promise((resolve) => tunnel.close(resolve));
  });

  it('sends the events of the owner’s organization to the tunnel while development mode is on, else to the script', async () => {
    const published = await server.request('POST', '/v1/integrations/devtool', {
      body: {
        title: 'Dev tool',
        description: 'Being written',
        scopes: [],
        script: 'export default { fetch() { return new Response("OK"); } };',
        organization: server.orgId,
        visibility: 'private',
      },
    });
    expect(published.status, JSON.stringify(published.body)).toBe(200);
    expect((await server.request('PUT', '/v1/integrations/devtool/dev', { body: { tunnelUrl } })).status).toBe(204);
    const installed = await server.request('POST', '/v1/integrations/devtool/installations', {
      body: { organization: server.orgId },
    });
    await server.drainJobs();
    expect(delivered).toEqual([
      {
        path: '/v1',
        type: 'installation_setup',
        environment: expect.objectContaining({ integration: expect.objectContaining({ name: 'devtool' }) }),
      },
    ]);
    const [first] = (await server.request('GET', '/v1/integrations/devtool/events')).body.items;
    expect(first).toMatchObject({ status: 'success' });
    const trace = (await server.request('GET', `/v1/integrations/devtool/events/${first.id}`)).body.trace;
    expect(trace.logs).toEqual([{ level: 'info', message: `Delivered to the development tunnel ${tunnelUrl}` }]);

    // Development over: the published script gets the next one; the tunnel hears nothing more.
    expect((await server.request('DELETE', '/v1/integrations/devtool/dev')).status).toBe(205);
    await server.request('DELETE', `/v1/integrations/devtool/installations/${installed.body.id}`);
    await server.drainJobs();
    expect(delivered).toHaveLength(1);
    const events = (await server.request('GET', '/v1/integrations/devtool/events')).body.items;
    expect(events.map((e: { payload: { type: string }; status: string }) => [e.payload.type, e.status])).toEqual([
      ['installation_deleted', 'success'],
      ['installation_setup', 'success'],
    ]);

    // A tunnel is a user-given URL: one on the server's private network is never reached.
    await server.request('PUT', '/v1/integrations/devtool/dev', { body: { tunnelUrl: 'http://10.0.0.1:8080' } });
    await server.request('POST', '/v1/integrations/devtool/installations', { body: { organization: server.orgId } });
    await server.drainJobs();
    const refused = await server.storage.db
      .selectFrom('integration_events')
      .select(['status', 'error'])
      .where('integration_name', '=', 'devtool')
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    expect(refused.status).toBe('pending');
    expect(refused.error).toMatch(/10\.0\.0\.1 is a private or local address/);
  });
});
