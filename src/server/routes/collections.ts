import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  collectionSchema,
  collectionListSchema,
  createCollectionBodySchema,
  updateCollectionBodySchema,
  listCollectionsQuerySchema,
  moveBodySchema,
  transferBodySchema,
  collectionParamsSchema,
} from '../../shared/contract/collections.js';
import { organizationParamsSchema } from '../../shared/contract/organizations.js';
import { spaceListSchema } from '../../shared/contract/spaces.js';
import { pagedQuerySchema } from '../../shared/pagination.js';
import * as service from '../domain/collections/service.js';
import { presentCollection, presentSpace } from '../presenters/content.js';
import { serviceContext, type RouteDeps } from './context.js';

export async function collectionRoutes(app: FastifyInstance, deps: RouteDeps) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const present = (v: {
    row: Parameters<typeof presentCollection>[1];
    level: Parameters<typeof presentCollection>[2];
  }) => presentCollection(deps.urls, v.row, v.level);

  r.get(
    '/v1/orgs/:organizationId/collections',
    {
      schema: {
        params: organizationParamsSchema,
        querystring: pagedQuerySchema.extend(listCollectionsQuerySchema.shape),
        response: { 200: collectionListSchema },
      },
    },
    async (request) => {
      const { page, limit, nested } = request.query;
      const result = await service.listCollections(
        serviceContext(deps, request),
        request.params.organizationId,
        nested,
        page,
        limit,
      );
      return { ...result, items: result.items.map(present) };
    },
  );

  r.post(
    '/v1/orgs/:organizationId/collections',
    {
      schema: {
        params: organizationParamsSchema,
        body: createCollectionBodySchema,
        response: { 201: collectionSchema },
      },
    },
    async (request, reply) => {
      const created = await service.createCollection(
        serviceContext(deps, request),
        request.params.organizationId,
        request.body,
      );
      reply.header('location', deps.urls.api(`/collections/${created.row.id}`));
      return reply.code(201).send(present(created));
    },
  );

  r.get(
    '/v1/collections/:collectionId',
    { schema: { params: collectionParamsSchema, response: { 200: collectionSchema } } },
    async (request) => present(await service.getCollection(serviceContext(deps, request), request.params.collectionId)),
  );

  r.patch(
    '/v1/collections/:collectionId',
    {
      schema: { params: collectionParamsSchema, body: updateCollectionBodySchema, response: { 200: collectionSchema } },
    },
    async (request) =>
      present(await service.updateCollection(serviceContext(deps, request), request.params.collectionId, request.body)),
  );

  r.delete('/v1/collections/:collectionId', { schema: { params: collectionParamsSchema } }, async (request, reply) => {
    await service.deleteCollection(serviceContext(deps, request), request.params.collectionId);
    return reply.code(205).send();
  });

  r.get(
    '/v1/collections/:collectionId/spaces',
    { schema: { params: collectionParamsSchema, querystring: pagedQuerySchema, response: { 200: spaceListSchema } } },
    async (request) => {
      const result = await service.listCollectionSpaces(
        serviceContext(deps, request),
        request.params.collectionId,
        request.query.page,
        request.query.limit,
      );
      return { ...result, items: result.items.map((v) => presentSpace(deps.urls, v.row, v.level)) };
    },
  );

  r.post(
    '/v1/collections/:collectionId/move',
    { schema: { params: collectionParamsSchema, body: moveBodySchema, response: { 200: collectionSchema } } },
    async (request) =>
      present(await service.moveCollection(serviceContext(deps, request), request.params.collectionId, request.body)),
  );

  r.post(
    '/v1/collections/:collectionId/transfer',
    { schema: { params: collectionParamsSchema, body: transferBodySchema, response: { 200: collectionSchema } } },
    async (request) =>
      present(
        await service.transferCollection(
          serviceContext(deps, request),
          request.params.collectionId,
          request.body.organization,
        ),
      ),
  );
}
