import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  searchPageResultListSchema,
  searchQuerySchema,
  searchSpaceResultListSchema,
  siteSearchBodySchema,
} from '../../shared/contract/search.js';
import { organizationParamsSchema } from '../../shared/contract/organizations.js';
import { spaceParamsSchema } from '../../shared/contract/spaces.js';
import { siteParamsSchema } from '../../shared/contract/sites.js';
import { pagedQuerySchema } from '../../shared/pagination.js';
import * as service from '../domain/search/service.js';
import { consolePageUrl, presentBySpace, presentPageHit } from '../presenters/search.js';
import { requireSite } from '../domain/sites/published/site-reach.js';
import { serviceContext, type RouteDeps } from './context.js';

/**
 * Full-text search of the current content of spaces: in one space, in every space of an organization the caller
 * may read, and in the spaces of a site. `limit` counts pages; results are ranked and paged by position.
 */
export async function searchRoutes(app: FastifyInstance, deps: RouteDeps) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/v1/spaces/:spaceId/search',
    {
      schema: {
        params: spaceParamsSchema,
        querystring: pagedQuerySchema.extend(searchQuerySchema.shape),
        response: { 200: searchPageResultListSchema },
      },
    },
    async (request) => {
      const { query, page, limit } = request.query;
      const result = await service.searchSpace(
        serviceContext(deps, request),
        request.params.spaceId,
        query,
        page,
        limit,
      );
      return {
        items: result.hits.map((hit) => presentPageHit(hit, consolePageUrl(deps.urls, result, hit))),
        next: result.next,
        count: result.count,
      };
    },
  );

  r.get(
    '/v1/orgs/:organizationId/search',
    {
      schema: {
        params: organizationParamsSchema,
        querystring: pagedQuerySchema.extend(searchQuerySchema.shape),
        response: { 200: searchSpaceResultListSchema },
      },
    },
    async (request) => {
      const { query, page, limit } = request.query;
      const ctx = serviceContext(deps, request);
      const result = await service.searchOrganization(ctx, request.params.organizationId, query, page, limit);
      return {
        items: presentBySpace(result, (hit) => consolePageUrl(deps.urls, result, hit)),
        next: result.next,
        count: result.count,
      };
    },
  );

  r.post(
    '/v1/orgs/:organizationId/sites/:siteId/search',
    {
      config: { siteToken: true },
      schema: {
        params: siteParamsSchema,
        querystring: pagedQuerySchema,
        body: siteSearchBodySchema,
        response: { 200: searchSpaceResultListSchema },
      },
    },
    async (request) => {
      const { organizationId, siteId } = request.params;
      const { page, limit } = request.query;
      let result;
      if (request.siteToken) {
        requireSite(request.siteToken, organizationId, siteId);
        result = await service.searchPublishedSite(deps.db, request.siteToken, request.body, page, limit);
      } else {
        const ctx = serviceContext(deps, request);
        result = await service.searchSite(ctx, organizationId, siteId, request.body, page, limit);
      }
      return {
        items: presentBySpace(result, (hit) => consolePageUrl(deps.urls, result, hit)),
        next: result.next,
        count: result.count,
      };
    },
  );
}
