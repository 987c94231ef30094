import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { organizationParamsSchema } from '../../shared/contract/organizations.js';
import {
  orgInvitationListSchema,
  orgInvitationParamsSchema,
  userInvitationListSchema,
  invitationParamsSchema,
  acceptedInvitationSchema,
  orgInvitationSchema,
  invitationTokenBodySchema,
  invitationCheckSchema,
} from '../../shared/contract/identity.js';
import { mailSettings } from '../domain/mail/outbox.js';
import { asRole } from '../domain/permissions/roles.js';
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
      return { ...result, items: result.items.map((row) => presentOrgInvitation(row)) };
    },
  );

  r.post(
    '/v1/orgs/:organizationId/invitations/:invitationId/resend',
    { schema: { params: orgInvitationParamsSchema, response: { 200: orgInvitationSchema } } },
    async (request) => {
      const { organizationId, invitationId } = request.params;
      const ctx = serviceContext(deps, request);
      return presentOrgInvitation(
        await service.resendInvitation(ctx, mailSettings(deps.config), organizationId, invitationId),
      );
    },
  );

  // The link mailed with an invitation (`/invitations/{id}#<secret>` in the console): anyone holding it may see
  // what it invites to; a signed-in account of its address accepts or declines it.
  r.post(
    '/v1/invitations/:invitationId/check',
    {
      config: { public: true },
      schema: {
        params: invitationParamsSchema,
        body: invitationTokenBodySchema,
        response: { 200: invitationCheckSchema },
      },
    },
    async (request) => {
      const found = await service.checkInvitation(deps.db, request.params.invitationId, request.body.token);
      return {
        object: 'invitation' as const,
        id: found.row.id,
        email: found.row.email,
        role: asRole(found.row.role),
        organization: { id: found.org.id, title: found.org.title },
        ...(found.inviterName ? { invitedBy: { displayName: found.inviterName } } : {}),
        expiresAt: found.row.expires_at,
        hasAccount: found.hasAccount,
      };
    },
  );

  r.post(
    '/v1/invitations/:invitationId/accept',
    {
      schema: {
        params: invitationParamsSchema,
        body: invitationTokenBodySchema,
        response: { 200: acceptedInvitationSchema },
      },
    },
    async (request) => {
      const ctx = serviceContext(deps, request);
      return { organization: await service.acceptInvitation(ctx, request.params.invitationId, request.body.token) };
    },
  );

  r.post(
    '/v1/invitations/:invitationId/decline',
    { schema: { params: invitationParamsSchema, body: invitationTokenBodySchema } },
    async (request, reply) => {
      await service.declineInvitation(serviceContext(deps, request), request.params.invitationId, request.body.token);
      return reply.code(204).send();
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
