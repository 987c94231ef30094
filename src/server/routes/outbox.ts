import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  bounceResultSchema,
  mailStatusSchema,
  outboxListSchema,
  outboxMessageSchema,
  outboxParamsSchema,
  outboxQuerySchema,
} from '../../shared/contract/mail.js';
import * as instance from '../domain/mail/instance.js';
import { BOUNCE_BYTES_MAX, receiveBounce } from '../domain/mail/bounces.js';
import { mailSettings } from '../domain/mail/outbox.js';
import { presentOutboxItem, presentOutboxMessage } from '../presenters/mail.js';
import { serviceContext, type RouteDeps } from './context.js';

/** The instance owner's view of outgoing e-mail (extension: GitBook has no such thing). */
export async function outboxRoutes(app: FastifyInstance, deps: RouteDeps) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const settings = mailSettings(deps.config);

  r.get('/v1/instance/mail', { schema: { response: { 200: mailStatusSchema } } }, async (request) => {
    const { smtp, counts, last } = await instance.mailStatus(serviceContext(deps, request), settings);
    return {
      object: 'mail-status' as const,
      configured: smtp !== undefined,
      ...(smtp ? { relay: `${smtp.host}:${smtp.port}`, tls: smtp.tls, from: smtp.from } : {}),
      ...(last?.last_error ? { lastError: { message: last.last_error, at: last.updated_at } } : {}),
      counts,
    };
  });

  r.get(
    '/v1/instance/outbox',
    { schema: { querystring: outboxQuerySchema, response: { 200: outboxListSchema } } },
    async (request) => {
      const { state, to, page, limit } = request.query;
      const result = await instance.listOutbox(serviceContext(deps, request), { state, to }, page, limit);
      return { ...result, items: result.items.map(presentOutboxItem) };
    },
  );

  r.get(
    '/v1/instance/outbox/:messageId',
    { schema: { params: outboxParamsSchema, response: { 200: outboxMessageSchema } } },
    async (request) =>
      presentOutboxMessage(await instance.getOutboxMessage(serviceContext(deps, request), request.params.messageId)),
  );

  // The HTML part on its own, for the console to show in a sandboxed frame: no script, no request but images.
  r.get('/v1/instance/outbox/:messageId/html', { schema: { params: outboxParamsSchema } }, async (request, reply) => {
    const row = await instance.getOutboxMessage(serviceContext(deps, request), request.params.messageId);
    return reply
      .header('Content-Type', 'text/html; charset=utf-8')
      .header('Content-Security-Policy', "default-src 'none'; img-src https: data:; style-src 'unsafe-inline'; sandbox")
      .header('X-Content-Type-Options', 'nosniff')
      .header('Cache-Control', 'private, no-store')
      .send(row.html_body ?? '');
  });

  r.post(
    '/v1/instance/outbox/:messageId/resend',
    { schema: { params: outboxParamsSchema, response: { 200: outboxMessageSchema } } },
    async (request) =>
      presentOutboxMessage(
        await instance.resendOutboxMessage(serviceContext(deps, request), settings, request.params.messageId),
      ),
  );

  // Bounces after acceptance: the operator's mail system pipes each report that reaches the envelope sender here,
  // as it arrived (README, "E-mail"). The body is the message itself, read as bytes.
  await app.register(async (scope) => {
    scope.removeContentTypeParser('text/plain');
    scope.addContentTypeParser(
      ['message/rfc822', 'text/plain', 'application/octet-stream'],
      { parseAs: 'buffer', bodyLimit: BOUNCE_BYTES_MAX },
      (_request, body, done) => done(null, body),
    );
    scope
      .withTypeProvider<ZodTypeProvider>()
      .post(
        '/v1/instance/mail/bounces',
        { schema: { response: { 200: bounceResultSchema } }, bodyLimit: BOUNCE_BYTES_MAX },
        async (request) =>
          receiveBounce(serviceContext(deps, request), Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0)),
      );
  });
}
