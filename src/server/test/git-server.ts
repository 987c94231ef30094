import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fastImport } from '../lib/git.js';

/**
 * A real Git server for tests: Debian's `git http-backend` (smart HTTP, the same program forges run behind their
 * web servers) as a CGI behind a small Node HTTP server on loopback. Pushes are allowed; with a `token`, every
 * request must carry it as HTTP Basic's password (as GitHub and GitLab take a token), otherwise 401.
 *
 * Git is run asynchronously everywhere here: a synchronous git call in the process that serves the repository
 * would block the server it waits on.
 */
export interface GitServer {
  /** Folder of the served bare repositories. */
  root: string;
  /** `http://127.0.0.1:<port>` */
  origin: string;
  /** Requests served, by `METHOD path?query`, newest last (a test sees what a sync asked for). */
  requests: string[];
  /** A new bare repository `<name>.git` with `branch` as its default; its URL (without credentials). */
  createRepo(name: string, branch?: string): Promise<string>;
  close(): Promise<void>;
}

const BACKEND = '/usr/lib/git-core/git-http-backend';

export async function startGitServer(options: { token?: string; host?: string } = {}): Promise<GitServer> {
  const root = await mkdtemp(path.join(os.tmpdir(), 'docspace-git-'));
  const requests: string[] = [];
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    requests.push(`${req.method} ${url.pathname}${url.search}`);
    if (options.token) {
      const [scheme, encoded] = (req.headers.authorization ?? '').split(' ');
      const password = Buffer.from(encoded ?? '', 'base64')
        .toString()
        .split(':')
        .slice(1)
        .join(':');
      if (scheme !== 'Basic' || password !== options.token) {
        res.writeHead(401, { 'WWW-Authenticate': 'Basic realm="git"' });
        res.end();
        return;
      }
    }
    const env: NodeJS.ProcessEnv = {
      PATH: process.env.PATH,
      GIT_PROJECT_ROOT: root,
      GIT_HTTP_EXPORT_ALL: '1',
      GIT_CONFIG_NOSYSTEM: '1',
      GIT_CONFIG_GLOBAL: '/dev/null',
      PATH_INFO: decodeURIComponent(url.pathname),
      QUERY_STRING: url.search.slice(1),
      REQUEST_METHOD: req.method ?? 'GET',
      CONTENT_TYPE: req.headers['content-type'] ?? '',
      // Pushes are taken from an authenticated user only (http.receivepack's default).
      REMOTE_USER: 'sync',
      REMOTE_ADDR: req.socket.remoteAddress ?? '',
      GIT_PROTOCOL: String(req.headers['git-protocol'] ?? ''),
      HTTP_CONTENT_ENCODING: String(req.headers['content-encoding'] ?? ''),
      ...(req.headers['content-length'] ? { CONTENT_LENGTH: req.headers['content-length'] } : {}),
    };
    const cgi = spawn(BACKEND, [], { env });
    req.pipe(cgi.stdin);
    cgi.stdin.on('error', () => undefined);
    let head = Buffer.alloc(0);
    let headersDone = false;
    cgi.stdout.on('data', (chunk: Buffer) => {
      if (headersDone) {
        res.write(chunk);
        return;
      }
      head = Buffer.concat([head, chunk]);
      const end = head.indexOf('\r\n\r\n');
      if (end < 0) return;
      headersDone = true;
      let status = 200;
      for (const line of head.subarray(0, end).toString('latin1').split('\r\n')) {
        const i = line.indexOf(':');
        const name = line.slice(0, i).trim();
        const value = line.slice(i + 1).trim();
        if (name.toLowerCase() === 'status') status = parseInt(value, 10);
        else res.setHeader(name, value);
      }
      res.writeHead(status);
      res.write(head.subarray(end + 4));
    });
    cgi.stdout.on('end', () => res.end());
    cgi.on('error', () => res.destroy());
  });
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const origin = `http://${host}:${(server.address() as AddressInfo).port}`;
  return {
    root,
    origin,
    requests,
    async createRepo(name, branch = 'main') {
      const dir = path.join(root, `${name}.git`);
      await git(['init', '--quiet', '--bare', '-b', branch, dir]);
      return `${origin}/${name}.git`;
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await rm(root, { recursive: true, force: true });
    },
  };
}

/** Runs git (asynchronously) for a test; its standard output, or an error with its standard error. */
export function git(args: string[], options: { cwd?: string; input?: Buffer | string } = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn('git', args, {
      cwd: options.cwd,
      env: {
        PATH: process.env.PATH,
        HOME: os.tmpdir(),
        GIT_CONFIG_NOSYSTEM: '1',
        GIT_CONFIG_GLOBAL: '/dev/null',
        GIT_TERMINAL_PROMPT: '0',
      },
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (c: Buffer) => out.push(c));
    child.stderr.on('data', (c: Buffer) => err.push(c));
    child.on('error', reject);
    child.stdin.on('error', () => undefined);
    child.on('close', (code) => {
      if (code === 0) resolve(Buffer.concat(out).toString('utf8'));
      else reject(new Error(`git ${args[0]} failed (${code}): ${Buffer.concat(err).toString('utf8')}`));
    });
    child.stdin.end(options.input ?? '');
  });
}

/**
 * Commits to a branch of the served bare repository `repoDir` as another person pushing would: each path set to
 * its text (or bytes), or removed with `null`, on top of the branch's tip (or as its first commit; `replace`:
 * with only these files). One `git fast-import` (thousands of files in a second). Returns the new commit's id.
 */
export async function commitFiles(
  repoDir: string,
  files: Record<string, string | Buffer | null>,
  options: { branch?: string; message?: string; replace?: boolean } = {},
): Promise<string> {
  const ref = `refs/heads/${options.branch ?? 'main'}`;
  const parent = await git(['rev-parse', '--verify', '--quiet', ref], { cwd: repoDir }).then(
    (out) => out.trim(),
    () => '',
  );
  await fastImport(repoDir, {
    ref,
    ...(parent ? { parent } : {}),
    files: new Map(Object.entries(files)),
    message: options.message ?? 'Update docs',
    author: { name: 'Dev Eloper', email: 'dev@example.com' },
    ...(options.replace ? { replace: true } : {}),
  });
  return (await git(['rev-parse', ref], { cwd: repoDir })).trim();
}

/**
 * A commit of `count` files of the same text under `folder` (500 per sub-folder) on top of the branch: a huge
 * repository in a fraction of a second (one blob; fast-import's cost is per distinct blob).
 */
export async function commitManyFiles(repoDir: string, count: number, folder = 'pages', branch = 'main') {
  const ref = `refs/heads/${branch}`;
  const parent = await git(['rev-parse', '--verify', '--quiet', ref], { cwd: repoDir }).then(
    (out) => out.trim(),
    () => '',
  );
  const lines = [
    'blob',
    'mark :1',
    'data 7',
    '# Page',
    '',
    `commit ${ref}`,
    'author Dev Eloper <dev@example.com> 1700000000 +0000',
    'committer Dev Eloper <dev@example.com> 1700000000 +0000',
    'data 10',
    'Many files',
    ...(parent ? [`from ${parent}`] : []),
  ];
  for (let i = 0; i < count; i++) lines.push(`M 100644 :1 ${folder}/s${Math.floor(i / 500)}/p${i}.md`);
  lines.push('', '');
  await git(['fast-import', '--quiet'], { cwd: repoDir, input: lines.join('\n') });
}

/** The files of a branch of `repoDir`: path → text. */
export async function readTree(repoDir: string, ref = 'refs/heads/main'): Promise<Map<string, string>> {
  const listing = await git(['ls-tree', '-r', '-z', '--name-only', ref], { cwd: repoDir });
  const files = new Map<string, string>();
  for (const name of listing.split('\0').filter(Boolean)) {
    files.set(name, await git(['show', `${ref}:${name}`], { cwd: repoDir }));
  }
  return files;
}
