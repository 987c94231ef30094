import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  describeEachDialect,
  INTEGRATIONS_ON_OWN_HOST,
  OWNER_TOKEN,
  startTestServer,
  type TestServer,
} from '../test/harness.js';
import { ensureGitbookCli, gitbookCli, RUNTIME_DEMO } from '../test/gitbook-cli.js';
import { newSpace, seedPage } from '../test/factories.js';

const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

/** `gitbook publish`, `gitbook tail` and `gitbook unpublish`: the official CLI unchanged, against a real server. */
describeEachDialect('gitbook publish, tail and unpublish (the official CLI)', (dialect) => {
  let server: TestServer;
  let cli: ReturnType<typeof gitbookCli>;
  let dir: string;
  beforeAll(async () => {
    ensureGitbookCli();
    // Integrations' endpoints are served on a host of their own (routes/integration-endpoints.ts).
    server = await startTestServer(dialect, {
      integrations: INTEGRATIONS_ON_OWN_HOST,
    });
    cli = gitbookCli();
    dir = path.join(cli.home, 'integration');
    fs.mkdirSync(path.join(dir, 'src'), { recursive: true });
    fs.writeFileSync(path.join(dir, 'icon.png'), Buffer.from(PNG, 'base64'));
    fs.writeFileSync(
      path.join(dir, 'src/index.js'),
      'export default { async fetch(request) { console.log("cli-demo saw " + new URL(request.url).pathname); return new Response("hello from " + new URL(request.url).pathname); } };\n',
    );
    fs.writeFileSync(
      path.join(dir, 'gitbook-manifest.yaml'),
      [
        'name: cli-demo',
        'title: CLI demo',
        'description: Published by the official CLI',
        'script: ./src/index.js',
        'icon: ./icon.png',
        'scopes:',
        '  - space:content:read',
        'categories:',
        '  - content',
        `organization: ${server.orgId}`,
        'visibility: private',
        'secrets:',
        '  TOKEN: ${{ env.DEMO_TOKEN }}',
        '',
      ].join('\n'),
    );
    const auth = await cli.run(['auth', '--token', OWNER_TOKEN, '--endpoint', server.url]);
    expect(auth.code).toBe(0);
  }, 240_000);
  afterAll(async () => {
    await server.close();
    cli.cleanup();
  });

  it('publishes an integration bundled by the CLI, shows its events with tail, and unpublishes it', async () => {
    const published = await cli.run(['publish'], { cwd: dir, env: { DEMO_TOKEN: 'top-secret-token' } });
    expect(published.stderr).not.toMatch(/error/i);
    expect(published.code).toBe(0);
    expect(published.stdout).toContain('Integration "cli-demo" published');
    const integration = await server.request('GET', '/v1/integrations/cli-demo');
    expect(integration.body).toMatchObject({ name: 'cli-demo', version: 1, title: 'CLI demo', visibility: 'private' });
    expect(integration.body.urls.icon).toEqual(expect.any(String));
    expect(JSON.stringify(integration.body)).not.toContain('top-secret-token');
    const script = await fetch(`${server.url}/v1/integrations/cli-demo/public`, {
      headers: { authorization: `Bearer ${OWNER_TOKEN}` },
    });
    expect(await script.text()).toContain('hello from');

    // Publishing again makes version 2.
    expect((await cli.run(['publish'], { cwd: dir, env: { DEMO_TOKEN: 'top-secret-token' } })).code).toBe(0);
    expect((await server.request('GET', '/v1/integrations/cli-demo')).body.version).toBe(2);

    // Something happens to it: tail shows it (it stops by itself once it has shown what there is).
    await server.request('POST', '/v1/integrations/cli-demo/installations', { body: { organization: server.orgId } });
    await server.drainJobs();
    const tail = await cli.run(['tail'], { cwd: dir, env: { DEMO_TOKEN: 'top-secret-token' } });
    expect(tail.code).toBe(0);
    expect(tail.stdout).toContain('[success]');
    expect(tail.stdout).toContain('"type":"installation_setup"');
    // The script ran in its sandbox: what it logged is in the event's trace, which tail prints.
    expect(tail.stdout).toContain('cli-demo saw /v1');

    const unpublished = await cli.run(['unpublish', 'cli-demo'], { input: 'y\n' });
    expect(unpublished.code).toBe(0);
    expect(unpublished.stdout).toContain('has been deleted');
    expect((await server.request('GET', '/v1/integrations/cli-demo')).status).toBe(404);
  }, 120_000);

  it('runs an integration written on @gitbook/runtime unchanged: its block and actions, events calling back and writing, endpoint', async () => {
    // Its folder, with GitBook's runtime found where the CLI is installed (esbuild bundles it from there).
    const demo = path.join(cli.home, 'runtime-demo');
    fs.cpSync(RUNTIME_DEMO.folder, demo, { recursive: true });
    fs.symlinkSync(RUNTIME_DEMO.modules, path.join(demo, 'node_modules'));
    const published = await cli.run(['publish', '--organization', server.orgId], { cwd: demo });
    expect(published.stderr).not.toMatch(/error/i);
    expect(published.code).toBe(0);
    const space = await newSpace(server, server.orgId, { title: 'Demo space' });
    const installed = await server.request('POST', '/v1/integrations/runtime-demo/installations', {
      body: { organization: server.orgId },
    });
    expect(installed.status).toBe(201);
    const added = await server.request(
      'POST',
      `/v1/integrations/runtime-demo/installations/${installed.body.id}/spaces`,
      { body: { space: space.id } },
    );
    expect(added.status).toBe(201);

    // Its block, rendered by createComponent; its action goes through `action` with the state it gave.
    const render = (body: Record<string, unknown>) =>
      server.request('POST', '/v1/integrations/runtime-demo/render', {
        body: {
          componentId: 'counter',
          props: { label: 'Presses' },
          context: { type: 'document', spaceId: space.id, editable: false },
          ...body,
        },
      });
    const first = await render({});
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body).toMatchObject({ type: 'element', state: { clicks: 0 }, props: { label: 'Presses' } });
    expect(JSON.stringify(first.body.element)).toContain('Presses: 0');
    const pressed = await render({ state: first.body.state, action: { action: 'add' } });
    expect(JSON.stringify(pressed.body.element)).toContain('Presses: 1');

    // A merge into its space: its event handler asks the API for the space, with its installation's token.
    await seedPage(server, space.id, 'Page', 'Content.');
    await server.drainJobs();
    const events = (await server.request('GET', '/v1/integrations/runtime-demo/events?limit=20')).body.items as Array<{
      id: string;
      payload: { type: string };
      status: string;
    }>;
    const updated = events.find((e) => e.payload.type === 'space_content_updated');
    expect(updated?.status).toBe('success');
    const { trace } = (await server.request('GET', `/v1/integrations/runtime-demo/events/${updated!.id}`)).body;
    expect(JSON.stringify(trace.logs)).toContain('content updated in \\"Demo space\\"');

    // Installed on the space, it wrote there with GitBook's client: a change request, by itself, with its page.
    const setup = events.find((e) => e.payload.type === 'space_installation_setup');
    expect(setup?.status).toBe('success');
    const opened = (await server.request('GET', `/v1/spaces/${space.id}/change-requests`)).body.items;
    expect(opened).toHaveLength(1);
    expect(opened[0]).toMatchObject({
      subject: 'Welcome page',
      createdBy: { displayName: 'Runtime demo (integration)' },
    });
    const pages = await server.request('GET', `/v1/spaces/${space.id}/change-requests/${opened[0].id}/content/pages`);
    expect(pages.body.pages.map((p: { title: string }) => p.title)).toContain('Welcome');

    // Its HTTP endpoint, on the integrations' host.
    const endpoint = await new Promise<string>((resolve, reject) => {
      const req = http.request(
        `${server.url}/v1/integrations/runtime-demo/hello`,
        { headers: { host: 'integrations.test' } },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => resolve(Buffer.concat(chunks).toString()));
        },
      );
      req.on('error', reject);
      req.end();
    });
    expect(endpoint).toBe('runtime-demo at /v1/integrations/runtime-demo/hello');
    expect((await server.request('DELETE', '/v1/integrations/runtime-demo')).status).toBe(204);
  }, 120_000);
});
