import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  changeRequestParamsSchema,
  reviewSchema,
  reviewListSchema,
  submitReviewBodySchema,
  reviewParamsSchema,
  requestedReviewerListSchema,
  requestReviewersBodySchema,
  requestReviewersResultSchema,
  requestedReviewerParamsSchema,
} from '../../shared/contract/change-requests.js';
import { pagedQuerySchema } from '../../shared/pagination.js';
import * as service from '../domain/change-requests/reviews.js';
import { presentReview, presentRequestedReviewer } from '../presenters/review.js';
import { serviceContext, type RouteDeps } from './context.js';

export async function reviewRoutes(app: FastifyInstance, deps: RouteDeps) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const base = '/v1/spaces/:spaceId/change-requests/:changeRequestId';

  r.get(
    `${base}/reviews`,
    {
      schema: { params: changeRequestParamsSchema, querystring: pagedQuerySchema, response: { 200: reviewListSchema } },
    },
    async (request) => {
      const { spaceId, changeRequestId } = request.params;
      const { page, limit } = request.query;
      const result = await service.listReviews(serviceContext(deps, request), spaceId, changeRequestId, page, limit);
      return {
        items: result.items.map((rv) => presentReview(deps.urls, spaceId, result.cr, rv)),
        count: result.count,
        ...(result.next ? { next: result.next } : {}),
      };
    },
  );

  r.post(
    `${base}/reviews`,
    { schema: { params: changeRequestParamsSchema, body: submitReviewBodySchema, response: { 201: reviewSchema } } },
    async (request, reply) => {
      const { spaceId, changeRequestId } = request.params;
      const { cr, review } = await service.submitReview(
        serviceContext(deps, request),
        spaceId,
        changeRequestId,
        request.body,
      );
      const presented = presentReview(deps.urls, spaceId, cr, review);
      reply.header('location', presented.urls.location);
      return reply.code(201).send(presented);
    },
  );

  r.get(
    `${base}/reviews/:reviewId`,
    { schema: { params: reviewParamsSchema, response: { 200: reviewSchema } } },
    async (request) => {
      const { spaceId, changeRequestId, reviewId } = request.params;
      const { cr, review } = await service.getReview(serviceContext(deps, request), spaceId, changeRequestId, reviewId);
      return presentReview(deps.urls, spaceId, cr, review);
    },
  );

  r.get(
    `${base}/requested-reviewers`,
    {
      schema: {
        params: changeRequestParamsSchema,
        querystring: pagedQuerySchema,
        response: { 200: requestedReviewerListSchema },
      },
    },
    async (request) => {
      const { spaceId, changeRequestId } = request.params;
      const ctx = serviceContext(deps, request);
      const result = await service.listRequestedReviewers(
        ctx,
        spaceId,
        changeRequestId,
        request.query.page,
        request.query.limit,
      );
      return { ...result, items: result.items.map((rr) => presentRequestedReviewer(deps.urls, rr)) };
    },
  );

  r.post(
    `${base}/requested-reviewers`,
    {
      schema: {
        params: changeRequestParamsSchema,
        body: requestReviewersBodySchema,
        response: { 200: requestReviewersResultSchema },
      },
    },
    async (request) => {
      const { spaceId, changeRequestId } = request.params;
      const ctx = serviceContext(deps, request);
      const added = await service.requestReviewers(ctx, spaceId, changeRequestId, request.body.users);
      return { users: added.map((rr) => presentRequestedReviewer(deps.urls, rr)) };
    },
  );

  r.delete(
    `${base}/requested-reviewers/:userId`,
    { schema: { params: requestedReviewerParamsSchema } },
    async (request, reply) => {
      const { spaceId, changeRequestId, userId } = request.params;
      const removed = await service.removeRequestedReviewer(
        serviceContext(deps, request),
        spaceId,
        changeRequestId,
        userId,
      );
      return reply.code(removed ? 205 : 204).send();
    },
  );
}
