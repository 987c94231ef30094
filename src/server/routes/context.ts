import type { FastifyRequest } from 'fastify';
import type { Config } from '../config.js';
import type { Db } from '../storage/db.js';
import type { Urls } from '../lib/urls.js';
import type { ServiceContext } from '../domain/context.js';
import type { Actor } from '../domain/permissions/resolver.js';
import { requireAuth } from '../plugins/auth.js';
import type { TxtLookup } from '../lib/dns.js';

/** What every route module is built with. */
export interface RouteDeps {
  db: Db;
  urls: Urls;
  config: Config;
  /** TXT look-ups for e-mail domain verification (through DNS_SERVERS when set). */
  txt: TxtLookup;
}

/** The caller of a public route, when it sent a credential. */
export function optionalActor(request: FastifyRequest): Actor | undefined {
  return request.auth ? { userId: request.auth.userId, ssoProviderId: request.auth.ssoProviderId } : undefined;
}

/** The authenticated caller's service context (401 when there is none). */
export function serviceContext(deps: RouteDeps, request: FastifyRequest): ServiceContext {
  const auth = requireAuth(request);
  return {
    db: deps.db,
    urls: deps.urls,
    actor: {
      userId: auth.userId,
      ssoProviderId: auth.ssoProviderId,
      ...(auth.integration ? { integration: auth.integration } : {}),
    },
    prefetched: request.prefetchedSpace ?? undefined,
  };
}
