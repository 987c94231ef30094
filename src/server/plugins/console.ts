import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import fastifyStatic from '@fastify/static';
import { errorBody } from './errors.js';

/** Vite names what it builds under `assets/` by a hash of its content: such a URL never changes meaning. */
const HASHED = /[\\/]assets[\\/]/;

/**
 * Serves the built console (dist/console) at `/`. Any other GET outside /v1 gets index.html, so deep links
 * and reloads land on the right screen; /v1 paths keep their JSON 404.
 *
 * The build writes brotli and gzip copies beside each file (scripts/precompress.ts): a browser that accepts one
 * gets it, with `Vary: Accept-Encoding`. Hashed assets are cached for a year without revalidation; everything
 * else (index.html first) is revalidated on each use, by ETag.
 */
export async function registerConsole(app: FastifyInstance, root: string): Promise<void> {
  const index = path.join(root, 'index.html');
  const built = fs.existsSync(index);
  if (built) {
    await app.register(fastifyStatic, {
      root,
      prefix: '/',
      wildcard: true,
      index: 'index.html',
      preCompressed: true,
      setHeaders: (reply, filePath) => {
        reply.header('cache-control', HASHED.test(filePath) ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
  }
  app.setNotFoundHandler((request, reply) => {
    const pathname = request.url.split('?')[0] ?? '';
    if (request.method === 'GET' && !pathname.startsWith('/v1/') && pathname !== '/v1') {
      if (built && !path.extname(pathname)) return reply.type('text/html').sendFile('index.html');
    }
    return reply.code(404).send(errorBody(404, `No route for ${request.method} ${pathname}`));
  });
}
