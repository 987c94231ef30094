import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  memberSchema,
  memberListSchema,
  memberParamsSchema,
  updateMemberBodySchema,
  listMembersQuerySchema,
  pingResultSchema,
  memberSpaceListSchema,
  listMemberSpacesQuerySchema,
  memberTeamListSchema,
  listMemberTeamsQuerySchema,
} from '../../shared/contract/members.js';
import { organizationParamsSchema } from '../../shared/contract/organizations.js';
import { pagedQuerySchema } from '../../shared/pagination.js';
import * as service from '../domain/members/service.js';
import { presentMember } from '../presenters/member.js';
import { presentSpace } from '../presenters/content.js';
import { presentTeam } from '../presenters/team.js';
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

  r.post(
    '/v1/orgs/:organizationId/ping',
    { schema: { params: organizationParamsSchema, response: { 200: pingResultSchema } } },
    async (request) => {
      const token = await service.ping(serviceContext(deps, request), request.params.organizationId);
      return { serviceVisitorClaims: token };
    },
  );

  r.post(
    '/v1/orgs/:organizationId/members/:userId/sso',
    { schema: { params: memberParamsSchema, response: { 200: memberSchema } } },
    async (request) => {
      const { organizationId, userId } = request.params;
      return presentMember(
        deps.urls,
        await service.markSsoMember(serviceContext(deps, request), organizationId, userId),
      );
    },
  );

  r.get(
    '/v1/orgs/:organizationId/members/:userId/spaces',
    {
      schema: {
        params: memberParamsSchema,
        querystring: pagedQuerySchema.extend(listMemberSpacesQuerySchema.shape),
        response: { 200: memberSpaceListSchema },
      },
    },
    async (request) => {
      const { organizationId, userId } = request.params;
      const { page, limit, order } = request.query;
      const ctx = serviceContext(deps, request);
      const result = await service.listMemberSpaces(ctx, organizationId, userId, order, page, limit);
      // The space is shown with the member's own level: only admins and the member themself list it.
      return {
        ...result,
        items: result.items.map(({ row, permission }) => ({
          permission,
          space: presentSpace(deps.urls, row, userId === ctx.actor.userId ? permission : 'admin'),
        })),
      };
    },
  );

  r.get(
    '/v1/orgs/:organizationId/members/:userId/teams',
    {
      schema: {
        params: memberParamsSchema,
        querystring: pagedQuerySchema.extend(listMemberTeamsQuerySchema.shape),
        response: { 200: memberTeamListSchema },
      },
    },
    async (request) => {
      const { organizationId, userId } = request.params;
      const { page, limit, title } = request.query;
      const ctx = serviceContext(deps, request);
      const { callerRole, ...result } = await service.listMemberTeams(ctx, organizationId, userId, title, page, limit);
      return {
        ...result,
        items: result.items.map(({ team, role }) => ({ team: presentTeam(team, callerRole), member: { role } })),
      };
    },
  );
}
