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
});
