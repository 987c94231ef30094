import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  inviteToContentBodySchema,
  updateGrantBodySchema,
  teamPermissionListSchema,
  userPermissionListSchema,
  spaceTeamParamsSchema,
  spaceUserParamsSchema,
  collectionTeamParamsSchema,
  collectionUserParamsSchema,
  explainAccessQuerySchema,
  accessExplanationSchema,
} from '../../shared/contract/permissions.js';
import { spaceParamsSchema } from '../../shared/contract/spaces.js';
import { collectionParamsSchema } from '../../shared/contract/collections.js';
import { pagedQuerySchema } from '../../shared/pagination.js';
import * as service from '../domain/permissions/grants.js';
import { explainAccess } from '../domain/permissions/explain.js';
import { presentTeam } from '../presenters/team.js';
import { presentUser } from '../presenters/user.js';
import { asRole } from '../domain/permissions/roles.js';
import type { Role } from '../../shared/contract/common.js';
import { serviceContext, type RouteDeps } from './context.js';

/**
 * Who has an explicit role on a space or a collection: `/v1/spaces/{spaceId}/permissions…` and
 * `/v1/collections/{collectionId}/permissions…`, the same operations on both.
 */
export async function contentPermissionRoutes(app: FastifyInstance, deps: RouteDeps) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  for (const kind of ['space', 'collection'] as const) {
    const base = kind === 'space' ? '/v1/spaces/:spaceId/permissions' : '/v1/collections/:collectionId/permissions';
    const params = kind === 'space' ? spaceParamsSchema : collectionParamsSchema;
    const teamParams = kind === 'space' ? spaceTeamParamsSchema : collectionTeamParamsSchema;
    const userParams = kind === 'space' ? spaceUserParamsSchema : collectionUserParamsSchema;
    const target = (p: { spaceId?: string; collectionId?: string }): service.Target => ({
      kind,
      id: (kind === 'space' ? p.spaceId : p.collectionId)!,
    });

    r.post(base, { schema: { params, body: inviteToContentBodySchema } }, async (request, reply) => {
      await service.invite(serviceContext(deps, request), target(request.params), request.body);
      return reply.code(204).send();
    });

    r.get(
      `${base}/teams`,
      { schema: { params, querystring: pagedQuerySchema, response: { 200: teamPermissionListSchema } } },
      async (request) => {
        const ctx = serviceContext(deps, request);
        const { role, ...result } = await service.listTeamGrants(
          ctx,
          target(request.params),
          request.query.page,
          request.query.limit,
        );
        return {
          ...result,
          items: result.items.map((row) => ({
            permission: asRole(row.grant_role) as Role,
            team: presentTeam(row, asRole(role)),
          })),
        };
      },
    );

    r.patch(
      `${base}/teams/:teamId`,
      { schema: { params: teamParams, body: updateGrantBodySchema } },
      async (request, reply) => {
        const ctx = serviceContext(deps, request);
        await service.setTeamGrant(ctx, target(request.params), request.params.teamId, request.body.role);
        return reply.code(204).send();
      },
    );

    r.delete(`${base}/teams/:teamId`, { schema: { params: teamParams } }, async (request, reply) => {
      const ctx = serviceContext(deps, request);
      const removed = await service.removeGrant(ctx, target(request.params), { teamId: request.params.teamId });
      return reply.code(removed ? 205 : 204).send();
    });

    r.get(
      `${base}/users`,
      { schema: { params, querystring: pagedQuerySchema, response: { 200: userPermissionListSchema } } },
      async (request) => {
        const ctx = serviceContext(deps, request);
        const result = await service.listUserGrants(
          ctx,
          target(request.params),
          request.query.page,
          request.query.limit,
        );
        return {
          ...result,
          items: result.items.map((row) => ({
            permission: asRole(row.grant_role) as Role,
            user: presentUser(deps.urls, row),
          })),
        };
      },
    );

    r.patch(
      `${base}/users/:userId`,
      { schema: { params: userParams, body: updateGrantBodySchema } },
      async (request, reply) => {
        const ctx = serviceContext(deps, request);
        await service.setUserGrant(ctx, target(request.params), request.params.userId, request.body.role);
        return reply.code(204).send();
      },
    );

    // Extension: why a member has their level on the item (README, "Why can someone see this?").
    r.get(
      `${base}/explain`,
      { schema: { params, querystring: explainAccessQuerySchema, response: { 200: accessExplanationSchema } } },
      async (request) => {
        const ctx = serviceContext(deps, request);
        const { member, ...explanation } = await explainAccess(ctx, target(request.params), request.query.user);
        return { user: presentUser(deps.urls, { ...member, id: member.user_id }), ...explanation };
      },
    );

    r.delete(`${base}/users/:userId`, { schema: { params: userParams } }, async (request, reply) => {
      const ctx = serviceContext(deps, request);
      const removed = await service.removeGrant(ctx, target(request.params), { userId: request.params.userId });
      return reply.code(removed ? 205 : 204).send();
    });
  }
}
