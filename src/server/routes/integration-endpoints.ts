import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { RouteDeps } from './context.js';
import type { DispatchDeps } from '../domain/integrations/delivery.js';
import { ENDPOINT_BODY_BYTES_MAX, serveIntegrationEndpoint } from '../domain/integrations/endpoints.js';

/**
 * Every request made to the integrations' origin (INTEGRATIONS_ORIGIN) is routed here, whatever its path, by the
 * app's `rewriteUrl` (app.ts): that origin serves integrations' endpoints (domain/integrations/endpoints.ts) and
 * nothing else of this server, neither the API nor the console, and the endpoints are served nowhere else.
 */
export const INTEGRATION_ENDPOINTS_PREFIX = '/~integration-endpoints';

/** Set on a request the app's `rewriteUrl` routed here from the integrations' host. */
const VIA_INTEGRATIONS_HOST = Symbol('via the integrations host');

/** A Host header as a browser or proxy may write it: any case, a trailing dot, the scheme's default port. */
function normalHost(host: string): string {
  return host
    .toLowerCase()
    .replace(/:(80|443)$/, '')
    .replace(/\.$/, '');
}

/** The `rewriteUrl` of the app: requests whose host is the integrations' origin's go to INTEGRATION_ENDPOINTS_PREFIX. */
export function integrationsRewrite(origin: string | undefined) {
  const host = origin ? normalHost(new URL(origin).host) : undefined;
  return (raw: { url?: string; headers: { host?: string } }): string => {
    const url = raw.url ?? '/';
    if (!host || raw.headers.host === undefined || normalHost(raw.headers.host) !== host) return url;
    (raw as Record<symbol, boolean>)[VIA_INTEGRATIONS_HOST] = true;
    return `${INTEGRATION_ENDPOINTS_PREFIX}${url}`;
  };
}

export async function integrationEndpointRoutes(
  app: FastifyInstance,
  deps: RouteDeps & { dispatch: DispatchDeps; origin: string | undefined },
) {
  // Any body, as bytes: the script reads it as the request it stands for.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: ENDPOINT_BODY_BYTES_MAX }, (_request, body, done) =>
    done(null, body),
  );
  const handler = async (request: FastifyRequest, reply: FastifyReply) => {
    // Asked for on the server's own origin (not routed here from the integrations' one, whatever the path's
    // spelling), or a path that is no path of this origin (`//host/…`): nothing here.
    const routed = (request.raw as unknown as Record<symbol, boolean>)[VIA_INTEGRATIONS_HOST] === true;
    if (!deps.origin || !routed || request.originalUrl.startsWith('//')) {
      return reply.code(404).send({ error: { code: 404, message: 'Not found' } });
    }
    // A page of this server asked for on the integrations' host (`localhost` typed for `127.0.0.1`): it is served
    // on PUBLIC_URL only, so a browser is sent there.
    if (
      !request.originalUrl.startsWith('/v1/integrations/') &&
      (request.method === 'GET' || request.method === 'HEAD')
    ) {
      return reply.redirect(`${deps.config.publicUrl}${request.originalUrl}`, 307);
    }
    const answer = await serveIntegrationEndpoint(deps.dispatch, deps.origin, {
      method: request.method,
      url: request.originalUrl,
      headers: request.headers,
      ...(Buffer.isBuffer(request.body) ? { body: request.body } : {}),
    });
    return reply.code(answer.status).headers(answer.headers).send(answer.body);
  };
  app.all(`${INTEGRATION_ENDPOINTS_PREFIX}/*`, { config: { public: true } }, handler);
  app.all(INTEGRATION_ENDPOINTS_PREFIX, { config: { public: true } }, handler);
}
