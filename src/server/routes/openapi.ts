import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  compareQuerySchema,
  createOpenApiBodySchema,
  OPENAPI_TEXT_MAX,
  openApiComparisonSchema,
  openApiContentSchema,
  openApiParamsSchema,
  openApiReferencePageSchema,
  referenceQuerySchema,
  openApiSpecListSchema,
  openApiSpecSchema,
  openApiVersionListSchema,
  openApiVersionParamsSchema,
  openApiVersionSchema,
  operationQuerySchema,
  operationViewSchema,
  patchOpenApiBodySchema,
  putOpenApiBodySchema,
} from '../../shared/contract/openapi.js';
import { organizationParamsSchema } from '../../shared/contract/organizations.js';
import { pagedQuerySchema } from '../../shared/pagination.js';
import * as service from '../domain/openapi/service.js';
import { presentSpec, presentVersion, versionRawUrl } from '../presenters/openapi.js';
import { optionalActor, serviceContext, type RouteDeps } from './context.js';

/**
 * A spec's text may be up to OPENAPI_TEXT_MAX characters; inside a JSON string, escapes (newlines, quotes) can
 * double it.
 */
const OPENAPI_BODY_MAX = 2 * OPENAPI_TEXT_MAX + 64 * 1024;

export async function openApiRoutes(app: FastifyInstance, deps: RouteDeps) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const base = '/v1/orgs/:organizationId/openapi';

  r.get(
    base,
    {
      config: { integrationAccess: 'openapi:read' },
      schema: {
        params: organizationParamsSchema,
        querystring: pagedQuerySchema,
        response: { 200: openApiSpecListSchema },
      },
    },
    async (request) => {
      const { role, ...result } = await service.listSpecs(
        serviceContext(deps, request),
        request.params.organizationId,
        request.query.page,
        request.query.limit,
      );
      return { ...result, items: result.items.map((row) => presentSpec(deps.urls, row, role)) };
    },
  );

  r.post(
    base,
    {
      config: { integrationAccess: 'openapi:write' },
      bodyLimit: OPENAPI_BODY_MAX,
      schema: {
        params: organizationParamsSchema,
        body: createOpenApiBodySchema,
        response: { 201: openApiSpecSchema },
      },
    },
    async (request, reply) => {
      const { row, role } = await service.createSpec(
        serviceContext(deps, request),
        request.params.organizationId,
        request.body.slug,
        request.body.source,
      );
      return reply.code(201).send(presentSpec(deps.urls, row, role));
    },
  );

  r.get(
    `${base}/:specSlug`,
    {
      config: { integrationAccess: 'openapi:read' },
      schema: { params: openApiParamsSchema, response: { 200: openApiSpecSchema } },
    },
    async (request) => {
      const { organizationId, specSlug } = request.params;
      const { row, role } = await service.getSpec(serviceContext(deps, request), organizationId, specSlug);
      return presentSpec(deps.urls, row, role);
    },
  );

  r.put(
    `${base}/:specSlug`,
    {
      config: { integrationAccess: 'openapi:write' },
      bodyLimit: OPENAPI_BODY_MAX,
      schema: {
        params: openApiParamsSchema,
        body: putOpenApiBodySchema,
        response: { 200: openApiSpecSchema, 201: openApiSpecSchema },
      },
    },
    async (request, reply) => {
      const { organizationId, specSlug } = request.params;
      const { row, role, created } = await service.putSpec(
        serviceContext(deps, request),
        organizationId,
        specSlug,
        request.body.source,
      );
      return reply.code(created ? 201 : 200).send(presentSpec(deps.urls, row, role));
    },
  );

  r.patch(
    `${base}/:specSlug`,
    {
      config: { integrationAccess: 'openapi:write' },
      schema: { params: openApiParamsSchema, body: patchOpenApiBodySchema, response: { 200: openApiSpecSchema } },
    },
    async (request) => {
      const { organizationId, specSlug } = request.params;
      const { row, role } = await service.setVisibility(
        serviceContext(deps, request),
        organizationId,
        specSlug,
        request.body.visibility,
      );
      return presentSpec(deps.urls, row, role);
    },
  );

  r.delete(
    `${base}/:specSlug`,
    { config: { integrationAccess: 'openapi:write' }, schema: { params: openApiParamsSchema } },
    async (request, reply) => {
      const { organizationId, specSlug } = request.params;
      const deleted = await service.deleteSpec(serviceContext(deps, request), organizationId, specSlug);
      return reply.code(deleted ? 205 : 204).send();
    },
  );

  r.get(
    `${base}/:specSlug/versions`,
    {
      config: { integrationAccess: 'openapi:read' },
      schema: {
        params: openApiParamsSchema,
        querystring: pagedQuerySchema,
        response: { 200: openApiVersionListSchema },
      },
    },
    async (request) => {
      const { organizationId, specSlug } = request.params;
      const { spec, ...result } = await service.listVersions(
        serviceContext(deps, request),
        organizationId,
        specSlug,
        request.query.page,
        request.query.limit,
      );
      return { ...result, items: result.items.map((v) => presentVersion(deps.urls, spec, v)) };
    },
  );

  // `latest` is a version id like any other here (the service reads it as the spec's last version).
  r.get(
    `${base}/:specSlug/versions/:versionId`,
    {
      config: { integrationAccess: 'openapi:read' },
      schema: { params: openApiVersionParamsSchema, response: { 200: openApiVersionSchema } },
    },
    async (request) => {
      const { organizationId, specSlug, versionId } = request.params;
      const { spec, version } = await service.getVersion(
        serviceContext(deps, request),
        organizationId,
        specSlug,
        versionId,
      );
      return presentVersion(deps.urls, spec, version);
    },
  );

  r.get(
    `${base}/:specSlug/versions/:versionId/content`,
    {
      config: { integrationAccess: 'openapi:read', siteToken: true },
      schema: { params: openApiVersionParamsSchema, response: { 200: openApiContentSchema } },
    },
    async (request, reply) => {
      const { organizationId, specSlug, versionId } = request.params;
      const { spec, version } = request.siteToken
        ? await service.getLatestContentForSite(deps.db, request.siteToken, organizationId, specSlug, versionId)
        : await service.getVersionContent(serviceContext(deps, request), organizationId, specSlug, versionId);
      // The document is JSON already: sent as it is stored rather than parsed and serialized again.
      const url = JSON.stringify(versionRawUrl(deps.urls, spec, version.id));
      return reply
        .type('application/json; charset=utf-8')
        .serializer((payload: unknown) => payload as string)
        .send(`{"filesystem":{${JSON.stringify(version.filename)}:${version.document}},"url":${url}}` as never);
    },
  );

  // Extension: the text of a version as it was received (the `url` of versions and contents). Public specs are
  // readable by anyone; private ones by members of the organization.
  r.get(
    `${base}/:specSlug/versions/:versionId/raw`,
    { config: { public: true }, schema: { params: openApiVersionParamsSchema } },
    async (request, reply) => {
      const { organizationId, specSlug, versionId } = request.params;
      const version = await service.getRawVersion(deps.db, optionalActor(request), organizationId, specSlug, versionId);
      const json = /\.json$/i.test(version.filename);
      return reply
        .header('Content-Type', json ? 'application/json; charset=utf-8' : 'application/yaml; charset=utf-8')
        .header('Content-Disposition', `inline; filename="${version.filename}"`)
        .header('X-Content-Type-Options', 'nosniff')
        .send(version.text);
    },
  );

  // Extension: the operations of a version, ready to render, a page at a time (the console's reference view).
  r.get(
    `${base}/:specSlug/versions/:versionId/reference`,
    {
      config: { integrationAccess: 'openapi:read' },
      schema: {
        params: openApiVersionParamsSchema,
        querystring: referenceQuerySchema,
        response: { 200: openApiReferencePageSchema },
      },
    },
    async (request) => {
      const { organizationId, specSlug, versionId } = request.params;
      const { q, page, limit } = request.query;
      return service.getReference(serviceContext(deps, request), organizationId, specSlug, versionId, {
        ...(q ? { q } : {}),
        offset: page ?? 0,
        limit,
      });
    },
  );

  // Extension: one operation of a version (what a page's `{% openapi-operation %}` block shows).
  r.get(
    `${base}/:specSlug/versions/:versionId/operation`,
    {
      config: { integrationAccess: 'openapi:read' },
      schema: {
        params: openApiVersionParamsSchema,
        querystring: operationQuerySchema,
        response: { 200: operationViewSchema },
      },
    },
    async (request) => {
      const { organizationId, specSlug, versionId } = request.params;
      return service.getOperation(
        serviceContext(deps, request),
        organizationId,
        specSlug,
        versionId,
        request.query.path,
        request.query.method,
      );
    },
  );

  // Extension: what changed between two versions, breaking changes flagged.
  r.get(
    `${base}/:specSlug/compare`,
    {
      config: { integrationAccess: 'openapi:read' },
      schema: {
        params: openApiParamsSchema,
        querystring: compareQuerySchema,
        response: { 200: openApiComparisonSchema },
      },
    },
    async (request) => {
      const { organizationId, specSlug } = request.params;
      return service.compareVersions(
        serviceContext(deps, request),
        organizationId,
        specSlug,
        request.query.from,
        request.query.to,
      );
    },
  );
}
