import { spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import { createRequire } from 'node:module';
import fs from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import type { Readable } from 'node:stream';
import { FetchRefusedError, requestUrl, type PrivateAddresses, type RequestResult } from '../../lib/fetch-url.js';
import { processFiles } from './config.js';
import { flatHeaders } from '../../lib/headers.js';

/**
 * Runs integrations' scripts in Cloudflare's workerd, supervised (docs/design/integrations-runtime.md). workerd
 * enforces no CPU or memory limit and one endless loop freezes its whole process, so each process hosts one
 * published version of one integration for one organization: what one organization's use of an integration does
 * can only stall that process. Every invocation has a deadline; a process that misses it is killed (SIGKILL: a
 * spinning workerd ignores SIGTERM) and started afresh on next use. Processes start on first use and stop after
 * a while unused; at most `processesMax` idle ones are kept. A script reaches nothing but the egress server here:
 * our API (answered in process) and public addresses (the guarded fetch's rules), or nothing when egress is off.
 */

export interface ProcessKey {
  integration: string;
  version: number;
  organizationId: string;
}

export interface Invocation {
  /** The event (JSON), with its `eventId` and `type`. */
  event: { eventId: string; type: string } & Record<string, unknown>;
  /** The `IntegrationEnvironment` (JSON). */
  environment: Record<string, unknown>;
  /** The original request's body of a `fetch` event (never for a GET). */
  fetchBody?: Buffer;
  /** The script must answer within this time, or its process is killed. */
  deadlineMs: number;
}

export interface LogLine {
  level: string;
  message: string;
  timestamp?: number;
}

export interface InvocationResult {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
  durationMs: number;
  /** What the script logged (console.*) and the exceptions it threw, as far as they arrived in time. */
  logs: LogLine[];
}

/** The script did not answer in time, or its process died: the event may be tried again. */
export class RuntimeError extends Error {}

export interface EgressRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: Buffer | undefined;
  /** Whose script sent it. */
  from: ProcessKey;
}

/**
 * The client address our API sees for a script's requests: one of the documentation range (2001:db8::/32, never a
 * real client) per integration and organization, so that per-address limits (sign-in attempts, admission) count
 * each script apart, neither together with each other nor with whatever reaches the server from loopback.
 */
export function sandboxClientAddress(key: ProcessKey): string {
  const hex = crypto.createHash('sha256').update(`${key.organizationId}/${key.integration}`).digest('hex');
  return `2001:db8:${hex.slice(0, 24).match(/.{4}/g)!.join(':')}`;
}

export interface RuntimeOptions {
  /** Largest V8 heap of a process (MB); past it the process aborts, taking only its own integration down. */
  heapMb?: number;
  /** Processes kept running; past it the least recently used idle one stops. */
  processesMax?: number;
  /** A process unused this long stops. */
  idleMs?: number;
  /** `false`: scripts reach nothing outside (our API still). */
  egress?: boolean;
  /** Host names scripts may reach (`example.com`, `*.example.com`); empty: any public host. */
  egressAllow?: readonly string[];
  /** Non-public addresses scripts may reach (tests: loopback); none by default. */
  allowPrivate?: PrivateAddresses;
  /** Requests to our own API (their origin), answered in this process, never over the network. */
  api?: { origin: string; handle(request: EgressRequest): Promise<RequestResult> };
  /** How a process's start, stop and failures are told. */
  log?: (level: 'info' | 'warn', message: string) => void;
  /** The workerd binary (default: the `workerd` package's). */
  workerdPath?: string;
}

const EGRESS_BYTES_MAX = 5 * 1024 * 1024;
/** Largest answer of a script read (a render, an HTTP response). */
const RESPONSE_BYTES_MAX = 10 * 1024 * 1024;
const EGRESS_DEADLINE_MS = 15_000;
const START_DEADLINE_MS = 15_000;
/** After the script answered, how long its logs may take to arrive from the tail worker. */
const LOGS_WAIT_MS = 150;
const STOP_GRACE_MS = 10_000;

interface Proc {
  id: string;
  key: ProcessKey;
  dir: string;
  child: ChildProcess;
  secret: string;
  ready: Promise<number>;
  port?: number;
  lastUsed: number;
  inFlight: number;
  /** Logs received from the tail worker, by event id, until their invocation takes them. */
  logs: Map<string, LogLine[]>;
  waiters: Map<string, () => void>;
  exited: boolean;
}

const keyOf = (k: ProcessKey) => `${k.organizationId}/${k.integration}@${k.version}`;

/** The workerd binary of the `workerd` npm package (its platform package's, which it names). */
function defaultWorkerd(): string {
  const require = createRequire(import.meta.url);
  return (require('workerd') as { default: string }).default;
}

function hostAllowed(host: string, allow: readonly string[]): boolean {
  if (!allow.length) return true;
  const h = host.toLowerCase();
  return allow.some((pattern) => {
    const p = pattern.toLowerCase();
    return p.startsWith('*.') ? h.endsWith(p.slice(1)) : h === p;
  });
}

const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'content-length', 'host', 'upgrade']);

async function readBody(stream: Readable, max: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    size += (chunk as Buffer).length;
    if (size > max) throw new FetchRefusedError(`the request is larger than ${max} bytes`);
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

/**
 * The body GitBook's dispatcher sends a script (`multipart/form-data`: `event`, `environment`, and `fetch-body` for
 * a `fetch` event that has one), encoded whole: to the sandbox, or to a `gitbook dev` tunnel.
 */
export async function encodeDispatch(
  invocation: Pick<Invocation, 'event' | 'environment' | 'fetchBody'>,
): Promise<{ contentType: string; bytes: Buffer }> {
  const form = new FormData();
  form.set('event', JSON.stringify(invocation.event));
  form.set('environment', JSON.stringify(invocation.environment));
  if (invocation.fetchBody) form.set('fetch-body', new Blob([new Uint8Array(invocation.fetchBody)]));
  const encoded = new Response(form);
  return { contentType: encoded.headers.get('content-type')!, bytes: Buffer.from(await encoded.arrayBuffer()) };
}

export class IntegrationRuntime {
  private readonly procs = new Map<string, Proc>();
  private readonly bySecret = new Map<string, Proc>();
  private readonly egressServer: http.Server;
  private egressPort?: Promise<number>;
  private readonly sweeper: NodeJS.Timeout;
  private closed = false;
  private readonly workerd: string;

  constructor(private readonly options: RuntimeOptions = {}) {
    this.workerd = options.workerdPath ?? defaultWorkerd();
    this.egressServer = http.createServer((req, res) => {
      this.onEgress(req, res).catch((err: unknown) => {
        if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' });
        res.end(`egress failed: ${(err as Error).message}`);
      });
    });
    this.sweeper = setInterval(() => this.sweep(), Math.min(30_000, this.idleMs)).unref();
  }

  private get idleMs() {
    return this.options.idleMs ?? 5 * 60_000;
  }

  /** Running processes (for health and tests). */
  processes(): Array<{ key: ProcessKey; pid: number | undefined; inFlight: number }> {
    return [...this.procs.values()].map((p) => ({ key: p.key, pid: p.child.pid, inFlight: p.inFlight }));
  }

  /** Sends one event to the script of `key` (started from `script` when no process runs it) and waits its answer. */
  async invoke(key: ProcessKey, script: () => Promise<string>, invocation: Invocation): Promise<InvocationResult> {
    if (this.closed) throw new RuntimeError('the integrations runtime is stopped');
    const proc = await this.processFor(key, script);
    proc.inFlight += 1;
    proc.lastUsed = Date.now();
    const started = performance.now();
    const eventId = invocation.event.eventId;
    const logsArrived = new Promise<void>((resolve) => proc.waiters.set(eventId, resolve));
    try {
      const port = await withDeadline(proc.ready, START_DEADLINE_MS, 'the runtime did not start');
      // Encoded whole and written at once: a script may answer before reading the body (then the rest of a
      // streamed upload would meet a closed socket); an answer counts, whatever happens to the upload after it.
      const { contentType, bytes } = await encodeDispatch(invocation);
      const controller = new AbortController();
      let timedOut = false;
      const timer = setTimeout(() => {
        timedOut = true;
        controller.abort();
      }, invocation.deadlineMs);
      let status: number;
      let headers: Record<string, string>;
      let body: Buffer;
      try {
        const response = await new Promise<http.IncomingMessage>((resolve, reject) => {
          const request = http.request(
            {
              host: '127.0.0.1',
              port,
              path: `/v1?event=${encodeURIComponent(eventId)}`,
              method: 'POST',
              headers: { 'content-type': contentType, 'content-length': bytes.length },
              signal: controller.signal,
            },
            resolve,
          );
          request.on('error', reject);
          request.end(bytes);
        });
        status = response.statusCode ?? 502;
        headers = flatHeaders(response.headers);
        body = await readBody(response, RESPONSE_BYTES_MAX);
      } catch (err) {
        // A spinning or wedged script keeps its process for itself: it goes, the next use starts a new one.
        this.kill(proc, timedOut ? 'missed its deadline' : 'stopped answering');
        throw new RuntimeError(
          timedOut
            ? `the integration did not answer within ${invocation.deadlineMs / 1000} s`
            : `the integration's runtime stopped (${(err as Error).message})`,
        );
      } finally {
        clearTimeout(timer);
      }
      const durationMs = performance.now() - started;
      await Promise.race([logsArrived, new Promise((r) => setTimeout(r, LOGS_WAIT_MS))]);
      return { status, headers, body, durationMs, logs: proc.logs.get(eventId) ?? [] };
    } finally {
      proc.waiters.delete(eventId);
      proc.logs.delete(eventId);
      proc.inFlight -= 1;
      proc.lastUsed = Date.now();
    }
  }

  /** Stops every process (SIGTERM, then SIGKILL) and the egress server. */
  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.sweeper);
    await Promise.all([...this.procs.values()].map((p) => this.stop(p)));
    await new Promise<void>((resolve) => this.egressServer.close(() => resolve()));
  }

  private listenEgress(): Promise<number> {
    this.egressPort ??= new Promise<number>((resolve, reject) => {
      this.egressServer.once('error', reject);
      this.egressServer.listen(0, '127.0.0.1', () => {
        const address = this.egressServer.address();
        resolve(typeof address === 'object' && address ? address.port : 0);
      });
    });
    return this.egressPort;
  }

  private async processFor(key: ProcessKey, script: () => Promise<string>): Promise<Proc> {
    const existing = this.procs.get(keyOf(key));
    if (existing && !existing.exited) return existing;
    // Another version of the same integration for the same organization is outdated now: it drains and goes.
    for (const p of this.procs.values()) {
      if (
        p.key.integration === key.integration &&
        p.key.organizationId === key.organizationId &&
        p.key.version !== key.version
      ) {
        void this.stop(p);
      }
    }
    this.evictIdle(1);
    const egressPort = await this.listenEgress();
    const again = this.procs.get(keyOf(key));
    if (again && !again.exited) return again;
    const secret = crypto.randomBytes(24).toString('base64url');
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'ds-integration-'));
    const files = processFiles({ script: await script(), secret, egressPort, heapMb: this.options.heapMb ?? 128 });
    for (const [name, content] of Object.entries(files))
      await fs.writeFile(path.join(dir, name), content, { mode: 0o600 });
    const child = spawn(this.workerd, ['serve', 'config.capnp', '--control-fd=3'], {
      cwd: dir,
      stdio: ['ignore', 'pipe', 'pipe', 'pipe'],
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin' },
    });
    const proc: Proc = {
      id: crypto.randomUUID(),
      key,
      dir,
      child,
      secret,
      ready: undefined as unknown as Promise<number>,
      lastUsed: Date.now(),
      inFlight: 0,
      logs: new Map(),
      waiters: new Map(),
      exited: false,
    };
    let output = '';
    const keep = (chunk: Buffer) => {
      output = (output + chunk.toString('utf8')).slice(-4000);
    };
    child.stdout!.on('data', keep);
    child.stderr!.on('data', keep);
    proc.ready = new Promise<number>((resolve, reject) => {
      const control = readline.createInterface({ input: child.stdio[3] as Readable });
      control.on('line', (line) => {
        try {
          const message = JSON.parse(line) as { event?: string; socket?: string; port?: number };
          if (message.event === 'listen' && message.socket === 'http' && message.port) {
            proc.port = message.port;
            resolve(message.port);
          }
        } catch {
          // not a control message
        }
      });
      child.once('exit', (code, signal) => {
        proc.exited = true;
        this.forget(proc);
        reject(new RuntimeError(`the runtime exited (${signal ?? code}): ${output.trim().slice(-500)}`));
        if (!this.closed && signal !== 'SIGKILL' && signal !== 'SIGTERM') {
          this.options.log?.(
            'warn',
            `integration ${keyOf(key)}: runtime exited (${signal ?? code}): ${output.trim().slice(-300)}`,
          );
        }
        void fs.rm(dir, { recursive: true, force: true });
      });
      child.once('error', (err) => reject(new RuntimeError(`the runtime could not start: ${err.message}`)));
    });
    proc.ready.catch(() => undefined);
    this.procs.set(keyOf(key), proc);
    this.bySecret.set(secret, proc);
    this.options.log?.('info', `integration ${keyOf(key)}: runtime started (pid ${child.pid})`);
    return proc;
  }

  private forget(proc: Proc) {
    if (this.procs.get(keyOf(proc.key)) === proc) this.procs.delete(keyOf(proc.key));
    this.bySecret.delete(proc.secret);
    for (const wake of proc.waiters.values()) wake();
  }

  private kill(proc: Proc, why: string) {
    if (proc.exited) return;
    this.options.log?.('warn', `integration ${keyOf(proc.key)}: runtime killed, it ${why}`);
    this.forget(proc);
    proc.child.kill('SIGKILL');
  }

  /** Drains a process: SIGTERM lets requests in flight finish; a process still there after the grace is killed. */
  private stop(proc: Proc): Promise<void> {
    this.forget(proc);
    if (proc.exited) return Promise.resolve();
    return new Promise<void>((resolve) => {
      const timer = setTimeout(() => proc.child.kill('SIGKILL'), STOP_GRACE_MS);
      proc.child.once('exit', () => {
        clearTimeout(timer);
        resolve();
      });
      proc.child.kill('SIGTERM');
    });
  }

  /** Stops idle processes so that `room` more fit under the cap, least recently used first. */
  private evictIdle(room: number) {
    const max = this.options.processesMax ?? 16;
    const idle = [...this.procs.values()].filter((p) => p.inFlight === 0).sort((a, b) => a.lastUsed - b.lastUsed);
    while (this.procs.size + room > max && idle.length) void this.stop(idle.shift()!);
  }

  private sweep() {
    const now = Date.now();
    for (const p of this.procs.values()) {
      if (p.inFlight === 0 && now - p.lastUsed > this.idleMs) void this.stop(p);
    }
  }

  /** A request from a process's outbound or tail worker. */
  private async onEgress(req: http.IncomingMessage, res: http.ServerResponse) {
    const secret = req.headers['x-egress-secret'];
    const proc = typeof secret === 'string' ? this.bySecret.get(secret) : undefined;
    if (!proc) {
      res.writeHead(403).end();
      return;
    }
    if (req.url === '/logs') {
      const items = JSON.parse((await readBody(req, EGRESS_BYTES_MAX)).toString('utf8')) as Array<{
        url: string | null;
        logs: LogLine[];
        exceptions: string[];
      }>;
      for (const item of items) {
        const eventId = item.url ? new URL(item.url).searchParams.get('event') : null;
        if (!eventId || !proc.waiters.has(eventId)) continue;
        const lines = [...item.logs, ...item.exceptions.map((message) => ({ level: 'error', message }))];
        proc.logs.set(eventId, [...(proc.logs.get(eventId) ?? []), ...lines].slice(0, 500));
        proc.waiters.get(eventId)!();
      }
      res.writeHead(204).end();
      return;
    }
    const url = String(req.headers['x-egress-url'] ?? '');
    const method = String(req.headers['x-egress-method'] ?? 'GET');
    const headers = flatHeaders(req.headers, (name) => name.startsWith('x-egress-') || HOP_BY_HOP.has(name));
    const body = method === 'GET' || method === 'HEAD' ? undefined : await readBody(req, EGRESS_BYTES_MAX);
    // A refusal or a failure to connect is no answer: the outbound worker makes the script's fetch() fail with it.
    const answer = await this.egress({ method, url, headers, body, from: proc.key }).catch((err: unknown) => ({
      status: err instanceof FetchRefusedError ? 403 : 502,
      headers: { 'content-type': 'text/plain; charset=utf-8', 'x-egress-error': '1' },
      data: Buffer.from(
        err instanceof FetchRefusedError
          ? `Refused by the integrations egress: ${err.message}`
          : `The request failed: ${(err as Error).message}`,
      ),
    }));
    res.writeHead(
      answer.status,
      flatHeaders(answer.headers, (name) => HOP_BY_HOP.has(name)),
    );
    res.end(answer.data);
  }

  private async egress(request: EgressRequest): Promise<RequestResult> {
    let target: URL;
    try {
      target = new URL(request.url);
    } catch {
      throw new FetchRefusedError('not a URL');
    }
    const api = this.options.api;
    if (api && target.origin === new URL(api.origin).origin) return api.handle(request);
    if (this.options.egress === false) throw new FetchRefusedError('outgoing requests are turned off on this server');
    if (!hostAllowed(target.hostname, this.options.egressAllow ?? [])) {
      throw new FetchRefusedError(`${target.hostname} is not in this server's allow-list`);
    }
    return requestUrl(request.url, {
      method: request.method,
      headers: request.headers,
      body: request.body,
      maxBytes: EGRESS_BYTES_MAX,
      allowPrivate: this.options.allowPrivate ?? false,
      deadlineMs: EGRESS_DEADLINE_MS,
    });
  }
}

function withDeadline<T>(promise: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    promise,
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new RuntimeError(message)), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}
