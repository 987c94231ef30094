import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Config } from '../config.js';
import type { Db } from '../storage/db.js';
import { authenticate, authenticateWithSpace, type Authenticated } from '../domain/auth/service.js';
import type { PrefetchedSpace } from '../domain/context.js';
import { ID_MAX } from '../../shared/contract/common.js';
import { ForbiddenError, UnauthorizedError } from '../domain/errors.js';
import { hashToken } from '../lib/secrets.js';
import { cookieOf } from '../lib/cookies.js';
import { SESSION_COOKIE, CSRF_HEADER } from '../../shared/contract/auth.js';
import { looksLikeJwt, verifySiteToken, type SiteTokenScope } from '../domain/sites/published/site-token.js';
import {
  authenticateIntegrationToken,
  integrationRouteRefusal,
  looksLikeIntegrationToken,
  type IntegrationAccess,
} from '../domain/integrations/tokens.js';

declare module 'fastify' {
  interface FastifyRequest {
    auth: Authenticated | null;
    /** The space a read names, read with the credential (see spaceToPrefetch). */
    prefetchedSpace: PrefetchedSpace | null;
    /** The scope of a site API token (site-token.ts), on the routes that accept one; then `auth` is null. */
    siteToken: SiteTokenScope | null;
  }
  interface FastifyContextConfig {
    /** Routes reachable without a token (sign-up, sign-in, health). */
    public?: boolean;
    /**
     * Routes a renderer of published sites reads with a site API token (`POST /v1/urls/published`'s `apiToken`).
     * On every other route such a token is refused (403); these routes check its reach (site-reach.ts).
     */
    siteToken?: boolean;
    /**
     * What an integration's token (integrations/tokens.ts) may do here: the scope an installation's token needs,
     * or `own` (the integration's own installations; the service checks whose). Every other route refuses such a
     * token (403).
     */
    integrationAccess?: IntegrationAccess;
  }
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Reads of one space (GET and HEAD of a route with a `:spaceId` parameter) read that space, and the caller's
 * membership of its organization, in the statement that authenticates them: it is what they read next, and on
 * SQLite a statement costs more than its joins. Only an id the route could accept is looked up (the route's
 * schema still validates it, and answers 400 or 404 as before).
 */
function spaceToPrefetch(request: FastifyRequest): string | undefined {
  if (request.method !== 'GET' && request.method !== 'HEAD') return undefined;
  const id = (request.params as Record<string, unknown> | undefined)?.spaceId;
  return typeof id === 'string' && id.length > 0 && id.length <= ID_MAX && !id.includes('\u0000') ? id : undefined;
}

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
  app.decorateRequest('prefetchedSpace', null);
  app.decorateRequest('siteToken', null);
  const resolve = async (request: FastifyRequest, token: string, kind: 'api' | 'session') => {
    const spaceId = spaceToPrefetch(request);
    const client = { ip: request.ip, userAgent: request.headers['user-agent'] };
    if (spaceId === undefined) return authenticate(opts.db, token, kind, opts.config.sessionTtlSeconds, client);
    const found = await authenticateWithSpace(opts.db, token, kind, opts.config.sessionTtlSeconds, spaceId, client);
    if (!found) return null;
    request.prefetchedSpace = { spaceId, found: found.space, taken: false };
    return found.auth;
  };
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
      if (looksLikeJwt(match[1]!)) {
        const scope = await verifySiteToken(opts.db, match[1]!);
        // A public route is answered as to anyone when it does not read site tokens.
        if (isPublic && (!scope || config?.siteToken !== true)) return;
        if (!scope) throw new UnauthorizedError('Invalid or expired site API token');
        if (config?.siteToken !== true) {
          throw new ForbiddenError("A site API token only reads its site's published content, not this endpoint");
        }
        request.siteToken = scope;
        return;
      }
      if (looksLikeIntegrationToken(match[1]!)) {
        const actor = await authenticateIntegrationToken(opts.db, match[1]!);
        const refusal = actor ? integrationRouteRefusal(actor, config?.integrationAccess) : null;
        // A public route that does not serve integrations is answered as to anyone.
        if (isPublic && (!actor || refusal)) return;
        if (!actor) throw new UnauthorizedError('Invalid or expired integration token');
        if (refusal) throw new ForbiddenError(refusal);
        request.auth = {
          // Its own account (a member of nothing), or, for one that has none, an id that is nobody's.
          userId: actor.accountId ?? `integration:${actor.integrationName}`,
          tokenId: actor.tokenId,
          kind: 'api',
          csrfHash: null,
          sessionId: null,
          ssoProviderId: null,
          integration: { ...actor, routeScope: config?.integrationAccess },
        };
        return;
      }
      request.auth = await resolve(request, match[1]!, 'api');
      if (!request.auth && !isPublic) throw new UnauthorizedError('Invalid or revoked API token');
      return;
    }
    const session = cookieOf(request, SESSION_COOKIE);
    if (session) {
      const auth = await resolve(request, session, 'session');
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
