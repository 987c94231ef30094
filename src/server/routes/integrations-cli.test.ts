import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDialect, OWNER_TOKEN, startTestServer, type TestServer } from '../test/harness.js';
import { ensureGitbookCli, gitbookCli } from '../test/gitbook-cli.js';

const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

/** `gitbook publish`, `gitbook tail` and `gitbook unpublish`: the official CLI unchanged, against a real server. */
describeEachDialect('gitbook publish, tail and unpublish (the official CLI)', (dialect) => {
  let server: TestServer;
  let cli: ReturnType<typeof gitbookCli>;
  let dir: string;
  beforeAll(async () => {
    ensureGitbookCli();
    server = await startTestServer(dialect);
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
});
