import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  organizationSchema,
  organizationListSchema,
  createOrganizationBodySchema,
  updateOrganizationBodySchema,
  organizationParamsSchema,
  inviteLinkSchema,
  inviteLinkListSchema,
  createInviteLinkBodySchema,
  updateInviteLinkBodySchema,
  inviteParamsSchema,
  invitePreviewSchema,
  inviteUsersBodySchema,
  inviteUsersResultSchema,
  emailDomainParamsSchema,
  organizationsOfDomainSchema,
} from '../../shared/contract/organizations.js';
import { emptyObjectSchema } from '../../shared/contract/common.js';
import { pagedQuerySchema } from '../../shared/pagination.js';
import * as service from '../domain/organizations/service.js';
import * as invitations from '../domain/organizations/invitations.js';
import { mailSettings } from '../domain/mail/outbox.js';
import { presentOrganization, presentInviteLink } from '../presenters/organization.js';
import { asRole } from '../domain/permissions/roles.js';
import { optionalActor, serviceContext, type RouteDeps } from './context.js';

export async function organizationRoutes(app: FastifyInstance, deps: RouteDeps) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/v1/orgs',
    { schema: { querystring: pagedQuerySchema, response: { 200: organizationListSchema } } },
    async (request) => {
      const ctx = serviceContext(deps, request);
      const page = await service.listOrganizations(ctx, request.query.page, request.query.limit);
      return { ...page, items: page.items.map((row) => presentOrganization(deps.urls, row, asRole(row.member_role))) };
    },
  );

  r.post(
    '/v1/orgs',
    { schema: { body: createOrganizationBodySchema, response: { 201: organizationSchema } } },
    async (request, reply) => {
      const ctx = serviceContext(deps, request);
      const row = await service.createOrganizationForCaller(ctx, request.body.title);
      reply.header('location', deps.urls.api(`/orgs/${row.id}`));
      return reply.code(201).send(presentOrganization(deps.urls, row, 'admin'));
    },
  );

  r.get(
    '/v1/orgs/:organizationId',
    { schema: { params: organizationParamsSchema, response: { 200: organizationSchema } } },
    async (request) => {
      const { row, role } = await service.getOrganization(serviceContext(deps, request), request.params.organizationId);
      return presentOrganization(deps.urls, row, role);
    },
  );

  r.patch(
    '/v1/orgs/:organizationId',
    {
      schema: {
        params: organizationParamsSchema,
        body: updateOrganizationBodySchema,
        response: { 200: organizationSchema },
      },
    },
    async (request) => {
      const ctx = serviceContext(deps, request);
      const { row, role } = await service.updateOrganization(ctx, request.params.organizationId, request.body);
      return presentOrganization(deps.urls, row, role);
    },
  );

  // Extension (not in api.md): deletes the organization and everything in it, for its admins.
  r.delete('/v1/orgs/:organizationId', { schema: { params: organizationParamsSchema } }, async (request, reply) => {
    await service.deleteOrganization(serviceContext(deps, request), request.params.organizationId);
    return reply.code(205).send();
  });

  r.get(
    '/v1/email-domains/:emailDomain/orgs',
    {
      schema: {
        params: emailDomainParamsSchema,
        response: { 200: organizationsOfDomainSchema },
      },
    },
    async (request) => {
      const found = await service.organizationsForEmailDomain(
        serviceContext(deps, request),
        request.params.emailDomain,
      );
      return { organizations: found.map((row) => presentOrganization(deps.urls, row, asRole(row.member_role))) };
    },
  );

  // Invites

  r.get(
    '/v1/orgs/:organizationId/link-invites',
    {
      schema: {
        params: organizationParamsSchema,
        querystring: pagedQuerySchema,
        response: { 200: inviteLinkListSchema },
      },
    },
    async (request) => {
      const ctx = serviceContext(deps, request);
      const { role, ...page } = await service.listInviteLinks(
        ctx,
        request.params.organizationId,
        request.query.page,
        request.query.limit,
      );
      return { ...page, items: page.items.map((row) => presentInviteLink(row, role)) };
    },
  );

  r.post(
    '/v1/orgs/:organizationId/link-invites',
    {
      schema: {
        params: organizationParamsSchema,
        body: createInviteLinkBodySchema,
        response: { 201: inviteLinkSchema },
      },
    },
    async (request, reply) => {
      const ctx = serviceContext(deps, request);
      const { row, role } = await service.createInviteLink(ctx, request.params.organizationId, request.body.role);
      reply.header('location', deps.urls.api(`/orgs/${row.organization_id}/link-invites/${row.id}`));
      return reply.code(201).send(presentInviteLink(row, role));
    },
  );

  r.get(
    '/v1/orgs/:organizationId/link-invites/:inviteId',
    { schema: { params: inviteParamsSchema, response: { 200: inviteLinkSchema } } },
    async (request) => {
      const ctx = serviceContext(deps, request);
      const { row, role } = await service.getInviteLink(ctx, request.params.organizationId, request.params.inviteId);
      return presentInviteLink(row, role);
    },
  );

  r.patch(
    '/v1/orgs/:organizationId/link-invites/:inviteId',
    { schema: { params: inviteParamsSchema, body: updateInviteLinkBodySchema, response: { 200: inviteLinkSchema } } },
    async (request) => {
      const ctx = serviceContext(deps, request);
      const { organizationId, inviteId } = request.params;
      const { row, role } = await service.updateInviteLink(ctx, organizationId, inviteId, request.body.role);
      return presentInviteLink(row, role);
    },
  );

  r.delete(
    '/v1/orgs/:organizationId/link-invites/:inviteId',
    { schema: { params: inviteParamsSchema } },
    async (request, reply) => {
      const ctx = serviceContext(deps, request);
      const deleted = await service.deleteInviteLink(ctx, request.params.organizationId, request.params.inviteId);
      return reply.code(deleted ? 205 : 204).send();
    },
  );

  // Extension: what an invite link offers, for its holder before they sign up or join (public: the id is the secret).
  r.get(
    '/v1/orgs/:organizationId/invites/:inviteId',
    { config: { public: true }, schema: { params: inviteParamsSchema, response: { 200: invitePreviewSchema } } },
    async (request) => {
      const { organizationId, inviteId } = request.params;
      return service.previewInvite({ db: deps.db, userId: optionalActor(request)?.userId }, organizationId, inviteId);
    },
  );

  r.post(
    '/v1/orgs/:organizationId/invites/:inviteId',
    { schema: { params: inviteParamsSchema, response: { 200: emptyObjectSchema } } },
    async (request) => {
      await service.joinWithInvite(
        serviceContext(deps, request),
        request.params.organizationId,
        request.params.inviteId,
      );
      return {};
    },
  );

  r.post(
    '/v1/orgs/:organizationId/invites',
    {
      schema: {
        params: organizationParamsSchema,
        body: inviteUsersBodySchema,
        response: { 200: inviteUsersResultSchema },
      },
    },
    async (request) => {
      const ctx = serviceContext(deps, request);
      return invitations.inviteUsers(ctx, mailSettings(deps.config), request.params.organizationId, request.body);
    },
  );
}
