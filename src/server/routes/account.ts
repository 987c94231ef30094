import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  changePasswordBodySchema,
  passwordChangedSchema,
  sessionParamsSchema,
  signedOutSchema,
  updateUserBodySchema,
  userParamsSchema,
  userPhotoParamsSchema,
  userSessionListSchema,
} from '../../shared/contract/account.js';
import { userSchema } from '../../shared/contract/common.js';
import { pagedQuerySchema } from '../../shared/pagination.js';
import * as account from '../domain/auth/account.js';
import { presentUser, presentSession, presentToken } from '../presenters/user.js';
import { requireAuth } from '../plugins/auth.js';
import type { RouteDeps } from './context.js';

/** The caller's account settings: profile and photo, password, console sessions (README, "Account settings"). */
export async function accountRoutes(app: FastifyInstance, deps: RouteDeps) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.patch('/v1/user', { schema: { body: updateUserBodySchema, response: { 200: userSchema } } }, async (request) => {
    return presentUser(deps.urls, await account.updateProfile(deps.db, requireAuth(request).userId, request.body));
  });

  // Someone's name and photo (the contract's getUserById); the e-mail address only to its owner.
  r.get(
    '/v1/users/:userId',
    { config: { siteToken: true }, schema: { params: userParamsSchema, response: { 200: userSchema } } },
    async (request) => {
      if (request.siteToken) {
        const { email: _email, ...user } = presentUser(
          deps.urls,
          await account.getMemberProfileForSite(deps.db, request.siteToken, request.params.userId),
        );
        return user;
      }
      const caller = requireAuth(request).userId;
      const row = await account.getUserProfile(deps.db, caller, request.params.userId);
      const { email, ...user } = presentUser(deps.urls, row);
      return row.id === caller ? { ...user, email } : user;
    },
  );

  // An uploaded photo, for any signed-in caller who has its URL (the id changes with each upload). The headers
  // keep a browser from running anything in it, whatever its bytes.
  r.get('/v1/users/:userId/photos/:photoId', { schema: { params: userPhotoParamsSchema } }, async (request, reply) => {
    requireAuth(request);
    const photo = await account.getPhoto(deps.db, request.params.userId, request.params.photoId);
    return reply
      .header('Content-Type', photo.content_type)
      .header('Content-Security-Policy', "default-src 'none'")
      .header('X-Content-Type-Options', 'nosniff')
      .header('Cache-Control', 'private, max-age=31536000, immutable')
      .send(photo.data);
  });

  r.post(
    '/v1/user/password',
    { schema: { body: changePasswordBodySchema, response: { 200: passwordChangedSchema } } },
    async (request) => {
      const changed = await account.changePassword(
        deps.db,
        requireAuth(request),
        request.body,
        request.ip,
        deps.config.passwordHashCost,
      );
      return { ...changed, remainingTokens: changed.remainingTokens.map(presentToken) };
    },
  );

  r.get(
    '/v1/user/sessions',
    { schema: { querystring: pagedQuerySchema, response: { 200: userSessionListSchema } } },
    async (request) => {
      const caller = requireAuth(request);
      const page = await account.listSessions(deps.db, caller.userId, request.query.page, request.query.limit);
      const current = account.currentSessionId(caller);
      return { ...page, items: page.items.map((row) => presentSession(row, current)) };
    },
  );

  r.delete('/v1/user/sessions', { schema: { response: { 200: signedOutSchema } } }, async (request) => {
    return { signedOut: await account.signOutOtherSessions(deps.db, requireAuth(request)) };
  });

  r.delete('/v1/user/sessions/:sessionId', { schema: { params: sessionParamsSchema } }, async (request, reply) => {
    await account.signOutSession(deps.db, requireAuth(request).userId, request.params.sessionId);
    return reply.code(204).send();
  });
}
