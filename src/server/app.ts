import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyServerOptions } from 'fastify';
import { validatorCompiler } from 'fastify-type-provider-zod';
import type { Config } from './config.js';
import type { Db } from './storage/db.js';
import { openNotifier } from './storage/notifier.js';
import { registerCollab } from './routes/collab.js';
import { Urls } from './lib/urls.js';
import { registerErrorHandler, errorBody } from './plugins/errors.js';
import { authPlugin } from './plugins/auth.js';
import { registerInputGuards } from './plugins/input.js';
import { registerAdmission } from './plugins/admission.js';
import { registerBodyDeadline } from './plugins/body-deadline.js';
import { registerCompression } from './plugins/compression.js';
import { responseSerializerCompiler } from './plugins/serializer.js';
import { registerConsole } from './plugins/console.js';
import { healthRoutes } from './routes/health.js';
import { authRoutes } from './routes/auth.js';
import { accountRoutes } from './routes/account.js';
import { organizationRoutes } from './routes/organizations.js';
import { collectionRoutes } from './routes/collections.js';
import { spaceRoutes } from './routes/spaces.js';
import { memberRoutes } from './routes/members.js';
import { changeRequestRoutes, changeRequestContentRoutes } from './routes/change-requests.js';
import { contentRoutes } from './routes/content.js';
import { linkRoutes } from './routes/links.js';
import { openApiRoutes } from './routes/openapi.js';
import { integrationRoutes } from './routes/integrations.js';
import { integrationEndpointRoutes, integrationsRewrite } from './routes/integration-endpoints.js';
import { reviewRoutes } from './routes/reviews.js';
import { commentRoutes } from './routes/comments.js';
import { siteRoutes } from './routes/sites.js';
import { siteRedirectRoutes } from './routes/site-redirects.js';
import { siteStructureRoutes } from './routes/site-structure.js';
import { siteCustomizationRoutes } from './routes/site-customization.js';
import { publishedSiteRoutes } from './routes/published-sites.js';
import { teamRoutes } from './routes/teams.js';
import { contentPermissionRoutes } from './routes/content-permissions.js';
import { samlRoutes } from './routes/saml.js';
import { translationRoutes } from './routes/translations.js';
import type { RouteDeps } from './routes/context.js';
import { installZodMessages } from '../shared/messages.js';
import { txtLookup } from './lib/dns.js';
import { invitationRoutes } from './routes/invitations.js';
import { domainRoutes } from './routes/domains.js';
import { importRoutes } from './routes/imports.js';
import { gitSyncRoutes } from './routes/git-sync.js';
import {
  GIT_SYNC_JOB,
  GIT_SYNCS_IN_FLIGHT_MAX,
  gitSyncJobHandler,
  gitSyncSettings,
} from './domain/git-sync/service.js';
import { IMPORT_JOB, IMPORTS_IN_FLIGHT_MAX, importJobHandler, importSettings } from './domain/imports/service.js';
import { fileUploadRoutes } from './routes/file-uploads.js';
import { searchRoutes } from './routes/search.js';
import { JobQueue, type JobQueueOptions } from './jobs/queue.js';
import { EMAIL_JOB, EMAILS_IN_FLIGHT_MAX, emailJobHandler, mailSettings } from './domain/mail/outbox.js';
import { PASSWORD_RESET_JOB, passwordResetJobHandler } from './domain/auth/recovery.js';
import { outboxRoutes } from './routes/outbox.js';
import { notificationRoutes } from './routes/notifications.js';
import { NOTIFY_JOB } from './domain/notifications/events.js';
import { notifyJobHandler } from './domain/notifications/fanout.js';
import {
  INTEGRATION_EVENT_JOB,
  INTEGRATION_EVENTS_IN_FLIGHT_MAX,
  integrationEventJobHandler,
} from './domain/integrations/delivery.js';
import { IntegrationRuntime, sandboxClientAddress } from './workers/sandbox/runtime.js';
import { flatHeaders } from './lib/headers.js';
import { DIGEST_JOB, digestJobHandler } from './domain/notifications/digest.js';
import { notificationStillWanted } from './domain/notifications/inbox.js';
import { openApiJobHandler, type OpenApiJobOptions } from './jobs/openapi.js';
import { OPENAPI_JOB } from './domain/openapi/service.js';

/**
 * Fastify's `trustProxy` for TRUST_PROXY: `true` is one reverse proxy, so the client address is the
 * X-Forwarded-For entry that proxy appended, never one the client wrote further left (Fastify's own `true`
 * would trust every entry); a number trusts that many hops.
 */
function trustedProxies(
  setting: Config['trustProxy'],
): boolean | string[] | ((address: string, hop: number) => boolean) {
  if (setting === false || Array.isArray(setting)) return setting;
  const hops = setting === true ? 1 : setting;
  return (_address, hop) => hop < hops;
}

/**
 * At shutdown, the answers being prepared go out with `Connection: close` (Node then ends their connection after
 * them). The open connections are tracked (a set, per connection, not per request) and each one's pending answer
 * is marked when shutdown begins; a hook on every answer would cost every request for the one moment it matters.
 */
function endKeepAliveOnClose(app: FastifyInstance): void {
  const sockets = new Set<Socket>();
  app.server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  app.addHook('preClose', (done) => {
    for (const socket of sockets) {
      // Node's own link from a connection to the answer it is writing (null between requests).
      const pending = (socket as Socket & { _httpMessage?: ServerResponse | null })._httpMessage;
      if (pending && !pending.headersSent) pending.shouldKeepAlive = false;
    }
    done();
  });
}

/**
 * The sandbox integrations' scripts run in (workers/sandbox): no process starts before a script is needed. Their
 * requests to this server's own API are answered in process (`app.inject`), never over the network.
 */
function startSandbox(app: FastifyInstance, deps: AppDeps): IntegrationRuntime {
  const settings = deps.config.integrations;
  const sandbox = new IntegrationRuntime({
    egress: settings?.egress ?? true,
    egressAllow: settings?.egressAllow ?? [],
    processesMax: settings?.processesMax ?? 16,
    heapMb: settings?.heapMb ?? 128,
    allowPrivate: deps.config.allowPrivateFetch,
    api: {
      origin: deps.config.publicUrl,
      async handle(request) {
        const target = new URL(request.url);
        const res = await app.inject({
          remoteAddress: sandboxClientAddress(request.from),
          method: request.method as 'GET',
          url: target.pathname + target.search,
          headers: request.headers,
          ...(request.body ? { payload: request.body } : {}),
        });
        return { status: res.statusCode, headers: flatHeaders(res.headers), data: res.rawPayload };
      },
    },
    log: (level, message) => app.log[level](message),
  });
  app.addHook('onClose', async () => sandbox.close());
  return sandbox;
}

/** Largest accepted request body. */
export const BODY_LIMIT_BYTES = 1024 * 1024;

const defaultConsoleRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../dist/console');

export interface AppDeps {
  config: Config;
  db: Db;
  logger?: FastifyServerOptions['logger'];
  consoleRoot?: string;
  /** Also check every response body against its zod schema and compare both serializers (the test suite). */
  checkResponses?: boolean;
  /**
   * The background job queue's options; false runs no jobs in this instance (its imports then wait for another
   * process to run them).
   */
  jobs?: JobQueueOptions | false;
  /** Limits of OpenAPI processing, where they differ from the defaults (tests use small ones). */
  openApi?: Partial<Omit<OpenApiJobOptions, 'allowPrivate'>>;
}

/** The background jobs this server runs (see jobs/queue.ts): started when the app is ready, stopped on close. */
function startJobs(app: FastifyInstance, deps: AppDeps, sandbox: IntegrationRuntime): JobQueue | undefined {
  if (deps.jobs === false) return undefined;
  const queue = new JobQueue(
    deps.db,
    {
      [OPENAPI_JOB]: openApiJobHandler(deps.db, { ...deps.openApi, allowPrivate: deps.config.allowPrivateFetch }),
      [IMPORT_JOB]: importJobHandler(deps.db, new Urls(deps.config.publicUrl), importSettings(deps.config)),
      [GIT_SYNC_JOB]: gitSyncJobHandler(deps.db, gitSyncSettings(deps.config, new Urls(deps.config.publicUrl))),
      [EMAIL_JOB]: emailJobHandler(deps.db, mailSettings(deps.config), (id) => notificationStillWanted(deps.db, id)),
      [NOTIFY_JOB]: notifyJobHandler(deps.db, mailSettings(deps.config)),
      [DIGEST_JOB]: digestJobHandler(deps.db, mailSettings(deps.config)),
      [PASSWORD_RESET_JOB]: passwordResetJobHandler(deps.db, mailSettings(deps.config)),
      [INTEGRATION_EVENT_JOB]: integrationEventJobHandler(
        deps.db,
        sandbox,
        new Urls(deps.config.publicUrl, deps.config.integrations?.origin),
        deps.config.allowPrivateFetch,
      ),
    },
    app.log,
    {
      ...(deps.config.jobLeaseSeconds ? { leaseMs: deps.config.jobLeaseSeconds * 1000 } : {}),
      ...deps.jobs,
      kindLimits: {
        [IMPORT_JOB]: IMPORTS_IN_FLIGHT_MAX,
        [GIT_SYNC_JOB]: GIT_SYNCS_IN_FLIGHT_MAX,
        // A burst of mail never delays other work, and other work never holds mail back.
        [EMAIL_JOB]: EMAILS_IN_FLIGHT_MAX,
        // One fan-out at a time per process: a comment to a thousand watchers does not hold every slot.
        [NOTIFY_JOB]: 1,
        // Integrations' scripts run in their own processes; a slow one holds one of these slots, never others.
        [INTEGRATION_EVENT_JOB]: INTEGRATION_EVENTS_IN_FLIGHT_MAX,
        ...deps.jobs?.kindLimits,
      },
    },
  );
  app.addHook('onReady', async () => queue.start());
  app.addHook('preClose', async () => queue.stop());
  return queue;
}

/**
 * The Fastify instance (main.ts listens with it, and tests build the very same one) and its job queue (undefined
 * when `deps.jobs` is false). Returned side by side: a Fastify instance is a thenable, so awaiting one that
 * carried the queue as a property would lose it from the type.
 */
export async function buildApp(deps: AppDeps): Promise<{ app: FastifyInstance; jobs: JobQueue | undefined }> {
  installZodMessages();
  const app = Fastify({
    logger: deps.logger ?? false,
    bodyLimit: BODY_LIMIT_BYTES,
    // `true` means one reverse proxy: the client address is the X-Forwarded-For entry that proxy appended, never
    // one the client wrote itself further left (Fastify's own `true` would trust every entry).
    trustProxy: trustedProxies(deps.config.trustProxy),
    // Wait for in-flight requests on close, but drop idle keep-alive connections at once.
    forceCloseConnections: 'idle',
    // The headers must arrive within REQUEST_TIMEOUT_SECONDS (Node answers 408), and a body within that time plus
    // what its size takes at a minimum rate (plugins/body-deadline.ts): trickled requests cannot hold connections
    // open, and a large upload over a slow line is not cut off. Node's limit of the whole request is off.
    requestTimeout: 0,
    // Node takes the limits from its constructor's options (setting them afterwards, as Fastify does, is not
    // enforced) and enforces them when it checks connections: often enough for the limit to mean what it says.
    http: {
      requestTimeout: 0,
      headersTimeout: deps.config.requestTimeoutSeconds * 1000,
      connectionsCheckingInterval: Math.min(30_000, Math.max(500, deps.config.requestTimeoutSeconds * 100)),
    },
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 200 },
    // The integrations' origin serves their endpoints and nothing else (routes/integration-endpoints.ts).
    rewriteUrl: integrationsRewrite(deps.config.integrations?.origin),
    // Errors the router raises before any route (a path that is not valid UTF-8 once decoded) answer with the
    // one error body too, not Fastify's own.
    frameworkErrors: (error, _request, reply) => {
      const status = error.statusCode && error.statusCode < 500 ? error.statusCode : 400;
      const message =
        error.code === 'FST_ERR_BAD_URL' ? 'Malformed URL: the path is not valid percent-encoded UTF-8' : error.message;
      void (reply as unknown as FastifyReply).code(status).send(errorBody(status, message));
    },
  });
  // Many clients send `Content-Type: application/json` with no body on bodiless POSTs (merge, restore...):
  // an empty body is no body. Anything else goes through Fastify's own parser (prototype-poisoning safe).
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if (typeof body === 'string' && body.trim() === '') return done(null, undefined);
    return parseJson(request, body.toString(), done);
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(responseSerializerCompiler({ check: deps.checkResponses }));
  registerErrorHandler(app);
  // Before everything else a request goes through: a request waiting its turn costs nothing yet.
  registerAdmission(app);
  registerBodyDeadline(app, deps.config.requestTimeoutSeconds);
  registerInputGuards(app);
  // Once shutdown begins, answers still in flight tell the client not to reuse the connection, which is closed
  // after them: a client reusing it would otherwise meet a reset. Requests that arrive after it began are answered
  // 503 with `Connection: close` by Fastify itself.
  endKeepAliveOnClose(app);

  const routeDeps: RouteDeps = {
    db: deps.db,
    config: deps.config,
    urls: new Urls(deps.config.publicUrl, deps.config.integrations?.origin),
    txt: txtLookup(deps.config.dnsServers),
  };
  const sandbox = startSandbox(app, deps);
  // How the routes that answer with a script (renders, endpoints) reach it.
  const dispatch = { db: deps.db, runtime: sandbox, urls: routeDeps.urls, allowPrivate: deps.config.allowPrivateFetch };
  registerCompression(app);
  await app.register(authPlugin, { db: deps.db, config: deps.config });
  await app.register(healthRoutes, routeDeps);
  await app.register(authRoutes, routeDeps);
  await app.register(accountRoutes, routeDeps);
  await app.register(organizationRoutes, routeDeps);
  await app.register(collectionRoutes, routeDeps);
  await app.register(spaceRoutes, routeDeps);
  await app.register(memberRoutes, routeDeps);
  await app.register(changeRequestRoutes, routeDeps);
  await app.register(changeRequestContentRoutes, routeDeps);
  await app.register(fileUploadRoutes, routeDeps);
  await app.register(contentRoutes, routeDeps);
  await app.register(linkRoutes, routeDeps);
  await app.register(reviewRoutes, routeDeps);
  await app.register(commentRoutes, routeDeps);
  await app.register(siteRoutes, routeDeps);
  await app.register(siteRedirectRoutes, routeDeps);
  await app.register(siteStructureRoutes, routeDeps);
  await app.register(siteCustomizationRoutes, { ...routeDeps, dispatch });
  await app.register(publishedSiteRoutes, { ...routeDeps, dispatch });
  await app.register(teamRoutes, routeDeps);
  await app.register(contentPermissionRoutes, routeDeps);
  await app.register(samlRoutes, routeDeps);
  await app.register(translationRoutes, routeDeps);
  await app.register(openApiRoutes, routeDeps);
  await app.register(integrationEndpointRoutes, {
    ...routeDeps,
    origin: deps.config.integrations?.origin,
    dispatch,
  });
  await app.register(integrationRoutes, {
    ...routeDeps,
    dispatch,
  });
  await app.register(invitationRoutes, routeDeps);
  await app.register(domainRoutes, routeDeps);
  await app.register(importRoutes, routeDeps);
  await app.register(gitSyncRoutes, routeDeps);
  await app.register(searchRoutes, routeDeps);
  await app.register(outboxRoutes, routeDeps);
  await app.register(notificationRoutes, routeDeps);
  // Live collaboration's WebSocket, and the messages it exchanges with the other processes on the database.
  const notifier = openNotifier(deps.config.storage);
  registerCollab(app, { db: deps.db, config: deps.config, notifier });
  app.addHook('onClose', async () => notifier.close());
  await registerConsole(app, deps.consoleRoot ?? defaultConsoleRoot);
  return { app, jobs: startJobs(app, deps, sandbox) };
}
