import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { siteParamsSchema, siteSpaceParamsSchema } from '../../shared/contract/sites.js';
import {
  type Customization,
  customizationSchema,
  siteSpaceCustomizationPatchSchema,
  siteSpaceCustomizationSchema,
} from '../../shared/contract/customization.js';
import * as service from '../domain/sites/customization.js';
import { PublishedSites } from '../domain/sites/published/dispatch.js';
import { pageCsp } from '../domain/sites/published/assets.js';
import { requestOrigin } from '../lib/urls.js';
import { serviceContext, type RouteDeps } from './context.js';
import type { DispatchDeps } from '../domain/integrations/delivery.js';
import { renderPageBlocks } from '../domain/integrations/render.js';

const SITE = '/v1/orgs/:organizationId/sites/:siteId';

/** A site's customization and its site spaces' overrides (README, "Customization"). */
export async function siteCustomizationRoutes(app: FastifyInstance, deps: RouteDeps & { dispatch: DispatchDeps }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const presentSiteSpace = (c: { settings: Customization; hasOverrides: boolean }) => ({
    ...c.settings,
    hasOverrides: c.hasOverrides,
  });

  r.get(
    `${SITE}/customization`,
    { schema: { params: siteParamsSchema, response: { 200: customizationSchema } } },
    async (request) => {
      const { organizationId, siteId } = request.params;
      return service.getSiteCustomization(serviceContext(deps, request), organizationId, siteId);
    },
  );

  r.put(
    `${SITE}/customization`,
    { schema: { params: siteParamsSchema, body: customizationSchema, response: { 200: customizationSchema } } },
    async (request) => {
      const { organizationId, siteId } = request.params;
      return service.putSiteCustomization(serviceContext(deps, request), organizationId, siteId, request.body);
    },
  );

  // The console's live preview (an extension of the contract): the site's first page with these settings, unsaved.
  const sites = new PublishedSites(deps.db, deps.config.publicUrl, {
    integrationBlocks: (organizationId, spaceId, refs) =>
      renderPageBlocks(deps.dispatch, organizationId, spaceId, refs),
  });
  r.post(
    `${SITE}/customization/preview`,
    { schema: { params: siteParamsSchema, body: customizationSchema } },
    async (request, reply) => {
      const { organizationId, siteId } = request.params;
      const ctx = serviceContext(deps, request);
      const html = await service.previewCustomization(ctx, organizationId, siteId, request.body, sites);
      return reply
        .header('content-type', 'text/html; charset=utf-8')
        .header('cache-control', 'no-store')
        .header('content-security-policy', pageCsp(requestOrigin(request)))
        .send(html);
    },
  );

  r.get(
    `${SITE}/site-spaces/:siteSpaceId/customization`,
    { schema: { params: siteSpaceParamsSchema, response: { 200: siteSpaceCustomizationSchema } } },
    async (request) => {
      const { organizationId, siteId, siteSpaceId } = request.params;
      const ctx = serviceContext(deps, request);
      return presentSiteSpace(await service.getSiteSpaceCustomization(ctx, organizationId, siteId, siteSpaceId));
    },
  );

  r.patch(
    `${SITE}/site-spaces/:siteSpaceId/customization`,
    {
      schema: {
        params: siteSpaceParamsSchema,
        body: siteSpaceCustomizationPatchSchema,
        response: { 200: siteSpaceCustomizationSchema },
      },
    },
    async (request) => {
      const { organizationId, siteId, siteSpaceId } = request.params;
      const ctx = serviceContext(deps, request);
      return presentSiteSpace(
        await service.patchSiteSpaceCustomization(ctx, organizationId, siteId, siteSpaceId, request.body),
      );
    },
  );

  r.delete(
    `${SITE}/site-spaces/:siteSpaceId/customization`,
    { schema: { params: siteSpaceParamsSchema } },
    async (request, reply) => {
      const { organizationId, siteId, siteSpaceId } = request.params;
      const ctx = serviceContext(deps, request);
      const removed = await service.deleteSiteSpaceCustomization(ctx, organizationId, siteId, siteSpaceId);
      return reply.code(removed ? 205 : 204).send();
    },
  );
}
