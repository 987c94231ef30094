import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { promises as dns } from 'node:dns';
import { mkdir, stat } from 'node:fs/promises';
import os from 'node:os';
import ipaddr from 'ipaddr.js';
import { isAllowedAddress, type PrivateAddresses } from './fetch-url.js';
import { semaphore } from './semaphore.js';

/**
 * Git, run as the `git` program (git ≥ 2.37, Debian's in our images): fetches stream packs to disk instead of
 * the JavaScript heap, and shallow fetches, tree listings and commits of large repositories take milliseconds
 * (measured against isomorphic-git in docs/design/git-sync.md, 3–40× faster).
 *
 * Every run is hardened, because the repository URL and its content are a tenant's:
 * - no configuration but ours: no system or user config, no hooks, no credential helper, no prompt;
 * - only https (and http where the operator allows private addresses, as tests on loopback do), no redirects,
 *   no proxy from the environment;
 * - the host is resolved here and refused unless every address is public (or allowed, as the guarded fetch
 *   decides), then pinned (`http.curloptResolve`) so git connects to the address that was checked;
 * - the token goes in an `Authorization` header through the environment (GIT_CONFIG_*), never in arguments, the
 *   URL, the cache's config or an error message;
 * - a time limit per command, a low-speed limit on transfers, and a cap on the output read.
 */
export class GitError extends Error {
  constructor(
    message: string,
    /** What went wrong, as a sync reports it: credentials, a branch or repository that is not there, ... */
    readonly kind: 'auth' | 'not-found' | 'refused' | 'timeout' | 'too-large' | 'rejected' | 'failed',
  ) {
    super(message);
  }
}

/** A repository to fetch from or push to: its URL without credentials, and the token that opens it. */
export interface GitRemote {
  url: string;
  /** Sent as HTTP Basic's password (any user name works with GitHub, GitLab, Gitea and Forgejo tokens). */
  token?: string;
  username?: string;
}

export interface GitSettings {
  allowPrivate: PrivateAddresses;
  /** Each network command must end within this time. */
  networkTimeoutMs?: number;
}

/** Network commands (fetch, push, ls-remote) one process runs at once; more wait. */
export const GIT_NETWORK_IN_FLIGHT_MAX = 4;
const NETWORK_TIMEOUT_MS = 120_000;
const LOCAL_TIMEOUT_MS = 60_000;
/** The most a command may print that is read (a tree listing of 50,000 files is about 5 MB). */
const OUTPUT_MAX_BYTES = 64 * 1024 * 1024;

const acquireNetworkSlot = semaphore(GIT_NETWORK_IN_FLIGHT_MAX);

/** A remote's URL with its credentials taken out (the contract lets them be written in it). */
export function splitCredentials(url: string): GitRemote {
  const parsed = new URL(url);
  const username = decodeURIComponent(parsed.username);
  const token = decodeURIComponent(parsed.password);
  parsed.username = '';
  parsed.password = '';
  return {
    url: parsed.toString(),
    ...(token ? { token, ...(username ? { username } : {}) } : username ? { token: username } : {}),
  };
}

interface RunOptions {
  gitDir?: string;
  input?: Buffer | string;
  env?: Record<string, string>;
  config?: Array<[string, string]>;
  timeoutMs?: number;
}

interface RunResult {
  stdout: Buffer;
  stderr: string;
  code: number;
}

function baseEnv(options: RunOptions): NodeJS.ProcessEnv {
  const config: Array<[string, string]> = [
    ['core.hooksPath', '/dev/null'],
    ['credential.helper', ''],
    ['core.askPass', ''],
    ['protocol.file.allow', 'never'],
    ['http.followRedirects', 'false'],
    ['http.lowSpeedLimit', '1000'],
    ['http.lowSpeedTime', '20'],
    ['core.quotePath', 'false'],
    ...(options.config ?? []),
  ];
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: os.tmpdir(),
    LC_ALL: 'C',
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: '/dev/null',
    GIT_TERMINAL_PROMPT: '0',
    GIT_ASKPASS: 'true',
    GIT_CONFIG_COUNT: String(config.length),
    ...options.env,
  };
  config.forEach(([key, value], i) => {
    env[`GIT_CONFIG_KEY_${i}`] = key;
    env[`GIT_CONFIG_VALUE_${i}`] = value;
  });
  if (options.gitDir) env.GIT_DIR = options.gitDir;
  return env;
}

/** Runs git; resolves with what it printed whatever its exit code (callers read the code). */
function run(args: string[], options: RunOptions = {}): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn('git', args, { env: baseEnv(options), stdio: ['pipe', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    let size = 0;
    let failure: GitError | undefined;
    const timeoutMs = options.timeoutMs ?? LOCAL_TIMEOUT_MS;
    const timer = setTimeout(() => {
      failure = new GitError(`git ${args[0]} did not finish within ${timeoutMs / 1000} s`, 'timeout');
      child.kill('SIGKILL');
    }, timeoutMs);
    child.stdout.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > OUTPUT_MAX_BYTES) {
        failure ??= new GitError(`git ${args[0]} printed more than ${OUTPUT_MAX_BYTES} bytes`, 'too-large');
        child.kill('SIGKILL');
        return;
      }
      out.push(chunk);
    });
    child.stderr.on('data', (chunk: Buffer) => {
      if (err.length < 256) err.push(chunk);
    });
    child.stdin.on('error', () => undefined);
    child.on('error', (e) => {
      clearTimeout(timer);
      reject(
        (e as NodeJS.ErrnoException).code === 'ENOENT'
          ? new GitError('git is not installed on the server (install the git package)', 'failed')
          : e,
      );
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      if (failure) return reject(failure);
      resolve({ stdout: Buffer.concat(out), stderr: Buffer.concat(err).toString('utf8'), code: code ?? 1 });
    });
    child.stdin.end(options.input ?? '');
  });
}

/** Runs git and fails with its message unless it succeeded. */
async function ok(args: string[], options: RunOptions = {}): Promise<Buffer> {
  const result = await run(args, options);
  if (result.code !== 0) throw new GitError(`git ${args[0]}: ${firstLine(result.stderr)}`, 'failed');
  return result.stdout;
}

function firstLine(text: string): string {
  return (
    text
      .split('\n')
      .map((l) => l.replace(/^(fatal|error|remote): /, '').trim())
      .find(Boolean) ?? 'failed'
  );
}

/** The error a network command's failure is reported as; its message names no secret. */
function networkError(stderr: string, what: string): GitError {
  if (/Authentication failed|could not read Username|terminal prompts disabled|returned error: 40[13]/i.test(stderr))
    return new GitError(`${what}: the repository refused the credentials (check the token and its access)`, 'auth');
  if (/couldn't find remote ref|Remote branch .* not found/i.test(stderr))
    return new GitError(`${what}: the branch does not exist in the repository`, 'not-found');
  if (/not found|returned error: 404|does not appear to be a git repository/i.test(stderr))
    return new GitError(`${what}: no repository at this URL`, 'not-found');
  if (/Could not resolve host|Failed to connect|Connection refused|timed out|Operation too slow/i.test(stderr))
    return new GitError(`${what}: the repository's server could not be reached`, 'failed');
  return new GitError(`${what}: ${firstLine(stderr)}`, 'failed');
}

/**
 * The configuration a network command runs with: the host checked and pinned, the protocols allowed, the token
 * as a header. Throws GitError('refused') for a URL that is not http(s) or a host that is not allowed.
 */
async function remoteConfig(
  remote: GitRemote,
  settings: GitSettings,
): Promise<{ env: Record<string, string>; config: Array<[string, string]> }> {
  let url: URL;
  try {
    url = new URL(remote.url);
  } catch {
    throw new GitError('the repository URL is not a URL', 'refused');
  }
  const allowHttp = settings.allowPrivate !== false;
  if (url.protocol !== 'https:' && !(allowHttp && url.protocol === 'http:'))
    throw new GitError('the repository URL must start with https://', 'refused');
  if (url.username || url.password) throw new GitError('credentials go in the token, not the URL', 'refused');
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const port = url.port || (url.protocol === 'https:' ? '443' : '80');
  let addresses: string[];
  if (ipaddr.isValid(host)) addresses = [host];
  else {
    addresses = await dns.lookup(host, { all: true }).then(
      (found) => found.map((a) => a.address),
      () => [],
    );
  }
  // A name that does not resolve and one that resolves to a private address get the same answer (no DNS oracle).
  if (!addresses.length || addresses.some((a) => !isAllowedAddress(a, settings.allowPrivate))) {
    throw new GitError(`${host} is unknown or resolves to a private or local address`, 'refused');
  }
  const pinned = addresses[0]!.includes(':') ? `[${addresses[0]}]` : addresses[0]!;
  const config: Array<[string, string]> = [];
  if (!ipaddr.isValid(host)) config.push(['http.curloptResolve', `${host}:${port}:${pinned}`]);
  if (remote.token) {
    const basic = Buffer.from(`${remote.username ?? 'x-access-token'}:${remote.token}`).toString('base64');
    config.push(['http.extraHeader', `Authorization: Basic ${basic}`]);
  }
  return { env: { GIT_ALLOW_PROTOCOL: allowHttp ? 'https:http' : 'https' }, config };
}

/** One tree entry of a commit: a file's path, its blob id and size. */
export interface GitTreeEntry {
  path: string;
  oid: string;
  size: number;
}

/** A file change to commit: new bytes, or `null` to remove it. */
export type GitFileChange = Buffer | string | null;

export interface GitIdentity {
  name: string;
  email: string;
}

/** A bare repository on this server's disk: the cache a space's sync fetches into and commits from. */
export class GitRepository {
  private constructor(
    readonly dir: string,
    private readonly settings: GitSettings,
  ) {}

  /** The bare repository at `dir`, created when missing. */
  static async open(dir: string, settings: GitSettings): Promise<GitRepository> {
    const exists = await stat(`${dir}/HEAD`).then(
      () => true,
      () => false,
    );
    if (!exists) {
      await mkdir(dir, { recursive: true });
      await ok(['init', '--quiet', '--bare', dir]);
    }
    return new GitRepository(dir, settings);
  }

  private async network(what: string, remote: GitRemote, args: string[]): Promise<RunResult> {
    const { env, config } = await remoteConfig(remote, this.settings);
    const timeoutMs = this.settings.networkTimeoutMs ?? NETWORK_TIMEOUT_MS;
    // Waiting for a slot counts in the command's time.
    const release = await acquireNetworkSlot(AbortSignal.timeout(timeoutMs)).catch(() => {
      throw new GitError(`${what}: the server is busy with other Git transfers, try again`, 'timeout');
    });
    try {
      return await run(args, {
        gitDir: this.dir,
        env,
        config,
        timeoutMs,
      }).catch((err: unknown) => {
        if (err instanceof GitError && err.kind === 'timeout') throw new GitError(`${what}: ${err.message}`, 'timeout');
        throw err;
      });
    } finally {
      release();
    }
  }

  /** The commit a branch of the remote points at, or undefined when it has no such branch (one small request). */
  async remoteHead(remote: GitRemote, branch: string): Promise<string | undefined> {
    const result = await this.network('Reading the repository', remote, [
      'ls-remote',
      '--heads',
      remote.url,
      `refs/heads/${branch}`,
    ]);
    if (result.code !== 0) throw networkError(result.stderr, 'Reading the repository');
    return /^([0-9a-f]{40,64})\t/m.exec(result.stdout.toString('utf8'))?.[1];
  }

  /**
   * Fetches the tip of `ref` (a branch name or `refs/…`) shallowly (its tree only, not the history) into
   * `refs/sync/head`, and returns its commit id.
   */
  async fetch(remote: GitRemote, ref: string): Promise<string> {
    const source = ref.startsWith('refs/') ? ref : `refs/heads/${ref}`;
    const result = await this.network('Fetching the repository', remote, [
      'fetch',
      '--quiet',
      '--no-tags',
      '--no-write-fetch-head',
      '--depth=1',
      remote.url,
      `+${source}:refs/sync/head`,
    ]);
    if (result.code !== 0) throw networkError(result.stderr, 'Fetching the repository');
    return (await ok(['rev-parse', '--verify', 'refs/sync/head^{commit}'], { gitDir: this.dir })).toString().trim();
  }

  /** Whether the commit is in this repository. */
  async has(commit: string): Promise<boolean> {
    const result = await run(['cat-file', '-e', `${commit}^{commit}`], { gitDir: this.dir });
    return result.code === 0;
  }

  /** The files of `commit` under `folder` (`''`: all), paths relative to it. Symbolic links and submodules are left out. */
  async files(commit: string, folder = ''): Promise<GitTreeEntry[]> {
    const prefix = folder ? `${folder.replace(/\/+$/, '')}/` : '';
    const out = await ok(['ls-tree', '-r', '-l', '-z', '--full-tree', commit, ...(prefix ? ['--', prefix] : [])], {
      gitDir: this.dir,
    });
    const entries: GitTreeEntry[] = [];
    for (const line of out.toString('utf8').split('\0')) {
      // <mode> SP <type> SP <object> SP+ <size> TAB <path>
      const match = /^(\d+) (\w+) ([0-9a-f]+) +(-|\d+)\t(.*)$/s.exec(line);
      if (!match || match[2] !== 'blob' || match[1] === '120000') continue;
      entries.push({ path: match[5]!.slice(prefix.length), oid: match[3]!, size: Number(match[4]) });
    }
    return entries;
  }

  /** The commit's message and author. */
  async commitInfo(commit: string): Promise<{ message: string; author: string }> {
    const out = (await ok(['show', '-s', '--format=%an <%ae>%x00%B', commit], { gitDir: this.dir })).toString('utf8');
    const [author, message] = out.split('\0');
    return { author: author ?? '', message: (message ?? '').trim() };
  }

  /** A blob's bytes as git reads them out (a large file is never held whole). */
  async *blobStream(oid: string): AsyncGenerator<Buffer> {
    if (!/^[0-9a-f]{40,64}$/.test(oid)) throw new GitError(`${oid} is not an object id`, 'failed');
    const child = spawn('git', ['cat-file', 'blob', oid], { env: baseEnv({ gitDir: this.dir }) });
    child.stderr.resume();
    const closed = new Promise<number>((resolve) => child.on('close', (code) => resolve(code ?? 1)));
    try {
      for await (const chunk of child.stdout) yield chunk as Buffer;
      if ((await closed) !== 0) throw new GitError(`git cat-file: no blob ${oid}`, 'failed');
    } finally {
      child.kill();
    }
  }

  /** A reader of blobs by id, one `git cat-file --batch` for all of them; close it when done. */
  blobs(): GitBlobReader {
    return new GitBlobReader(this.dir);
  }

  /**
   * A new commit on `parent` (none: the first) with `files` changed (paths from the repository's root), written
   * by one `git fast-import` into `refs/sync/commit`, without a work tree. Returns its id.
   */
  async commit(options: {
    parent?: string;
    files: Map<string, GitFileChange>;
    message: string;
    author: GitIdentity;
    committer?: GitIdentity;
  }): Promise<string> {
    await fastImport(this.dir, { ref: 'refs/sync/commit', ...options });
    return (await ok(['rev-parse', 'refs/sync/commit'], { gitDir: this.dir })).toString().trim();
  }

  /**
   * Pushes `commit` to the remote's branch without forcing: resolves 'rejected' when the branch has moved on
   * (someone pushed since the commit's parent), so that the caller imports first.
   */
  async push(remote: GitRemote, commit: string, branch: string): Promise<'pushed' | 'rejected'> {
    const result = await this.network('Pushing to the repository', remote, [
      'push',
      '--porcelain',
      '--quiet',
      remote.url,
      `${commit}:refs/heads/${branch}`,
    ]);
    const report = result.stdout.toString('utf8');
    if (/^!\t.*\[(rejected|remote rejected)\].*(non-fast-forward|fetch first|stale info)/m.test(report))
      return 'rejected';
    if (/^!\t/m.test(report)) {
      const reason = /^!\t[^\t]*\t(.*)$/m.exec(report)?.[1] ?? 'refused';
      throw new GitError(`Pushing to the repository: the repository refused the commit (${reason})`, 'rejected');
    }
    if (result.code !== 0) throw networkError(result.stderr, 'Pushing to the repository');
    return 'pushed';
  }
}

/** A name or e-mail as a commit header holds it: no angle brackets nor line breaks. */
function identityPart(text: string): string {
  return text.replace(/[<>\n\r\0]/g, '').trim();
}

/** A commit written by `git fast-import` into `ref` of the bare repository `gitDir`. */
export async function fastImport(
  gitDir: string,
  options: {
    ref: string;
    parent?: string;
    files: Map<string, GitFileChange>;
    message: string;
    author: GitIdentity;
    committer?: GitIdentity;
    /** Start from an empty tree instead of the parent's. */
    replace?: boolean;
  },
): Promise<void> {
  const when = `${Math.floor(Date.now() / 1000)} +0000`;
  const who = (id: GitIdentity) => `${identityPart(id.name) || 'Unknown'} <${identityPart(id.email)}> ${when}`;
  const message = Buffer.from(options.message);
  const parts: Buffer[] = [
    Buffer.from(
      `${options.parent ? '' : `reset ${options.ref}\n`}commit ${options.ref}\nauthor ${who(options.author)}\ncommitter ${who(options.committer ?? options.author)}\n` +
        `data ${message.length}\n`,
    ),
    message,
    Buffer.from(`\n${options.parent ? `from ${options.parent}\n` : ''}${options.replace ? 'deleteall\n' : ''}`),
  ];
  for (const [path, content] of options.files) {
    if (!path || path.startsWith('/') || path.split('/').some((s) => s === '..' || s === '.' || s === '.git')) {
      throw new GitError(`${path}: not a path a commit can hold`, 'refused');
    }
    // C-style quoting, as fast-import reads it, for paths with quotes, backslashes or line breaks.
    const quoted = /[\n"\\]/.test(path) || path.startsWith('"') ? JSON.stringify(path) : path;
    if (content === null) {
      parts.push(Buffer.from(`D ${quoted}\n`));
      continue;
    }
    const bytes = typeof content === 'string' ? Buffer.from(content) : content;
    parts.push(Buffer.from(`M 100644 inline ${quoted}\ndata ${bytes.length}\n`), bytes, Buffer.from('\n'));
  }
  parts.push(Buffer.from('\n'));
  // A ref written before (an earlier commit of this cache) is replaced: --force lets fast-import move it anywhere.
  await ok(['fast-import', '--quiet', '--force'], { gitDir, input: Buffer.concat(parts) });
}

/** Blobs read by id through one `git cat-file --batch`, one request at a time, in order. */
export class GitBlobReader {
  private child: ChildProcessWithoutNullStreams | undefined;
  private buffer: Buffer = Buffer.alloc(0);
  private waiting: Array<{ resolve: (b: Buffer | undefined) => void; reject: (e: Error) => void }> = [];
  private failed: Error | undefined;

  constructor(private readonly gitDir: string) {}

  private start(): ChildProcessWithoutNullStreams {
    if (this.child) return this.child;
    const child = spawn('git', ['cat-file', '--batch'], {
      env: baseEnv({ gitDir: this.gitDir }),
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    child.stdout.on('data', (chunk: Buffer) => {
      this.buffer = this.buffer.length ? Buffer.concat([this.buffer, chunk]) : chunk;
      this.drain();
    });
    child.stderr.resume();
    child.stdin.on('error', () => undefined);
    const fail = (err: Error) => {
      this.failed = err;
      for (const w of this.waiting.splice(0)) w.reject(err);
    };
    child.on('error', fail);
    child.on('close', () => fail(new GitError('git cat-file stopped', 'failed')));
    this.child = child;
    return child;
  }

  private drain(): void {
    while (this.waiting.length) {
      const newline = this.buffer.indexOf(10);
      if (newline < 0) return;
      const header = this.buffer.subarray(0, newline).toString('latin1');
      if (header.endsWith(' missing') || header.endsWith(' ambiguous')) {
        this.buffer = this.buffer.subarray(newline + 1);
        this.waiting.shift()!.resolve(undefined);
        continue;
      }
      const size = Number(header.split(' ')[2]);
      if (this.buffer.length < newline + 1 + size + 1) return;
      const content = Buffer.from(this.buffer.subarray(newline + 1, newline + 1 + size));
      this.buffer = this.buffer.subarray(newline + 1 + size + 1);
      this.waiting.shift()!.resolve(content);
    }
  }

  /** The blob's bytes, or undefined when the repository has no such object. */
  read(oid: string): Promise<Buffer | undefined> {
    if (!/^[0-9a-f]{40,64}$/.test(oid)) return Promise.reject(new GitError(`${oid} is not an object id`, 'failed'));
    if (this.failed) return Promise.reject(this.failed);
    const child = this.start();
    return new Promise((resolve, reject) => {
      this.waiting.push({ resolve, reject });
      child.stdin.write(`${oid}\n`);
    });
  }

  close(): void {
    this.waiting.splice(0);
    this.child?.stdin.end();
    this.child?.kill();
    this.child = undefined;
  }
}

/** The version of the installed git, or undefined when there is none (checked at start-up, said in the log). */
export async function gitVersion(): Promise<string | undefined> {
  try {
    const out = await ok(['--version']);
    return /git version (\S+)/.exec(out.toString())?.[1];
  } catch {
    return undefined;
  }
}
