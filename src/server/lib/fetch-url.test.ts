import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fetchUrl, isAllowedAddress, isPublicAddress, FetchRefusedError, FETCHES_IN_FLIGHT_MAX } from './fetch-url.js';

describe('fetching user-given URLs', () => {
  let server: http.Server;
  let base: string;
  let connections = 0;
  beforeAll(async () => {
    server = http.createServer((req, res) => {
      if (req.url === '/trickle') connections += 1;
      if (req.url === '/redirect') {
        res.writeHead(302, { location: '/file' });
        res.end();
      } else if (req.url === '/trickle') {
        // One byte every 100 ms: never idle long enough for an idle timeout, never done.
        res.writeHead(200, { 'content-type': 'application/octet-stream' });
        const timer = setInterval(() => res.write('x'), 100);
        res.on('close', () => clearInterval(timer));
      } else if (req.url === '/silent') {
        // An answer, then nothing: never done, never closed.
        res.writeHead(200, { 'content-type': 'application/octet-stream' });
        res.write('x');
      } else if (req.url === '/big') {
        res.writeHead(200, { 'content-type': 'application/octet-stream' });
        res.end(Buffer.alloc(2048));
      } else {
        res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' });
        res.end('file body');
      }
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const address = server.address();
    base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('tells public addresses from private, loopback, link-local and mapped ones', () => {
    for (const a of ['93.184.216.34', '2606:2800:220:1:248:1893:25c8:1946']) expect(isPublicAddress(a), a).toBe(true);
    for (const a of [
      '127.0.0.1',
      '10.1.2.3',
      '172.16.0.1',
      '192.168.1.1',
      '169.254.169.254',
      '::1',
      'fc00::1',
      'fe80::1',
      '::ffff:127.0.0.1',
      '::127.0.0.1',
      '::7f00:1',
      '::10.0.0.1',
      '64:ff9b::7f00:1',
      '2002:7f00:1::1',
      '::',
      '0.0.0.0',
    ]) {
      expect(isPublicAddress(a), a).toBe(false);
    }
  });

  it('refuses loopback URLs, by literal address and by name, unless allowed', async () => {
    await expect(fetchUrl(`${base}/file`, { maxBytes: 1024, allowPrivate: false })).rejects.toBeInstanceOf(
      FetchRefusedError,
    );
    const byName = base.replace('127.0.0.1', 'localhost');
    await expect(fetchUrl(`${byName}/file`, { maxBytes: 1024, allowPrivate: false })).rejects.toThrow(
      /private or local/,
    );
    const ok = await fetchUrl(`${base}/redirect`, { maxBytes: 1024, allowPrivate: true });
    expect(ok.data.toString()).toBe('file body');
    expect(ok.contentType).toBe('text/plain');
  });

  it('says the same of a name that does not resolve as of one that resolves to a private address (no DNS oracle)', async () => {
    const port = new URL(base).port;
    const answer = async (host: string) => {
      const err = await fetchUrl(`http://${host}:${port}/file`, { maxBytes: 1024, allowPrivate: false }).catch(
        (e: unknown) => e as Error,
      );
      expect(err).toBeInstanceOf(FetchRefusedError);
      return (err as Error).message.replace(host, '<host>');
    };
    const internal = await answer('localhost');
    expect(internal).toBe('<host> is unknown or resolves to a private or local address');
    expect(await answer('no-such-host.invalid')).toBe(internal);
  });

  it('refuses an IPv4-compatible IPv6 literal pointing at loopback', async () => {
    const port = new URL(base).port;
    for (const host of ['[::127.0.0.1]', '[::7f00:1]', '[::ffff:127.0.0.1]']) {
      await expect(fetchUrl(`http://${host}:${port}/file`, { maxBytes: 1024, allowPrivate: false })).rejects.toThrow(
        /private or local/,
      );
    }
  });

  it('gives up a server that stops sending, long before the overall deadline', async () => {
    const started = Date.now();
    await expect(
      fetchUrl(`${base}/silent`, { maxBytes: 1024, allowPrivate: true, idleMs: 300, deadlineMs: 30_000 }),
    ).rejects.toThrow(/sent nothing for 0\.3 s/);
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it('ends a download that trickles past its overall deadline', async () => {
    const started = Date.now();
    await expect(fetchUrl(`${base}/trickle`, { maxBytes: 1024, allowPrivate: true, deadlineMs: 700 })).rejects.toThrow(
      /did not finish within 0.7 s/,
    );
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('runs a bounded number of downloads at once; the others wait for a slot within their deadline', async () => {
    connections = 0;
    const many = Array.from({ length: FETCHES_IN_FLIGHT_MAX + 2 }, () =>
      fetchUrl(`${base}/trickle`, { maxBytes: 1024, allowPrivate: true, deadlineMs: 600 }).catch((e: Error) => e),
    );
    await new Promise((r) => setTimeout(r, 100));
    expect(connections).toBe(FETCHES_IN_FLIGHT_MAX);
    const results = await Promise.all(many);
    expect(results.every((r) => r instanceof FetchRefusedError)).toBe(true);
    // The slots are free again.
    expect((await fetchUrl(`${base}/file`, { maxBytes: 1024, allowPrivate: true })).data.toString()).toBe('file body');
  });

  it('allows only the private ranges listed, the IPv4-mapped forms of their addresses too', () => {
    const ranges = ['10.1.2.0/24', 'fd00::/8'];
    expect(isAllowedAddress('10.1.2.3', ranges)).toBe(true);
    expect(isAllowedAddress('::ffff:10.1.2.3', ranges)).toBe(true);
    expect(isAllowedAddress('fd12::1', ranges)).toBe(true);
    expect(isAllowedAddress('93.184.216.34', ranges)).toBe(true);
    for (const a of ['10.1.3.1', '127.0.0.1', '::1', '169.254.169.254', 'fe80::1']) {
      expect(isAllowedAddress(a, ranges), a).toBe(false);
    }
  });

  it('follows a redirect only to an allowed address, and says where the bytes came from', async () => {
    const port = new URL(base).port;
    // Only 127.0.0.2 allowed: its redirect to 127.0.0.1 is refused before any connection to it.
    const other = http.createServer((_req, res) => {
      res.writeHead(302, { location: `http://127.0.0.1:${port}/file` });
      res.end();
    });
    await new Promise<void>((resolve) => other.listen(0, '127.0.0.2', resolve));
    const otherPort = (other.address() as { port: number }).port;
    try {
      await expect(
        fetchUrl(`http://127.0.0.2:${otherPort}/`, { maxBytes: 1024, allowPrivate: ['127.0.0.2/32'] }),
      ).rejects.toThrow(/127\.0\.0\.1 is a private or local address/);
    } finally {
      await new Promise<void>((resolve) => other.close(() => resolve()));
    }
    const ok = await fetchUrl(`${base}/redirect`, { maxBytes: 1024, allowPrivate: ['127.0.0.0/8'] });
    expect(ok.url).toBe(`${base}/file`);
  });

  it('stops at the size limit', async () => {
    await expect(fetchUrl(`${base}/big`, { maxBytes: 1024, allowPrivate: true })).rejects.toThrow(/larger than 1024/);
  });
});
