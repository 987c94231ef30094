import net from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDialect, startTestServer, type TestServer } from '../test/harness.js';

/** Sends raw bytes on one connection and collects what comes back until the server closes it. */
function rawConnection(url: string) {
  const { hostname, port } = new URL(url);
  const socket = net.connect(Number(port), hostname);
  let received = '';
  socket.on('data', (d) => (received += d.toString()));
  const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
  socket.on('error', () => undefined);
  return { socket, closed, received: () => received };
}

describeEachDialect('request lifecycle', (dialect) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(dialect, { requestTimeoutSeconds: 1 });
  });
  afterAll(() => server.close());

  it('answers 408 and closes the connection when a body is trickled past the request time limit', async () => {
    const started = Date.now();
    const c = rawConnection(server.url);
    c.socket.write(
      'POST /v1/auth/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"em',
    );
    // One byte a few hundred milliseconds apart: never idle, never finished.
    const trickle = setInterval(() => c.socket.write('a'), 300);
    await c.closed;
    clearInterval(trickle);
    expect(c.received()).toMatch(/^HTTP\/1\.1 408/);
    expect(Date.now() - started).toBeLessThan(10_000);
    // The server still serves everyone else.
    expect((await server.request('GET', '/v1/health', { token: null })).status).toBe(200);
  });

  it('lets a large body sent steadily take longer than the time limit, and still limits headers sent too slowly', async () => {
    // 640 KB at about 320 KB/s: twice the 1 s limit, well above the minimum rate (BODY_MIN_BYTES_PER_SECOND).
    const size = 640 * 1024;
    const c = rawConnection(server.url);
    const started = Date.now();
    c.socket.write(
      `POST /v1/auth/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${size}\r\nConnection: close\r\n\r\n`,
    );
    const body = Buffer.alloc(size, ' ');
    body.write('{"email":"slow@example.com","password":"not-this-one"}');
    for (let sent = 0; sent < size; sent += 32 * 1024) {
      c.socket.write(body.subarray(sent, sent + 32 * 1024));
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    await c.closed;
    expect(Date.now() - started).toBeGreaterThan(1_500);
    // Read whole and answered: the credentials are wrong, nothing timed out.
    expect(c.received()).toMatch(/^HTTP\/1\.1 401/);

    const h = rawConnection(server.url);
    h.socket.write('GET /v1/health HTTP/1.1\r\nHost: x\r\n');
    const trickle = setInterval(() => h.socket.write('X-A: b\r\n'), 300);
    await h.closed;
    clearInterval(trickle);
    expect(h.received()).toMatch(/^HTTP\/1\.1 408/);
  });
});
