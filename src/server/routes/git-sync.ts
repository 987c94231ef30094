import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';

import {
  exportToGitRepositorySchema,
  gitSyncRunBodySchema,
  gitSyncRunListSchema,
  gitSyncRunSchema,
  gitSyncSettingsBodySchema,
  gitSyncSettingsSchema,
  gitSyncStateSchema,
  gitSyncTestBodySchema,
  gitSyncTestResultSchema,
  importGitRepositorySchema,
} from '../../shared/contract/git-sync.js';
import { spaceParamsSchema } from '../../shared/contract/spaces.js';
import { idSchema } from '../../shared/contract/common.js';
import { pagedQuerySchema } from '../../shared/pagination.js';
import {
  deleteGitSync,
  getGitInfo,
  getGitSync,
  getGitSyncRun,
  gitSyncSettings,
  listGitSyncRuns,
  putGitSync,
  startGitOperation,
  testGitSync,
} from '../domain/git-sync/service.js';
import { receiveWebhook } from '../domain/git-sync/webhooks.js';
import { presentGitSync, presentGitSyncRun, presentGitSyncState } from '../presenters/git-sync.js';
import { serviceContext, type RouteDeps } from './context.js';

/** A push payload's size, at most (GitHub caps its own at 25 MB; most are a few KB). */
const WEBHOOK_BODY_MAX = 25 * 1024 * 1024;

/** Git Sync (domain/git-sync): the contract's three operations, and the space's sync settings and runs. */
export async function gitSyncRoutes(app: FastifyInstance, deps: RouteDeps) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const settings = gitSyncSettings(deps.config, deps.urls);

  // Forges' push webhooks: signed, not authenticated; the signature is checked over the body's own bytes, so this
  // route reads its JSON as text (a forge's pretty-printed JSON would not survive parsing and writing it again).
  await app.register(async (hooks) => {
    hooks.removeContentTypeParser('application/json');
    hooks.addContentTypeParser(
      'application/json',
      { parseAs: 'string', bodyLimit: WEBHOOK_BODY_MAX },
      (_r, body, done) => done(null, body),
    );
    hooks
      .withTypeProvider<ZodTypeProvider>()
      .post(
        '/v1/spaces/:spaceId/git/webhook',
        { schema: { params: spaceParamsSchema }, bodyLimit: WEBHOOK_BODY_MAX, config: { public: true } },
        async (request, reply) => {
          const raw = typeof request.body === 'string' ? request.body : '';
          const outcome = await receiveWebhook(deps.db, request.params.spaceId, raw, request.headers);
          return reply.code(outcome.result === 'queued' ? 202 : 200).send(outcome);
        },
      );
  });

  r.post(
    '/v1/spaces/:spaceId/git/import',
    {
      config: { integrationAccess: 'space:git:sync' },
      schema: { params: spaceParamsSchema, body: importGitRepositorySchema },
    },
    async (request, reply) => {
      await startGitOperation(serviceContext(deps, request), settings, request.params.spaceId, 'import', request.body);
      return reply.code(204).send();
    },
  );

  r.post(
    '/v1/spaces/:spaceId/git/export',
    {
      config: { integrationAccess: 'space:git:sync' },
      schema: { params: spaceParamsSchema, body: exportToGitRepositorySchema },
    },
    async (request, reply) => {
      await startGitOperation(serviceContext(deps, request), settings, request.params.spaceId, 'export', request.body);
      return reply.code(204).send();
    },
  );

  r.get(
    '/v1/spaces/:spaceId/git/info',
    {
      config: { integrationAccess: 'space:git:sync' },
      schema: { params: spaceParamsSchema, response: { 200: gitSyncStateSchema } },
    },
    async (request) => presentGitSyncState(await getGitInfo(serviceContext(deps, request), request.params.spaceId)),
  );

  r.get(
    '/v1/spaces/:spaceId/git/sync',
    { schema: { params: spaceParamsSchema, response: { 200: gitSyncSettingsSchema } } },
    async (request) =>
      presentGitSync(deps.urls, await getGitSync(serviceContext(deps, request), request.params.spaceId)),
  );

  r.put(
    '/v1/spaces/:spaceId/git/sync',
    {
      schema: { params: spaceParamsSchema, body: gitSyncSettingsBodySchema, response: { 200: gitSyncSettingsSchema } },
    },
    async (request) =>
      presentGitSync(
        deps.urls,
        await putGitSync(serviceContext(deps, request), settings, request.params.spaceId, request.body),
      ),
  );

  r.delete('/v1/spaces/:spaceId/git/sync', { schema: { params: spaceParamsSchema } }, async (request, reply) => {
    await deleteGitSync(serviceContext(deps, request), settings, request.params.spaceId);
    return reply.code(204).send();
  });

  r.post(
    '/v1/spaces/:spaceId/git/sync/test',
    {
      schema: { params: spaceParamsSchema, body: gitSyncTestBodySchema, response: { 200: gitSyncTestResultSchema } },
    },
    async (request) => testGitSync(serviceContext(deps, request), settings, request.params.spaceId, request.body),
  );

  r.post(
    '/v1/spaces/:spaceId/git/sync/run',
    { schema: { params: spaceParamsSchema, body: gitSyncRunBodySchema, response: { 202: gitSyncRunSchema } } },
    async (request, reply) => {
      const run = await startGitOperation(
        serviceContext(deps, request),
        settings,
        request.params.spaceId,
        request.body.direction,
        undefined,
        'manual',
      );
      return reply.code(202).send(presentGitSyncRun(run));
    },
  );

  r.get(
    '/v1/spaces/:spaceId/git/runs',
    { schema: { params: spaceParamsSchema, querystring: pagedQuerySchema, response: { 200: gitSyncRunListSchema } } },
    async (request) => {
      const { page, limit } = request.query;
      const result = await listGitSyncRuns(serviceContext(deps, request), request.params.spaceId, page, limit);
      return {
        items: result.items.map(presentGitSyncRun),
        count: result.count,
        ...(result.next ? { next: result.next } : {}),
      };
    },
  );

  r.get(
    '/v1/spaces/:spaceId/git/runs/:runId',
    {
      schema: {
        params: spaceParamsSchema.extend({ runId: idSchema }),
        response: { 200: gitSyncRunSchema },
      },
    },
    async (request) =>
      presentGitSyncRun(
        await getGitSyncRun(serviceContext(deps, request), request.params.spaceId, request.params.runId),
      ),
  );
}
