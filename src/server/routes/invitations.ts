import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { organizationParamsSchema } from '../../shared/contract/organizations.js';
import {
  orgInvitationListSchema,
  orgInvitationParamsSchema,
  userInvitationListSchema,
  invitationParamsSchema,
  acceptedInvitationSchema,
} from '../../shared/contract/identity.js';
import { pagedQuerySchema } from '../../shared/pagination.js';
import * as service from '../domain/organizations/invitations.js';
import { presentOrgInvitation, presentUserInvitation } from '../presenters/identity.js';
import { serviceContext, type RouteDeps } from './context.js';

/**
 * Invitations by e-mail (extension): `POST /v1/orgs/{organizationId}/invites` creates them (organizations.ts);
 * the organization's admins list and revoke them here, and the invited person accepts or declines.
 */
export async function invitationRoutes(app: FastifyInstance, deps: RouteDeps) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/v1/orgs/:organizationId/invitations',
    {
      schema: {
        params: organizationParamsSchema,
        querystring: pagedQuerySchema,
        response: { 200: orgInvitationListSchema },
      },
    },
    async (request) => {
      const { page, limit } = request.query;
      const ctx = serviceContext(deps, request);
      const result = await service.listOrgInvitations(ctx, request.params.organizationId, page, limit);
      return { ...result, items: result.items.map(presentOrgInvitation) };
    },
  );

  r.delete(
    '/v1/orgs/:organizationId/invitations/:invitationId',
    { schema: { params: orgInvitationParamsSchema } },
    async (request, reply) => {
      const { organizationId, invitationId } = request.params;
      const revoked = await service.revokeInvitation(serviceContext(deps, request), organizationId, invitationId);
      return reply.code(revoked ? 205 : 204).send();
    },
  );

  r.get(
    '/v1/user/invitations',
    { schema: { querystring: pagedQuerySchema, response: { 200: userInvitationListSchema } } },
    async (request) => {
      const { page, limit } = request.query;
      const result = await service.listMyInvitations(serviceContext(deps, request), page, limit);
      return { ...result, items: result.items.map(presentUserInvitation) };
    },
  );

  r.post(
    '/v1/user/invitations/:invitationId/accept',
    { schema: { params: invitationParamsSchema, response: { 200: acceptedInvitationSchema } } },
    async (request) => {
      const organization = await service.acceptInvitation(serviceContext(deps, request), request.params.invitationId);
      return { organization };
    },
  );

  r.post(
    '/v1/user/invitations/:invitationId/decline',
    { schema: { params: invitationParamsSchema } },
    async (request, reply) => {
      await service.declineInvitation(serviceContext(deps, request), request.params.invitationId);
      return reply.code(204).send();
    },
  );
}
