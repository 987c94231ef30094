import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { FILE_NAME_MAX, FILE_UPLOAD_MAX_BYTES, revisionFileSchema } from '../../shared/contract/content.js';
import { ID_MAX } from '../../shared/contract/constants.js';
import { changeRequestParamsSchema, changeRequestSchema } from '../../shared/contract/change-requests.js';
import * as service from '../domain/change-requests/service.js';
import { DomainError, InvalidError } from '../domain/errors.js';
import { RevisionReader, revisionOfSpace } from '../domain/content/model.js';
import { BlobTooLargeError, putBlobStream } from '../storage/repos/objects.js';
import { presentChangeRequest } from '../presenters/change-request.js';
import { presentFile } from '../presenters/revision.js';
import { requireAuth } from '../plugins/auth.js';
import { formatBytes } from '../domain/imports/limits.js';
import { serviceContext, type RouteDeps } from './context.js';

/** The request's body, as it arrives: streamed to storage, never held whole. */
class UploadStream {
  readonly #stream: NodeJS.ReadableStream;
  constructor(stream: NodeJS.ReadableStream) {
    this.#stream = stream;
  }
  get stream(): NodeJS.ReadableStream {
    return this.#stream;
  }
}

const uploadQuerySchema = z.object({
  /** The file's name in the space. */
  name: z.string().trim().min(1).max(FILE_NAME_MAX),
  /** Echoed back, as `insert_files` does. */
  ref: z.string().min(1).max(ID_MAX).optional(),
});

/**
 * `POST /v1/spaces/{spaceId}/change-requests/{changeRequestId}/content/files?name=…` (extension): one file, of up to
 * FILE_MAX_BYTES (100 MiB by default), sent as the request's body (its Content-Type is the file's), streamed into
 * storage a chunk at a time and added to the change request's content as one new revision, as `insert_files` adds
 * one. `If-Match` (the revision the upload was based on) is honoured as by content edits. The caller's right to
 * edit is checked before a byte is stored.
 */
export async function fileUploadRoutes(app: FastifyInstance, deps: RouteDeps) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const maxBytes = deps.config.fileMaxBytes ?? FILE_UPLOAD_MAX_BYTES;
  // This plugin's routes only: any body (JSON too: a .json file), passed on as the stream it arrives as.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { bodyLimit: maxBytes }, (_request, payload, done) => {
    done(null, new UploadStream(payload));
  });

  r.post(
    '/v1/spaces/:spaceId/change-requests/:changeRequestId/content/files',
    {
      config: { integrationAccess: 'space:content:write' },
      bodyLimit: maxBytes,
      schema: {
        params: changeRequestParamsSchema,
        querystring: uploadQuerySchema,
        body: z.custom<UploadStream>((v) => v instanceof UploadStream, 'send the file as the request body'),
        response: {
          200: z.object({
            changeRequest: changeRequestSchema,
            file: revisionFileSchema.extend({ ref: z.string().optional() }),
          }),
        },
      },
    },
    async (request) => {
      const { spaceId, changeRequestId } = request.params;
      const ctx = serviceContext(deps, request);
      const body = request.body as UploadStream;
      // Whoever may not edit this change request gets nothing stored.
      const before = await service.loadChangeRequest(deps.db, ctx, spaceId, changeRequestId, 'edit', 'upload to it');
      service.requireEditable(before.space, before.cr);
      const declared = Number(request.headers['content-length']);
      if (Number.isFinite(declared) && declared > maxBytes) throw tooLarge(maxBytes);
      let stored: { id: string; size: number; head: Buffer };
      try {
        stored = await putBlobStream(deps.db, body.stream as AsyncIterable<Buffer>, maxBytes);
      } catch (error) {
        if (error instanceof BlobTooLargeError) throw tooLarge(maxBytes);
        throw error;
      }
      if (stored.size === 0) throw new InvalidError('body', 'the file is empty');
      const contentType = request.headers['content-type']?.split(';')[0]?.trim().toLowerCase();
      const ifMatch = request.headers['if-match']?.replace(/^W\//, '').replace(/^"|"$/g, '');
      const url = `stored:${stored.id}`;
      const result = await service.updateContent(
        ctx,
        spaceId,
        changeRequestId,
        [
          {
            operation: 'insert_files',
            files: [
              {
                name: request.query.name,
                url,
                ...(contentType && contentType !== 'application/octet-stream' ? { contentType } : {}),
              },
            ],
          },
        ],
        ifMatch,
        async (asked) => {
          if (asked !== url) throw new InvalidError('url', 'not this upload');
          return { stored };
        },
      );
      const inserted = result.insertedFiles[0]!;
      const reader = new RevisionReader(deps.db, await revisionOfSpace(deps.db, spaceId, result.cr.revision_id));
      return {
        changeRequest: presentChangeRequest(
          deps.urls,
          result.cr,
          result.space,
          result.level,
          requireAuth(request).userId,
        ),
        file: {
          ...presentFile(deps.urls, spaceId, result.cr.revision_id, inserted.id, (await reader.file(inserted.id))!),
          ...(request.query.ref ? { ref: request.query.ref } : {}),
        },
      };
    },
  );

  // A body past the limit is stopped while it arrives (413), naming the limit.
  app.setErrorHandler((err: { code?: string }) => {
    if (err.code === 'FST_ERR_CTP_BODY_TOO_LARGE') throw tooLarge(maxBytes);
    throw err;
  });
}

function tooLarge(maxBytes: number): DomainError {
  return new DomainError(
    413,
    `body: the file is larger than ${formatBytes(maxBytes)}, the largest file a space holds`,
    [{ path: 'body', message: `larger than ${formatBytes(maxBytes)}` }],
  );
}
