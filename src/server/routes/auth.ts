import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  signupBodySchema,
  loginBodySchema,
  authResultSchema,
  apiTokenListSchema,
  createTokenBodySchema,
  createdTokenSchema,
  tokenParamsSchema,
  SESSION_COOKIE,
  CSRF_COOKIE,
} from '../../shared/contract/auth.js';
import { userSchema } from '../../shared/contract/common.js';
import { pagedQuerySchema } from '../../shared/pagination.js';
import * as auth from '../domain/auth/service.js';
import { presentUser, presentToken } from '../presenters/user.js';
import { requireAuth } from '../plugins/auth.js';
import { clearCookie, setCookie } from '../lib/cookies.js';
import type { Config } from '../config.js';
import type { RouteDeps } from './context.js';
import * as account from '../domain/auth/account.js';
import * as recovery from '../domain/auth/recovery.js';
import * as verification from '../domain/auth/verification.js';
import { mailSettings } from '../domain/mail/outbox.js';
import {
  passwordResetRequestSchema,
  passwordResetCheckSchema,
  passwordResetCheckResultSchema,
  passwordResetCompleteSchema,
  passwordResetResultSchema,
  verifyEmailBodySchema,
  verifyEmailResultSchema,
  changeEmailBodySchema,
} from '../../shared/contract/account.js';
import { emptyObjectSchema } from '../../shared/contract/common.js';

/** The console's session cookies (sign-in with a password, sign-up and SAML sign-in). */
export function setSessionCookies(
  reply: FastifyReply,
  config: Config,
  session: { token: string; csrf: string | null },
): void {
  const secure = config.publicUrl.startsWith('https://');
  const maxAge = config.sessionTtlSeconds;
  setCookie(reply, SESSION_COOKIE, session.token, { path: '/', httpOnly: true, secure, maxAge });
  // Readable by the console, which echoes it in the CSRF header.
  setCookie(reply, CSRF_COOKIE, session.csrf ?? '', { path: '/', httpOnly: false, secure, maxAge });
}

/** What a sign-in records of the client (shown in the account's sessions). */
export function clientOf(request: FastifyRequest): auth.SignInClient {
  return { ip: request.ip, userAgent: request.headers['user-agent'] };
}

export async function authRoutes(app: FastifyInstance, deps: RouteDeps) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.post(
    '/v1/auth/signup',
    { config: { public: true }, schema: { body: signupBodySchema, response: { 201: authResultSchema } } },
    async (request, reply) => {
      const result = await auth.signup(deps.db, deps.config, request.body, clientOf(request));
      setSessionCookies(reply, deps.config, result.session);
      return reply.code(201).send({ user: presentUser(deps.urls, result.user), token: result.token });
    },
  );

  r.post(
    '/v1/auth/login',
    { config: { public: true }, schema: { body: loginBodySchema, response: { 200: authResultSchema } } },
    async (request, reply) => {
      const result = await auth.login(deps.db, deps.config, request.body, request.ip, request.headers['user-agent']);
      setSessionCookies(reply, deps.config, result.session);
      return { user: presentUser(deps.urls, result.user), token: result.token };
    },
  );

  // Forgotten passwords (domain/auth/recovery.ts). The request answers 202 and the same body whatever the address.
  r.post(
    '/v1/auth/password-reset',
    { config: { public: true }, schema: { body: passwordResetRequestSchema, response: { 202: emptyObjectSchema } } },
    async (request, reply) => {
      await recovery.requestPasswordReset(deps.db, request.body.email, request.ip);
      return reply.code(202).send({});
    },
  );

  r.post(
    '/v1/auth/password-reset/check',
    {
      config: { public: true },
      schema: { body: passwordResetCheckSchema, response: { 200: passwordResetCheckResultSchema } },
    },
    async (request) => {
      const result = await recovery.checkPasswordReset(deps.db, request.body.token);
      return { email: result.email, tokens: result.tokens.map(presentToken) };
    },
  );

  r.post(
    '/v1/auth/password-reset/complete',
    {
      config: { public: true },
      schema: { body: passwordResetCompleteSchema, response: { 200: passwordResetResultSchema } },
    },
    async (request, reply) => {
      const result = await recovery.completePasswordReset(
        deps.db,
        deps.config,
        mailSettings(deps.config),
        request.body,
        clientOf(request),
      );
      setSessionCookies(reply, deps.config, result.session);
      return {
        user: presentUser(deps.urls, result.user),
        token: result.token,
        signedOut: result.signedOut,
        revokedTokens: result.revokedTokens,
        remainingTokens: result.remainingTokens.map(presentToken),
      };
    },
  );

  // Verified addresses (domain/auth/verification.ts): following a mailed link, asking for another, moving the
  // account to a new address.
  r.post(
    '/v1/auth/verify-email',
    { config: { public: true }, schema: { body: verifyEmailBodySchema, response: { 200: verifyEmailResultSchema } } },
    async (request) => {
      const session = request.auth?.kind === 'session' ? request.auth.tokenId : (request.auth?.sessionId ?? null);
      const result = await verification.verifyEmail(deps.db, mailSettings(deps.config), request.body.token, session);
      return { email: result.user.email, changed: result.changed, signedOut: result.signedOut };
    },
  );

  r.post(
    '/v1/user/email/verification',
    { schema: { response: { 202: emptyObjectSchema } } },
    async (request, reply) => {
      await verification.resendVerification(
        deps.db,
        mailSettings(deps.config),
        requireAuth(request).userId,
        request.ip,
      );
      return reply.code(202).send({});
    },
  );

  r.post(
    '/v1/user/email',
    { schema: { body: changeEmailBodySchema, response: { 202: emptyObjectSchema } } },
    async (request, reply) => {
      await verification.requestEmailChange(
        deps.db,
        mailSettings(deps.config),
        requireAuth(request).userId,
        request.body,
        request.ip,
        deps.config.passwordHashCost,
      );
      return reply.code(202).send({});
    },
  );

  r.post('/v1/auth/logout', { config: { public: true } }, async (request, reply) => {
    if (request.auth) await auth.logout(deps.db, request.auth);
    clearCookie(reply, SESSION_COOKIE, '/');
    clearCookie(reply, CSRF_COOKIE, '/');
    return reply.code(204).send();
  });

  r.get('/v1/user', { schema: { response: { 200: userSchema } } }, async (request) => {
    const user = await auth.getUser(deps.db, requireAuth(request).userId);
    return {
      ...presentUser(deps.urls, user),
      ...(user.instance_owner ? { instanceOwner: true as const } : {}),
      emailVerified: Boolean(user.email_verified_at),
    };
  });

  r.get(
    '/v1/user/tokens',
    { schema: { querystring: pagedQuerySchema, response: { 200: apiTokenListSchema } } },
    async (request) => {
      const page = await auth.listTokens(deps.db, requireAuth(request).userId, request.query.page, request.query.limit);
      return { ...page, items: page.items.map(presentToken) };
    },
  );

  r.post(
    '/v1/user/tokens',
    { schema: { body: createTokenBodySchema, response: { 201: createdTokenSchema } } },
    async (request, reply) => {
      const created = await account.createToken(deps.db, requireAuth(request), request.body, request.ip);
      return reply.code(201).send({ ...presentToken(created.row), token: created.token });
    },
  );

  r.delete('/v1/user/tokens/:tokenId', { schema: { params: tokenParamsSchema } }, async (request, reply) => {
    const revoked = await auth.revokeToken(deps.db, requireAuth(request).userId, request.params.tokenId);
    return reply.code(revoked ? 205 : 204).send();
  });
}
