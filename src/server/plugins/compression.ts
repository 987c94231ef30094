import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { negotiateCoding } from '../lib/representations.js';
import { DomainError } from '../domain/errors.js';

/** Answers shorter than this (in characters, or bytes for binary ones) go out as they are: not worth it. */
export const COMPRESS_THRESHOLD = 1024;

/** Text the API answers: JSON, text, scripts, SVG, YAML. Images, PDFs and archives are compressed already. */
const COMPRESSIBLE =
  /^(?:text\/|application\/(?:json|javascript|xml|yaml|x-yaml|[\w.-]+\+(?:json|xml))|image\/svg\+xml)/i;

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);
// Brotli at quality 4 is about as fast as gzip -6 and smaller: the right trade for answers made once each.
const BROTLI_OPTIONS = {
  params: {
    [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
    [zlib.constants.BROTLI_PARAM_QUALITY]: 4,
  },
};

function addVary(reply: FastifyReply): void {
  const vary = reply.getHeader('vary');
  if (vary === undefined) reply.header('vary', 'Accept-Encoding');
  else if (!/(?:^|,)\s*(?:accept-encoding|\*)\s*(?:,|$)/i.test(String(vary)))
    reply.header('vary', `${vary}, Accept-Encoding`);
}

/**
 * Answers of 1 KiB and more go out in brotli or gzip when the client accepts it, compressed by zlib's thread pool
 * (not on the event loop). Answers that carry their own coding (page trees, rendered pages, the console's built
 * files) and streams are sent as they are. The common case, an answer under the threshold, costs one comparison:
 * @fastify/compress read headers and negotiated on every answer, a tenth of the time of a small read.
 *
 * Compressed request bodies are refused (415): nothing a client sends is inflated.
 */
export function registerCompression(app: FastifyInstance): void {
  app.addHook('onRequest', (request, _reply, done) => {
    const coding = request.headers['content-encoding'];
    if (coding === undefined || coding.toLowerCase() === 'identity') return done();
    done(new DomainError(415, `Content-Encoding "${coding}" is not accepted: send the request body uncompressed`));
  });
  app.addHook('onSend', (request, reply, payload, done) => {
    if (typeof payload !== 'string' && !Buffer.isBuffer(payload)) return done(null, payload);
    if (payload.length < COMPRESS_THRESHOLD || reply.statusCode === 206) return done(null, payload);
    if (reply.getHeader('content-encoding') !== undefined) return done(null, payload);
    const type = reply.getHeader('content-type');
    if (typeof type !== 'string' || !COMPRESSIBLE.test(type)) return done(null, payload);
    addVary(reply);
    const coding = negotiateCoding(request.headers['accept-encoding']);
    if (coding === 'identity') return done(null, payload);
    (coding === 'br' ? brotli(payload, BROTLI_OPTIONS) : gzip(payload)).then((body) => {
      reply.header('content-encoding', coding);
      reply.header('content-length', body.length);
      done(null, body);
    }, done);
  });
}
