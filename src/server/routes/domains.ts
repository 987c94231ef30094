import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { organizationParamsSchema } from '../../shared/contract/organizations.js';
import {
  emailDomainEntrySchema,
  emailDomainEntryListSchema,
  addEmailDomainBodySchema,
  emailDomainEntryParamsSchema,
  verifyEmailDomainBodySchema,
} from '../../shared/contract/identity.js';
import * as service from '../domain/organizations/domains.js';
import { presentEmailDomain } from '../presenters/identity.js';
import { serviceContext, type RouteDeps } from './context.js';

/** E-mail domains of an organization and their verification (extension; the list is `emailDomains` too). */
export async function domainRoutes(app: FastifyInstance, deps: RouteDeps) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const base = '/v1/orgs/:organizationId/email-domains';

  r.get(
    base,
    { schema: { params: organizationParamsSchema, response: { 200: emailDomainEntryListSchema } } },
    async (request) => {
      const rows = await service.listDomains(serviceContext(deps, request), request.params.organizationId);
      return { items: rows.map(presentEmailDomain) };
    },
  );

  r.post(
    base,
    {
      schema: {
        params: organizationParamsSchema,
        body: addEmailDomainBodySchema,
        response: { 200: emailDomainEntrySchema, 201: emailDomainEntrySchema },
      },
    },
    async (request, reply) => {
      const ctx = serviceContext(deps, request);
      const { row, created } = await service.addDomain(ctx, request.params.organizationId, request.body.domain);
      return reply.code(created ? 201 : 200).send(presentEmailDomain(row));
    },
  );

  r.delete(`${base}/:domain`, { schema: { params: emailDomainEntryParamsSchema } }, async (request, reply) => {
    const { organizationId, domain } = request.params;
    const removed = await service.removeDomain(serviceContext(deps, request), organizationId, domain);
    return reply.code(removed ? 205 : 204).send();
  });

  r.post(
    `${base}/:domain/verify`,
    {
      schema: {
        params: emailDomainEntryParamsSchema,
        body: verifyEmailDomainBodySchema,
        response: { 200: emailDomainEntrySchema },
      },
    },
    async (request) => {
      const { organizationId, domain } = request.params;
      const ctx = serviceContext(deps, request);
      const row = await service.verifyDomain(ctx, deps.txt, organizationId, domain, request.body.method);
      return presentEmailDomain(row);
    },
  );
}
