import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  commentSchema,
  commentListSchema,
  commentReplySchema,
  commentReplyListSchema,
  commentFormatQuerySchema,
  listCommentsQuerySchema,
  listRepliesQuerySchema,
  postCommentBodySchema,
  postReplyBodySchema,
  updateCommentBodySchema,
  updateReplyBodySchema,
} from '../../shared/contract/comments.js';
import { memberListSchema } from '../../shared/contract/members.js';
import { idSchema } from '../../shared/contract/common.js';
import { pagedQuerySchema } from '../../shared/pagination.js';
import * as service from '../domain/comments/service.js';
import type { ThreadsOf } from '../domain/comments/service.js';
import { presentComment, presentReply } from '../presenters/comment.js';
import { presentMember } from '../presenters/member.js';
import { serviceContext, type RouteDeps } from './context.js';

/**
 * Comment threads, served twice by the same handlers: in a change request (`/v1/spaces/{spaceId}/change-requests/
 * {changeRequestId}/...`) and on a space (`/v1/spaces/{spaceId}/...`).
 */
export async function commentRoutes(app: FastifyInstance, deps: RouteDeps) {
  threadRoutes(app, deps, '/v1/spaces/:spaceId/change-requests/:changeRequestId');
  threadRoutes(app, deps, '/v1/spaces/:spaceId');
}

/**
 * Thread lists answer with an ETag and `Cache-Control: private, no-cache`: a browser stores them and revalidates
 * every poll with `If-None-Match`, which is answered 304 while no one wrote to the threads (see listComments).
 */
const revalidated = (etag: string) => ({ etag, 'cache-control': 'private, no-cache' });

function conditional(request: FastifyRequest): service.Conditional {
  const header = request.headers['if-none-match'];
  return { url: request.url, ifNoneMatch: Array.isArray(header) ? header.join(',') : header };
}

function notModified(reply: FastifyReply, etag: string) {
  return reply.code(304).headers(revalidated(etag)).send();
}

/** The space, and the change request where the route has one. */
const params = z.object({ spaceId: idSchema, changeRequestId: idSchema.optional() });

function threadRoutes(app: FastifyInstance, deps: RouteDeps, base: string) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const commentParams = params.extend({ commentId: idSchema });
  const replyParams = commentParams.extend({ commentReplyId: idSchema });
  const where = (p: { spaceId: string; changeRequestId?: string }): ThreadsOf => ({
    spaceId: p.spaceId,
    ...(p.changeRequestId !== undefined ? { changeRequest: p.changeRequestId } : {}),
  });
  const ctx = (request: FastifyRequest) => serviceContext(deps, request);

  r.get(
    `${base}/comments`,
    { schema: { params, querystring: listCommentsQuerySchema, response: { 200: commentListSchema } } },
    async (request, reply) => {
      const c = ctx(request);
      const result = await service.listComments(c, where(request.params), request.query, conditional(request));
      if (result.unchanged) return notModified(reply, result.etag);
      const { t, etag, unchanged: _, ...list } = result;
      void reply.headers(revalidated(etag));
      return {
        ...list,
        items: list.items.map((b) => presentComment(deps.urls, t, c.actor.userId, b, request.query.format)),
      };
    },
  );

  r.post(
    `${base}/comments`,
    { schema: { params, body: postCommentBodySchema, response: { 200: commentSchema } } },
    async (request) => {
      const c = ctx(request);
      const { t, comment } = await service.postComment(c, where(request.params), request.body);
      return presentComment(deps.urls, t, c.actor.userId, comment);
    },
  );

  r.get(
    `${base}/comments/:commentId`,
    { schema: { params: commentParams, querystring: commentFormatQuerySchema, response: { 200: commentSchema } } },
    async (request) => {
      const c = ctx(request);
      const { t, comment } = await service.getComment(c, where(request.params), request.params.commentId);
      return presentComment(deps.urls, t, c.actor.userId, comment, request.query.format);
    },
  );

  r.put(
    `${base}/comments/:commentId`,
    { schema: { params: commentParams, body: updateCommentBodySchema, response: { 200: commentSchema } } },
    async (request) => {
      const c = ctx(request);
      const { t, comment } = await service.updateComment(
        c,
        where(request.params),
        request.params.commentId,
        request.body,
      );
      return presentComment(deps.urls, t, c.actor.userId, comment);
    },
  );

  r.delete(`${base}/comments/:commentId`, { schema: { params: commentParams } }, async (request, reply) => {
    const deleted = await service.deleteComment(ctx(request), where(request.params), request.params.commentId);
    return reply.code(deleted ? 205 : 204).send();
  });

  r.get(
    `${base}/comments/:commentId/replies`,
    {
      schema: { params: commentParams, querystring: listRepliesQuerySchema, response: { 200: commentReplyListSchema } },
    },
    async (request, reply) => {
      const c = ctx(request);
      const { commentId } = request.params;
      const { page, limit, format } = request.query;
      const result = await service.listReplies(c, where(request.params), commentId, page, limit, conditional(request));
      if (result.unchanged) return notModified(reply, result.etag);
      const { t, etag, unchanged: _, ...list } = result;
      void reply.headers(revalidated(etag));
      return {
        ...list,
        items: list.items.map((b) => presentReply(deps.urls, t, c.actor.userId, commentId, b, format)),
      };
    },
  );

  r.post(
    `${base}/comments/:commentId/replies`,
    {
      schema: {
        params: commentParams,
        querystring: commentFormatQuerySchema,
        body: postReplyBodySchema,
        response: { 200: commentReplySchema },
      },
    },
    async (request) => {
      const c = ctx(request);
      const { commentId } = request.params;
      const { t, reply } = await service.postReply(c, where(request.params), commentId, request.body.body.markdown);
      return presentReply(deps.urls, t, c.actor.userId, commentId, reply, request.query.format);
    },
  );

  r.get(
    `${base}/comments/:commentId/replies/:commentReplyId`,
    { schema: { params: replyParams, querystring: commentFormatQuerySchema, response: { 200: commentReplySchema } } },
    async (request) => {
      const c = ctx(request);
      const { commentId, commentReplyId } = request.params;
      const { t, reply } = await service.getReply(c, where(request.params), commentId, commentReplyId);
      return presentReply(deps.urls, t, c.actor.userId, commentId, reply, request.query.format);
    },
  );

  r.put(
    `${base}/comments/:commentId/replies/:commentReplyId`,
    { schema: { params: replyParams, body: updateReplyBodySchema, response: { 200: commentReplySchema } } },
    async (request) => {
      const c = ctx(request);
      const { commentId, commentReplyId } = request.params;
      const { t, reply } = await service.updateReply(c, where(request.params), commentId, commentReplyId, request.body);
      return presentReply(deps.urls, t, c.actor.userId, commentId, reply);
    },
  );

  r.delete(
    `${base}/comments/:commentId/replies/:commentReplyId`,
    { schema: { params: replyParams } },
    async (request, reply) => {
      const { commentId, commentReplyId } = request.params;
      const deleted = await service.deleteReply(ctx(request), where(request.params), commentId, commentReplyId);
      return reply.code(deleted ? 205 : 204).send();
    },
  );

  r.get(
    `${base}/commenters`,
    { schema: { params, querystring: pagedQuerySchema, response: { 200: memberListSchema } } },
    async (request) => {
      const result = await service.listCommenters(
        ctx(request),
        where(request.params),
        request.query.page,
        request.query.limit,
      );
      return { ...result, items: result.items.map((m) => presentMember(deps.urls, m)) };
    },
  );
}
