import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
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
 * Content uploaded as the request body of an import, saved to a file of its own as it arrives (a 1 GiB archive is
 * never held in memory), out of sight of the input guard's walk over request bodies. The file is removed once the
 * import is over.
 */
class ImportUpload {
  constructor(
    readonly path: string,
    readonly size: number,
    readonly contentType: string,
  ) {}
}

/** Writes `body` to a new temporary file, refusing (and removing it) past `maxBytes`. */
async function saveUpload(body: NodeJS.ReadableStream, maxBytes: number, tooLarge: () => Error) {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'docspace-import-'));
  const file = path.join(dir, 'upload');
  let size = 0;
  try {
    await pipeline(
      body,
      new Transform({
        transform(chunk: Buffer, _encoding, next) {
          size += chunk.length;
          next(size > maxBytes ? tooLarge() : null, chunk);
        },
      }),
      createWriteStream(file),
    );
    return { path: file, size };
  } catch (error) {
    await rm(dir, { recursive: true, force: true });
    throw error;
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
  // Uploads: this plugin's routes only, up to the upload size limit (JSON bodies keep the 1 MiB limit), saved to
  // disk as they arrive.
  const tooLarge = () =>
    new DomainError(
      413,
      `body: the upload is larger than ${formatBytes(settings.limits.uploadBytes)} (${limitLabel(settings.limits, 'uploadBytes')})`,
      [{ path: 'body', message: `larger than ${formatBytes(settings.limits.uploadBytes)}` }],
    );
  app.addContentTypeParser(UPLOAD_CONTENT_TYPES, (request, payload, done) => {
    const declared = Number(request.headers['content-length']);
    if (Number.isFinite(declared) && declared > settings.limits.uploadBytes) return done(tooLarge(), undefined);
    saveUpload(payload, settings.limits.uploadBytes, tooLarge).then(
      (saved) =>
        done(
          null,
          new ImportUpload(
            saved.path,
            saved.size,
            request.headers['content-type']!.split(';')[0]!.trim().toLowerCase(),
          ),
        ),
      (error: Error) => done(error, undefined),
    );
  });

  // The saved upload goes once the request is answered, whatever the answer was.
  app.addHook('onResponse', async (request) => {
    if (request.body instanceof ImportUpload)
      await rm(path.dirname(request.body.path), { recursive: true, force: true });
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
      ...(body instanceof ImportUpload ? { upload: { path: body.path, size: body.size } } : { url: body.url }),
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
