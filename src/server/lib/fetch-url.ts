import dns from 'node:dns';
import { flatHeaders } from './headers.js';
import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';
import { semaphore } from './semaphore.js';

/**
 * Fetches a user-given URL for its bytes. Addresses that are not public unicast (loopback, private ranges,
 * link-local, unique-local, multicast, ...) are refused unless the operator allows them. The check runs in the
 * connection's own DNS lookup, so the address checked is the address connected to, for every redirect too.
 */
export class FetchRefusedError extends Error {
  constructor(
    message: string,
    /** The HTTP status the server answered, when that is why. */
    readonly status?: number,
  ) {
    super(message);
  }
}

/**
 * Which non-public addresses may be fetched: none (`false`, the default), all (`true`), or those in these CIDR
 * ranges (`10.1.2.0/24`, `fd00::/8`), say an intranet wiki to import from.
 */
export type PrivateAddresses = boolean | readonly string[];

export interface FetchOptions {
  maxBytes: number;
  allowPrivate: PrivateAddresses;
  /** The whole fetch (waiting for a slot, connecting, redirects, the body) must end within this time. */
  deadlineMs?: number;
  maxRedirects?: number;
  /** Request headers (a User-Agent, Accept). */
  headers?: Record<string, string>;
  /** Ends the fetch early (with the signal's reason) when aborted: a caller's own overall deadline. */
  signal?: AbortSignal;
  /** The server may send nothing (no answer, no bytes of the body) for at most this long: FETCH_IDLE_MS. */
  idleMs?: number;
  /** Writes the body to this file as it arrives (then `data` is empty): a large download is never held whole. */
  writeTo?: string;
}

export interface FetchResult {
  /** The body (empty when it went to `writeTo`). */
  data: Buffer;
  size: number;
  contentType?: string;
  /** The URL the bytes came from, after redirects. */
  url: string;
}

/** Downloads one process runs at once; more wait for a slot (their deadline runs while they wait). */
export const FETCHES_IN_FLIGHT_MAX = 8;
/** The deadline of a whole fetch, by default. */
export const FETCH_DEADLINE_MS = 15_000;
/**
 * A server that sends nothing for this long is given up, whatever the overall deadline: a source that stalls
 * must not hold a download slot (or an import's) for the whole of it.
 */
export const FETCH_IDLE_MS = 20_000;

/** IPv6 global unicast: 2000::/3. Everything else (IPv4-compatible ::a.b.c.d, NAT64, ...) is not public. */
const GLOBAL_UNICAST = ipaddr.parseCIDR('2000::/3');

export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  let parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) {
    parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  }
  if (parsed.kind() === 'ipv6' && !(parsed as ipaddr.IPv6).match(GLOBAL_UNICAST as [ipaddr.IPv6, number])) {
    return false;
  }
  return parsed.range() === 'unicast';
}

/** Whether `address` may be connected to under `allowPrivate`. */
export function isAllowedAddress(address: string, allowPrivate: PrivateAddresses): boolean {
  if (allowPrivate === true || isPublicAddress(address)) return true;
  if (allowPrivate === false || !ipaddr.isValid(address)) return false;
  let parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) {
    parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  }
  return allowPrivate.some((range) => {
    const cidr = ipaddr.parseCIDR(range);
    return cidr[0].kind() === parsed.kind() && parsed.match(cidr);
  });
}

/** At most FETCHES_IN_FLIGHT_MAX downloads at once in this process. */
const acquireSlot = semaphore(FETCHES_IN_FLIGHT_MAX);

function guardedLookup(allowPrivate: PrivateAddresses): LookupFunction {
  return (hostname, options, callback) => {
    dns.lookup(hostname, { all: true, family: options.family }, (err, addresses) => {
      // A name that does not resolve and one that resolves to a private address get the same answer: two would
      // tell a tenant which internal names exist (a DNS oracle).
      const refused =
        err || addresses.length === 0 || addresses.some((a) => !isAllowedAddress(a.address, allowPrivate));
      if (refused) {
        return callback(
          new FetchRefusedError(`${hostname} is unknown or resolves to a private or local address`),
          '',
          0,
        );
      }
      if (options.all) return (callback as unknown as (e: null, a: typeof addresses) => void)(null, addresses);
      return callback(null, addresses[0]!.address, addresses[0]!.family);
    });
  };
}

export async function fetchUrl(url: string, options: FetchOptions): Promise<FetchResult> {
  const deadlineMs = options.deadlineMs ?? FETCH_DEADLINE_MS;
  const controller = new AbortController();
  const timer = setTimeout(
    () => controller.abort(new FetchRefusedError(`the download did not finish within ${deadlineMs / 1000} s`)),
    deadlineMs,
  );
  const outer = options.signal;
  const onOuterAbort = () => controller.abort(outer!.reason);
  if (outer?.aborted) onOuterAbort();
  else outer?.addEventListener('abort', onOuterAbort, { once: true });
  let release: (() => void) | undefined;
  const idleMs = options.idleMs ?? FETCH_IDLE_MS;
  let idle: NodeJS.Timeout | undefined;
  /** Something arrived (the answer, a chunk): the server has another idleMs to send more. */
  const touch = () => {
    clearTimeout(idle);
    idle = setTimeout(
      () => controller.abort(new FetchRefusedError(`the server sent nothing for ${idleMs / 1000} s`)),
      idleMs,
    );
  };
  try {
    release = await acquireSlot(controller.signal);
    touch();
    return await fetchWithin(url, options, controller.signal, touch);
  } finally {
    clearTimeout(idle);
    clearTimeout(timer);
    outer?.removeEventListener('abort', onOuterAbort);
    release?.();
  }
}

async function fetchWithin(
  url: string,
  options: FetchOptions,
  signal: AbortSignal,
  touch: () => void,
): Promise<FetchResult> {
  const { maxBytes, allowPrivate, maxRedirects = 3 } = options;
  let current = new URL(url);
  for (let hop = 0; hop <= maxRedirects; hop++) {
    if (current.protocol !== 'http:' && current.protocol !== 'https:')
      throw new FetchRefusedError('only http and https URLs');
    // A literal IP never goes through DNS: check it here.
    const host = current.hostname.replace(/^\[|\]$/g, '');
    if (ipaddr.isValid(host) && !isAllowedAddress(host, allowPrivate)) {
      throw new FetchRefusedError(`${host} is a private or local address`);
    }
    // The signal destroys the request, and the response being read, when the deadline passes.
    const response = await new Promise<http.IncomingMessage>((resolve, reject) => {
      const client = current.protocol === 'https:' ? https : http;
      const request = client.get(
        current,
        { lookup: guardedLookup(allowPrivate), signal, ...(options.headers ? { headers: options.headers } : {}) },
        resolve,
      );
      request.on('error', (err) => reject(signal.aborted ? (signal.reason as Error) : err));
    });
    touch();
    const status = response.statusCode ?? 0;
    if (status >= 300 && status < 400 && response.headers.location) {
      response.resume();
      current = new URL(response.headers.location, current);
      continue;
    }
    if (status < 200 || status >= 300) {
      response.resume();
      throw new FetchRefusedError(`the server answered ${status}`, status);
    }
    const declared = Number(response.headers['content-length']);
    if (declared > maxBytes) {
      response.destroy();
      throw new FetchRefusedError(`the file is larger than ${maxBytes} bytes`);
    }
    const chunks: Buffer[] = [];
    const file = options.writeTo ? createWriteStream(options.writeTo) : undefined;
    let size = 0;
    try {
      for await (const chunk of response) {
        touch();
        size += (chunk as Buffer).length;
        if (size > maxBytes) {
          response.destroy();
          throw new FetchRefusedError(`the file is larger than ${maxBytes} bytes`);
        }
        if (!file) chunks.push(chunk as Buffer);
        else if (!file.write(chunk)) await once(file, 'drain', { signal });
      }
      if (file)
        await new Promise<void>((resolve, reject) => file.end((err?: Error | null) => (err ? reject(err) : resolve())));
    } catch (err) {
      file?.destroy();
      throw signal.aborted ? (signal.reason as Error) : err;
    }
    const contentType = response.headers['content-type']?.split(';')[0]?.trim();
    return { data: Buffer.concat(chunks), size, ...(contentType ? { contentType } : {}), url: current.href };
  }
  throw new FetchRefusedError('too many redirects');
}

export interface RequestResult {
  status: number;
  headers: Record<string, string>;
  data: Buffer;
}

/**
 * One HTTP request to a user-given URL, any method, with the same address rules as fetchUrl (checked in the
 * connection's own lookup), answered whatever its status (redirects are not followed: the caller sees them), its
 * body at most `maxBytes`. For sandboxed scripts' outgoing requests (integrations' egress).
 */
export async function requestUrl(
  url: string,
  options: {
    method: string;
    headers: Record<string, string>;
    body?: Buffer | undefined;
    maxBytes: number;
    allowPrivate: PrivateAddresses;
    deadlineMs: number;
  },
): Promise<RequestResult> {
  const target = new URL(url);
  if (target.protocol !== 'http:' && target.protocol !== 'https:')
    throw new FetchRefusedError('only http and https URLs');
  const host = target.hostname.replace(/^\[|\]$/g, '');
  if (ipaddr.isValid(host) && !isAllowedAddress(host, options.allowPrivate)) {
    throw new FetchRefusedError(`${host} is a private or local address`);
  }
  const signal = AbortSignal.timeout(options.deadlineMs);
  const release = await acquireSlot(signal);
  try {
    const response = await new Promise<http.IncomingMessage>((resolve, reject) => {
      const client = target.protocol === 'https:' ? https : http;
      const request = client.request(
        target,
        { method: options.method, headers: options.headers, lookup: guardedLookup(options.allowPrivate), signal },
        resolve,
      );
      request.on('error', (err) =>
        reject(signal.aborted ? new FetchRefusedError(`no answer within ${options.deadlineMs / 1000} s`) : err),
      );
      request.end(options.body);
    });
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of response) {
      size += (chunk as Buffer).length;
      if (size > options.maxBytes) {
        response.destroy();
        throw new FetchRefusedError(`the answer is larger than ${options.maxBytes} bytes`);
      }
      chunks.push(chunk as Buffer);
    }
    return { status: response.statusCode ?? 502, headers: flatHeaders(response.headers), data: Buffer.concat(chunks) };
  } finally {
    release();
  }
}
