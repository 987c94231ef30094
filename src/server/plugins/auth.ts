import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Config } from '../config.js';
import type { Db } from '../storage/db.js';
import { authenticate, type Authenticated } from '../domain/auth/service.js';
import { ForbiddenError, UnauthorizedError } from '../domain/errors.js';
import { hashToken } from '../lib/secrets.js';
import { SESSION_COOKIE, CSRF_HEADER } from '../../shared/contract/auth.js';

declare module 'fastify' {
  interface FastifyRequest {
    auth: Authenticated | null;
  }
  interface FastifyContextConfig {
    /** Routes reachable without a token (sign-up, sign-in, health). */
    public?: boolean;
  }
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** The caller of an authenticated route; routes marked public never call this. */
export function requireAuth(request: FastifyRequest): Authenticated {
  if (!request.auth) throw new UnauthorizedError();
  return request.auth;
}

/**
 * Every /v1 route needs `Authorization: Bearer <token>` or the console's session cookie, unless it is marked
 * `config: { public: true }`. Cookie-authenticated writes must also carry the CSRF header matching the
 * session, so another site cannot make a signed-in browser write.
 */
export const authPlugin = fp(async (app: FastifyInstance, opts: { db: Db; config: Config }) => {
  app.decorateRequest('auth', null);
  app.addHook('onRequest', async (request) => {
    // Unknown routes fall through to the 404 handler; public routes authenticate only if they are sent a token.
    // The matched route, not the raw URL: an encoded path (/%761/...) reaches the same route.
    // (routeOptions builds a new object on each read.)
    const { url: route, config } = request.routeOptions;
    if (route === undefined || !route.startsWith('/v1/')) return;
    const isPublic = config?.public === true;
    const header = request.headers.authorization;
    if (header !== undefined) {
      const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
      if (!match) throw new UnauthorizedError('Malformed Authorization header: expected "Bearer <token>"');
      request.auth = await authenticate(opts.db, match[1]!, 'api', opts.config.sessionTtlSeconds);
      if (!request.auth && !isPublic) throw new UnauthorizedError('Invalid or revoked API token');
      return;
    }
    const session = request.cookies[SESSION_COOKIE];
    if (session) {
      const auth = await authenticate(opts.db, session, 'session', opts.config.sessionTtlSeconds);
      if (auth && !SAFE_METHODS.has(request.method)) {
        const csrf = request.headers[CSRF_HEADER];
        if (typeof csrf !== 'string' || !auth.csrfHash || hashToken(csrf) !== auth.csrfHash) {
          // On public routes (sign-out included) a session without its CSRF header is simply not used.
          if (isPublic) return;
          throw new ForbiddenError(`Missing or wrong ${CSRF_HEADER} header for a cookie-authenticated request`);
        }
      }
      request.auth = auth;
    }
    if (!request.auth && !isPublic) throw new UnauthorizedError();
  });
});
