import { createHmac } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDialect, startTestServer, type TestServer } from '../test/harness.js';
import {
  editContent,
  mergeChangeRequest,
  newChangeRequest,
  newOrg,
  newSite,
  newSpace,
  publishSite,
  seedContent,
} from '../test/factories.js';
import { PNG } from '../test/fixtures.js';
import { gitSyncSettings } from '../domain/git-sync/service.js';
import { pollGitSyncs } from '../domain/git-sync/webhooks.js';
import { Urls } from '../lib/urls.js';
import {
  commitFiles,
  commitManyFiles,
  git as gitIn,
  readTree,
  startGitServer,
  type GitServer,
} from '../test/git-server.js';

/** Every page of a tree, depth first, with its depth. */
function flatten(pages: any[], depth = 0): Array<{ page: any; depth: number }> {
  return pages.flatMap((page) => [{ page, depth }, ...flatten(page.pages ?? [], depth + 1)]);
}

const TOKEN = 'glpat-test-token-1234';

/** A repository laid out as GitBook's Git Sync writes one, with every construct of the format. */
const GITBOOK_REPO: Record<string, string | Buffer> = {
  'README.md': '# The product repository\n\nCode lives here; the docs are in docs/.\n',
  'src/index.ts': 'export {};\n',
  'docs/.gitbook.yaml':
    'root: ./\nstructure:\n  readme: README.md\n  summary: SUMMARY.md\nredirects:\n  old/quick-start: ./get-started/quickstart.md\n  gone: nothing.md\n',
  'docs/SUMMARY.md': `# Table of contents

* [Introduction](README.md)

## Get started <a href="#get-started" id="get-started"></a>

* [Quickstart](get-started/quickstart.md)
* [Install](get-started/install/README.md)
  * [On Linux](get-started/install/linux.md)

## Reference

* [API](reference/api.md)
* [GitHub](https://github.com/example/repo)
`,
  'docs/README.md':
    '---\ndescription: What this is\nlayout:\n  width: wide\n  title: { visible: false }\n  outline:\n    visible: false\n  tags: { visible: true }\n---\n\n# Introduction\n\nStart with the [quickstart](get-started/quickstart.md).\n',
  'docs/get-started/quickstart.md':
    '# Quickstart\n\n<figure><img src="../.gitbook/assets/logo.png" alt="Logo"><figcaption><p>The logo</p></figcaption></figure>\n\n{% include "../.gitbook/includes/support.md" %}\n',
  'docs/get-started/install/README.md':
    '---\ncover: ../../.gitbook/assets/logo.png\ncoverY: 0\n---\n\n# Install\n\nPick your system.\n',
  'docs/get-started/install/linux.md':
    '---\nnoIndex: true\nnoRobotsIndex: true\n---\n\n# On Linux\n\n```bash\napt install it\n```\n',
  'docs/reference/api.md': '# API\n\n{% hint style="info" %}\nVersion 2.\n{% endhint %}\n',
  'docs/.gitbook/includes/support.md': '---\ntitle: Support\n---\n\nWrite to support@example.com.\n',
  'docs/.gitbook/assets/logo.png': Buffer.from(PNG),
};

describeEachDialect('Git Sync', (dialect) => {
  let server: TestServer;
  let git: GitServer;
  let url: string;
  let served: string;
  beforeAll(async () => {
    server = await startTestServer(dialect, { allowPrivateFetch: true });
    git = await startGitServer({ token: TOKEN });
    url = await git.createRepo('product');
    served = path.join(git.root, 'product.git');
    await commitFiles(served, GITBOOK_REPO, { message: 'First docs' });
  });
  afterAll(async () => {
    await server.close();
    await git.close();
  });

  const connect = (spaceId: string, body: Record<string, unknown> = {}, token?: string) =>
    server.request('PUT', `/v1/spaces/${spaceId}/git/sync`, {
      token,
      body: { url, branch: 'main', root: 'docs', token: TOKEN, direction: 'two-way', ...body },
    });
  /** Syncs now and waits for the run to end; the run as it ended. */
  const sync = async (spaceId: string, direction: 'import' | 'export' = 'import') => {
    const started = await server.request('POST', `/v1/spaces/${spaceId}/git/sync/run`, { body: { direction } });
    expect(started.status, JSON.stringify(started.body)).toBe(202);
    await server.drainJobs();
    const run = await server.request('GET', `/v1/spaces/${spaceId}/git/runs/${started.body.id}`);
    expect(run.status).toBe(200);
    return run.body;
  };
  const pagesOf = async (spaceId: string) =>
    (await server.request('GET', `/v1/spaces/${spaceId}/content/pages`)).body.pages as any[];
  const markdownOf = async (spaceId: string, pageId: string) =>
    (await server.request('GET', `/v1/spaces/${spaceId}/content/page/${pageId}?format=markdown`)).body.markdown;

  it('connects a space, never shows its token, and imports a GitBook repository with every construct', async () => {
    const space = await newSpace(server, server.orgId, { title: 'Synced' });
    expect((await server.request('GET', `/v1/spaces/${space.id}/git/info`)).status).toBe(404);
    // An integration installed on the space hears of the sync (space_gitsync_completed) and of its merge.
    await server.request('POST', '/v1/integrations/sync-listener', {
      body: {
        title: 'Sync listener',
        description: 'Hears syncs',
        scopes: ['space:content:read'],
        script: 'export default { fetch() { return new Response("OK"); } };',
        organization: server.orgId,
        visibility: 'private',
      },
    });
    const installation = (
      await server.request('POST', '/v1/integrations/sync-listener/installations', {
        body: { organization: server.orgId },
      })
    ).body.id as string;
    await server.request('POST', `/v1/integrations/sync-listener/installations/${installation}/spaces`, {
      body: { space: space.id },
    });
    const put = await connect(space.id);
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    expect(put.body).toMatchObject({ url, branch: 'main', root: 'docs', direction: 'two-way', hasToken: true });
    expect(put.body.webhook.url).toBe(`http://docs.test/v1/spaces/${space.id}/git/webhook`);
    expect(put.body.webhook.secret).toMatch(/^whsec_/);
    expect(JSON.stringify(put.body)).not.toContain(TOKEN);

    const run = await sync(space.id);
    expect(run, JSON.stringify(run)).toMatchObject({ status: 'success', direction: 'import', trigger: 'manual' });
    expect(run.message).toContain('1 redirect of .gitbook.yaml names no page of the repository');
    await server.drainJobs();
    const heard = (await server.request('GET', '/v1/integrations/sync-listener/events?limit=10')).body.items;
    const synced = heard.find((e: { payload: { type: string } }) => e.payload.type === 'space_gitsync_completed');
    expect(synced).toMatchObject({
      status: 'success',
      payload: { spaceId: space.id, state: 'success', commitId: run.commit, revisionId: run.revision },
    });
    expect(heard.map((e: { payload: { type: string } }) => e.payload.type)).toContain('space_content_updated');
    expect((await server.request('DELETE', '/v1/integrations/sync-listener')).status).toBe(204);
    const pages = flatten(await pagesOf(space.id)).map(({ page, depth }) => `${depth}:${page.type}:${page.title}`);
    expect(pages).toEqual([
      '0:document:Introduction',
      '0:group:Get started',
      '1:document:Quickstart',
      '1:document:Install',
      '2:document:On Linux',
      '0:group:Reference',
      '1:document:API',
      '1:link:GitHub',
    ]);
    const tree = flatten(await pagesOf(space.id)).map(({ page }) => page);
    const intro = tree.find((p) => p.title === 'Introduction');
    expect(intro.description).toBe('What this is');
    // GitBook's layout options, as the contract gives them (tags are no option here).
    expect(intro.layout).toMatchObject({ width: 'wide', title: false, outline: false, description: true });
    const quick = tree.find((p) => p.title === 'Quickstart');
    const body = await markdownOf(space.id, quick.id);
    // An image with its caption, as GitBook writes it; its address made the space's file.
    expect(body).toMatch(
      /^<figure><img src="\/files\/\w+" alt="Logo"><figcaption><p>The logo<\/p><\/figcaption><\/figure>\n/,
    );
    // Included by name, as GitBook writes it (rendered from the reusable content of that name).
    expect(body).toContain('{% include "../.gitbook/includes/support.md" %}');
    const reusable = await server.request('GET', `/v1/spaces/${space.id}/content/reusable-contents`);
    expect(reusable.body.items.map((r: any) => r.title)).toEqual(['Support']);
    // The code of the repository (outside docs/) is not content.
    expect(tree.map((p) => p.title)).not.toContain('The product repository');

    const settings = await server.request('GET', `/v1/spaces/${space.id}/git/sync`);
    expect(settings.body).toMatchObject({ commit: run.commit, syncedAt: expect.any(String) });
    expect(settings.body.lastRun.id).toBe(run.id);
    const info = await server.request('GET', `/v1/spaces/${space.id}/git/info`);
    expect(info.status).toBe(200);
    expect(info.body).toMatchObject({ repoName: 'product', integration: 'git-sync' });

    // Pages, files and reusable contents say which file of the repository they are (path from its root, blob id),
    // in every answer that gives them, and not with ?metadata=false.
    const blob = async (file: string) => (await gitIn(['rev-parse', `HEAD:${file}`], { cwd: served })).trim();
    const linux = tree.find((p) => p.title === 'On Linux');
    const linuxGit = {
      path: 'docs/get-started/install/linux.md',
      oid: await blob('docs/get-started/install/linux.md'),
    };
    expect(linux.git).toEqual(linuxGit);
    expect(tree.find((p) => p.title === 'Install').git.path).toBe('docs/get-started/install/README.md');
    expect(tree.find((p) => p.type === 'group').git).toBeUndefined();
    const one = await server.request('GET', `/v1/spaces/${space.id}/content/page/${linux.id}`);
    expect(one.body.git).toEqual(linuxGit);
    const whole = await server.request('GET', `/v1/spaces/${space.id}/content`);
    expect(flatten(whole.body.pages).find(({ page }) => page.id === linux.id)!.page.git).toEqual(linuxGit);
    const logoGit = { path: 'docs/.gitbook/assets/logo.png', oid: await blob('docs/.gitbook/assets/logo.png') };
    expect(whole.body.files.map((f: any) => f.git)).toEqual([logoGit]);
    const files = await server.request('GET', `/v1/spaces/${space.id}/content/files`);
    expect(files.body.items[0].git).toEqual(logoGit);
    expect(
      (await server.request('GET', `/v1/spaces/${space.id}/content/files/${files.body.items[0].id}`)).body.git,
    ).toEqual(logoGit);
    expect(reusable.body.items[0].git).toEqual({
      path: 'docs/.gitbook/includes/support.md',
      oid: await blob('docs/.gitbook/includes/support.md'),
    });
    const bare = await server.request('GET', `/v1/spaces/${space.id}/content/pages?metadata=false`);
    expect(JSON.stringify(bare.body)).not.toContain('"git"');
    expect(
      (await server.request('GET', `/v1/spaces/${space.id}/content?metadata=false`)).body.files[0].git,
    ).toBeUndefined();

    // Synced again without a new commit: nothing to do.
    const again = await sync(space.id);
    expect(again).toMatchObject({ status: 'skipped', commit: run.commit });
  });

  it('brings a pushed commit in by path: edited, added, moved, removed pages; the others untouched', async () => {
    const space = await newSpace(server, server.orgId, { title: 'Pushed' });
    const second = await git.createRepo('pushed');
    const dir = path.join(git.root, 'pushed.git');
    await commitFiles(dir, GITBOOK_REPO);
    await connect(space.id, { url: second });
    expect((await sync(space.id)).status).toBe('success');
    const first = flatten(await pagesOf(space.id)).map(({ page }) => page);
    const stable = (title: string) => first.find((p) => p.title === title);

    await commitFiles(
      dir,
      {
        // Edited.
        'docs/reference/api.md': '# API\n\nVersion 3 now.\n',
        // Moved: the same bytes under a new name, listed there.
        'docs/get-started/install/linux.md': null,
        'docs/get-started/linux.md': GITBOOK_REPO['docs/get-started/install/linux.md']!,
        // Added, and the Quickstart removed.
        'docs/get-started/quickstart.md': null,
        'docs/get-started/faq.md': '# FAQ\n\nAsk away.\n',
        'docs/SUMMARY.md': `# Table of contents

* [Introduction](README.md)

## Get started

* [Install](get-started/install/README.md)
* [On Linux](get-started/linux.md)
* [FAQ](get-started/faq.md)

## Reference

* [API](reference/api.md)
* [GitHub](https://github.com/example/repo)
`,
      },
      { message: 'Rework the getting started' },
    );
    const run = await sync(space.id);
    expect(run, JSON.stringify(run)).toMatchObject({ status: 'success' });
    expect(run.message).toContain('Rework the getting started');
    const after = flatten(await pagesOf(space.id)).map(({ page, depth }) => ({ ...page, depth }));
    expect(after.map((p) => `${p.depth}:${p.title}`)).toEqual([
      '0:Introduction',
      '0:Get started',
      '1:Install',
      '1:On Linux',
      '1:FAQ',
      '0:Reference',
      '1:API',
      '1:GitHub',
    ]);
    const now = (title: string) => after.find((p) => p.title === title);
    expect(now('API').id).toBe(stable('API').id);
    expect(await markdownOf(space.id, now('API').id)).toContain('Version 3 now.');
    expect(now('On Linux').id).toBe(stable('On Linux').id);
    expect(now('Introduction').id).toBe(stable('Introduction').id);
    // A page whose file did not change is not written: it keeps its time.
    expect(now('Introduction').updatedAt).toBe(stable('Introduction').updatedAt);
    expect(after.some((p) => p.title === 'Quickstart')).toBe(false);
  });

  it('round-trips a repository: exported to a new branch, or written afresh into an empty one, the tree is the same', async () => {
    // Every construct of the format our writer supports, laid out and written as GitBook writes them.
    const files: Record<string, string | Buffer> = {
      'README.md':
        '---\ndescription: What this is\nlayout:\n  width: wide\n  title:\n    visible: false\n  outline:\n    visible: false\n---\n\n# Introduction\n\nStart with the [quickstart](get-started/quickstart.md).\n',
      'SUMMARY.md':
        '# Table of contents\n\n* [Introduction](README.md)\n\n## Get started\n\n* [Quickstart](get-started/quickstart.md)\n* [Install](get-started/install/README.md)\n  * [On Linux](get-started/install/linux.md)\n\n## Reference\n\n* [API](reference/api.md)\n* [GitHub](https://github.com/example/repo)\n',
      'get-started/quickstart.md':
        '# Quickstart\n\n<figure><img src="../.gitbook/assets/logo.png" alt="Logo"><figcaption><p>The logo</p></figcaption></figure>\n\n{% include "../.gitbook/includes/support.md" %}\n',
      'get-started/install/README.md':
        '---\ncover: ../../.gitbook/assets/logo.png\ncoverY: 12\n---\n\n# Install\n\nPick your system.\n',
      'get-started/install/linux.md':
        '# On Linux\n\n```bash\napt install it\n```\n\n| System | Command |\n| ------ | ------- |\n| Debian | `apt`   |\n',
      'reference/api.md':
        '---\ndescription: Every call\nhidden: true\nnoIndex: true\nnoRobotsIndex: true\nicon: code\n---\n\n# API\n\n{% hint style="info" %}\nVersion 2.\n{% endhint %}\n\n{% tabs %}\n{% tab title="curl" %}\n```sh\ncurl example.com\n```\n{% endtab %}\n{% endtabs %}\n\n* One\n* Two\n\n1. First\n2. Second\n\n<details>\n\n<summary>More</summary>\n\nHidden text.\n\n</details>\n',
      '.gitbook/includes/support.md': '---\ntitle: Support\n---\n\nWrite to **support@example.com**.\n',
      '.gitbook/assets/logo.png': Buffer.from(PNG),
    };
    const inDocs = Object.fromEntries(Object.entries(files).map(([name, bytes]) => [`docs/${name}`, bytes]));
    const sourceUrl = await git.createRepo('round-trip');
    const source = path.join(git.root, 'round-trip.git');
    await commitFiles(source, inDocs, { message: 'Docs' });
    const space = await newSpace(server, server.orgId, { title: 'Round trip' });
    await connect(space.id, { url: sourceUrl });
    expect((await sync(space.id)).status).toBe('success');
    const api = flatten(await pagesOf(space.id)).find(({ page }) => page.title === 'API')!.page;
    expect(api).toMatchObject({
      description: 'Every call',
      hidden: true,
      noIndex: true,
      noRobotsIndex: true,
      icon: 'code',
    });
    const logo = (await server.request('GET', `/v1/spaces/${space.id}/content/files`)).body.items[0];
    expect(flatten(await pagesOf(space.id)).find(({ page }) => page.title === 'Install')!.page.cover).toEqual({
      ref: { kind: 'file', file: logo.id },
      yPos: 12,
    });

    // To a new branch of the same repository: nothing differs.
    await connect(space.id, { url: sourceUrl, branch: 'copy' });
    expect((await sync(space.id, 'export')).status).toBe('success');
    expect(await gitIn(['diff', '--stat', 'main', 'copy'], { cwd: source })).toBe('');

    // Into an empty repository: every file written by our writer, and the same bytes.
    const emptyUrl = await git.createRepo('round-trip-empty');
    const empty = path.join(git.root, 'round-trip-empty.git');
    await connect(space.id, { url: emptyUrl, branch: 'main' });
    const run = await sync(space.id, 'export');
    expect(run.status, JSON.stringify(run)).toBe('success');
    const written = await readTree(empty);
    const expected = await readTree(source);
    expect([...written.keys()].sort()).toEqual([...expected.keys()].sort());
    const differs = [...expected].filter(([name, text]) => written.get(name) !== text).map(([name]) => name);
    expect(
      differs.map((name) => `${name}:\n${written.get(name)}`),
      differs.map((name) => `${name}:\n${expected.get(name)}`).join('\n'),
    ).toEqual([]);

    // Shown again in the space: its file loses the key, keeps the others.
    await seedContent(server, space.id, [{ operation: 'update_page', page: api.id, hidden: false }]);
    await server.drainJobs();
    expect(await gitIn(['show', 'main:docs/reference/api.md'], { cwd: empty })).toMatch(
      /^---\ndescription: Every call\nnoIndex: true\nnoRobotsIndex: true\nicon: code\n---\n\n# API\n/,
    );
  });

  it('pushes a merged change request as one commit touching only its files, named after it', async () => {
    const repoUrl = await git.createRepo('export');
    const dir = path.join(git.root, 'export.git');
    await commitFiles(dir, GITBOOK_REPO, { message: 'First docs' });
    const space = await newSpace(server, server.orgId, { title: 'Two-way' });
    await connect(space.id, { url: repoUrl });
    expect((await sync(space.id)).status).toBe('success');
    const pages = flatten(await pagesOf(space.id)).map(({ page }) => page);
    const api = pages.find((p) => p.title === 'API');
    const install = pages.find((p) => p.title === 'Install');
    const reference = pages.find((p) => p.title === 'Reference');

    const cr = await newChangeRequest(server, space.id, { subject: 'Document version 3' });
    await editContent(server, space.id, cr.id, [
      {
        operation: 'update_page',
        page: api.id,
        document: { markdown: `Version 3. See [Install](/pages/${install.id}).\n` },
      },
    ]);
    await mergeChangeRequest(server, space.id, cr.id);
    await server.drainJobs();
    const runs = (await server.request('GET', `/v1/spaces/${space.id}/git/runs`)).body.items;
    expect(runs[0], JSON.stringify(runs[0])).toMatchObject({
      direction: 'export',
      trigger: 'merge',
      status: 'success',
    });
    const me = (await server.request('GET', '/v1/user')).body;
    expect(await gitIn(['log', '-1', '--format=%an|%s', 'main'], { cwd: dir })).toBe(
      `${me.displayName}|GITBOOK-${cr.number}: Document version 3\n`,
    );
    expect(await gitIn(['diff', '--name-only', 'HEAD~1', 'HEAD'], { cwd: dir })).toBe('docs/reference/api.md\n');
    expect(await gitIn(['show', 'main:docs/reference/api.md'], { cwd: dir })).toBe(
      '# API\n\nVersion 3. See [Install](../get-started/install/README.md).\n',
    );
    // Its own commit, seen again, changes nothing.
    expect((await sync(space.id)).status).toBe('skipped');

    // A new page of a group: a file in the group's folder, and the summary lists it.
    await seedContent(server, space.id, [
      { operation: 'insert_page', into: reference.id, title: 'Errors', document: { markdown: 'Codes.\n' } },
    ]);
    await server.drainJobs();
    expect((await gitIn(['diff', '--name-only', 'HEAD~1', 'HEAD'], { cwd: dir })).split('\n').filter(Boolean)).toEqual([
      'docs/SUMMARY.md',
      'docs/reference/errors.md',
    ]);
    const summary = await gitIn(['show', 'main:docs/SUMMARY.md'], { cwd: dir });
    expect(summary).toContain(
      '## Reference\n\n* [API](reference/api.md)\n* [GitHub](https://github.com/example/repo)\n* [Errors](reference/errors.md)',
    );
    expect(await gitIn(['show', 'main:docs/reference/errors.md'], { cwd: dir })).toBe('# Errors\n\nCodes.\n');
    // A new title keeps the file; a new slug moves it.
    const errors = flatten(await pagesOf(space.id)).find(({ page }) => page.title === 'Errors')!.page;
    await seedContent(server, space.id, [{ operation: 'update_page', page: errors.id, title: 'Error codes' }]);
    await server.drainJobs();
    expect(await gitIn(['diff', '--name-only', 'HEAD~1', 'HEAD'], { cwd: dir })).toBe(
      'docs/SUMMARY.md\ndocs/reference/errors.md\n',
    );
    await seedContent(server, space.id, [{ operation: 'update_page', page: errors.id, slug: 'error-codes' }]);
    await server.drainJobs();
    expect(await gitIn(['diff', '--name-status', 'HEAD~1', 'HEAD'], { cwd: dir })).toBe(
      // The same bytes under the new name: git sees a rename.
      'M\tdocs/SUMMARY.md\nR100\tdocs/reference/errors.md\tdocs/reference/error-codes.md\n',
    );
    // A layout changed in the space: its options written as GitBook writes them, the file's other keys kept.
    const intro = pages.find((p) => p.title === 'Introduction');
    await seedContent(server, space.id, [
      { operation: 'update_page', page: intro.id, layout: { outline: true, pagination: false } },
    ]);
    await server.drainJobs();
    const readme = await gitIn(['show', 'main:docs/README.md'], { cwd: dir });
    const matter = [
      '---',
      'description: What this is',
      'layout:',
      '  width: wide',
      '  title: { visible: false }',
      '  outline:',
      '    visible: true',
      '  tags: { visible: true }',
      '  pagination:',
      '    visible: false',
      '---',
      '',
      '# Introduction',
      '',
    ].join('\n');
    expect(readme.slice(0, matter.length)).toBe(matter);

    // Read back, the repository gives the same pages.
    const other = await newSpace(server, server.orgId, { title: 'Read back' });
    await connect(other.id, { url: repoUrl, direction: 'import' });
    expect((await sync(other.id)).status).toBe('success');
    const titles = (id: string) =>
      pagesOf(id).then((p) => flatten(p).map(({ page, depth }) => `${depth}:${page.title}`));
    expect(await titles(other.id)).toEqual(await titles(space.id));

    // Exported to a new branch with nothing changed since: the same tree.
    const copy = await server.request('POST', `/v1/spaces/${space.id}/git/export`, {
      body: { url: repoUrl, ref: 'refs/heads/copy', commitMessage: 'Copy', repoProjectDirectory: 'docs' },
    });
    expect(copy.status, JSON.stringify(copy.body)).toBe(204);
    await server.drainJobs();
    expect(await gitIn(['diff', '--stat', 'main', 'copy'], { cwd: dir })).toBe('');
  });

  it('hears pushes made with the git client: signed webhooks of GitHub, GitLab and Gitea, or polling', async () => {
    const repoUrl = await git.createRepo('hooks');
    await commitFiles(path.join(git.root, 'hooks.git'), {
      'README.md': '# Home\n\nVersion 1.\n',
      'SUMMARY.md': '* [Home](README.md)\n',
    });
    const space = await newSpace(server, server.orgId, { title: 'Hooks' });
    const settings = (await connect(space.id, { url: repoUrl, root: '', direction: 'import' })).body;
    expect((await sync(space.id)).status).toBe('success');
    const home = (await pagesOf(space.id))[0];

    // A developer clones, commits and pushes with git.
    const work = path.join(git.root, 'work');
    const authed = new URL(repoUrl);
    authed.username = 'dev';
    authed.password = TOKEN;
    await gitIn(['clone', '--quiet', authed.toString(), work]);
    const push = async (text: string) => {
      await writeFile(path.join(work, 'README.md'), text);
      await gitIn(['-c', 'user.name=Dev', '-c', 'user.email=dev@example.com', 'commit', '--quiet', '-am', text], {
        cwd: work,
      });
      await gitIn(['push', '--quiet', 'origin', 'main'], { cwd: work });
      return (await gitIn(['rev-parse', 'HEAD'], { cwd: work })).trim();
    };
    const hook = (body: string, headers: Record<string, string>, spaceId = space.id) =>
      server.request('POST', `/v1/spaces/${spaceId}/git/webhook`, {
        token: null,
        rawBody: body,
        headers: { 'content-type': 'application/json', ...headers },
      });
    const sign = (body: string) => createHmac('sha256', settings.webhook.secret).update(body).digest('hex');

    // GitHub.
    let after = await push('# Home\n\nVersion 2.\n');
    let body = JSON.stringify({ ref: 'refs/heads/main', after }, null, 2);
    expect((await hook(body, { 'x-github-event': 'push', 'x-hub-signature-256': 'sha256=0' })).status).toBe(401);
    const stranger = await newSpace(server, server.orgId, { title: 'No sync' });
    const unknown = await hook(
      body,
      { 'x-github-event': 'push', 'x-hub-signature-256': `sha256=${sign(body)}` },
      stranger.id,
    );
    expect(unknown.status).toBe(401);
    expect(
      (await hook('{}', { 'x-github-event': 'ping', 'x-hub-signature-256': `sha256=${sign('{}')}` })).body,
    ).toEqual({
      result: 'pong',
    });
    const other = JSON.stringify({ ref: 'refs/heads/feature', after });
    expect(
      (await hook(other, { 'x-github-event': 'push', 'x-hub-signature-256': `sha256=${sign(other)}` })).body.result,
    ).toBe('ignored');
    const github = await hook(body, { 'x-github-event': 'push', 'x-hub-signature-256': `sha256=${sign(body)}` });
    expect(github.status, JSON.stringify(github.body)).toBe(202);
    await server.drainJobs();
    expect(await markdownOf(space.id, home.id)).toContain('Version 2.');
    // Delivered twice: the commit is synced already.
    expect(
      (await hook(body, { 'x-github-event': 'push', 'x-hub-signature-256': `sha256=${sign(body)}` })).body.result,
    ).toBe('ignored');

    // GitLab: its token header.
    after = await push('# Home\n\nVersion 3.\n');
    body = JSON.stringify({ object_kind: 'push', ref: 'refs/heads/main', after, checkout_sha: after });
    expect((await hook(body, { 'x-gitlab-event': 'Push Hook', 'x-gitlab-token': 'wrong' })).status).toBe(401);
    expect(
      (await hook(body, { 'x-gitlab-event': 'Push Hook', 'x-gitlab-token': settings.webhook.secret })).status,
    ).toBe(202);
    await server.drainJobs();
    expect(await markdownOf(space.id, home.id)).toContain('Version 3.');

    // Gitea / Forgejo: the hex signature alone.
    after = await push('# Home\n\nVersion 4.\n');
    body = JSON.stringify({ ref: 'refs/heads/main', after });
    expect((await hook(body, { 'x-gitea-event': 'push', 'x-gitea-signature': sign(body) })).status).toBe(202);
    await server.drainJobs();
    expect(await markdownOf(space.id, home.id)).toContain('Version 4.');

    // Polling, without a webhook: a look once the interval has passed.
    await connect(space.id, { url: repoUrl, root: '', direction: 'import', pollMinutes: 5 });
    await push('# Home\n\nVersion 5.\n');
    const deps = gitSyncSettings(server.config, new Urls(server.config.publicUrl));
    const db = server.storage.db;
    expect(await pollGitSyncs(db, deps)).toBeGreaterThanOrEqual(1);
    // Looked at just now: not again before five minutes.
    expect(await pollGitSyncs(db, deps, Date.now() + 60_000)).toBe(0);
    await server.drainJobs();
    expect(await markdownOf(space.id, home.id)).toContain('Version 5.');
    const runs = (await server.request('GET', `/v1/spaces/${space.id}/git/runs`)).body.items;
    expect(runs.map((r: any) => r.trigger).slice(0, 4)).toEqual(['poll', 'webhook', 'webhook', 'webhook']);
  });

  it('keeps edits made in the space, and turns both sides changing one page into a change request with its conflict', async () => {
    const repoUrl = await git.createRepo('conflict');
    const dir = path.join(git.root, 'conflict.git');
    await commitFiles(dir, {
      'README.md': '# Home\n\nWelcome.\n',
      'guide.md': '# Guide\n\nStep one.\n',
      'other.md': '# Other\n\nUnrelated.\n',
      'SUMMARY.md': '# Summary\n\n* [Home](README.md)\n* [Guide](guide.md)\n* [Other](other.md)\n',
    });
    const space = await newSpace(server, server.orgId, { title: 'Conflicts' });
    // Import only: the space's merges are not pushed (an export would bring the repository's commit in first, as
    // the two-way test shows).
    await connect(space.id, { url: repoUrl, root: '', direction: 'import' });
    expect((await sync(space.id)).status).toBe('success');
    const pages = await pagesOf(space.id);
    const guide = pages.find((p) => p.title === 'Guide');
    const other = pages.find((p) => p.title === 'Other');

    // The space edits the guide and another page; the repository edits the guide and the home page.
    await seedContent(server, space.id, [
      { operation: 'update_page', page: guide.id, document: { markdown: 'Step one, edited in the space.\n' } },
      { operation: 'update_page', page: other.id, document: { markdown: 'Edited in the space only.\n' } },
    ]);
    await commitFiles(dir, {
      'guide.md': '# Guide\n\nStep one, edited in Git.\n',
      'README.md': '# Home\n\nWelcome back.\n',
    });
    const run = await sync(space.id);
    expect(run, JSON.stringify(run)).toMatchObject({ status: 'conflict', changeRequest: expect.any(String) });
    // Nothing was overwritten: the space still has its own edit.
    expect(await markdownOf(space.id, guide.id)).toContain('edited in the space');
    expect(await markdownOf(space.id, other.id)).toContain('Edited in the space only.');
    const cr = await server.request('GET', `/v1/spaces/${space.id}/change-requests/${run.changeRequest}`);
    expect(cr.body.status).toBe('open');
    expect(cr.body.subject).toMatch(/^Git Sync: /);
    const conflicts = await server.request(
      'GET',
      `/v1/spaces/${space.id}/change-requests/${run.changeRequest}/conflicts`,
    );
    expect(conflicts.status, JSON.stringify(conflicts.body)).toBe(200);
    expect(conflicts.body.items.length).toBeGreaterThan(0);
    const settings = await server.request('GET', `/v1/spaces/${space.id}/git/sync`);
    expect(settings.body.conflictChangeRequest).toBe(cr.body.number);
  });

  it('resumes a sync whose process stopped mid-way: the change request it had written is merged, nothing twice', async () => {
    const repoUrl = await git.createRepo('resume');
    await commitFiles(path.join(git.root, 'resume.git'), {
      'README.md': '# Home\n\nWelcome.\n',
      'guide.md': '# Guide\n\nSteps.\n',
      'SUMMARY.md': '* [Home](README.md)\n* [Guide](guide.md)\n',
    });
    const space = await newSpace(server, server.orgId, { title: 'Resumed' });
    await connect(space.id, { url: repoUrl, root: '', direction: 'import' });
    // What a process that stopped between writing its change request and merging it leaves behind: the change
    // request with part of the import, the run pointing at it, and the job leased to the stopped process.
    const cr = await newChangeRequest(server, space.id, { subject: 'Git Sync: interrupted' });
    await editContent(server, space.id, cr.id, [
      { operation: 'insert_page', title: 'Home', slug: 'readme', document: { markdown: 'Welcome.\n' } },
    ]);
    const db = server.storage.db;
    const past = new Date(Date.now() - 120_000).toISOString();
    await db
      .insertInto('git_sync_runs')
      .values({
        id: 'run-crashed',
        space_id: space.id,
        direction: 'import',
        trigger: 'manual',
        status: 'running',
        ref: 'refs/heads/main',
        commit_oid: null,
        revision_id: null,
        change_request_id: cr.id,
        message: null,
        error: null,
        created_by: server.owner.id,
        created_at: past,
        updated_at: past,
      })
      .execute();
    await db
      .insertInto('jobs')
      .values({
        id: 'job-git-crashed',
        kind: 'git-sync',
        key: 'run-crashed',
        payload: JSON.stringify({ spaceId: space.id, runId: 'run-crashed' }),
        state: 'running',
        attempts: 1,
        run_after: past,
        locked_until: past,
        locked_by: 'a-process-that-stopped',
        last_error: null,
        group_key: `git:${space.id}`,
        created_at: past,
        updated_at: past,
      })
      .execute();
    await server.drainJobs();
    const run = (await server.request('GET', `/v1/spaces/${space.id}/git/runs/run-crashed`)).body;
    expect(run, JSON.stringify(run)).toMatchObject({ status: 'success', changeRequest: cr.id });
    expect((await server.request('GET', `/v1/spaces/${space.id}/change-requests/${cr.id}`)).body.status).toBe('merged');
    expect((await pagesOf(space.id)).map((p) => p.title)).toEqual(['Home', 'Guide']);
    // The one change request of the sync: no second one was made.
    const crs = await server.request('GET', `/v1/spaces/${space.id}/change-requests?status=merged`);
    expect(crs.body.items.map((c: any) => c.id)).toEqual([cr.id]);
  });

  it('says what is wrong and changes nothing: token, branch, address, .gitbook.yaml, a huge repository', async () => {
    const space = await newSpace(server, server.orgId, { title: 'Failures' });
    const failing = async (body: Record<string, unknown>, expected: RegExp) => {
      expect((await connect(space.id, body)).status).toBe(200);
      const run = await sync(space.id);
      expect(run.status, JSON.stringify(run)).toBe('failure');
      expect(run.error).toMatch(expected);
      expect(run.error).not.toContain(TOKEN);
      expect(await pagesOf(space.id)).toEqual([]);
    };
    await failing({ token: 'wrong-token' }, /refused the credentials/);
    await failing({ branch: 'nope' }, /branch does not exist/);
    await failing({ url: `${git.origin}/missing.git` }, /no repository/);

    const broken = await git.createRepo('broken');
    await commitFiles(path.join(git.root, 'broken.git'), {
      '.gitbook.yaml': 'root: [unclosed\n',
      'README.md': '# Hi\n',
    });
    await failing({ url: broken, root: '' }, /\.gitbook\.yaml/);

    const huge = await git.createRepo('huge');
    await commitFiles(path.join(git.root, 'huge.git'), { 'README.md': '# Huge\n' });
    await commitManyFiles(path.join(git.root, 'huge.git'), 50_000);
    await failing({ url: huge, root: '' }, /50,001 files, more than the 20,000/);

    // The test connection says the same, without storing anything.
    const test = await server.request('POST', `/v1/spaces/${space.id}/git/sync/test`, {
      body: { url, branch: 'main', token: 'wrong' },
    });
    expect(test.body).toMatchObject({ ok: false, message: expect.stringMatching(/refused the credentials/) });
    const good = await server.request('POST', `/v1/spaces/${space.id}/git/sync/test`, {
      body: { url, branch: 'main', token: TOKEN },
    });
    expect(good.body).toMatchObject({ ok: true, head: expect.stringMatching(/^[0-9a-f]{40}$/) });
  });

  it('refuses private addresses unless the operator allows them', async () => {
    const guarded = await startTestServer(dialect);
    try {
      const space = await newSpace(guarded, guarded.orgId);
      const res = await guarded.request('PUT', `/v1/spaces/${space.id}/git/sync`, {
        body: { url, branch: 'main', token: TOKEN },
      });
      expect(res.status).toBe(400);
      expect(res.body.error.message).toMatch(/https/);
      const https = await guarded.request('PUT', `/v1/spaces/${space.id}/git/sync`, {
        body: { url: 'https://localhost/repo.git', branch: 'main' },
      });
      expect(https.status).toBe(200);
      const started = await guarded.request('POST', `/v1/spaces/${space.id}/git/sync/run`, { body: {} });
      await guarded.drainJobs();
      const run = await guarded.request('GET', `/v1/spaces/${space.id}/git/runs/${started.body.id}`);
      expect(run.body).toMatchObject({ status: 'failure', error: expect.stringMatching(/private or local/) });
    } finally {
      await guarded.close();
    }
  });

  it('lets only space admins set it up; editors sync; strangers learn nothing', async () => {
    const space = await newSpace(server, server.orgId, { title: 'Guarded' });
    await connect(space.id);
    const editor = await server.member('edit');
    const reader = await server.member('read');
    const stranger = await server.signup('stranger');
    await newOrg(server, 'Their org', { token: stranger.token });

    expect((await connect(space.id, {}, editor.token)).status).toBe(403);
    expect((await server.request('GET', `/v1/spaces/${space.id}/git/sync`, { token: editor.token })).status).toBe(403);
    const run = await server.request('POST', `/v1/spaces/${space.id}/git/sync/run`, {
      token: editor.token,
      body: {},
    });
    expect(run.status).toBe(202);
    // Another repository through the contract's import: admins only.
    const other = await server.request('POST', `/v1/spaces/${space.id}/git/import`, {
      token: editor.token,
      body: { url: `${git.origin}/other.git`, ref: 'refs/heads/main' },
    });
    expect(other.status).toBe(403);
    expect(
      (await server.request('POST', `/v1/spaces/${space.id}/git/sync/run`, { token: reader.token, body: {} })).status,
    ).toBe(403);
    expect((await server.request('GET', `/v1/spaces/${space.id}/git/info`, { token: reader.token })).status).toBe(200);
    for (const [method, route] of [
      ['GET', 'git/sync'],
      ['GET', 'git/info'],
      ['GET', 'git/runs'],
      ['POST', 'git/sync/run'],
      ['DELETE', 'git/sync'],
    ] as const) {
      const res = await server.request(method, `/v1/spaces/${space.id}/${route}`, {
        token: stranger.token,
        ...(method === 'POST' ? { body: {} } : {}),
      });
      expect(res.status, `${method} ${route}`).toBe(404);
      expect((await server.request(method, `/v1/spaces/${space.id}/${route}`, { token: null })).status).toBe(401);
    }
    await server.drainJobs();

    // Set up by an admin who then leaves: the sync no longer acts as them, and says what to do.
    const admin = await server.member('admin');
    expect((await connect(space.id, { pollMinutes: 0 }, admin.token)).status).toBe(200);
    expect((await server.request('DELETE', `/v1/orgs/${server.orgId}/members/${admin.id}`)).status).toBe(205);
    const orphan = await sync(space.id);
    expect(orphan.status).toBe('failure');
    expect(orphan.error).toMatch(/a space admin must save the settings again/);

    // Disconnected: the settings, token and secret go; the space keeps its content and its runs.
    expect((await server.request('DELETE', `/v1/spaces/${space.id}/git/sync`)).status).toBe(204);
    expect((await server.request('GET', `/v1/spaces/${space.id}/git/info`)).status).toBe(404);
    expect((await server.request('GET', `/v1/spaces/${space.id}/git/sync`)).status).toBe(404);
    expect((await server.request('GET', `/v1/spaces/${space.id}/git/runs`)).body.count).toBeGreaterThan(0);
  });

  it('answers the contract: git/import starts (204), bad bodies name their field', async () => {
    const space = await newSpace(server, server.orgId, { title: 'Contract' });
    const missing = await server.request('POST', `/v1/spaces/${space.id}/git/import`, { body: { url } });
    expect(missing.status).toBe(400);
    expect(JSON.stringify(missing.body)).toContain('ref');
    const badUrl = await server.request('POST', `/v1/spaces/${space.id}/git/import`, {
      body: { url: 'file:///etc/passwd', ref: 'refs/heads/main' },
    });
    expect(badUrl.status).toBe(400);
    const withCredentials = new URL(url);
    withCredentials.username = 'oauth2';
    withCredentials.password = TOKEN;
    const res = await server.request('POST', `/v1/spaces/${space.id}/git/import`, {
      body: { url: withCredentials.toString(), ref: 'refs/heads/main', repoProjectDirectory: 'docs' },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(204);
    await server.drainJobs();
    const runs = await server.request('GET', `/v1/spaces/${space.id}/git/runs`);
    expect(runs.body.items[0]).toMatchObject({ status: 'success', trigger: 'api' });
    const settings = await server.request('GET', `/v1/spaces/${space.id}/git/sync`);
    expect(settings.body).toMatchObject({ url, root: 'docs', hasToken: true });
    expect(JSON.stringify(settings.body)).not.toContain(TOKEN);
    expect((await pagesOf(space.id)).length).toBeGreaterThan(0);

    // Standalone: a change request of its own, the space untouched.
    const before = (await server.request('GET', `/v1/spaces/${space.id}`)).body.revision;
    const other = await git.createRepo('standalone');
    await commitFiles(path.join(git.root, 'standalone.git'), { 'README.md': '# Draft\n\nProposed.\n' });
    const draftUrl = new URL(other);
    draftUrl.username = 'x';
    draftUrl.password = TOKEN;
    const standalone = await server.request('POST', `/v1/spaces/${space.id}/git/import`, {
      body: { url: draftUrl.toString(), ref: 'refs/heads/main', repoProjectDirectory: '', standalone: true },
    });
    expect(standalone.status).toBe(204);
    await server.drainJobs();
    const draft = (await server.request('GET', `/v1/spaces/${space.id}/git/runs`)).body.items[0];
    expect(draft, JSON.stringify(draft)).toMatchObject({ status: 'success', changeRequest: expect.any(String) });
    expect(draft.message).toMatch(/not merged \(standalone import\)/);
    expect((await server.request('GET', `/v1/spaces/${space.id}`)).body.revision).toBe(before);
    const cr = await server.request('GET', `/v1/spaces/${space.id}/change-requests/${draft.changeRequest}`);
    expect(cr.body).toMatchObject({ status: 'open', revision: draft.revision });
  });

  it('lets an integration granted space:git:sync connect the spaces it was installed on, and syncs as it', async () => {
    // As GitBook's GitHub and GitLab integrations do: importGitRepository with the installation's token.
    const withCredentials = new URL(url);
    withCredentials.username = 'x';
    withCredentials.password = TOKEN;
    const script = `export default {
      async fetch(request) {
        const form = await request.formData();
        const event = JSON.parse(form.get('event'));
        const env = JSON.parse(form.get('environment'));
        if (event.type !== 'space_installation_setup') return new Response('not handled', { status: 406 });
        const res = await fetch(env.apiEndpoint + '/v1/spaces/' + event.spaceId + '/git/import', {
          method: 'POST',
          headers: { authorization: 'Bearer ' + env.apiTokens.installation, 'content-type': 'application/json' },
          body: JSON.stringify({ url: ${JSON.stringify(withCredentials.toString())}, ref: 'refs/heads/main', repoProjectDirectory: 'docs' }),
        });
        console.log(JSON.stringify({ status: res.status, token: env.apiTokens.installation }));
        return new Response('OK');
      },
    };`;
    const space = await newSpace(server, server.orgId, { title: 'Synced by an integration' });
    const other = await newSpace(server, server.orgId, { title: 'Not its own' });
    const published = await server.request('POST', '/v1/integrations/git-bot', {
      body: {
        title: 'Git bot',
        description: 'Syncs with Git',
        scopes: ['space:git:sync'],
        script,
        organization: server.orgId,
      },
    });
    expect(published.status, JSON.stringify(published.body)).toBe(200);
    const installation = (
      await server.request('POST', '/v1/integrations/git-bot/installations', { body: { organization: server.orgId } })
    ).body.id as string;
    await server.request('POST', `/v1/integrations/git-bot/installations/${installation}/spaces`, {
      body: { space: space.id },
    });
    await server.drainJobs();
    await server.drainJobs();
    const events = (await server.request('GET', '/v1/integrations/git-bot/events?limit=10')).body.items;
    const setup = events.find((e: { payload: { type: string } }) => e.payload.type === 'space_installation_setup');
    const { trace } = (await server.request('GET', `/v1/integrations/git-bot/events/${setup.id}`)).body;
    const seen = JSON.parse(trace.logs[0].message) as { status: number; token: string };
    expect(seen.status).toBe(204);

    // The sync ran as the integration: the space holds the repository's pages, its revision names the integration.
    const runs = (await server.request('GET', `/v1/spaces/${space.id}/git/runs`)).body.items;
    expect(runs[0], JSON.stringify(runs[0])).toMatchObject({ status: 'success', direction: 'import' });
    expect((await pagesOf(space.id)).map((p) => p.title)).toContain('Introduction');
    const revision = (await server.request('GET', `/v1/spaces/${space.id}/revisions?limit=1`)).body.items[0];
    expect(JSON.stringify(revision)).toContain('Git bot (integration)');
    const as = { token: seen.token };
    expect((await server.request('GET', `/v1/spaces/${space.id}/git/info`, as)).status).toBe(200);
    // Only the Git Sync operations, on its spaces.
    const body = { url: withCredentials.toString(), ref: 'refs/heads/main' };
    expect((await server.request('POST', `/v1/spaces/${other.id}/git/import`, { ...as, body })).status).toBe(404);
    expect((await server.request('GET', `/v1/spaces/${space.id}/git/sync`, as)).status).toBe(403);
    expect((await server.request('DELETE', `/v1/spaces/${space.id}/git/sync`, as)).status).toBe(403);
    expect((await server.request('PATCH', `/v1/spaces/${space.id}`, { ...as, body: { title: 'x' } })).status).toBe(403);

    // Pointed at another repository without credentials, the stored token is not sent there: it is dropped.
    expect((await server.request('GET', `/v1/spaces/${space.id}/git/sync`)).body.hasToken).toBe(true);
    const elsewhere = await git.createRepo('elsewhere');
    const moved = await server.request('POST', `/v1/spaces/${space.id}/git/import`, {
      ...as,
      body: { url: elsewhere, ref: 'refs/heads/main' },
    });
    expect(moved.status).toBe(204);
    expect((await server.request('GET', `/v1/spaces/${space.id}/git/sync`)).body).toMatchObject({
      url: elsewhere,
      hasToken: false,
    });
    await server.drainJobs();

    // Uninstalled, it syncs no more: a run someone starts fails, saying why.
    await server.request('DELETE', `/v1/integrations/git-bot/installations/${installation}`);
    const started = await server.request('POST', `/v1/spaces/${space.id}/git/sync/run`, { body: {} });
    expect(started.status, JSON.stringify(started.body)).toBeLessThan(300);
    await server.drainJobs();
    const last = (await server.request('GET', `/v1/spaces/${space.id}/git/runs`)).body.items[0];
    expect(last).toMatchObject({ status: 'failure' });
    expect(last.error).toContain('Git bot, the integration that set up this Git Sync, is no longer installed');
    expect((await server.request('DELETE', '/v1/integrations/git-bot')).status).toBe(204);
  });

  it('links the pages of a published site to their files on the forge when the site asks for it', async () => {
    const space = await newSpace(server, server.orgId, { title: 'Edit links' });
    const withCredentials = new URL(url);
    withCredentials.password = TOKEN;
    withCredentials.username = 'x';
    // As GitBook's GitHub integration calls it: the repository's tree URL given with the import.
    const res = await server.request('POST', `/v1/spaces/${space.id}/git/import`, {
      body: {
        url: withCredentials.toString(),
        ref: 'refs/heads/main',
        repoProjectDirectory: 'docs',
        gitInfo: { provider: 'github', url: 'https://github.com/acme/product/tree/main/docs' },
      },
    });
    expect(res.status).toBe(204);
    await server.drainJobs();
    // A tree URL is a link readers follow: http(s) only.
    const script = await server.request('POST', `/v1/spaces/${space.id}/git/import`, {
      body: { url, ref: 'refs/heads/main', gitInfo: { url: 'javascript:alert(1)' } },
    });
    expect(script.status).toBe(400);
    const site = await newSite(server, server.orgId, { spaces: [space.id] });
    const published = (await publishSite(server, server.orgId, site.id)).urls.published;
    const page = async (path: string) =>
      (await fetch(`${server.url}${published.replace(server.config.publicUrl, '')}/${path}`)).text();
    expect(await page('quickstart')).not.toContain('Edit on GitHub');
    const custom = `/v1/orgs/${server.orgId}/sites/${site.id}/customization`;
    const current = (await server.request('GET', custom)).body;
    expect((await server.request('PUT', custom, { body: { ...current, git: { showEditLink: true } } })).status).toBe(
      200,
    );
    const html = await page('quickstart');
    expect(html).toContain('href="https://github.com/acme/product/edit/main/docs/get-started/quickstart.md"');
    expect(html).toContain('Edit on GitHub');
    // The link follows the file: a page of a folder is its README.md.
    const install = await page('install');
    expect(install).toContain('/edit/main/docs/get-started/install/README.md"');
    // Its cover, above its title.
    expect(install).toMatch(/<div class="page-cover cover-hero"><img src="[^"]*\/~files\/\w+" alt=""><\/div><h1/);

    // A page left out of the site's search and of search engines' indexes.
    const linuxPath = flatten(await pagesOf(space.id)).find(({ page }) => page.title === 'On Linux')!.page.path;
    expect(await page(linuxPath)).toContain('<meta name="robots" content="noindex">');
    expect(await page('install')).not.toContain('<meta name="robots"');
    const sitemap = await page('sitemap.xml');
    expect(sitemap).toContain('/install</loc>');
    expect(sitemap).not.toContain(`/${linuxPath}</loc>`);
    const results = async (q: string) => /<main[^>]*>([\s\S]*)<\/main>/.exec(await page(`~search?q=${q}`))![1]!;
    expect(await results('apt')).not.toContain('On Linux');
    expect(await results('apt')).not.toContain('1 page match');
    expect(await results('pick+your+system')).toContain('Install');

    // The landing page's layout: wide, its title for screen readers only, no "On this page".
    const home = await page('');
    expect(home).toContain('<div class="layout no-toc wide">');
    expect(home).toContain('<h1 id="introduction" class="sr-only">Introduction</h1>');

    // The repository's .gitbook.yaml redirects an old address to the page of a file.
    const old = await fetch(`${server.url}${published.replace(server.config.publicUrl, '')}/old/quick-start`, {
      redirect: 'manual',
    });
    expect(old.status).toBeGreaterThanOrEqual(301);
    expect(old.status).toBeLessThanOrEqual(308);
    const location = old.headers.get('location')!;
    expect(location).toMatch(new RegExp(`^${published}/([a-z-]+/)?quickstart$`));
    expect((await fetch(`${server.url}${location.replace(server.config.publicUrl, '')}`)).status).toBe(200);
    const gone = await fetch(`${server.url}${published.replace(server.config.publicUrl, '')}/gone`, {
      redirect: 'manual',
    });
    expect(gone.status).toBe(404);
  });
});
