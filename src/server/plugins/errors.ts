import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import type { ErrorBody, ErrorIssue } from '../../shared/errors.js';
import { DomainError, ServiceUnavailableError, TooManyRequestsError } from '../domain/errors.js';
import { isUniqueViolation } from '../storage/db.js';

export function errorBody(
  code: number,
  message: string,
  issues?: ErrorIssue[],
  requestId?: string,
  reason?: string,
): ErrorBody {
  return {
    error: {
      code,
      message,
      ...(issues ? { issues } : {}),
      ...(reason ? { reason } : {}),
      ...(requestId ? { requestId } : {}),
    },
  };
}

const CONTEXT_LABEL: Record<string, string> = {
  body: '',
  querystring: '',
  params: '',
  headers: 'header ',
};

/**
 * The one error handler: domain errors keep their status and message; validation errors become 400 naming
 * each field; framework errors caused by the client keep their 4xx status; anything else is a 500 with a
 * generic message and a request id, its details going to the log only.
 */
export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((err: FastifyError, request, reply) => {
    if (hasZodFastifySchemaValidationErrors(err)) {
      const context = (err as FastifyError & { validationContext?: string }).validationContext ?? 'body';
      const issues: ErrorIssue[] = err.validation.map((v) => ({
        path: v.instancePath.replace(/^\//, '').replaceAll('/', '.') || context,
        message: v.message ?? 'is invalid',
      }));
      const first = issues[0]!;
      const where = CONTEXT_LABEL[context] ?? '';
      return reply.code(400).send(errorBody(400, `Invalid ${where}${first.path}: ${first.message}`, issues));
    }
    if (err instanceof DomainError) {
      if (err instanceof TooManyRequestsError || err instanceof ServiceUnavailableError)
        reply.header('retry-after', String(err.retryAfterSeconds));
      return reply.code(err.status).send(errorBody(err.status, err.message, err.issues, undefined, err.reason));
    }
    if (isUniqueViolation(err)) {
      // Two requests raced to create the same thing (an e-mail, a hostname...); the loser learns it here.
      return reply.code(409).send(errorBody(409, 'Conflict: this was just created by another request'));
    }
    const status = err.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      const message =
        err.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || err instanceof SyntaxError
          ? 'Malformed JSON in the request body'
          : err.code === 'FST_ERR_CTP_BODY_TOO_LARGE'
            ? 'Request body too large'
            : err.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE'
              ? 'Unsupported Content-Type: send application/json'
              : err.code === 'FST_ERR_CTP_EMPTY_JSON_BODY'
                ? 'Empty body with Content-Type application/json: send a JSON object'
                : err.message;
      return reply.code(status).send(errorBody(status, message));
    }
    request.log.error({ err }, 'unhandled error');
    return reply.code(500).send(errorBody(500, 'Internal server error', undefined, String(request.id)));
  });
}
