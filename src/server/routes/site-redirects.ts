import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  createSiteRedirectBodySchema,
  listSiteRedirectsQuerySchema,
  siteParamsSchema,
  siteRedirectBySourceQuerySchema,
  siteRedirectBySourceSchema,
  siteRedirectListSchema,
  siteRedirectParamsSchema,
  siteRedirectSchema,
  updateSiteRedirectBodySchema,
} from '../../shared/contract/sites.js';
import * as service from '../domain/sites/redirects.js';
import { requireSite, siteReach } from '../domain/sites/published/site-reach.js';
import { publishedSiteUrl } from '../lib/urls.js';
import { serviceContext, type RouteDeps } from './context.js';

const SITE = '/v1/orgs/:organizationId/sites/:siteId';

/** Site redirects (0.143.2 createSiteRedirect, listSiteRedirects, …, getSiteRedirectBySource). */
export async function siteRedirectRoutes(app: FastifyInstance, deps: RouteDeps) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    `${SITE}/redirects`,
    {
      schema: {
        params: siteParamsSchema,
        querystring: listSiteRedirectsQuerySchema,
        response: { 200: siteRedirectListSchema },
      },
    },
    async (request) => {
      const { organizationId, siteId } = request.params;
      const page = await service.listRedirects(serviceContext(deps, request), organizationId, siteId, request.query);
      return { ...page, items: page.items.map(service.presentRedirect) };
    },
  );

  r.post(
    `${SITE}/redirects`,
    { schema: { params: siteParamsSchema, body: createSiteRedirectBodySchema, response: { 201: siteRedirectSchema } } },
    async (request, reply) => {
      const { organizationId, siteId } = request.params;
      const row = await service.createRedirect(serviceContext(deps, request), organizationId, siteId, request.body);
      reply.header('location', deps.urls.api(`/orgs/${organizationId}/sites/${siteId}/redirects/${row.id}`));
      return reply.code(201).send(service.presentRedirect(row));
    },
  );

  r.patch(
    `${SITE}/redirects/:siteRedirectId`,
    {
      schema: {
        params: siteRedirectParamsSchema,
        body: updateSiteRedirectBodySchema,
        response: { 200: siteRedirectSchema },
      },
    },
    async (request) => {
      const { organizationId, siteId, siteRedirectId } = request.params;
      const ctx = serviceContext(deps, request);
      return service.presentRedirect(
        await service.updateRedirect(ctx, organizationId, siteId, siteRedirectId, request.body),
      );
    },
  );

  r.delete(
    `${SITE}/redirects/:siteRedirectId`,
    { schema: { params: siteRedirectParamsSchema } },
    async (request, reply) => {
      const { organizationId, siteId, siteRedirectId } = request.params;
      const deleted = await service.deleteRedirect(
        serviceContext(deps, request),
        organizationId,
        siteId,
        siteRedirectId,
      );
      return reply.code(deleted ? 205 : 204).send();
    },
  );

  // Where a path of the published site leads: to a member, or to a site token's renderer (its visitor's view).
  r.get(
    `${SITE}/redirect`,
    {
      config: { siteToken: true },
      schema: {
        params: siteParamsSchema,
        querystring: siteRedirectBySourceQuerySchema,
        response: { 200: siteRedirectBySourceSchema },
      },
    },
    async (request) => {
      const { organizationId, siteId } = request.params;
      const { source } = request.query;
      if (request.siteToken) {
        requireSite(request.siteToken, organizationId, siteId);
        const reach = await siteReach(deps.db, request.siteToken);
        const root = publishedSiteUrl(deps.config.publicUrl, siteId, request.siteToken.shareKey);
        const found = await service.findRedirect(
          deps.db,
          reach.site,
          reach.structure,
          reach.spaces,
          source,
          root,
          (id) => reach.shown.has(id),
        );
        if (!found) throw service.noRedirect(source);
        return found;
      }
      const root = publishedSiteUrl(deps.config.publicUrl, siteId, request.query.shareKey);
      return service.redirectBySource(serviceContext(deps, request), organizationId, siteId, source, root);
    },
  );
}
