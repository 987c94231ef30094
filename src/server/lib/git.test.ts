import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GitError, GitRepository, splitCredentials } from './git.js';
import { commitFiles, git, readTree, startGitServer, type GitServer } from '../test/git-server.js';

describe('git runner against git http-backend on loopback', () => {
  let server: GitServer;
  let url: string;
  let served: string;
  let cache: string;
  const token = 'tok-secret-123';
  const open = (allowPrivate: boolean | string[] = true) =>
    GitRepository.open(path.join(cache, `${Math.random()}.git`), { allowPrivate });

  beforeAll(async () => {
    server = await startGitServer({ token });
    url = await server.createRepo('docs');
    served = path.join(server.root, 'docs.git');
    cache = await mkdtemp(path.join(os.tmpdir(), 'docspace-git-cache-'));
    await commitFiles(served, { 'README.md': '# Hello\n', 'guide/setup.md': '# Setup\n', 'a "q".md': 'q' });
  });
  afterAll(async () => {
    await server.close();
    await rm(cache, { recursive: true, force: true });
  });

  it('fetches a branch shallowly, lists its files and reads their blobs', async () => {
    const repo = await open();
    const head = await repo.fetch({ url, token }, 'main');
    expect(head).toMatch(/^[0-9a-f]{40}$/);
    expect(await repo.remoteHead({ url, token }, 'main')).toBe(head);
    const files = await repo.files(head);
    expect(files.map((f) => f.path).sort()).toEqual(['README.md', 'a "q".md', 'guide/setup.md']);
    expect((await repo.files(head, 'guide')).map((f) => f.path)).toEqual(['setup.md']);
    const reader = repo.blobs();
    try {
      const [a, b] = await Promise.all(files.map((f) => reader.read(f.oid)));
      expect([a?.toString(), b?.toString()].sort()).toEqual(['# Hello\n', 'q']);
      expect(await reader.read('0'.repeat(40))).toBeUndefined();
    } finally {
      reader.close();
    }
    // The token reached git through its environment only: the cache's config has no trace of it.
    expect(await git(['config', '--list', '--local'], { cwd: repo.dir })).not.toContain(token);
  });

  it('commits without a work tree and pushes; a stale parent is rejected, not forced', async () => {
    const repo = await open();
    const head = await repo.fetch({ url, token }, 'main');
    const commit = await repo.commit({
      parent: head,
      files: new Map([
        ['guide/setup.md', '# Setup\n\nMore.\n'],
        ['README.md', null],
      ]),
      message: 'GITBOOK-1: Edit setup',
      author: { name: 'Ann <Writer>', email: 'ann@example.com' },
    });
    expect(await repo.push({ url, token }, commit, 'main')).toBe('pushed');
    const tree = await readTree(served);
    expect([...tree.keys()].sort()).toEqual(['a "q".md', 'guide/setup.md']);
    expect(tree.get('guide/setup.md')).toBe('# Setup\n\nMore.\n');
    expect(await git(['log', '-1', '--format=%an <%ae>|%s', 'main'], { cwd: served })).toBe(
      'Ann Writer <ann@example.com>|GITBOOK-1: Edit setup\n',
    );
    // Another commit on the old parent: the branch has moved on, so the push is refused.
    const stale = await repo.commit({
      parent: head,
      files: new Map([['x.md', 'x']]),
      message: 'stale',
      author: { name: 'A', email: 'a@example.com' },
    });
    expect(await repo.push({ url, token }, stale, 'main')).toBe('rejected');
    expect(await git(['rev-parse', 'main'], { cwd: served })).toBe(`${commit}\n`);
  });

  it('says clearly what is wrong: token, branch, repository, address, URL', async () => {
    const repo = await open();
    const failure = (p: Promise<unknown>) =>
      p.then(
        () => undefined,
        (e: unknown) => (e instanceof GitError ? { kind: e.kind, message: e.message } : { kind: 'other', e }),
      );
    expect(await failure(repo.fetch({ url, token: 'wrong' }, 'main'))).toMatchObject({ kind: 'auth' });
    expect(await failure(repo.fetch({ url }, 'main'))).toMatchObject({ kind: 'auth' });
    expect(await failure(repo.fetch({ url, token }, 'nope'))).toMatchObject({ kind: 'not-found' });
    expect(await repo.remoteHead({ url, token }, 'nope')).toBeUndefined();
    expect(await failure(repo.fetch({ url: `${server.origin}/missing.git`, token }, 'main'))).toMatchObject({
      kind: 'not-found',
    });
    const guarded = await open(false);
    const refused = await failure(guarded.fetch({ url, token }, 'main'));
    expect(refused).toMatchObject({ kind: 'refused' });
    expect(await failure(guarded.fetch({ url: 'https://localhost/x.git' }, 'main'))).toMatchObject({
      kind: 'refused',
      message: expect.stringContaining('private or local'),
    });
    expect(await failure(guarded.fetch({ url: 'file:///etc' }, 'main'))).toMatchObject({ kind: 'refused' });
    expect(await failure(guarded.fetch({ url: 'ext::sh -c id' }, 'main'))).toMatchObject({ kind: 'refused' });
    expect(server.requests.some((r) => r.includes('x.git'))).toBe(false);
  });

  it('takes credentials out of a URL that carries them', () => {
    expect(splitCredentials('https://oauth2:t%40k@example.com/a/b.git')).toEqual({
      url: 'https://example.com/a/b.git',
      token: 't@k',
      username: 'oauth2',
    });
    expect(splitCredentials('https://ghp_x@example.com/a.git')).toEqual({
      url: 'https://example.com/a.git',
      token: 'ghp_x',
    });
  });
});
