import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  signupBodySchema,
  loginBodySchema,
  authResultSchema,
  apiTokenListSchema,
  createTokenBodySchema,
  createdTokenSchema,
  SESSION_COOKIE,
  CSRF_COOKIE,
} from '../../shared/contract/auth.js';
import { userSchema } from '../../shared/contract/common.js';
import { pagedQuerySchema } from '../../shared/pagination.js';
import * as auth from '../domain/auth/service.js';
import { findUserById } from '../storage/repos/users.js';
import * as tokens from '../storage/repos/tokens.js';
import { keysetPage } from '../storage/pagination.js';
import { presentUser, presentToken } from '../presenters/user.js';
import { NotFoundError } from '../domain/errors.js';
import { requireAuth } from '../plugins/auth.js';
import type { RouteDeps } from './context.js';

export async function authRoutes(app: FastifyInstance, deps: RouteDeps) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const secure = deps.config.publicUrl.startsWith('https://');

  function setSessionCookies(reply: FastifyReply, session: { token: string; csrf: string | null }) {
    const maxAge = deps.config.sessionTtlSeconds;
    reply.setCookie(SESSION_COOKIE, session.token, { path: '/', httpOnly: true, sameSite: 'lax', secure, maxAge });
    // Readable by the console, which echoes it in the CSRF header.
    reply.setCookie(CSRF_COOKIE, session.csrf ?? '', { path: '/', httpOnly: false, sameSite: 'lax', secure, maxAge });
  }

  r.post(
    '/v1/auth/signup',
    { config: { public: true }, schema: { body: signupBodySchema, response: { 201: authResultSchema } } },
    async (request, reply) => {
      const result = await auth.signup(deps.db, deps.config, request.body);
      setSessionCookies(reply, result.session);
      return reply.code(201).send({ user: presentUser(deps.urls, result.user), token: result.token });
    },
  );

  r.post(
    '/v1/auth/login',
    { config: { public: true }, schema: { body: loginBodySchema, response: { 200: authResultSchema } } },
    async (request, reply) => {
      const result = await auth.login(deps.db, deps.config, request.body, request.ip);
      setSessionCookies(reply, result.session);
      return { user: presentUser(deps.urls, result.user), token: result.token };
    },
  );

  r.post('/v1/auth/logout', { config: { public: true } }, async (request, reply) => {
    if (request.auth?.kind === 'session') await auth.logout(deps.db, request.auth);
    reply.clearCookie(SESSION_COOKIE, { path: '/' });
    reply.clearCookie(CSRF_COOKIE, { path: '/' });
    return reply.code(204).send();
  });

  r.get('/v1/user', { schema: { response: { 200: userSchema } } }, async (request) => {
    const user = await findUserById(deps.db, requireAuth(request).userId);
    if (!user) throw new NotFoundError('User not found');
    return presentUser(deps.urls, user);
  });

  r.get(
    '/v1/user/tokens',
    { schema: { querystring: pagedQuerySchema, response: { 200: apiTokenListSchema } } },
    async (request) => {
      const { userId } = requireAuth(request);
      const page = await keysetPage({
        page: request.query.page,
        limit: request.query.limit,
        arity: 1,
        rows: (after, take) => tokens.listUserTokens(deps.db, userId, after, take),
        count: () => tokens.countUserTokens(deps.db, userId),
        key: (row) => [row.id],
      });
      return { ...page, items: page.items.map(presentToken) };
    },
  );

  r.post(
    '/v1/user/tokens',
    { schema: { body: createTokenBodySchema, response: { 201: createdTokenSchema } } },
    async (request, reply) => {
      const created = await auth.createApiToken(deps.db, requireAuth(request).userId, request.body.label);
      return reply.code(201).send({ ...presentToken(created.row), token: created.token });
    },
  );

  r.delete(
    '/v1/user/tokens/:tokenId',
    { schema: { params: z.object({ tokenId: z.string().min(1).max(64) }) } },
    async (request, reply) => {
      const revoked = await auth.revokeToken(deps.db, requireAuth(request).userId, request.params.tokenId);
      return reply.code(revoked ? 205 : 204).send();
    },
  );
}
