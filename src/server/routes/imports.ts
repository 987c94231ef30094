import type { FastifyInstance, FastifyRequest } from 'fastify';
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
import { importContent, getImportRun, listImportRuns, UPLOAD_TYPES } from '../domain/imports/service.js';
import { formatBytes, importLimits, limitLabel } from '../domain/imports/limits.js';
import { DomainError, InvalidError } from '../domain/errors.js';
import { presentImportRun } from '../presenters/import.js';
import { serviceContext, type RouteDeps } from './context.js';

/**
 * Content uploaded as the request body of an import: the bytes, out of sight of the input guard's walk over
 * request bodies (which looks into JSON, not into 50 MiB of bytes).
 */
class ImportUpload {
  readonly #data: Buffer;
  constructor(
    data: Buffer,
    readonly contentType: string,
  ) {
    this.#data = data;
  }
  get data(): Buffer {
    return this.#data;
  }
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
  const settings = {
    // One file of an import is as large as a space's files may be (FILE_MAX_BYTES), unless a test says otherwise.
    limits: importLimits({
      ...(deps.config.fileMaxBytes ? { fileBytes: deps.config.fileMaxBytes } : {}),
      ...deps.config.importLimits,
    }),
    allowPrivate: deps.config.allowPrivateFetch,
  };
  // Uploads: this plugin's routes only, up to the download size limit (JSON bodies keep the 1 MiB limit).
  app.addContentTypeParser(
    UPLOAD_CONTENT_TYPES,
    { parseAs: 'buffer', bodyLimit: settings.limits.downloadBytes },
    (request, body, done) =>
      done(
        null,
        new ImportUpload(body as Buffer, request.headers['content-type']!.split(';')[0]!.trim().toLowerCase()),
      ),
  );

  // An upload past the limit is stopped while it arrives (413), saying which limit it met.
  app.setErrorHandler((err: { code?: string }) => {
    if (err.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
      throw new DomainError(
        413,
        `body: the upload is larger than ${formatBytes(settings.limits.downloadBytes)} (${limitLabel(settings.limits, 'downloadBytes')})`,
        [{ path: 'body', message: `larger than ${formatBytes(settings.limits.downloadBytes)}` }],
      );
    }
    throw err;
  });

  const handle = async (request: FastifyRequest, spaceId: string, changeRequestId: string | undefined) => {
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
    return importContent(ctx, settings, spaceId, changeRequestId, {
      source,
      ...(body instanceof ImportUpload ? { upload: body.data } : { url: body.url }),
      ...(query.importId ? { importId: query.importId } : {}),
    });
  };

  r.post(
    '/v1/spaces/:spaceId/content/import',
    {
      schema: {
        params: spaceParamsSchema,
        querystring: importQuerySchema,
        body: importRequestBodySchema,
        response: { 201: importResultSchema },
      },
    },
    async (request, reply) => {
      const done = await handle(request, request.params.spaceId, undefined);
      reply.header('location', presentImportRun(deps.urls, done.run).urls.location);
      return reply.code(201).send(done.result);
    },
  );

  r.post(
    '/v1/spaces/:spaceId/change-requests/:changeRequestId/content/import',
    {
      schema: {
        params: changeRequestParamsSchema,
        querystring: importQuerySchema,
        body: importRequestBodySchema,
        response: { 201: importResultSchema },
      },
    },
    async (request, reply) => {
      const done = await handle(request, request.params.spaceId, request.params.changeRequestId);
      reply.header('location', presentImportRun(deps.urls, done.run).urls.location);
      return reply.code(201).send(done.result);
    },
  );

  r.get(
    '/v1/spaces/:spaceId/imports',
    {
      schema: {
        params: spaceParamsSchema,
        querystring: pagedQuerySchema,
        response: { 200: importRunListSchema },
      },
    },
    async (request) => {
      const { page, limit } = request.query;
      const result = await listImportRuns(serviceContext(deps, request), settings, request.params.spaceId, page, limit);
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
      schema: {
        params: spaceParamsSchema.extend({ importId: importIdSchema }),
        response: { 200: importRunSchema },
      },
    },
    async (request) => {
      const { spaceId, importId } = request.params;
      const found = await getImportRun(serviceContext(deps, request), settings, spaceId, importId);
      return presentImportRun(deps.urls, found.run);
    },
  );
}
