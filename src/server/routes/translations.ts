import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  translationSettingsSchema,
  translationSettingsListSchema,
  createTranslationBodySchema,
  updateTranslationBodySchema,
  translationParamsSchema,
} from '../../shared/contract/translations.js';
import { organizationParamsSchema } from '../../shared/contract/organizations.js';
import { pagedQuerySchema } from '../../shared/pagination.js';
import * as service from '../domain/translations/service.js';
import { presentTranslation } from '../presenters/translation.js';
import { serviceContext, type RouteDeps } from './context.js';

export async function translationRoutes(app: FastifyInstance, deps: RouteDeps) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const base = '/v1/orgs/:organizationId/translations';

  r.get(
    base,
    {
      schema: {
        params: organizationParamsSchema,
        querystring: pagedQuerySchema,
        response: { 200: translationSettingsListSchema },
      },
    },
    async (request) => {
      const ctx = serviceContext(deps, request);
      const { role, ...result } = await service.listTranslations(
        ctx,
        request.params.organizationId,
        request.query.page,
        request.query.limit,
      );
      return { ...result, items: result.items.map((row) => presentTranslation(deps.urls, row, role)) };
    },
  );

  r.post(
    base,
    {
      schema: {
        params: organizationParamsSchema,
        body: createTranslationBodySchema,
        response: { 201: translationSettingsSchema },
      },
    },
    async (request, reply) => {
      const ctx = serviceContext(deps, request);
      const { row, role } = await service.createTranslation(ctx, request.params.organizationId, request.body);
      return reply.code(201).send(presentTranslation(deps.urls, row, role));
    },
  );

  r.get(
    `${base}/:translationSettingsId`,
    { schema: { params: translationParamsSchema, response: { 200: translationSettingsSchema } } },
    async (request) => {
      const { organizationId, translationSettingsId } = request.params;
      const { row, role } = await service.getTranslation(
        serviceContext(deps, request),
        organizationId,
        translationSettingsId,
      );
      return presentTranslation(deps.urls, row, role);
    },
  );

  r.put(
    `${base}/:translationSettingsId`,
    {
      schema: {
        params: translationParamsSchema,
        body: updateTranslationBodySchema,
        response: { 200: translationSettingsSchema },
      },
    },
    async (request) => {
      const { organizationId, translationSettingsId } = request.params;
      const ctx = serviceContext(deps, request);
      const { row, role } = await service.updateTranslation(ctx, organizationId, translationSettingsId, request.body);
      return presentTranslation(deps.urls, row, role);
    },
  );

  r.delete(
    `${base}/:translationSettingsId`,
    { schema: { params: translationParamsSchema } },
    async (request, reply) => {
      const { organizationId, translationSettingsId } = request.params;
      const deleted = await service.deleteTranslation(
        serviceContext(deps, request),
        organizationId,
        translationSettingsId,
      );
      return reply.code(deleted ? 205 : 204).send();
    },
  );
}
