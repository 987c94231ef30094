import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import {
  revisionSchema,
  revisionPagesSchema,
  revisionPageSchema,
  revisionFileSchema,
  revisionFileListSchema,
  contentQuerySchema,
  pageQuerySchema,
  pageDocumentQuerySchema,
  pageDocumentSchema,
  pageParamsSchema,
  pagePathParamsSchema,
  reusableContentParamsSchema,
  reusableContentQuerySchema,
  reusableContentSchema,
  documentParamsSchema,
  documentQuerySchema,
  reusableContentListSchema,
  fileParamsSchema,
  revisionParamsSchema,
  revisionSummaryListSchema,
  revisionChangesSchema,
  revisionChangesQuerySchema,
} from '../../shared/contract/content.js';
import { spaceParamsSchema } from '../../shared/contract/spaces.js';
import { changeRequestParamsSchema } from '../../shared/contract/change-requests.js';
import { pagedQuerySchema } from '../../shared/pagination.js';
import {
  listRevisions,
  mergedChangeRequest,
  readContent,
  readFileBytes,
  revisionChanges,
  type ContentSource,
  type ResolvedContent,
} from '../domain/content/service.js';
import { presentUser } from '../presenters/user.js';
import { NotFoundError } from '../domain/errors.js';
import type { PageNode } from '../domain/content/model.js';
import { decodeCursor, encodeCursor } from '../storage/pagination.js';
import {
  PAGES_JSON_FORMAT,
  pagesJsonWriter,
  presentFile,
  presentPage,
  presentRevision,
  presentReusableContent,
  type PageLocation,
} from '../presenters/revision.js';
import { presentChangeRequest } from '../presenters/change-request.js';
import { readPublishedContent } from '../domain/sites/published/site-reach.js';
import { gitRefsOf, revisionCommit } from '../domain/git-sync/service.js';
import { serviceContext, type RouteDeps } from './context.js';
import { RepresentationCache } from '../lib/representations.js';
import { DocumentPages, PageDocuments } from '../domain/content/document.js';
import { blobBody } from '../lib/blob-body.js';
import { blocksToMarkdown } from '../domain/content/blocks.js';

/**
 * Bytes of page trees kept per process (as written, gzipped and in brotli). A 100,000-page tree takes about 55 MB;
 * one of 1,000 pages, about 0.5 MB.
 */
const PAGE_TREES_CACHE_BYTES = 128 * 1024 * 1024;

/**
 * Read endpoints of content, the same under three prefixes: the space's current content
 * (`/spaces/{id}/content`), a change request's (`/spaces/{id}/change-requests/{cr}/content`) and any revision
 * of the space (`/spaces/{id}/revisions/{rev}`).
 */
export async function contentRoutes(app: FastifyInstance, deps: RouteDeps) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const pageTrees = new RepresentationCache(PAGE_TREES_CACHE_BYTES);
  const documentPages = new DocumentPages();
  const documents = new PageDocuments();

  const prefixes: Array<{
    prefix: string;
    params: z.ZodObject;
    source: (p: Record<string, string>) => ContentSource;
    /** Site API tokens read here (never a change request's content). */
    siteToken: boolean;
  }> = [
    {
      prefix: '/v1/spaces/:spaceId/content',
      params: spaceParamsSchema,
      source: () => ({ kind: 'space' }),
      siteToken: true,
    },
    {
      prefix: '/v1/spaces/:spaceId/change-requests/:changeRequestId/content',
      params: changeRequestParamsSchema,
      source: (p) => ({ kind: 'change-request', id: p.changeRequestId! }),
      siteToken: false,
    },
    {
      prefix: '/v1/spaces/:spaceId/revisions/:revisionId',
      params: spaceParamsSchema.extend(revisionParamsSchema.shape),
      source: (p) => ({ kind: 'revision', id: p.revisionId! }),
      siteToken: true,
    },
  ];

  const location = (c: ResolvedContent): PageLocation => ({
    organizationId: c.space.organization_id,
    spaceId: c.space.id,
    changeRequest: c.changeRequest?.number,
  });

  // What a request reads: a site API token the space's content and its history as its site publishes them
  // (site-reach.ts), anyone else what they may read.
  const readFor = (
    request: FastifyRequest,
    spaceId: string,
    source: ContentSource,
  ): Promise<ResolvedContent & { publicFiles?: string }> =>
    request.siteToken
      ? readPublishedContent(deps.db, deps.config.publicUrl, request.siteToken, spaceId, source)
      : readContent(deps.db, serviceContext(deps, request), spaceId, source);

  /** The `git` fields of a read's pages, files and reusable contents; none with `?metadata=false` (contract). */
  const gitOf = (request: FastifyRequest, c: ResolvedContent) =>
    (request.query as { metadata?: boolean }).metadata === false ? undefined : gitRefsOf(deps.db, c.space.id);

  for (const { prefix, params, source, siteToken } of prefixes) {
    const resolve = (request: FastifyRequest) => {
      const p = request.params as Record<string, string>;
      return readFor(request, p.spaceId!, source(p));
    };
    // An installation's token reads the content of the spaces chosen for it (integrations/tokens.ts).
    const config = { siteToken, integrationAccess: 'space:content:read' as const };

    r.get(
      prefix,
      { config, schema: { params, querystring: contentQuerySchema, response: { 200: revisionSchema } } },
      async (request, reply) => {
        const c = await resolve(request);
        const files = await c.reader.files();
        // A site token's caller is shown no change request.
        const merged = request.siteToken ? undefined : await mergedChangeRequest(deps.db, c);
        const viewer = request.auth?.userId ?? '';
        const at = location(c);
        // The revision without its pages, through the route's serializer; then its pages written into it as the
        // tree is walked (in time slices, as `/pages`): a 100,000-page tree presented and serialized at once held
        // the event loop for 1.5 s. `pages` is the first field holding objects, so the first `"pages":[]` is its.
        // The route's serializer (plugins/serializer.ts) writes strings.
        const git =
          request.query.metadata === false ? undefined : await revisionCommit(deps.db, c.space.id, c.revision.id);
        const refs = await (await gitOf(request, c))?.load();
        const outer = reply.serialize({
          ...presentRevision(
            deps.urls,
            at,
            c.revision,
            [],
            files,
            merged && presentChangeRequest(deps.urls, merged, c.space, c.level, viewer),
            await c.reader.reusableContents(),
            c.publicFiles,
            refs,
          ),
          ...(git ? { git } : {}),
        }) as string;
        const marker = outer.indexOf('"pages":[]');
        if (marker < 0) throw new Error('The revision was serialized without its "pages" field');
        const open = marker + '"pages":['.length;
        // Gathered in parts of 64 K characters: joining 100,000 small pieces at the end would cost more.
        const parts: string[] = [];
        let part = outer.slice(0, open);
        const write = (text: string) => {
          part += text;
          if (part.length < 65_536) return;
          parts.push(part);
          part = '';
        };
        await c.reader.walkTree(pagesJsonWriter(deps.urls, at, write, refs));
        parts.push(part, outer.slice(open));
        return sendJson(reply, parts.join(''));
      },
    );

    // A revision's page tree is immutable: it is written out once (in time slices, so the server goes on serving
    // other requests meanwhile), kept with its compressed forms, and answered from there, or with 304. The bytes
    // bypass the response serializer: tests check them against the contract's schema.
    r.get(
      `${prefix}/pages`,
      {
        config,
        schema: { params, querystring: contentQuerySchema, response: { 200: revisionPagesSchema } },
      },
      async (request, reply) => {
        // Authorization first (404 or 403 as for any read): a caller who may not read the tree learns nothing.
        const c = await resolve(request);
        const at = location(c);
        // Everything the answer depends on: its revision, and what its URLs are made of (PUBLIC_URL, never the
        // request's host; the organization, which a transfer changes; the change request's number). Not the caller:
        // the pages carry no permissions. Not `computed` (it changes nothing here); `metadata` and the Git Sync's
        // state (the pages' files in the repository).
        const git = await gitOf(request, c);
        const key = [
          'pages',
          PAGES_JSON_FORMAT,
          deps.urls.base,
          at.organizationId,
          at.spaceId,
          at.changeRequest ?? '',
          c.revision.id,
          git?.version ?? '',
        ].join('\n');
        return pageTrees.send(request, reply, key, 'application/json; charset=utf-8', async (write) => {
          const writer = pagesJsonWriter(deps.urls, at, write, await git?.load());
          writer.start();
          await c.reader.walkTree(writer);
          writer.end();
        });
      },
    );

    /** A page as the contract gives it (by id or by path), its body in the format asked. */
    const pageAnswer = async (
      request: FastifyRequest,
      c: Awaited<ReturnType<typeof resolve>>,
      node: PageNode | undefined,
      format?: string,
    ) => {
      if (!node) throw new NotFoundError('Page not found');
      const git = await gitOf(request, c);
      const ids: string[] = [];
      const collect = (n: PageNode) => {
        ids.push(n.id);
        n.pages.forEach(collect);
      };
      collect(node);
      const refs = git && (await git.load(ids));
      const body =
        format === 'markdown'
          ? { format: 'markdown' as const, blocks: await c.reader.document(node.version) }
          : {
              format: 'document' as const,
              document: await documents.of(c.reader, c.revision.id, `page:${node.id}`, node),
            };
      return presentPage(deps.urls, location(c), node, body, refs);
    };
    r.get(
      `${prefix}/page/:pageId`,
      {
        config,
        schema: {
          params: params.extend(pageParamsSchema.shape),
          querystring: pageQuerySchema,
          response: { 200: revisionPageSchema },
        },
      },
      async (request) => {
        const c = await resolve(request);
        const node = await c.reader.page((request.params as { pageId: string }).pageId);
        return pageAnswer(request, c, node, request.query.format);
      },
    );

    // A page by its path (0.143.2 getPageByPath, getPageInChangeRequestByPath, getPageInRevisionByPath), as its
    // `path` reads: slugs from the top, `/` between them (sent as is or encoded as %2F).
    r.get(
      `${prefix}/path/*`,
      {
        config,
        schema: {
          params: params.extend(pagePathParamsSchema.shape),
          querystring: pageQuerySchema,
          response: { 200: revisionPageSchema },
        },
      },
      async (request) => {
        const c = await resolve(request);
        const node = await c.reader.pageByPath((request.params as { '*': string })['*']);
        return pageAnswer(request, c, node, request.query.format);
      },
    );

    // GitBook's document of a page (0.143.2 `getRevisionPageDocument`, and the same of the space's and a change
    // request's content). `evaluated` and `dereferenced` are accepted: there are no expressions or references here
    // to evaluate.
    r.get(
      `${prefix}/page/:pageId/document`,
      {
        config,
        schema: {
          params: params.extend(pageParamsSchema.shape),
          querystring: pageDocumentQuerySchema,
          response: { 200: pageDocumentSchema },
        },
      },
      async (request) => {
        const c = await resolve(request);
        const node = await c.reader.page((request.params as { pageId: string }).pageId);
        if (!node || node.version.type !== 'document') throw new NotFoundError('Page not found');
        return documents.of(c.reader, c.revision.id, `page:${node.id}`, node);
      },
    );

    // Reusable content (0.143.2 getReusableContentById, …InChangeRequestById, …InRevisionById, and its document).
    const reusableParams = params.extend(reusableContentParamsSchema.shape);
    const findReusable = async (request: FastifyRequest) => {
      const c = await resolve(request);
      const found = await c.reader.reusableContent((request.params as { reusableContentId: string }).reusableContentId);
      if (!found) throw new NotFoundError('Reusable content not found');
      return { c, found };
    };
    r.get(
      `${prefix}/reusable-contents`,
      {
        config,
        schema: {
          params,
          querystring: pagedQuerySchema.extend(contentQuerySchema.shape),
          response: { 200: reusableContentListSchema },
        },
      },
      async (request) => {
        const c = await resolve(request);
        const all = await c.reader.reusableContents();
        const after = decodeCursor(request.query.page, 1)?.[0];
        const from = after === undefined ? 0 : all.findIndex((r) => r.id === after) + 1;
        const items = all.slice(from, from + request.query.limit);
        const last = items[items.length - 1];
        const git = await gitOf(request, c);
        const refs = git && (await git.load(items.map((r) => r.id)));
        return {
          items: items.map((r) => presentReusableContent(r, refs?.('reusable', r.id))),
          count: all.length,
          ...(from + items.length < all.length && last ? { next: { page: encodeCursor([last.id]) } } : {}),
        };
      },
    );
    r.get(
      `${prefix}/reusable-contents/:reusableContentId`,
      {
        config,
        schema: {
          params: reusableParams,
          querystring: reusableContentQuerySchema,
          response: { 200: reusableContentSchema },
        },
      },
      async (request) => {
        const { c, found } = await findReusable(request);
        const markdown =
          request.query.format === 'markdown' ? blocksToMarkdown(await c.reader.document(found.version)) : undefined;
        const refs = await (await gitOf(request, c))?.load([found.id]);
        return {
          ...presentReusableContent(found, refs?.('reusable', found.id)),
          ...(markdown !== undefined ? { markdown } : {}),
        };
      },
    );
    r.get(
      `${prefix}/reusable-contents/:reusableContentId/document`,
      {
        config,
        schema: { params: reusableParams, querystring: pageDocumentQuerySchema, response: { 200: pageDocumentSchema } },
      },
      async (request) => {
        const { c, found } = await findReusable(request);
        return documents.of(c.reader, c.revision.id, `reusable:${found.id}`, { path: '', version: found.version });
      },
    );

    r.get(
      `${prefix}/files`,
      {
        config,
        schema: {
          params,
          querystring: pagedQuerySchema.extend(contentQuerySchema.shape),
          response: { 200: revisionFileListSchema },
        },
      },
      async (request) => {
        const c = await resolve(request);
        const all = await c.reader.files();
        const after = decodeCursor(request.query.page, 1)?.[0];
        const rest = after === undefined ? all : all.filter(([id]) => id > after);
        const items = rest.slice(0, request.query.limit);
        const last = items[items.length - 1];
        const git = await gitOf(request, c);
        const refs = git && (await git.load(items.map(([id]) => id)));
        return {
          items: items.map(([id, f]) =>
            presentFile(deps.urls, c.space.id, c.revision.id, id, f, c.publicFiles, refs?.('file', id)),
          ),
          count: all.length,
          ...(rest.length > items.length && last ? { next: { page: encodeCursor([last[0]]) } } : {}),
        };
      },
    );

    r.get(
      `${prefix}/files/:fileId`,
      {
        config,
        schema: {
          params: params.extend(fileParamsSchema.shape),
          querystring: contentQuerySchema,
          response: { 200: revisionFileSchema },
        },
      },
      async (request) => {
        const c = await resolve(request);
        const fileId = (request.params as { fileId: string }).fileId;
        const file = await c.reader.file(fileId);
        if (!file) throw new NotFoundError('File not found');
        const refs = await (await gitOf(request, c))?.load([fileId]);
        return presentFile(deps.urls, c.space.id, c.revision.id, fileId, file, c.publicFiles, refs?.('file', fileId));
      },
    );
  }

  // A page body by its document id (0.143.2 getDocumentById; pages give it as `documentId`): the document of a page
  // of the space's current content, to whoever may read that content (a site token too).
  r.get(
    '/v1/spaces/:spaceId/documents/:documentId',
    {
      config: { siteToken: true },
      schema: {
        params: spaceParamsSchema.extend(documentParamsSchema.shape),
        querystring: documentQuerySchema,
        response: { 200: pageDocumentSchema },
      },
    },
    async (request) => {
      const { spaceId, documentId } = request.params;
      const c = await readFor(request, spaceId, { kind: 'space' });
      const pageId = (await documentPages.of(c.reader, c.revision.id)).get(documentId);
      const node = pageId === undefined ? undefined : await c.reader.page(pageId);
      if (!node || node.version.document !== documentId) throw new NotFoundError('Document not found');
      return documents.of(c.reader, c.revision.id, `page:${node.id}`, node);
    },
  );

  // Extension: the space's history (its first revision and its merges), newest first, keyset-paginated.
  r.get(
    '/v1/spaces/:spaceId/revisions',
    {
      config: { integrationAccess: 'space:content:read' },
      schema: {
        params: spaceParamsSchema,
        querystring: pagedQuerySchema,
        response: { 200: revisionSummaryListSchema },
      },
    },
    async (request) => {
      const { items, next, count, space, users } = await listRevisions(
        serviceContext(deps, request),
        request.params.spaceId,
        request.query,
      );
      return {
        items: items.map((row) => {
          const user = row.created_by ? users.get(row.created_by) : undefined;
          return {
            object: 'revision-summary' as const,
            id: row.id,
            type: row.type,
            parents: JSON.parse(row.parents) as string[],
            createdAt: row.created_at,
            ...(user ? { createdBy: presentUser(deps.urls, user) } : {}),
            ...(row.type === 'merge' && row.change_request_id && row.cr_number != null
              ? { changeRequest: { id: row.change_request_id, number: row.cr_number, subject: row.cr_subject ?? '' } }
              : {}),
            current: row.id === space.revision_id,
          };
        }),
        ...(next ? { next } : {}),
        count,
      };
    },
  );

  // What a revision changed against its parent (getRevisionSemanticChanges).
  r.get(
    '/v1/spaces/:spaceId/revisions/:revisionId/changes',
    {
      config: { integrationAccess: 'space:content:read' },
      schema: {
        params: spaceParamsSchema.extend(revisionParamsSchema.shape),
        querystring: revisionChangesQuerySchema,
        response: { 200: revisionChangesSchema },
      },
    },
    async (request) => {
      const { spaceId, revisionId } = request.params;
      return revisionChanges(serviceContext(deps, request), spaceId, revisionId, request.query.limit);
    },
  );

  // The bytes of a file, to whoever may read the space. Revisions are immutable: the answer never changes.
  r.get(
    '/v1/spaces/:spaceId/revisions/:revisionId/files/:fileId/download',
    {
      config: { integrationAccess: 'space:content:read' },
      schema: { params: spaceParamsSchema.extend(revisionParamsSchema.shape).extend(fileParamsSchema.shape) },
    },
    async (request, reply) => {
      const { spaceId, revisionId, fileId } = request.params;
      const c = await readContent(deps.db, serviceContext(deps, request), spaceId, {
        kind: 'revision',
        id: revisionId,
      });
      const found = await readFileBytes(deps.db, c, fileId);
      if (!found) throw new NotFoundError('File not found');
      const { file, blob } = found;
      return (
        reply
          .header('content-length', String(blob.size))
          .header('content-type', file.contentType)
          .header('content-disposition', `inline; filename="${encodeURIComponent(file.name)}"`)
          .header('x-content-type-options', 'nosniff')
          // Served files never run as a page of this origin (an uploaded HTML or SVG file cannot script the console).
          .header('content-security-policy', "default-src 'none'; img-src 'self'; style-src 'unsafe-inline'; sandbox")
          .header('cache-control', 'private, max-age=31536000, immutable')
          .send(blobBody(blob))
      );
    },
  );
}

/** JSON already written out (it bypasses the response serializer). */
function sendJson(reply: FastifyReply, text: string): FastifyReply {
  return reply.type('application/json; charset=utf-8').send(text);
}
