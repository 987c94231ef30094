import crypto from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  importBodySchema,
  importQuerySchema,
  importResultSchema,
  importRunSchema,
  importRunListSchema,
  importIdSchema,
  type ImportSource,
} from '../../shared/contract/imports.js';
import { spaceParamsSchema } from '../../shared/contract/spaces.js';
import { changeRequestParamsSchema } from '../../shared/contract/change-requests.js';
import { pagedQuerySchema } from '../../shared/pagination.js';
import {
  importContent,
  getImportRun,
  listImportRuns,
  importSettings,
  UPLOAD_TYPES,
  type ImportUpload as ImportUploadRef,
} from '../domain/imports/service.js';
import { formatBytes, limitLabel } from '../domain/imports/limits.js';
import { BlobTooLargeError, deleteChunks, putChunks } from '../storage/repos/objects.js';
import { DomainError, InvalidError } from '../domain/errors.js';
import { presentImportRun } from '../presenters/import.js';
import { serviceContext, type RouteDeps } from './context.js';

/**
 * Content uploaded as the request body of an import, kept in the database as it arrives (`putChunks`: a 1 GiB
 * archive is never held in memory, and whichever server process runs the import reads it there), out of sight of
 * the input guard's walk over request bodies. Once the import is queued it is the import's (it removes it when it
 * is over); an upload no import took (refused, unauthorized) is removed once the request is answered.
 */
class ImportUpload implements ImportUploadRef {
  taken = false;
  constructor(
    readonly key: string,
    readonly size: number,
    readonly contentType: string,
  ) {}
}

/** Content types an upload may be sent as (with `?source=`, or telling the source themselves). */
const UPLOAD_CONTENT_TYPES = [...Object.keys(UPLOAD_TYPES), 'application/octet-stream'];

/** The JSON body `{url, source}`, or an upload; a JSON body's problems are reported field by field. */
const importRequestBodySchema = z.unknown().transform((body, ctx) => {
  if (body instanceof ImportUpload) return body;
  const parsed = importBodySchema.safeParse(body ?? {});
  if (parsed.success) return parsed.data;
  for (const issue of parsed.error.issues) ctx.addIssue({ ...issue, path: issue.path } as never);
  return z.NEVER;
});

export async function importRoutes(app: FastifyInstance, deps: RouteDeps) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const settings = importSettings(deps.config);
  // Uploads: this plugin's routes only, up to the upload size limit (JSON bodies keep the 1 MiB limit), kept in
  // the database as they arrive.
  const tooLarge = () =>
    new DomainError(
      413,
      `body: the upload is larger than ${formatBytes(settings.limits.uploadBytes)} (${limitLabel(settings.limits, 'uploadBytes')})`,
      [{ path: 'body', message: `larger than ${formatBytes(settings.limits.uploadBytes)}` }],
    );
  app.addContentTypeParser(UPLOAD_CONTENT_TYPES, (request, payload, done) => {
    const declared = Number(request.headers['content-length']);
    if (Number.isFinite(declared) && declared > settings.limits.uploadBytes) return done(tooLarge(), undefined);
    const key = `src-${crypto.randomUUID()}`;
    putChunks(deps.db, key, payload, settings.limits.uploadBytes).then(
      (size) =>
        done(null, new ImportUpload(key, size, request.headers['content-type']!.split(';')[0]!.trim().toLowerCase())),
      (error: Error) => done(error instanceof BlobTooLargeError ? tooLarge() : error, undefined),
    );
  });

  // An upload no import took goes once the request is answered.
  app.addHook('onResponse', async (request) => {
    if (request.body instanceof ImportUpload && !request.body.taken) await deleteChunks(deps.db, request.body.key);
  });

  // An upload past the limit is stopped while it arrives (413), saying which limit it met.
  app.setErrorHandler((err: { code?: string }) => {
    if (err.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
      throw new DomainError(
        413,
        `body: the upload is larger than ${formatBytes(settings.limits.uploadBytes)} (${limitLabel(settings.limits, 'uploadBytes')})`,
        [{ path: 'body', message: `larger than ${formatBytes(settings.limits.uploadBytes)}` }],
      );
    }
    throw err;
  });

  const handle = async (
    request: FastifyRequest,
    reply: FastifyReply,
    spaceId: string,
    changeRequestId: string | undefined,
  ) => {
    const body = request.body as ImportUpload | z.infer<typeof importBodySchema>;
    const query = request.query as z.infer<typeof importQuerySchema>;
    let source: ImportSource;
    if (body instanceof ImportUpload) {
      const told = query.source ?? UPLOAD_TYPES[body.contentType];
      if (!told) {
        throw new InvalidError('source', 'say which source the uploaded content is: markdown, html, zip or docx');
      }
      source = told;
    } else {
      source = body.source;
    }
    const ctx = serviceContext(deps, request);
    // A client that goes away stops the waiting, not the import.
    const gone = new AbortController();
    const onClose = () => gone.abort();
    reply.raw.once('close', onClose);
    try {
      const done = await importContent(
        ctx,
        settings,
        spaceId,
        changeRequestId,
        {
          source,
          ...(body instanceof ImportUpload ? { upload: body } : { url: body.url }),
          ...(query.importId ? { importId: query.importId } : {}),
        },
        gone.signal,
      );
      const run = presentImportRun(deps.urls, done.run);
      reply.header('location', run.urls.location);
      // Still running: the client has gone (nobody reads this), or follows it by its location.
      return done.result ? reply.code(201).send(done.result) : reply.code(202).send(run);
    } finally {
      reply.raw.off('close', onClose);
    }
  };

  r.post(
    '/v1/spaces/:spaceId/content/import',
    {
      schema: {
        params: spaceParamsSchema,
        querystring: importQuerySchema,
        body: importRequestBodySchema,
        response: { 201: importResultSchema, 202: importRunSchema },
      },
    },
    async (request, reply) => handle(request, reply, request.params.spaceId, undefined),
  );

  r.post(
    '/v1/spaces/:spaceId/change-requests/:changeRequestId/content/import',
    {
      config: { integrationAccess: 'space:content:write' },
      schema: {
        params: changeRequestParamsSchema,
        querystring: importQuerySchema,
        body: importRequestBodySchema,
        response: { 201: importResultSchema, 202: importRunSchema },
      },
    },
    async (request, reply) => handle(request, reply, request.params.spaceId, request.params.changeRequestId),
  );

  r.get(
    '/v1/spaces/:spaceId/imports',
    {
      config: { integrationAccess: 'space:content:read' },
      schema: {
        params: spaceParamsSchema,
        querystring: pagedQuerySchema,
        response: { 200: importRunListSchema },
      },
    },
    async (request) => {
      const { page, limit } = request.query;
      const result = await listImportRuns(serviceContext(deps, request), request.params.spaceId, page, limit);
      return {
        items: result.items.map((row) => presentImportRun(deps.urls, row)),
        count: result.count,
        ...(result.next ? { next: result.next } : {}),
      };
    },
  );

  r.get(
    '/v1/spaces/:spaceId/imports/:importId',
    {
      config: { integrationAccess: 'space:content:read' },
      schema: {
        params: spaceParamsSchema.extend({ importId: importIdSchema }),
        response: { 200: importRunSchema },
      },
    },
    async (request) => {
      const { spaceId, importId } = request.params;
      const found = await getImportRun(serviceContext(deps, request), spaceId, importId);
      return presentImportRun(deps.urls, found.run);
    },
  );
}
