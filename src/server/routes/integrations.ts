import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  contentInstallationListSchema,
  contentInstallationSchema,
  devModeBodySchema,
  INTEGRATION_ICON_BYTES_MAX,
  INTEGRATION_PREVIEW_BYTES_MAX,
  INTEGRATION_SCRIPT_MAX,
  installationListSchema,
  installationParamsSchema,
  installationSchema,
  installationsQuerySchema,
  installIntegrationBodySchema,
  installOnSiteBodySchema,
  installOnSpaceBodySchema,
  integrationEventListSchema,
  integrationEventParamsSchema,
  integrationEventWithTraceSchema,
  installedIntegrationListSchema,
  integrationListSchema,
  integrationParamsSchema,
  integrationSchema,
  listIntegrationsQuerySchema,
  publishIntegrationBodySchema,
  siteInstallationParamsSchema,
  spaceInstallationParamsSchema,
  updateContentInstallationBodySchema,
  updateInstallationBodySchema,
  queueTaskBodySchema,
  renderIntegrationUiBodySchema,
  contentKitRenderOutputSchema,
  RENDER_BODY_BYTES_MAX,
  INTEGRATION_TASK_BYTES_MAX,
} from '../../shared/contract/integrations.js';
import { idSchema } from '../../shared/contract/common.js';
import { organizationParamsSchema } from '../../shared/contract/organizations.js';
import { pagedQuerySchema } from '../../shared/pagination.js';
import { z } from 'zod';
import * as service from '../domain/integrations/service.js';
import { renderIntegrationUi } from '../domain/integrations/render.js';
import type { DispatchDeps } from '../domain/integrations/delivery.js';
import {
  presentEvent,
  presentTrace,
  presentInstallation,
  presentIntegration,
  presentTarget,
} from '../presenters/integration.js';
import type { Db } from '../storage/db.js';
import type { Urls } from '../lib/urls.js';
import { optionalActor, serviceContext, type RouteDeps } from './context.js';

/** The script and images in base64, and the JSON around them. */
const PUBLISH_BODY_MAX =
  INTEGRATION_SCRIPT_MAX * 2 +
  Math.ceil(((INTEGRATION_ICON_BYTES_MAX + 3 * INTEGRATION_PREVIEW_BYTES_MAX) * 4) / 3) +
  256 * 1024;

async function present(db: Db, urls: Urls, row: service.IntegrationRow, admin: boolean) {
  const owner = await service.integrationOwner(db, row);
  return presentIntegration(urls, row, owner, admin);
}

/** A page of integrations, each owner read once (a page holds many integrations of few owners). */
async function presentPage(db: Db, urls: Urls, rows: service.IntegrationRow[], adminOf: Set<string>) {
  const owners = await service.integrationOwners(db, rows);
  return rows.map((row) =>
    presentIntegration(urls, row, owners.get(row.organization_id)!, adminOf.has(row.organization_id)),
  );
}

export async function integrationRoutes(app: FastifyInstance, deps: RouteDeps & { dispatch: DispatchDeps }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const base = '/v1/integrations/:integrationName';

  r.get(
    '/v1/integrations',
    { schema: { querystring: listIntegrationsQuerySchema, response: { 200: integrationListSchema } } },
    async (request) => {
      const { page, limit, ...filters } = request.query;
      const result = await service.listIntegrations(serviceContext(deps, request), filters, page, limit);
      const items = await presentPage(deps.db, deps.urls, result.items, result.adminOf);
      return { items, count: result.count, ...(result.next ? { next: result.next } : {}) };
    },
  );

  r.get(
    '/v1/orgs/:organizationId/integrations',
    {
      schema: {
        params: organizationParamsSchema,
        querystring: listIntegrationsQuerySchema,
        response: { 200: installedIntegrationListSchema },
      },
    },
    async (request) => {
      const { page, limit, ...filters } = request.query;
      const result = await service.listIntegrations(
        serviceContext(deps, request),
        filters,
        page,
        limit,
        request.params.organizationId,
      );
      const items = await presentPage(deps.db, deps.urls, result.items, result.adminOf);
      return {
        items: items.map((item) => ({ ...item, installation: result.installations.get(item.name)! })),
        count: result.count,
        ...(result.next ? { next: result.next } : {}),
      };
    },
  );

  // The integrations installed on a space or a site, with the installation of each (an extension of the
  // contract's lists: `installation` is the installation's id).
  const installedList = installedIntegrationListSchema;
  r.get(
    '/v1/spaces/:spaceId/integrations',
    { schema: { params: z.object({ spaceId: idSchema }), response: { 200: installedList } } },
    async (request) => {
      const { rows, adminOf } = await service.installedOn(
        serviceContext(deps, request),
        'space',
        null,
        request.params.spaceId,
      );
      const items = await presentPage(deps.db, deps.urls, rows, adminOf);
      return {
        items: items.map((item, i) => ({ ...item, installation: rows[i]!.installation_id })),
        count: rows.length,
      };
    },
  );
  r.get(
    '/v1/orgs/:organizationId/sites/:siteId/integrations',
    {
      schema: { params: organizationParamsSchema.extend({ siteId: idSchema }), response: { 200: installedList } },
    },
    async (request) => {
      const { organizationId, siteId } = request.params;
      const { rows, adminOf } = await service.installedOn(
        serviceContext(deps, request),
        'site',
        organizationId,
        siteId,
      );
      const items = await presentPage(deps.db, deps.urls, rows, adminOf);
      return {
        items: items.map((item, i) => ({ ...item, installation: rows[i]!.installation_id })),
        count: rows.length,
      };
    },
  );

  r.get(
    base,
    { schema: { params: integrationParamsSchema, response: { 200: integrationSchema } } },
    async (request) => {
      const { row, admin } = await service.visibleIntegration(
        serviceContext(deps, request),
        request.params.integrationName,
      );
      return present(deps.db, deps.urls, row, admin);
    },
  );

  r.post(
    base,
    {
      bodyLimit: PUBLISH_BODY_MAX,
      schema: {
        params: integrationParamsSchema,
        body: publishIntegrationBodySchema,
        response: { 200: integrationSchema },
      },
    },
    async (request) => {
      const { row } = await service.publishIntegration(
        serviceContext(deps, request),
        request.params.integrationName,
        request.body,
      );
      return present(deps.db, deps.urls, row, true);
    },
  );

  r.delete(base, { schema: { params: integrationParamsSchema } }, async (request, reply) => {
    await service.unpublishIntegration(serviceContext(deps, request), request.params.integrationName);
    return reply.code(204).send();
  });

  // The integration's script, with its Content-Security-Policy; readable by whoever may see the integration.
  r.get(
    `${base}/public`,
    { config: { public: true }, schema: { params: integrationParamsSchema } },
    async (request, reply) => {
      const { row } = await service.findVisibleIntegration(
        deps.db,
        optionalActor(request),
        request.params.integrationName,
      );
      return reply
        .header('Content-Type', 'text/javascript; charset=utf-8')
        .header('Content-Security-Policy', row.content_security_policy ?? "default-src 'none'")
        .header('X-Content-Type-Options', 'nosniff')
        .header('Cache-Control', 'no-cache')
        .send(row.script);
    },
  );

  // An image of the integration (icon, previews): public for public and unlisted integrations.
  r.get(
    `${base}/assets/:assetId`,
    { config: { public: true }, schema: { params: integrationParamsSchema.extend({ assetId: idSchema }) } },
    async (request, reply) => {
      const { asset, integration } = await service.getAsset(
        deps.db,
        optionalActor(request),
        request.params.integrationName,
        request.params.assetId,
      );
      return reply
        .header('Content-Type', asset.content_type)
        .header('Content-Security-Policy', "default-src 'none'")
        .header('X-Content-Type-Options', 'nosniff')
        .header(
          'Cache-Control',
          integration.visibility === 'private' ? 'private, max-age=3600' : 'public, max-age=31536000, immutable',
        )
        .send(asset.data);
    },
  );

  // --- Installations ---

  r.get(
    `${base}/installations`,
    {
      config: { integrationAccess: 'own' },
      schema: {
        params: integrationParamsSchema,
        querystring: installationsQuerySchema,
        response: { 200: installationListSchema },
      },
    },
    async (request) => {
      const { page, limit, externalId } = request.query;
      const result = await service.listInstallations(
        serviceContext(deps, request),
        request.params.integrationName,
        externalId,
        page,
        limit,
      );
      return { ...result, items: result.items.map(({ row, spaces }) => presentInstallation(deps.urls, row, spaces)) };
    },
  );

  r.post(
    `${base}/installations`,
    {
      schema: {
        params: integrationParamsSchema,
        body: installIntegrationBodySchema,
        response: { 201: installationSchema },
      },
    },
    async (request, reply) => {
      const { row, spaces } = await service.install(
        serviceContext(deps, request),
        request.params.integrationName,
        request.body.organization,
      );
      return reply.code(201).send(presentInstallation(deps.urls, row, spaces));
    },
  );

  r.get(
    `${base}/installations/:installationId`,
    {
      config: { integrationAccess: 'own' },
      schema: { params: installationParamsSchema, response: { 200: installationSchema } },
    },
    async (request) => {
      const { integrationName, installationId } = request.params;
      const { row, spaces } = await service.getInstallation(
        serviceContext(deps, request),
        integrationName,
        installationId,
      );
      return presentInstallation(deps.urls, row, spaces);
    },
  );

  r.patch(
    `${base}/installations/:installationId`,
    {
      config: { integrationAccess: 'own' },
      schema: {
        params: installationParamsSchema,
        body: updateInstallationBodySchema,
        response: { 200: installationSchema },
      },
    },
    async (request) => {
      const { integrationName, installationId } = request.params;
      const { row, spaces } = await service.updateInstallation(
        serviceContext(deps, request),
        integrationName,
        installationId,
        request.body,
      );
      return presentInstallation(deps.urls, row, spaces);
    },
  );

  r.post(
    `${base}/installations/:installationId/tokens`,
    {
      config: { integrationAccess: 'own' },
      schema: { params: installationParamsSchema, response: { 200: z.object({ token: z.string() }) } },
    },
    async (request) => {
      const { integrationName, installationId } = request.params;
      return service.createInstallationToken(serviceContext(deps, request), integrationName, installationId);
    },
  );

  r.delete(
    `${base}/installations/:installationId`,
    { schema: { params: installationParamsSchema } },
    async (request, reply) => {
      const { integrationName, installationId } = request.params;
      await service.uninstall(serviceContext(deps, request), integrationName, installationId);
      return reply.code(205).send();
    },
  );

  for (const kind of ['space', 'site'] as const) {
    r.get(
      `${base}/${kind}s`,
      {
        config: { integrationAccess: 'own' },
        schema: {
          params: integrationParamsSchema,
          querystring: pagedQuerySchema.extend({ externalId: z.string().min(1).max(512).optional() }),
          response: { 200: contentInstallationListSchema },
        },
      },
      async (request) => {
        const { integrationName } = request.params;
        const { externalId, page, limit } = request.query;
        const ctx = serviceContext(deps, request);
        const result = await service.listIntegrationTargets(ctx, integrationName, kind, externalId, page, limit);
        return { ...result, items: result.items.map((row) => presentTarget(deps.urls, integrationName, row)) };
      },
    );
  }

  for (const kind of ['space', 'site'] as const) {
    const params = kind === 'space' ? spaceInstallationParamsSchema : siteInstallationParamsSchema;
    const idOf = (p: Record<string, string>) => (kind === 'space' ? p.spaceId! : p.siteId!);
    r.get(
      `${base}/installations/:installationId/${kind}s`,
      {
        config: { integrationAccess: 'own' },
        schema: {
          params: installationParamsSchema,
          querystring: pagedQuerySchema,
          response: { 200: contentInstallationListSchema },
        },
      },
      async (request) => {
        const { integrationName, installationId } = request.params;
        const result = await service.listTargets(
          serviceContext(deps, request),
          integrationName,
          installationId,
          kind,
          request.query.page,
          request.query.limit,
        );
        return { ...result, items: result.items.map((row) => presentTarget(deps.urls, integrationName, row)) };
      },
    );
    r.post(
      `${base}/installations/:installationId/${kind}s`,
      {
        schema: {
          params: installationParamsSchema,
          body: kind === 'space' ? installOnSpaceBodySchema : installOnSiteBodySchema,
          response: { 201: contentInstallationSchema },
        },
      },
      async (request, reply) => {
        const { integrationName, installationId } = request.params;
        const body = request.body as { space?: string; siteId?: string };
        const row = await service.installOnTarget(
          serviceContext(deps, request),
          integrationName,
          installationId,
          kind,
          (kind === 'space' ? body.space : body.siteId)!,
        );
        return reply.code(201).send(presentTarget(deps.urls, integrationName, row));
      },
    );
    r.get(
      `${base}/installations/:installationId/${kind}s/:${kind}Id`,
      { config: { integrationAccess: 'own' }, schema: { params, response: { 200: contentInstallationSchema } } },
      async (request) => {
        const p = request.params as Record<string, string>;
        const row = await service.getTarget(
          serviceContext(deps, request),
          p.integrationName!,
          p.installationId!,
          kind,
          idOf(p),
        );
        return presentTarget(deps.urls, p.integrationName!, row);
      },
    );
    r.patch(
      `${base}/installations/:installationId/${kind}s/:${kind}Id`,
      {
        config: { integrationAccess: 'own' },
        schema: { params, body: updateContentInstallationBodySchema, response: { 200: contentInstallationSchema } },
      },
      async (request) => {
        const p = request.params as Record<string, string>;
        const row = await service.updateTarget(
          serviceContext(deps, request),
          p.integrationName!,
          p.installationId!,
          kind,
          idOf(p),
          request.body,
        );
        return presentTarget(deps.urls, p.integrationName!, row);
      },
    );
    r.delete(
      `${base}/installations/:installationId/${kind}s/:${kind}Id`,
      { schema: { params } },
      async (request, reply) => {
        const p = request.params as Record<string, string>;
        const deleted = await service.uninstallFromTarget(
          serviceContext(deps, request),
          p.integrationName!,
          p.installationId!,
          kind,
          idOf(p),
        );
        return reply.code(deleted ? 205 : 204).send();
      },
    );
  }

  // --- Events and development mode ---

  r.get(
    `${base}/events`,
    {
      schema: {
        params: integrationParamsSchema,
        querystring: pagedQuerySchema,
        response: { 200: integrationEventListSchema },
      },
    },
    async (request) => {
      const result = await service.listEvents(
        serviceContext(deps, request),
        request.params.integrationName,
        request.query.page,
        request.query.limit,
      );
      return { ...result, items: result.items.map(presentEvent) };
    },
  );

  r.get(
    `${base}/events/:eventId`,
    { schema: { params: integrationEventParamsSchema, response: { 200: integrationEventWithTraceSchema } } },
    async (request) => {
      const row = await service.getEvent(
        serviceContext(deps, request),
        request.params.integrationName,
        request.params.eventId,
      );
      return { event: presentEvent(row), trace: { logs: presentTrace(row) } };
    },
  );

  // A ContentKit component rendered by the integration's script (ui_render), for whoever may see its context.
  r.post(
    `${base}/render`,
    {
      bodyLimit: RENDER_BODY_BYTES_MAX,
      schema: {
        params: integrationParamsSchema,
        body: renderIntegrationUiBodySchema,
        response: { 200: contentKitRenderOutputSchema },
      },
    },
    async (request) =>
      renderIntegrationUi(serviceContext(deps, request), deps.dispatch, request.params.integrationName, request.body),
  );

  r.post(
    `${base}/tasks`,
    {
      config: { integrationAccess: 'own' },
      // The payload's own limit, with room for the envelope (the service checks the task itself).
      bodyLimit: INTEGRATION_TASK_BYTES_MAX + 1024,
      schema: { params: integrationParamsSchema, body: queueTaskBodySchema },
    },
    async (request, reply) => {
      await service.queueTask(serviceContext(deps, request), request.params.integrationName, request.body);
      return reply.code(204).send();
    },
  );

  r.put(
    `${base}/dev`,
    { schema: { params: integrationParamsSchema, body: devModeBodySchema } },
    async (request, reply) => {
      await service.setDevMode(
        serviceContext(deps, request),
        request.params.integrationName,
        request.body.tunnelUrl,
        request.body.all,
      );
      return reply.code(204).send();
    },
  );

  r.delete(`${base}/dev`, { schema: { params: integrationParamsSchema } }, async (request, reply) => {
    await service.setDevMode(serviceContext(deps, request), request.params.integrationName, null, false);
    return reply.code(205).send();
  });
}
