import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  teamSchema,
  teamListSchema,
  listTeamsQuerySchema,
  createTeamBodySchema,
  updateTeamBodySchema,
  updateTeamMembersBodySchema,
  putTeamMemberBodySchema,
  teamParamsSchema,
  teamMemberParamsSchema,
} from '../../shared/contract/teams.js';
import { teamMembershipListSchema } from '../../shared/contract/members.js';
import { organizationParamsSchema } from '../../shared/contract/organizations.js';
import { pagedQuerySchema } from '../../shared/pagination.js';
import * as service from '../domain/teams/service.js';
import { presentTeam } from '../presenters/team.js';
import { presentMember } from '../presenters/member.js';
import { serviceContext, type RouteDeps } from './context.js';

export async function teamRoutes(app: FastifyInstance, deps: RouteDeps) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/v1/orgs/:organizationId/teams',
    {
      schema: {
        params: organizationParamsSchema,
        querystring: pagedQuerySchema.extend(listTeamsQuerySchema.shape),
        response: { 200: teamListSchema },
      },
    },
    async (request) => {
      const { page, limit, ...query } = request.query;
      const ctx = serviceContext(deps, request);
      const { role, ...result } = await service.listTeams(ctx, request.params.organizationId, query, page, limit);
      return { ...result, items: result.items.map((row) => presentTeam(row, role)) };
    },
  );

  r.put(
    '/v1/orgs/:organizationId/teams',
    { schema: { params: organizationParamsSchema, body: createTeamBodySchema, response: { 201: teamSchema } } },
    async (request, reply) => {
      const ctx = serviceContext(deps, request);
      const { row, role } = await service.createTeam(ctx, request.params.organizationId, request.body);
      return reply.code(201).send(presentTeam(row, role));
    },
  );

  r.get(
    '/v1/orgs/:organizationId/teams/:teamId',
    { schema: { params: teamParamsSchema, response: { 200: teamSchema } } },
    async (request) => {
      const { organizationId, teamId } = request.params;
      const { row, role } = await service.getTeam(serviceContext(deps, request), organizationId, teamId);
      return presentTeam(row, role);
    },
  );

  r.patch(
    '/v1/orgs/:organizationId/teams/:teamId',
    { schema: { params: teamParamsSchema, body: updateTeamBodySchema, response: { 200: teamSchema } } },
    async (request) => {
      const { organizationId, teamId } = request.params;
      const ctx = serviceContext(deps, request);
      const { row, role } = await service.renameTeam(ctx, organizationId, teamId, request.body.title);
      return presentTeam(row, role);
    },
  );

  r.delete(
    '/v1/orgs/:organizationId/teams/:teamId',
    { schema: { params: teamParamsSchema } },
    async (request, reply) => {
      const { organizationId, teamId } = request.params;
      const deleted = await service.deleteTeam(serviceContext(deps, request), organizationId, teamId);
      return reply.code(deleted ? 205 : 204).send();
    },
  );

  r.get(
    '/v1/orgs/:organizationId/teams/:teamId/members',
    {
      schema: { params: teamParamsSchema, querystring: pagedQuerySchema, response: { 200: teamMembershipListSchema } },
    },
    async (request) => {
      const { organizationId, teamId } = request.params;
      const ctx = serviceContext(deps, request);
      const result = await service.listTeamMembers(
        ctx,
        organizationId,
        teamId,
        request.query.page,
        request.query.limit,
      );
      return {
        ...result,
        items: result.items.map((row) => ({
          organization: presentMember(deps.urls, row),
          team: { role: row.team_role },
          permissions: { view: true },
        })),
      };
    },
  );

  r.put(
    '/v1/orgs/:organizationId/teams/:teamId/members',
    { schema: { params: teamParamsSchema, body: updateTeamMembersBodySchema } },
    async (request, reply) => {
      const { organizationId, teamId } = request.params;
      await service.updateTeamMembers(serviceContext(deps, request), organizationId, teamId, request.body);
      return reply.code(204).send();
    },
  );

  r.put(
    '/v1/orgs/:organizationId/teams/:teamId/members/:userId',
    { schema: { params: teamMemberParamsSchema, body: putTeamMemberBodySchema.optional() } },
    async (request, reply) => {
      const { organizationId, teamId, userId } = request.params;
      const role = request.body?.role ?? 'member';
      await service.putTeamMember(serviceContext(deps, request), organizationId, teamId, userId, role);
      return reply.code(204).send();
    },
  );

  r.delete(
    '/v1/orgs/:organizationId/teams/:teamId/members/:userId',
    { schema: { params: teamMemberParamsSchema } },
    async (request, reply) => {
      const { organizationId, teamId, userId } = request.params;
      const removed = await service.removeTeamMember(serviceContext(deps, request), organizationId, teamId, userId);
      return reply.code(removed ? 205 : 204).send();
    },
  );
}
