import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  followStateSchema,
  markReadBodySchema,
  notificationListSchema,
  notificationSettingsSchema,
  notificationsQuerySchema,
  unreadCountSchema,
  updateNotificationSettingsSchema,
  unsubscribeResultSchema,
} from '../../shared/contract/notifications.js';
import * as inbox from '../domain/notifications/inbox.js';
import * as preferences from '../domain/notifications/preferences.js';
import * as following from '../domain/notifications/following.js';
import { changeRequestParamsSchema } from '../../shared/contract/change-requests.js';
import { spaceParamsSchema } from '../../shared/contract/spaces.js';
import { idSchema } from '../../shared/contract/common.js';
import { noneMatchHits } from '../lib/representations.js';
import { requireAuth } from '../plugins/auth.js';
import { serviceContext, type RouteDeps } from './context.js';

const unsubscribeQuerySchema = z.object({ t: z.string().min(1).max(2000) });
const spacePageParamsSchema = spaceParamsSchema.extend({ pageId: idSchema });

/** The signed-in person's notifications and their settings; the unsubscribe link of notification mail. */
export async function notificationRoutes(app: FastifyInstance, deps: RouteDeps) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/v1/user/notifications',
    { schema: { querystring: notificationsQuerySchema, response: { 200: notificationListSchema } } },
    async (request) => {
      const { unread, page, limit } = request.query;
      return inbox.listInbox(deps.db, requireAuth(request).userId, unread === true, page, limit);
    },
  );

  // Polled by the console's bell: answered 304 while nothing changed.
  r.get(
    '/v1/user/notifications/unread',
    { schema: { response: { 200: unreadCountSchema } } },
    async (request, reply) => {
      const { count, etag } = await inbox.unreadState(deps.db, requireAuth(request).userId);
      reply.header('ETag', etag).header('Cache-Control', 'private, no-cache');
      if (noneMatchHits(request.headers['if-none-match'], etag)) return (reply as FastifyReply).code(304).send();
      return { count };
    },
  );

  r.post(
    '/v1/user/notifications/read',
    { schema: { body: markReadBodySchema, response: { 200: z.object({ marked: z.number().int() }) } } },
    async (request) => {
      const userId = requireAuth(request).userId;
      return inbox.markRead(deps.db, userId, request.body.all ? 'all' : request.body.ids!);
    },
  );

  r.get(
    '/v1/user/notification-settings',
    { schema: { response: { 200: notificationSettingsSchema } } },
    async (request) => preferences.getSettings(deps.db, requireAuth(request).userId),
  );

  r.patch(
    '/v1/user/notification-settings',
    { schema: { body: updateNotificationSettingsSchema, response: { 200: notificationSettingsSchema } } },
    async (request) => preferences.updateSettings(deps.db, requireAuth(request).userId, request.body),
  );

  // Following a change request or a page of a space: GET says whether, PUT follows, DELETE stops (and stays so).
  const followRoutes = (
    path: string,
    what: (params: Record<string, string>) => following.Followed,
    params: z.ZodType,
  ) => {
    const schema = { params, response: { 200: followStateSchema } };
    r.get(path, { schema }, async (request) =>
      following.followState(serviceContext(deps, request), what(request.params as Record<string, string>)),
    );
    r.put(path, { schema }, async (request) =>
      following.setFollowing(serviceContext(deps, request), what(request.params as Record<string, string>), true),
    );
    r.delete(path, { schema }, async (request) =>
      following.setFollowing(serviceContext(deps, request), what(request.params as Record<string, string>), false),
    );
  };
  followRoutes(
    '/v1/spaces/:spaceId/change-requests/:changeRequestId/watch',
    (p) => ({ kind: 'change-request', spaceId: p.spaceId!, id: p.changeRequestId! }),
    changeRequestParamsSchema,
  );
  followRoutes(
    '/v1/spaces/:spaceId/pages/:pageId/watch',
    (p) => ({ kind: 'page', spaceId: p.spaceId!, id: p.pageId! }),
    spacePageParamsSchema,
  );

  // RFC 8058 one-click unsubscribe: mail clients POST here. A GET (a person, or a scanner following links) changes
  // nothing: it leads to the console's page, which explains and has the button.
  r.post(
    '/v1/notifications/unsubscribe',
    {
      config: { public: true },
      schema: {
        querystring: unsubscribeQuerySchema,
        response: { 200: unsubscribeResultSchema },
      },
    },
    async (request) => preferences.unsubscribe(deps.db, request.query.t),
  );
  r.get(
    '/v1/notifications/unsubscribe',
    { config: { public: true }, schema: { querystring: unsubscribeQuerySchema } },
    async (request, reply) => reply.redirect(`/unsubscribe?t=${encodeURIComponent(request.query.t)}`, 303),
  );
}
