import { URLSearchParams } from 'node:url';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  samlProviderSchema,
  samlProviderListSchema,
  createSamlProviderBodySchema,
  updateSamlProviderBodySchema,
  samlProviderParamsSchema,
  samlFlowParamsSchema,
  ssoLoginListSchema,
} from '../../shared/contract/saml.js';
import { organizationParamsSchema } from '../../shared/contract/organizations.js';
import { pagedQuerySchema } from '../../shared/pagination.js';
import {
  ssoDiscoveryBodySchema,
  ssoDiscoveryResultSchema,
  ssoLinkListSchema,
  startSsoLinkBodySchema,
  startSsoLinkResultSchema,
  ssoLinkParamsSchema,
} from '../../shared/contract/identity.js';
import * as service from '../domain/sso/service.js';
import { presentSsoLink } from '../presenters/identity.js';
import { requireAuth } from '../plugins/auth.js';
import { presentSamlProvider } from '../presenters/saml.js';
import { serviceContext, type RouteDeps } from './context.js';
import { clientOf, setSessionCookies } from './auth.js';
import { clearCookie, cookieOf, setCookie } from '../lib/cookies.js';
import { hashToken, newSecret } from '../lib/secrets.js';

/** The cookie binding a SAML sign-in to the browser that started it, sent only to the flow's URLs. */
const SAML_BINDING_COOKIE = 'ds_saml';
const SAML_FLOW_PATH = '/v1/sso/saml';

/** Largest SAMLResponse accepted (base64 of a signed response with attributes). */
const SAML_RESPONSE_MAX = 256 * 1024;
const acsBodySchema = z.object({
  SAMLResponse: z.string().min(1).max(SAML_RESPONSE_MAX),
  RelayState: z.string().max(1024).optional(),
});

export async function samlRoutes(app: FastifyInstance, deps: RouteDeps) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  // Identity providers POST the response as an HTML form. Only in this plugin's scope.
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(body.toString())));
  });

  const base = '/v1/orgs/:organizationId/saml';

  /** A sign-in through a provider, done: the session's cookies, and the organization's home. */
  const signedIn = (
    request: FastifyRequest,
    reply: FastifyReply,
    providerId: string,
    result: { user: { id: string }; organizationId: string; session: { token: string; csrf: string | null } },
  ) => {
    setSessionCookies(reply, deps.config, result.session);
    request.log.info({ providerId, userId: result.user.id }, 'SAML sign-in');
    return reply.redirect(deps.urls.app(`/o/${result.organizationId}`), 303);
  };

  r.get(
    base,
    {
      schema: {
        params: organizationParamsSchema,
        querystring: pagedQuerySchema,
        response: { 200: samlProviderListSchema },
      },
    },
    async (request) => {
      const ctx = serviceContext(deps, request);
      const { organizationId } = request.params;
      const result = await service.listProviders(ctx, organizationId, request.query.page, request.query.limit);
      return { ...result, items: result.items.map((v) => presentSamlProvider(deps.urls, v)) };
    },
  );

  r.post(
    base,
    {
      schema: {
        params: organizationParamsSchema,
        body: createSamlProviderBodySchema,
        response: { 201: samlProviderSchema },
      },
    },
    async (request, reply) => {
      const ctx = serviceContext(deps, request);
      const created = await service.createProvider(ctx, request.params.organizationId, request.body);
      const body = presentSamlProvider(deps.urls, created);
      reply.header('location', body.urls.location);
      return reply.code(201).send(body);
    },
  );

  r.get(
    `${base}/:samlProviderId`,
    { schema: { params: samlProviderParamsSchema, response: { 200: samlProviderSchema } } },
    async (request) => {
      const { organizationId, samlProviderId } = request.params;
      const found = await service.getProvider(serviceContext(deps, request), organizationId, samlProviderId);
      return presentSamlProvider(deps.urls, found);
    },
  );

  r.patch(
    `${base}/:samlProviderId`,
    {
      schema: {
        params: samlProviderParamsSchema,
        body: updateSamlProviderBodySchema,
        response: { 200: samlProviderSchema },
      },
    },
    async (request) => {
      const { organizationId, samlProviderId } = request.params;
      const ctx = serviceContext(deps, request);
      const updated = await service.updateProvider(ctx, organizationId, samlProviderId, request.body);
      return presentSamlProvider(deps.urls, updated);
    },
  );

  r.delete(`${base}/:samlProviderId`, { schema: { params: samlProviderParamsSchema } }, async (request, reply) => {
    const { organizationId, samlProviderId } = request.params;
    const deleted = await service.deleteProvider(serviceContext(deps, request), organizationId, samlProviderId);
    return reply.code(deleted ? 205 : 204).send();
  });

  // An organization's providers, for its members (see service.listLogins).
  r.get(
    '/v1/orgs/:organizationId/sso',
    { schema: { params: organizationParamsSchema, response: { 200: ssoLoginListSchema } } },
    async (request) => ({
      items: await service.listLogins(serviceContext(deps, request), request.params.organizationId),
    }),
  );

  // Sign-in discovery by e-mail address (public: the sign-in page asks it).
  r.post(
    '/v1/auth/sso-discovery',
    { config: { public: true }, schema: { body: ssoDiscoveryBodySchema, response: { 200: ssoDiscoveryResultSchema } } },
    async (request) => ({ items: await service.discover(deps.db, deps.urls, request.body.email) }),
  );

  // Linking a provider to one's own account.
  r.get('/v1/user/sso-links', { schema: { response: { 200: ssoLinkListSchema } } }, async (request) => ({
    items: (await service.listIdentities(serviceContext(deps, request))).map(presentSsoLink),
  }));

  r.post(
    '/v1/user/sso-links',
    { schema: { body: startSsoLinkBodySchema, response: { 200: startSsoLinkResultSchema } } },
    async (request) => {
      const ctx = serviceContext(deps, request);
      const redirectURL = await service.startLink(
        ctx,
        requireAuth(request),
        request.body.provider,
        request.body.password,
      );
      return { redirectURL };
    },
  );

  r.delete('/v1/user/sso-links/:providerId', { schema: { params: ssoLinkParamsSchema } }, async (request, reply) => {
    const removed = await service.unlink(serviceContext(deps, request), request.params.providerId);
    return reply.code(removed ? 205 : 204).send();
  });

  // The browser-facing flow of one provider.

  r.get(
    '/v1/sso/saml/:samlProviderId/start',
    { config: { public: true }, schema: { params: samlFlowParamsSchema } },
    async (request, reply) => {
      // The sign-in completes only in this browser: a secret in a cookie, its hash with the request.
      const binding = newSecret();
      const providerId = request.params.samlProviderId;
      const url = await service.startUrl(deps.db, deps.urls, providerId, 'signin', null, hashToken(binding));
      setCookie(reply, SAML_BINDING_COOKIE, binding, {
        path: SAML_FLOW_PATH,
        httpOnly: true,
        secure: deps.config.publicUrl.startsWith('https://'),
        maxAge: 10 * 60,
      });
      return reply.redirect(url, 302);
    },
  );

  // The browser, sent here by the ACS URL: the sign-in is completed if this browser started it.
  r.get(
    '/v1/sso/saml/:samlProviderId/complete',
    {
      config: { public: true },
      schema: { params: samlFlowParamsSchema, querystring: z.object({ c: z.string().min(1).max(128) }) },
    },
    async (request, reply) => {
      const providerId = request.params.samlProviderId;
      const result = await loggingRefusals(request, providerId, () =>
        service.completeSignIn(
          deps.db,
          deps.config,
          providerId,
          request.query.c,
          cookieOf(request, SAML_BINDING_COOKIE),
          clientOf(request),
        ),
      );
      clearCookie(reply, SAML_BINDING_COOKIE, SAML_FLOW_PATH);
      return signedIn(request, reply, providerId, result);
    },
  );

  r.get(
    '/v1/sso/saml/:samlProviderId/metadata',
    { config: { public: true }, schema: { params: samlFlowParamsSchema } },
    async (request, reply) => {
      const xml = await service.metadata(deps.db, deps.urls, request.params.samlProviderId);
      return reply.type('application/samlmetadata+xml').send(xml);
    },
  );

  r.post(
    '/v1/sso/saml/:samlProviderId/acs',
    { config: { public: true }, schema: { params: samlFlowParamsSchema, body: acsBodySchema } },
    async (request, reply) => {
      const providerId = request.params.samlProviderId;
      const result = await loggingRefusals(request, providerId, () =>
        service.acs(deps.db, deps.config, deps.urls, providerId, request.body.SAMLResponse, clientOf(request)),
      );
      if (result.kind === 'link') {
        request.log.info({ providerId, userId: result.user.id }, 'SAML provider linked');
        return reply.redirect(deps.urls.app(`/account?linked=${encodeURIComponent(providerId)}`), 303);
      }
      if (result.kind === 'complete') {
        const id = encodeURIComponent(providerId);
        const complete = `/sso/saml/${id}/complete?c=${encodeURIComponent(result.completionId)}`;
        return reply.redirect(deps.urls.api(complete), 303);
      }
      return signedIn(request, reply, providerId, result);
    },
  );
}

/** Runs a step of a provider's flow, logging why a response is refused (the refusal is answered as it is). */
async function loggingRefusals<T>(request: FastifyRequest, providerId: string, step: () => Promise<T>): Promise<T> {
  try {
    return await step();
  } catch (err) {
    if (err instanceof service.SsoRefusedError) {
      request.log.warn({ providerId, reason: err.message }, 'SAML sign-in refused');
    }
    throw err;
  }
}
