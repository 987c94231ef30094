import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import { backlinkListSchema, linkListSchema, linksQuerySchema } from '../../shared/contract/links.js';
import { fileParamsSchema, pageParamsSchema } from '../../shared/contract/content.js';
import { spaceParamsSchema } from '../../shared/contract/spaces.js';
import { changeRequestParamsSchema } from '../../shared/contract/change-requests.js';
import { pagedQuerySchema } from '../../shared/pagination.js';
import type { ContentSource } from '../domain/content/service.js';
import { fileBacklinks, listLinks, pageBacklinks, pageLinks } from '../domain/links/service.js';
import { serviceContext, type RouteDeps } from './context.js';

/**
 * Links and backlinks, of a space's current content and of a change request's: `…/links`,
 * `…/content/page/{pageId}/links`, `…/content/page/{pageId}/backlinks` and `…/content/files/{fileId}/backlinks`.
 */
export async function linkRoutes(app: FastifyInstance, deps: RouteDeps) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const scopes: Array<{ base: string; params: z.ZodObject; source: (p: Record<string, string>) => ContentSource }> = [
    { base: '/v1/spaces/:spaceId', params: spaceParamsSchema, source: () => ({ kind: 'space' }) },
    {
      base: '/v1/spaces/:spaceId/change-requests/:changeRequestId',
      params: changeRequestParamsSchema,
      source: (p) => ({ kind: 'change-request', id: p.changeRequestId! }),
    },
  ];

  for (const { base, params, source } of scopes) {
    r.get(
      `${base}/links`,
      { schema: { params, querystring: linksQuerySchema, response: { 200: linkListSchema } } },
      async (request) => {
        const p = request.params as Record<string, string>;
        return listLinks(serviceContext(deps, request), p.spaceId!, source(p), request.query);
      },
    );

    r.get(
      `${base}/content/page/:pageId/links`,
      {
        schema: {
          params: params.extend(pageParamsSchema.shape),
          querystring: linksQuerySchema,
          response: { 200: linkListSchema },
        },
      },
      async (request) => {
        const p = request.params as Record<string, string>;
        return pageLinks(serviceContext(deps, request), p.spaceId!, source(p), p.pageId!, request.query);
      },
    );

    r.get(
      `${base}/content/page/:pageId/backlinks`,
      {
        schema: {
          params: params.extend(pageParamsSchema.shape),
          querystring: pagedQuerySchema,
          response: { 200: backlinkListSchema },
        },
      },
      async (request) => {
        const p = request.params as Record<string, string>;
        return pageBacklinks(serviceContext(deps, request), p.spaceId!, source(p), p.pageId!, request.query);
      },
    );

    r.get(
      `${base}/content/files/:fileId/backlinks`,
      {
        schema: {
          params: params.extend(fileParamsSchema.shape),
          querystring: pagedQuerySchema,
          response: { 200: backlinkListSchema },
        },
      },
      async (request) => {
        const p = request.params as Record<string, string>;
        return fileBacklinks(serviceContext(deps, request), p.spaceId!, source(p), p.fileId!, request.query);
      },
    );
  }
}
