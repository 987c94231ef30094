import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDialect, OWNER_TOKEN, startTestServer, type TestServer } from '../test/harness.js';
import { startFixtureServer, type FixtureServer } from '../test/fixtures.js';
import { ensureGitbookCli, gitbookCli } from '../test/gitbook-cli.js';
import { PETSTORE_SWAGGER, PETSTORE_V1, processedSpec } from '../test/openapi-fixtures.js';

/** `gitbook openapi publish`, the official CLI unchanged, against a real server. */
describeEachDialect('gitbook openapi publish (the official CLI)', (dialect) => {
  let server: TestServer;
  let fixtures: FixtureServer;
  let cli: ReturnType<typeof gitbookCli>;
  beforeAll(async () => {
    ensureGitbookCli();
    fixtures = await startFixtureServer();
    server = await startTestServer(dialect, { allowPrivateFetch: ['127.0.0.0/8'] });
    cli = gitbookCli();
  }, 240_000);
  afterAll(async () => {
    await server.close();
    await fixtures.close();
    cli.cleanup();
  });

  const processed = (slug: string) => processedSpec(server, server.orgId, slug);

  it('signs in with a token, then publishes a file and a URL, which are processed', async () => {
    const wrong = await cli.run(['auth', '--token', 'not-a-token', '--endpoint', server.url]);
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toContain('[401]');

    const auth = await cli.run(['auth', '--token', OWNER_TOKEN, '--endpoint', server.url]);
    expect(auth.stderr).toBe('');
    expect(auth.code).toBe(0);
    expect(auth.stdout).toContain('You are now authenticated as');

    const file = path.join(cli.home, 'openapi.yaml');
    fs.writeFileSync(file, PETSTORE_V1);
    const published = await cli.run([
      'openapi',
      'publish',
      './openapi.yaml',
      '--spec',
      'petstore',
      '--organization',
      server.orgId,
    ]);
    expect(published.stderr).toBe('');
    expect(published.code).toBe(0);
    expect(published.stdout).toContain(`published to http://docs.test/o/${server.orgId}/openapi/petstore`);
    const spec = await processed('petstore');
    expect(spec.lastVersion).toEqual(expect.any(String));
    expect(spec.lastProcessErrorCode).toBeUndefined();

    // Publishing the same file again keeps one version.
    expect(
      (await cli.run(['openapi', 'publish', file, '--spec', 'petstore', '--organization', server.orgId])).code,
    ).toBe(0);
    expect((await processed('petstore')).lastVersion).toBe(spec.lastVersion);

    fixtures.set('/openapi.yaml', { type: 'application/yaml', body: PETSTORE_SWAGGER });
    const byUrl = await cli.run([
      'openapi',
      'publish',
      `${fixtures.url}/openapi.yaml`,
      '--spec',
      'petstore-url',
      '--organization',
      server.orgId,
    ]);
    expect(byUrl.code).toBe(0);
    const fromUrl = await processed('petstore-url');
    expect(fromUrl).toMatchObject({ sourceURL: `${fixtures.url}/openapi.yaml` });
    expect(fromUrl.lastVersion).toEqual(expect.any(String));
  });

  it('reports refusals as the CLI shows them: an organization it cannot see, a bad slug', async () => {
    const elsewhere = await cli.run([
      'openapi',
      'publish',
      `${fixtures.url}/openapi.yaml`,
      '--spec',
      'x',
      '--organization',
      'nope',
    ]);
    expect(elsewhere.code).toBe(1);
    expect(elsewhere.stderr).toContain('[404]');
    const badSlug = await cli.run([
      'openapi',
      'publish',
      `${fixtures.url}/openapi.yaml`,
      '--spec',
      'Bad_Slug',
      '--organization',
      server.orgId,
    ]);
    expect(badSlug.code).toBe(1);
    expect(badSlug.stderr).toContain('[400]');
  });
});
