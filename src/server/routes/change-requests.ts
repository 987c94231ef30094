import type { FastifyInstance, FastifyRequest } from 'fastify';
import { requireAuth } from '../plugins/auth.js';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  changeRequestSchema,
  changeRequestListSchema,
  createChangeRequestBodySchema,
  updateChangeRequestBodySchema,
  listChangeRequestsQuerySchema,
  changeRequestParamsSchema,
  mergeResultSchema,
  conflictListSchema,
  conflictParamsSchema,
  conflictResolutionSchema,
  semanticChangesSchema,
  pageDiffSchema,
  pageDiffParamsSchema,
  pdfQuerySchema,
  pdfResultSchema,
} from '../../shared/contract/change-requests.js';
import { spaceParamsSchema } from '../../shared/contract/spaces.js';
import {
  updateContentBodySchema,
  updateContentQuerySchema,
  contentChangeResultSchema,
  revisionFileSchema,
  CHANGES_MAX,
  CONTENT_EDIT_BODY_MAX_BYTES,
  FILE_MAX_BYTES,
  reusableContentParamsSchema,
  type ContentChangeResult,
} from '../../shared/contract/content.js';
import { z } from 'zod';
import { pagedQuerySchema } from '../../shared/pagination.js';
import * as service from '../domain/change-requests/service.js';
import * as merge from '../domain/change-requests/merge.js';
import { RevisionReader, revisionOfSpace } from '../domain/content/model.js';
import { presentFile } from '../presenters/revision.js';
import { fetchUrl } from '../lib/fetch-url.js';
import { presentChangeRequest, presentConflicts } from '../presenters/change-request.js';
import { serviceContext, type RouteDeps } from './context.js';

export async function changeRequestRoutes(app: FastifyInstance, deps: RouteDeps) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const present = (c: service.ChangeRequestContext, request: FastifyRequest) =>
    presentChangeRequest(deps.urls, c.cr, c.space, c.level, requireAuth(request).userId);

  // An installation's token reads change requests with the space's content (integrations/tokens.ts).
  r.get(
    '/v1/spaces/:spaceId/change-requests',
    {
      config: { integrationAccess: 'space:content:read' },
      schema: {
        params: spaceParamsSchema,
        querystring: pagedQuerySchema.extend(listChangeRequestsQuerySchema.shape),
        response: { 200: changeRequestListSchema },
      },
    },
    async (request) => {
      const { page, limit, ...query } = request.query;
      const result = await service.listChangeRequests(
        serviceContext(deps, request),
        request.params.spaceId,
        query,
        page,
        limit,
      );
      return {
        items: result.items.map((cr) =>
          presentChangeRequest(deps.urls, cr, result.space, result.level, requireAuth(request).userId),
        ),
        count: result.count,
        ...(result.next ? { next: result.next } : {}),
      };
    },
  );

  r.post(
    '/v1/spaces/:spaceId/change-requests',
    {
      config: { integrationAccess: 'space:content:write' },
      schema: {
        params: spaceParamsSchema,
        body: createChangeRequestBodySchema,
        response: { 201: changeRequestSchema },
      },
    },
    async (request, reply) => {
      const created = await service.createChangeRequest(
        serviceContext(deps, request),
        request.params.spaceId,
        request.body,
      );
      reply.header('location', deps.urls.api(`/spaces/${created.space.id}/change-requests/${created.cr.id}`));
      return reply.code(201).send(present(created, request));
    },
  );

  r.get(
    '/v1/spaces/:spaceId/change-requests/:changeRequestId',
    {
      config: { integrationAccess: 'space:content:read' },
      schema: { params: changeRequestParamsSchema, response: { 200: changeRequestSchema } },
    },
    async (request) => {
      const { spaceId, changeRequestId } = request.params;
      return present(await service.getChangeRequest(serviceContext(deps, request), spaceId, changeRequestId), request);
    },
  );

  r.post(
    '/v1/spaces/:spaceId/change-requests/:changeRequestId/merge',
    { schema: { params: changeRequestParamsSchema, response: { 200: mergeResultSchema } } },
    async (request) => {
      const { spaceId, changeRequestId } = request.params;
      const merged = await merge.mergeChangeRequest(serviceContext(deps, request), spaceId, changeRequestId);
      return { revision: merged.revision, result: merged.result };
    },
  );

  r.post(
    '/v1/spaces/:spaceId/change-requests/:changeRequestId/update',
    {
      config: { integrationAccess: 'space:content:write' },
      schema: { params: changeRequestParamsSchema, response: { 200: mergeResultSchema } },
    },
    async (request) => {
      const { spaceId, changeRequestId } = request.params;
      const updated = await merge.updateFromSpace(serviceContext(deps, request), spaceId, changeRequestId);
      return { revision: updated.revision, result: updated.result };
    },
  );

  r.get(
    '/v1/spaces/:spaceId/change-requests/:changeRequestId/conflicts',
    { schema: { params: changeRequestParamsSchema, response: { 200: conflictListSchema } } },
    async (request) => {
      const { spaceId, changeRequestId } = request.params;
      const { cr } = await service.getChangeRequest(serviceContext(deps, request), spaceId, changeRequestId);
      return presentConflicts(merge.pendingUpdate(cr)?.conflicts ?? []);
    },
  );

  r.post(
    '/v1/spaces/:spaceId/change-requests/:changeRequestId/conflicts/:conflictId',
    {
      schema: {
        params: conflictParamsSchema,
        body: conflictResolutionSchema,
        response: { 200: mergeResultSchema.extend({ conflicts: conflictListSchema }) },
      },
    },
    async (request) => {
      const { spaceId, changeRequestId, conflictId } = request.params;
      const ctx = serviceContext(deps, request);
      const resolved = await merge.resolveConflict(ctx, spaceId, changeRequestId, conflictId, request.body);
      return {
        revision: resolved.revision,
        result: resolved.result,
        conflicts: presentConflicts(merge.pendingUpdate(resolved.cr)?.conflicts ?? []),
      };
    },
  );

  r.get(
    '/v1/spaces/:spaceId/change-requests/:changeRequestId/changes',
    {
      config: { integrationAccess: 'space:content:read' },
      schema: { params: changeRequestParamsSchema, response: { 200: semanticChangesSchema } },
    },
    async (request) => {
      const { spaceId, changeRequestId } = request.params;
      return { changes: await service.changeRequestChanges(serviceContext(deps, request), spaceId, changeRequestId) };
    },
  );

  r.get(
    '/v1/spaces/:spaceId/change-requests/:changeRequestId/diff/:pageId',
    {
      config: { integrationAccess: 'space:content:read' },
      schema: { params: pageDiffParamsSchema, response: { 200: pageDiffSchema } },
    },
    async (request) => {
      const { spaceId, changeRequestId, pageId } = request.params;
      return service.changeRequestPageDiff(serviceContext(deps, request), spaceId, changeRequestId, pageId);
    },
  );

  // Extension: the same diff for a reusable content (its `page` is the reusable content).
  r.get(
    '/v1/spaces/:spaceId/change-requests/:changeRequestId/diff/reusable/:reusableContentId',
    {
      schema: {
        params: changeRequestParamsSchema.extend(reusableContentParamsSchema.shape),
        response: { 200: pageDiffSchema },
      },
    },
    async (request) => {
      const { spaceId, changeRequestId, reusableContentId } = request.params;
      return service.changeRequestReusableDiff(
        serviceContext(deps, request),
        spaceId,
        changeRequestId,
        reusableContentId,
      );
    },
  );

  // The PDF: `pdf` answers the URL to fetch (the export is rendered when that URL is read).
  r.get(
    '/v1/spaces/:spaceId/change-requests/:changeRequestId/pdf',
    { schema: { params: changeRequestParamsSchema, querystring: pdfQuerySchema, response: { 200: pdfResultSchema } } },
    async (request) => {
      const { spaceId, changeRequestId } = request.params;
      // Checks access and the page now, so that a bad request fails here rather than at the download.
      const { cr } = await service.getChangeRequest(serviceContext(deps, request), spaceId, changeRequestId);
      const query = new URLSearchParams();
      if (request.query.page) query.set('page', request.query.page);
      if (request.query.only) query.set('only', 'true');
      const suffix = query.size ? `?${query.toString()}` : '';
      return { url: deps.urls.api(`/spaces/${spaceId}/change-requests/${cr.id}/pdf/download${suffix}`) };
    },
  );

  r.get(
    '/v1/spaces/:spaceId/change-requests/:changeRequestId/pdf/download',
    { schema: { params: changeRequestParamsSchema, querystring: pdfQuerySchema } },
    async (request, reply) => {
      const { spaceId, changeRequestId } = request.params;
      const pdf = await service.changeRequestPdf(serviceContext(deps, request), spaceId, changeRequestId, {
        pageId: request.query.page,
        only: request.query.only,
      });
      return reply
        .header('content-type', 'application/pdf')
        .header('content-disposition', `inline; filename="change-request-${changeRequestId}.pdf"`)
        .send(pdf);
    },
  );

  r.patch(
    '/v1/spaces/:spaceId/change-requests/:changeRequestId',
    {
      config: { integrationAccess: 'space:content:write' },
      schema: {
        params: changeRequestParamsSchema,
        body: updateChangeRequestBodySchema,
        response: { 200: changeRequestSchema },
      },
    },
    async (request) => {
      const { spaceId, changeRequestId } = request.params;
      const ctx = serviceContext(deps, request);
      return present(await service.updateChangeRequest(ctx, spaceId, changeRequestId, request.body), request);
    },
  );
}

export async function changeRequestContentRoutes(app: FastifyInstance, deps: RouteDeps) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.post(
    '/v1/spaces/:spaceId/change-requests/:changeRequestId/content',
    {
      config: { integrationAccess: 'space:content:write' },
      bodyLimit: CONTENT_EDIT_BODY_MAX_BYTES,
      schema: {
        params: changeRequestParamsSchema,
        querystring: updateContentQuerySchema,
        headers: z.object({ 'if-match': z.string().max(200).optional() }),
        body: updateContentBodySchema,
        response: {
          200: z.union([
            changeRequestSchema,
            z.object({
              changeRequest: changeRequestSchema,
              changes: z.array(contentChangeResultSchema).max(CHANGES_MAX),
              insertedFiles: z.array(revisionFileSchema.extend({ ref: z.string().optional() })).optional(),
            }),
          ]),
        },
      },
    },
    async (request) => {
      const { spaceId, changeRequestId } = request.params;
      // The revision the edit was based on, as an entity tag: `"rev"`, `W/"rev"` or bare.
      const ifMatch = request.headers['if-match']?.replace(/^W\//, '').replace(/^"|"$/g, '');
      const result = await service.updateContent(
        serviceContext(deps, request),
        spaceId,
        changeRequestId,
        request.body.changes,
        ifMatch,
        (url) => fetchUrl(url, { maxBytes: FILE_MAX_BYTES, allowPrivate: deps.config.allowPrivateFetch }),
      );
      const changeRequest = presentChangeRequest(
        deps.urls,
        result.cr,
        result.space,
        result.level,
        requireAuth(request).userId,
      );
      if (request.query.compat) return changeRequest;
      const pageUrl = (id: string) =>
        deps.urls.api(`/spaces/${spaceId}/change-requests/${result.cr.id}/content/page/${id}`);
      const reader = new RevisionReader(deps.db, await revisionOfSpace(deps.db, spaceId, result.cr.revision_id));
      const insertedFiles = await Promise.all(
        result.insertedFiles.map(async ({ id, ref }) => ({
          ...presentFile(deps.urls, spaceId, result.cr.revision_id, id, (await reader.file(id))!),
          ...(ref ? { ref } : {}),
        })),
      );
      return {
        changeRequest,
        changes: result.applied.map((c): ContentChangeResult => {
          if (!('pageId' in c)) {
            const id = c.reusableContentId;
            if (c.type === 'deleted_reusable_content') return { type: c.type, reusableContent: id };
            if (c.type === 'updated_reusable_content') return { type: c.type, reusableContent: { id } };
            return { type: 'created_reusable_content', ...(c.ref ? { ref: c.ref } : {}), reusableContent: { id } };
          }
          if (c.type === 'deleted_page') return { type: c.type, page: c.pageId };
          const page = { id: c.pageId, urls: { location: pageUrl(c.pageId) } };
          return c.type === 'created_page'
            ? { type: c.type, ...(c.ref ? { ref: c.ref } : {}), page }
            : { type: c.type, page };
        }),
        ...(insertedFiles.length ? { insertedFiles } : {}),
      };
    },
  );
}
