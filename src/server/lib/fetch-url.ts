import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';

/**
 * Fetches a user-given URL for its bytes. Addresses that are not public unicast (loopback, private ranges,
 * link-local, unique-local, multicast, ...) are refused unless the operator allows them. The check runs in the
 * connection's own DNS lookup, so the address checked is the address connected to, for every redirect too.
 */
export class FetchRefusedError extends Error {}

export interface FetchOptions {
  maxBytes: number;
  allowPrivate: boolean;
  timeoutMs?: number;
  maxRedirects?: number;
}

export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  let parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) {
    parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  }
  return parsed.range() === 'unicast';
}

function guardedLookup(allowPrivate: boolean): LookupFunction {
  return (hostname, options, callback) => {
    dns.lookup(hostname, { all: true, family: options.family }, (err, addresses) => {
      if (err) return callback(err, '', 0);
      const refused = addresses.find((a) => !allowPrivate && !isPublicAddress(a.address));
      if (refused || addresses.length === 0) {
        return callback(new FetchRefusedError(`${hostname} resolves to a private or local address`), '', 0);
      }
      if (options.all) return (callback as unknown as (e: null, a: typeof addresses) => void)(null, addresses);
      return callback(null, addresses[0]!.address, addresses[0]!.family);
    });
  };
}

export async function fetchUrl(url: string, options: FetchOptions): Promise<{ data: Buffer; contentType?: string }> {
  const { maxBytes, allowPrivate, timeoutMs = 10_000, maxRedirects = 3 } = options;
  let current = new URL(url);
  for (let hop = 0; hop <= maxRedirects; hop++) {
    if (current.protocol !== 'http:' && current.protocol !== 'https:')
      throw new FetchRefusedError('only http and https URLs');
    // A literal IP never goes through DNS: check it here.
    const host = current.hostname.replace(/^\[|\]$/g, '');
    if (ipaddr.isValid(host) && !allowPrivate && !isPublicAddress(host)) {
      throw new FetchRefusedError(`${host} is a private or local address`);
    }
    const response = await new Promise<http.IncomingMessage>((resolve, reject) => {
      const client = current.protocol === 'https:' ? https : http;
      const request = client.get(current, { lookup: guardedLookup(allowPrivate), timeout: timeoutMs }, resolve);
      request.on('timeout', () => request.destroy(new FetchRefusedError('the server took too long to answer')));
      request.on('error', reject);
    });
    const status = response.statusCode ?? 0;
    if (status >= 300 && status < 400 && response.headers.location) {
      response.resume();
      current = new URL(response.headers.location, current);
      continue;
    }
    if (status < 200 || status >= 300) {
      response.resume();
      throw new FetchRefusedError(`the server answered ${status}`);
    }
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of response) {
      size += (chunk as Buffer).length;
      if (size > maxBytes) {
        response.destroy();
        throw new FetchRefusedError(`the file is larger than ${maxBytes} bytes`);
      }
      chunks.push(chunk as Buffer);
    }
    const contentType = response.headers['content-type']?.split(';')[0]?.trim();
    return { data: Buffer.concat(chunks), ...(contentType ? { contentType } : {}) };
  }
  throw new FetchRefusedError('too many redirects');
}
