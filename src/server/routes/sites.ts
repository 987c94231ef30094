import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { organizationParamsSchema } from '../../shared/contract/organizations.js';
import {
  createShareLinkBodySchema,
  createSiteBodySchema,
  listSitesQuerySchema,
  publishedContentSiteSchema,
  publishingAuthSchema,
  shareKeyQuerySchema,
  shareLinkListSchema,
  shareLinkParamsSchema,
  shareLinkSchema,
  siteAdaptiveSchemaSchema,
  siteListSchema,
  siteParamsSchema,
  sitePreviewGrantSchema,
  siteSchema,
  templateConditionsSchema,
  updateAdaptiveSchemaBodySchema,
  updatePublishingAuthBodySchema,
  updateShareLinkBodySchema,
  updateSiteBodySchema,
} from '../../shared/contract/sites.js';
import { pagedQuerySchema } from '../../shared/pagination.js';
import * as service from '../domain/sites/service.js';
import * as shareLinks from '../domain/sites/share-links.js';
import { presentShareLink, presentSite, presentStructure, type StructureView } from '../presenters/site.js';
import type { Site } from '../../shared/contract/sites.js';
import { publishedSiteUrl } from '../lib/urls.js';
import { VISITOR_TOKEN_PARAM } from '../domain/sites/published/visitor-access.js';
import { siteCustomization, siteSpaceCustomization } from '../domain/sites/customization.js';
import { orderedSiteSpaces } from '../domain/sites/model.js';
import { serviceContext, type RouteDeps } from './context.js';
import { requireSite, siteReach } from '../domain/sites/published/site-reach.js';

const SITE = '/v1/orgs/:organizationId/sites/:siteId';

/** Sites, their adaptive schema, publication, visitor signing key and share links. */
export async function siteRoutes(app: FastifyInstance, deps: RouteDeps) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const present = (v: service.SiteResult) => presentSite(deps.urls, v.site, v.siteSpaces, v.role);
  const siteApiUrl = (orgId: string, siteId: string) => deps.urls.api(`/orgs/${orgId}/sites/${siteId}`);

  r.get(
    '/v1/orgs/:organizationId/sites',
    {
      schema: {
        params: organizationParamsSchema,
        querystring: listSitesQuerySchema,
        response: { 200: siteListSchema },
      },
    },
    async (request) => {
      const result = await service.listSites(
        serviceContext(deps, request),
        request.params.organizationId,
        request.query,
      );
      return { ...result, items: result.items.map(present) };
    },
  );

  r.post(
    '/v1/orgs/:organizationId/sites',
    {
      schema: { params: organizationParamsSchema, body: createSiteBodySchema.nullish(), response: { 201: siteSchema } },
    },
    async (request, reply) => {
      const { organizationId } = request.params;
      const created = await service.createSite(serviceContext(deps, request), organizationId, request.body ?? {});
      reply.header('location', siteApiUrl(organizationId, created.site.id));
      return reply.code(201).send(present(created));
    },
  );

  r.get(
    SITE,
    {
      config: { integrationAccess: 'site:metadata:read' },
      schema: { params: siteParamsSchema, response: { 200: siteSchema } },
    },
    async (request) => {
      const { organizationId, siteId } = request.params;
      return present(await service.getSite(serviceContext(deps, request), organizationId, siteId));
    },
  );

  r.patch(
    SITE,
    { schema: { params: siteParamsSchema, body: updateSiteBodySchema, response: { 200: siteSchema } } },
    async (request) => {
      const { organizationId, siteId } = request.params;
      return present(await service.updateSite(serviceContext(deps, request), organizationId, siteId, request.body));
    },
  );

  r.delete(SITE, { schema: { params: siteParamsSchema } }, async (request, reply) => {
    const { organizationId, siteId } = request.params;
    const deleted = await service.deleteSite(serviceContext(deps, request), organizationId, siteId);
    return reply.code(deleted ? 205 : 204).send();
  });

  for (const [path, published] of [
    ['publish', true],
    ['unpublish', false],
  ] as const) {
    r.post(
      `${SITE}/${path}`,
      { schema: { params: siteParamsSchema, response: { 200: siteSchema } } },
      async (request) => {
        const { organizationId, siteId } = request.params;
        return present(await service.setPublished(serviceContext(deps, request), organizationId, siteId, published));
      },
    );
  }

  // Adaptive content

  r.get(
    `${SITE}/adaptive-schema`,
    {
      config: { integrationAccess: 'site:adaptive:read' },
      schema: { params: siteParamsSchema, response: { 200: siteAdaptiveSchemaSchema } },
    },
    async (request) => {
      const { organizationId, siteId } = request.params;
      const schema = await service.getAdaptiveSchema(serviceContext(deps, request), organizationId, siteId);
      return { object: 'site-adaptive-schema' as const, ...schema };
    },
  );

  r.put(
    `${SITE}/adaptive-schema`,
    {
      config: { integrationAccess: 'site:adaptive:write' },
      schema: {
        params: siteParamsSchema,
        body: updateAdaptiveSchemaBodySchema,
        response: { 200: siteAdaptiveSchemaSchema },
      },
    },
    async (request) => {
      const { organizationId, siteId } = request.params;
      const ctx = serviceContext(deps, request);
      const schema = await service.putAdaptiveSchema(ctx, organizationId, siteId, request.body.jsonSchema);
      return { object: 'site-adaptive-schema' as const, ...schema };
    },
  );

  r.get(
    `${SITE}/adaptive-schema/template-conditions`,
    { schema: { params: siteParamsSchema, response: { 200: templateConditionsSchema } } },
    async (request) => {
      const { organizationId, siteId } = request.params;
      return {
        items: await service.listTemplateConditions(serviceContext(deps, request), organizationId, siteId),
      };
    },
  );

  // The published profile

  r.get(
    `${SITE}/published`,
    {
      config: { siteToken: true },
      schema: {
        params: siteParamsSchema,
        querystring: shareKeyQuerySchema,
        response: { 200: publishedContentSiteSchema },
      },
    },
    async (request) => {
      const { organizationId, siteId } = request.params;
      /** The profile of a site seen through `view`: its structure, and the customizations of what it shows. */
      const profile = (view: StructureView, site: Site) => ({
        object: 'published-content-site' as const,
        site,
        structure: presentStructure(view),
        customizations: {
          site: siteCustomization(view.site),
          siteSpaces: Object.fromEntries(
            orderedSiteSpaces(view.structure)
              .filter(view.visible)
              .map((ss) => [ss.id, siteSpaceCustomization(view.site, ss).settings]),
          ),
        },
        scripts: [],
      });
      if (request.siteToken) {
        // The site as this token's visitor sees it (its share key, its claims' conditions).
        requireSite(request.siteToken, organizationId, siteId);
        const reach = await siteReach(deps.db, request.siteToken);
        const root = publishedSiteUrl(deps.config.publicUrl, siteId, request.siteToken.shareKey);
        const site = presentSite(deps.urls, reach.site, reach.shown.size, null);
        return profile(
          {
            urls: deps.urls,
            site: reach.site,
            structure: reach.structure,
            spaces: reach.spaces,
            spaceLevel: () => 'read',
            visible: (ss) => reach.shown.has(ss.id),
            publishedRoot: root,
            // Sections the visitor's claims hide, or with nothing this visitor sees, are not there for them.
            visibleSection: (section) =>
              reach.visible.sections.some((s) => s.id === section.id) &&
              (reach.visible.siteSpaces.get(section.id) ?? []).length > 0,
          },
          { ...site, urls: { ...site.urls, published: root } },
        );
      }
      const ctx = serviceContext(deps, request);
      const { view, site } = await service.getPublished(ctx, organizationId, siteId, request.query.shareKey);
      return profile(view, present(site));
    },
  );

  // "Open live site" for sites readers reach only with a key or a token (see README)
  r.post(
    `${SITE}/preview-grant`,
    { schema: { params: siteParamsSchema, response: { 200: sitePreviewGrantSchema } } },
    async (request) => {
      const { organizationId, siteId } = request.params;
      const grant = await service.grantPreview(serviceContext(deps, request), organizationId, siteId);
      const url = new URL(publishedSiteUrl(deps.config.publicUrl, grant.site.id));
      url.searchParams.set(VISITOR_TOKEN_PARAM, grant.token);
      return { object: 'site-preview-grant' as const, url: url.toString(), expiresAt: grant.expiresAt };
    },
  );

  // Visitor authentication: the key visitor JWTs are signed with (see README)

  const presentAuth = (a: service.PublishingAuth) => ({
    object: 'publishing-auth' as const,
    backend: 'custom' as const,
    privateKey: a.privateKey,
    ...(a.fallbackURL ? { fallbackURL: a.fallbackURL } : {}),
  });

  r.get(
    `${SITE}/publishing/auth`,
    { schema: { params: siteParamsSchema, response: { 200: publishingAuthSchema } } },
    async (request) => {
      const { organizationId, siteId } = request.params;
      return presentAuth(await service.getPublishingAuth(serviceContext(deps, request), organizationId, siteId));
    },
  );

  r.patch(
    `${SITE}/publishing/auth`,
    {
      schema: {
        params: siteParamsSchema,
        body: updatePublishingAuthBodySchema,
        response: { 200: publishingAuthSchema },
      },
    },
    async (request) => {
      const { organizationId, siteId } = request.params;
      const ctx = serviceContext(deps, request);
      return presentAuth(await service.updatePublishingAuth(ctx, organizationId, siteId, request.body));
    },
  );

  r.post(
    `${SITE}/publishing/auth/regenerate`,
    { schema: { params: siteParamsSchema, response: { 200: publishingAuthSchema } } },
    async (request) => {
      const { organizationId, siteId } = request.params;
      const ctx = serviceContext(deps, request);
      return presentAuth(await service.updatePublishingAuth(ctx, organizationId, siteId, { regenerate: true }));
    },
  );

  // Share links

  r.get(
    `${SITE}/share-links`,
    { schema: { params: siteParamsSchema, querystring: pagedQuerySchema, response: { 200: shareLinkListSchema } } },
    async (request) => {
      const { organizationId, siteId } = request.params;
      const { page, limit } = request.query;
      const result = await shareLinks.listShareLinks(
        serviceContext(deps, request),
        organizationId,
        siteId,
        page,
        limit,
      );
      const { site, ...list } = result;
      return { ...list, items: list.items.map((row) => presentShareLink(deps.urls, site, row)) };
    },
  );

  r.post(
    `${SITE}/share-links`,
    {
      schema: {
        params: siteParamsSchema,
        body: createShareLinkBodySchema.nullish(),
        response: { 201: shareLinkSchema },
      },
    },
    async (request, reply) => {
      const { organizationId, siteId } = request.params;
      const ctx = serviceContext(deps, request);
      const { site, link } = await shareLinks.createShareLink(ctx, organizationId, siteId, request.body?.name);
      reply.header('location', `${siteApiUrl(organizationId, siteId)}/share-links/${link.id}`);
      return reply.code(201).send(presentShareLink(deps.urls, site, link));
    },
  );

  r.patch(
    `${SITE}/share-links/:shareLinkId`,
    { schema: { params: shareLinkParamsSchema, body: updateShareLinkBodySchema, response: { 200: shareLinkSchema } } },
    async (request) => {
      const { organizationId, siteId, shareLinkId } = request.params;
      const ctx = serviceContext(deps, request);
      const { site, link } = await shareLinks.updateShareLink(ctx, organizationId, siteId, shareLinkId, request.body);
      return presentShareLink(deps.urls, site, link);
    },
  );

  r.delete(
    `${SITE}/share-links/:shareLinkId`,
    { schema: { params: shareLinkParamsSchema } },
    async (request, reply) => {
      const { organizationId, siteId, shareLinkId } = request.params;
      const deleted = await shareLinks.deleteShareLink(
        serviceContext(deps, request),
        organizationId,
        siteId,
        shareLinkId,
      );
      return reply.code(deleted ? 205 : 204).send();
    },
  );
}
