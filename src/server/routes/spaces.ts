import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  spaceSchema,
  spaceListSchema,
  createSpaceBodySchema,
  updateSpaceBodySchema,
  listSpacesQuerySchema,
  spaceParamsSchema,
  getSpaceQuerySchema,
} from '../../shared/contract/spaces.js';
import { moveBodySchema, transferBodySchema } from '../../shared/contract/collections.js';
import { organizationParamsSchema } from '../../shared/contract/organizations.js';
import { pagedQuerySchema } from '../../shared/pagination.js';
import * as service from '../domain/spaces/service.js';
import { presentSpace } from '../presenters/content.js';
import { presentGitSyncState } from '../presenters/git-sync.js';
import { gitSyncOf } from '../domain/git-sync/service.js';
import { serviceContext, type RouteDeps } from './context.js';
import { reachedSpace, siteReach } from '../domain/sites/published/site-reach.js';
import { NotFoundError } from '../domain/errors.js';

export async function spaceRoutes(app: FastifyInstance, deps: RouteDeps) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const present = (v: service.SpaceView) => presentSpace(deps.urls, v.row, v.level);

  r.get(
    '/v1/orgs/:organizationId/spaces',
    {
      schema: {
        params: organizationParamsSchema,
        querystring: pagedQuerySchema.extend(listSpacesQuerySchema.shape),
        response: { 200: spaceListSchema },
      },
    },
    async (request) => {
      const { page, limit, deleted } = request.query;
      const ctx = serviceContext(deps, request);
      const result = await service.listSpaces(ctx, request.params.organizationId, { deleted }, page, limit);
      return { ...result, items: result.items.map(present) };
    },
  );

  r.post(
    '/v1/orgs/:organizationId/spaces',
    { schema: { params: organizationParamsSchema, body: createSpaceBodySchema, response: { 201: spaceSchema } } },
    async (request, reply) => {
      const created = await service.createSpace(
        serviceContext(deps, request),
        request.params.organizationId,
        request.body,
      );
      reply.header('location', deps.urls.api(`/spaces/${created.row.id}`));
      return reply.code(201).send(present(created));
    },
  );

  r.get(
    '/v1/spaces/:spaceId',
    {
      config: { siteToken: true, integrationAccess: 'space:metadata:read' },
      schema: {
        params: spaceParamsSchema,
        querystring: getSpaceQuerySchema,
        response: { 200: spaceSchema },
      },
    },
    async (request) => {
      if (request.siteToken) {
        // A space its site shows, as its readers see it: nothing of the work in progress on it.
        const space = reachedSpace(await siteReach(deps.db, request.siteToken), request.params.spaceId);
        if (!space) throw new NotFoundError('Space not found');
        // Not its repository either: a site's token reads what the site publishes.
        return {
          ...presentSpace(deps.urls, space, 'read'),
          comments: 0,
          changeRequests: 0,
          changeRequestsOpen: 0,
          changeRequestsDraft: 0,
        };
      }
      const view = await service.getSpace(serviceContext(deps, request), request.params.spaceId);
      // The repository it syncs with, asked once the space was found readable.
      const sync = await gitSyncOf(deps.db, view.row.id);
      return { ...present(view), ...(sync ? { gitSync: presentGitSyncState(sync) } : {}) };
    },
  );

  r.patch(
    '/v1/spaces/:spaceId',
    {
      config: { integrationAccess: 'space:metadata:write' },
      schema: { params: spaceParamsSchema, body: updateSpaceBodySchema, response: { 200: spaceSchema } },
    },
    async (request) =>
      present(await service.updateSpace(serviceContext(deps, request), request.params.spaceId, request.body)),
  );

  r.delete('/v1/spaces/:spaceId', { schema: { params: spaceParamsSchema } }, async (request, reply) => {
    const deleted = await service.deleteSpace(serviceContext(deps, request), request.params.spaceId);
    return reply.code(deleted ? 205 : 204).send();
  });

  r.post(
    '/v1/spaces/:spaceId/restore',
    { schema: { params: spaceParamsSchema, response: { 200: spaceSchema } } },
    async (request) => present(await service.restoreSpace(serviceContext(deps, request), request.params.spaceId)),
  );

  r.post(
    '/v1/spaces/:spaceId/duplicate',
    { schema: { params: spaceParamsSchema, response: { 201: spaceSchema } } },
    async (request, reply) => {
      const copy = await service.duplicateSpace(serviceContext(deps, request), request.params.spaceId);
      reply.header('location', deps.urls.api(`/spaces/${copy.row.id}`));
      return reply.code(201).send(present(copy));
    },
  );

  r.post(
    '/v1/spaces/:spaceId/move',
    { schema: { params: spaceParamsSchema, body: moveBodySchema, response: { 200: spaceSchema } } },
    async (request) =>
      present(await service.moveSpace(serviceContext(deps, request), request.params.spaceId, request.body)),
  );

  r.post(
    '/v1/spaces/:spaceId/transfer',
    { schema: { params: spaceParamsSchema, body: transferBodySchema, response: { 200: spaceSchema } } },
    async (request) =>
      present(
        await service.transferSpace(serviceContext(deps, request), request.params.spaceId, request.body.organization),
      ),
  );
}
