import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  memberSchema,
  memberListSchema,
  memberParamsSchema,
  updateMemberBodySchema,
  listMembersQuerySchema,
} from '../../shared/contract/members.js';
import { organizationParamsSchema } from '../../shared/contract/organizations.js';
import { pagedQuerySchema } from '../../shared/pagination.js';
import * as service from '../domain/members/service.js';
import { presentMember } from '../presenters/member.js';
import { serviceContext, type RouteDeps } from './context.js';

export async function memberRoutes(app: FastifyInstance, deps: RouteDeps) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/v1/orgs/:organizationId/members',
    {
      schema: {
        params: organizationParamsSchema,
        querystring: pagedQuerySchema.extend(listMembersQuerySchema.shape),
        response: { 200: memberListSchema },
      },
    },
    async (request) => {
      const { page, limit, ...query } = request.query;
      const result = await service.listMembers(
        serviceContext(deps, request),
        request.params.organizationId,
        query,
        page,
        limit,
      );
      return { ...result, items: result.items.map((row) => presentMember(deps.urls, row)) };
    },
  );

  r.get(
    '/v1/orgs/:organizationId/members/:userId',
    { schema: { params: memberParamsSchema, response: { 200: memberSchema } } },
    async (request) => {
      const { organizationId, userId } = request.params;
      return presentMember(deps.urls, await service.getMember(serviceContext(deps, request), organizationId, userId));
    },
  );

  r.patch(
    '/v1/orgs/:organizationId/members/:userId',
    { schema: { params: memberParamsSchema, body: updateMemberBodySchema, response: { 200: memberSchema } } },
    async (request) => {
      const { organizationId, userId } = request.params;
      const ctx = serviceContext(deps, request);
      return presentMember(deps.urls, await service.updateMemberRole(ctx, organizationId, userId, request.body.role));
    },
  );

  r.delete(
    '/v1/orgs/:organizationId/members/:userId',
    { schema: { params: memberParamsSchema } },
    async (request, reply) => {
      const { organizationId, userId } = request.params;
      const removed = await service.removeMember(serviceContext(deps, request), organizationId, userId);
      return reply.code(removed ? 205 : 204).send();
    },
  );
}
