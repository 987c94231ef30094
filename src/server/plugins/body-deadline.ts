import { Socket } from 'node:net';
import type { IncomingMessage } from 'node:http';
import type { FastifyInstance } from 'fastify';

/**
 * How long a client may take to send a request body: REQUEST_TIMEOUT_SECONDS, plus the time its bytes take at
 * BODY_MIN_BYTES_PER_SECOND. A body trickled slower than that (a connection held open by a few bytes now and then)
 * is answered 408 and its connection closed, as Node does for headers sent too slowly; a 1 GiB import uploaded
 * steadily over a slow line is not cut off because it takes longer than the 30 s a small JSON body gets.
 *
 * Node's own `requestTimeout` counts the whole request against one fixed time, whatever its size: an upload of a
 * few hundred MB needed REQUEST_TIMEOUT_SECONDS raised for every request. It is off; `headersTimeout` keeps the
 * headers' limit, and this the body's.
 */
export const BODY_MIN_BYTES_PER_SECOND = 128 * 1024;

/** How often bodies still arriving are checked, at most (a short time limit is checked more often). */
const CHECK_MS_MAX = 1_000;

interface Arriving {
  raw: IncomingMessage;
  socket: Socket;
  started: number;
  /** The socket's bytes read when the request started (a kept-alive socket carried requests before it). */
  readBefore: number;
}

export function registerBodyDeadline(app: FastifyInstance, timeoutSeconds: number): void {
  const arriving = new Set<Arriving>();
  let timer: NodeJS.Timeout | undefined;
  const check = () => {
    const now = Date.now();
    for (const body of arriving) {
      if (body.raw.complete || body.socket.destroyed) {
        arriving.delete(body);
        continue;
      }
      const received = body.socket.bytesRead - body.readBefore;
      const allowedMs = timeoutSeconds * 1000 + (received / BODY_MIN_BYTES_PER_SECOND) * 1000;
      if (now - body.started <= allowedMs) continue;
      arriving.delete(body);
      // As Node answers a request past its time limit: nothing else will be read from this connection.
      if (!body.socket.writableEnded) {
        body.socket.end('HTTP/1.1 408 Request Timeout\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
      }
      body.socket.destroySoon();
    }
    if (!arriving.size && timer) {
      clearInterval(timer);
      timer = undefined;
    }
  };
  app.addHook('onRequest', async (request) => {
    const raw = request.raw;
    const hasBody = raw.headers['content-length'] !== undefined || raw.headers['transfer-encoding'] !== undefined;
    // A request made in process (app.inject: a script's call to our API) has its body in memory, and no socket.
    if (!hasBody || raw.complete || !(raw.socket instanceof Socket)) return;
    arriving.add({ raw, socket: raw.socket, started: Date.now(), readBefore: raw.socket.bytesRead });
    timer ??= setInterval(check, Math.min(CHECK_MS_MAX, Math.max(100, timeoutSeconds * 100))).unref();
  });
  app.addHook('onClose', async () => {
    if (timer) clearInterval(timer);
    arriving.clear();
  });
}
