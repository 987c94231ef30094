import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import fastifyStatic from '@fastify/static';
import { errorBody } from './errors.js';
import { requestOrigin } from '../lib/urls.js';

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
  const policy = consolePolicy(built ? fs.readFileSync(index, 'utf8') : '');
  if (built) {
    await app.register(fastifyStatic, {
      root,
      prefix: '/',
      wildcard: true,
      index: 'index.html',
      preCompressed: true,
      setHeaders: (reply, filePath) => {
        reply.header('cache-control', HASHED.test(filePath) ? 'public, max-age=31536000, immutable' : 'no-cache');
        if (path.basename(filePath) === 'index.html') {
          reply.header('content-security-policy', policy(requestOrigin(reply.request)));
        }
      },
    });
  }
  app.setNotFoundHandler((request, reply) => {
    const pathname = request.url.split('?')[0] ?? '';
    if (request.method === 'GET' && !pathname.startsWith('/v1/') && pathname !== '/v1') {
      if (built && !path.extname(pathname)) {
        return reply
          .type('text/html')
          .header('content-security-policy', policy(requestOrigin(request)))
          .sendFile('index.html');
      }
    }
    return reply.code(404).send(errorBody(404, `No route for ${request.method} ${pathname}`));
  });
}

/**
 * The console's Content-Security-Policy, for the origin it is read from: scripts from the console's built files
 * (`/assets/`, not the whole origin, where users' files and integration scripts are served too) and the inline
 * script of index.html (the theme before the first paint, allowed by its hash), only integration blocks' webframes
 * framed (sandboxed) and no framing (`frame-ancestors 'none'`), requests to this origin only. Images may come from any https address (organization
 * logos, avatars, pictures in pages); styles may be inline (Radix sets them while positioning menus and dialogs).
 */
export function consolePolicy(html: string): (origin: string) => string {
  const hashes = [...html.matchAll(/<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/gi)].map(
    (m) => `'sha256-${createHash('sha256').update(m[1]!).digest('base64')}'`,
  );
  return (origin) =>
    [
      "default-src 'self'",
      `script-src ${origin}/assets/ ${hashes.join(' ')}`.trim(),
      "style-src 'self' 'unsafe-inline'",
      "img-src 'self' https: data: blob:",
      "connect-src 'self'",
      "font-src 'self'",
      // Integration blocks' webframes (shared/contentkit.ts: sandboxed, from the integrations' origin or any address).
      'frame-src http: https:',
      "object-src 'none'",
      "base-uri 'self'",
      "form-action 'self'",
      "frame-ancestors 'none'",
    ].join('; ');
}
