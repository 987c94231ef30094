import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { PublishedSites } from '../domain/sites/published/dispatch.js';
import { VISITOR_COOKIE, VISITOR_TOKEN_PARAM } from '../domain/sites/published/visitor-access.js';
import type { ServeResult } from '../domain/sites/published/answer.js';
import { FEEDBACK_SEGMENT, requestOrigin, SITES_PREFIX } from '../lib/urls.js';
import { negotiateCoding, noneMatchHits } from '../lib/representations.js';
import type { RouteDeps } from './context.js';
import type { DispatchDeps } from '../domain/integrations/delivery.js';
import { renderForReaders, renderPageBlocks } from '../domain/integrations/render.js';
import { sendPageFeedback, siteExtras, spaceBlockSpecs } from '../domain/integrations/published-scripts.js';
import { pageFeedbackBodySchema, siteBlockActionBodySchema } from '../../shared/contract/integrations.js';
import { InvalidError, NotFoundError } from '../domain/errors.js';
import { cookieOf, setCookie } from '../lib/cookies.js';
import { pageCsp, SITE_ASSETS } from '../domain/sites/published/assets.js';
import { blobBody } from '../lib/blob-body.js';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import { publishedSiteContentLookupSchema, resolvePublishedUrlBodySchema } from '../../shared/contract/sites.js';

/**
 * A file of a site space goes out with its own type, except script types, sent as plain text: pages allow scripts of
 * this origin (`script-src 'self'`), and a file someone uploaded must never be one.
 */
function servedType(contentType: string): string {
  const essence = contentType.split(';')[0]!.trim().toLowerCase();
  return /(java|ecma)script|^text\/(x-)?(jscript|livescript)$/.test(essence)
    ? 'text/plain; charset=utf-8'
    : contentType;
}

/** How often the page indexes of published spaces are checked for a change to make ready. */
const WARM_EVERY_MS = 5000;

const FILE_CSP = "default-src 'none'; img-src 'self'; style-src 'unsafe-inline'; sandbox";

/**
 * Published sites, outside /v1 and the console's routes: `/sites/{siteId}/[~share/{key}/][{section}/][{siteSpace}/]
 * [{page path}]` and `…/~files/{fileId}` for a site space's files. These routes are more specific than the console's
 * catch-all, so they always win over its SPA fallback.
 */
export async function publishedSiteRoutes(app: FastifyInstance, deps: RouteDeps & { dispatch: DispatchDeps }) {
  const sites = new PublishedSites(deps.db, deps.config.publicUrl, {
    integrationBlocks: (organizationId, spaceId, refs) =>
      renderPageBlocks(deps.dispatch, organizationId, spaceId, refs),
    blockAction: (organizationId, spaceId, input) => renderForReaders(deps.dispatch, organizationId, spaceId, input),
    siteExtras: (organizationId, siteId) => siteExtras(deps.db, deps.urls, organizationId, siteId),
    sendFeedback: (organizationId, feedback) => sendPageFeedback(deps.db, organizationId, feedback),
    spaceBlocks: (organizationId, spaceId) => spaceBlockSpecs(deps.db, organizationId, spaceId),
  });
  const secure = deps.config.publicUrl.startsWith('https:');
  // Page indexes of published spaces are made ready after each change (and after a start), looked for every few
  // seconds in the database, so every process sharing it keeps its own ready (see PublishedSites.warmIndexes).
  let warming: Promise<unknown> | undefined;
  const warm = () => {
    warming ??= sites
      .warmIndexes()
      .catch((err: unknown) => app.log.warn({ err }, 'published page indexes not made ready'))
      .finally(() => (warming = undefined));
  };
  const timer = setInterval(warm, WARM_EVERY_MS);
  timer.unref();
  app.addHook('onClose', async () => {
    clearInterval(timer);
    await warming;
  });

  const handle = async (request: FastifyRequest, reply: FastifyReply) => {
    const params = request.params as { siteId: string; '*'?: string };
    // The router has decoded the wildcard already.
    const segments = (params['*'] ?? '').split('/').filter(Boolean);
    const query = request.query as Record<string, unknown>;
    const queryToken = typeof query[VISITOR_TOKEN_PARAM] === 'string' ? query[VISITOR_TOKEN_PARAM] : undefined;
    const known = Object.fromEntries(
      ['q', 'in', 'page', 'limit', 'scope', 'format', 'from', 'to'].map((k) => [
        k,
        typeof query[k] === 'string' ? query[k] : undefined,
      ]),
    );
    const result = await sites.serve({
      siteId: params.siteId,
      segments,
      queryToken,
      cookieToken: cookieOf(request, VISITOR_COOKIE),
      query: known,
    });
    return send(request, reply, result, params.siteId);
  };

  async function send(request: FastifyRequest, reply: FastifyReply, result: ServeResult, siteId: string) {
    if (result.kind === 'redirect') return reply.code(302).header('location', result.location).send();
    // Changes are visible at the next request: browsers and proxies revalidate every time.
    reply.header('cache-control', result.private ? 'private, no-store' : 'no-cache');
    reply.header('x-content-type-options', 'nosniff');
    if (result.kind === 'file') {
      return reply
        .header('content-type', servedType(result.file.contentType))
        .header('content-disposition', `inline; filename="${encodeURIComponent(result.file.name)}"`)
        .header('content-security-policy', FILE_CSP)
        .header('content-length', String(result.blob.size))
        .send(blobBody(result.blob));
    }
    if (result.noindex) reply.header('x-robots-tag', 'noindex');
    if (result.status === 503) reply.header('retry-after', '5');
    if (result.keepToken) {
      setCookie(reply, VISITOR_COOKIE, result.keepToken, { path: `${SITES_PREFIX}/${siteId}`, httpOnly: true, secure });
    }
    if (result.kind === 'json') return reply.code(result.status).send(result.body);
    if (result.kind === 'text') {
      return reply.code(result.status).header('content-type', result.contentType).send(result.body);
    }
    if (result.etag) {
      // Vary: the same page goes out compressed or not; the ETag names the page's bytes before compression.
      reply.header('etag', `W/${result.etag}`).header('vary', 'accept-encoding');
      if (noneMatchHits(request.headers['if-none-match'], result.etag)) return reply.code(304).send();
    }
    reply
      .code(result.status)
      .header('content-type', 'text/html; charset=utf-8')
      .header('content-security-policy', pageCsp(requestOrigin(request), result.scripts))
      .header('referrer-policy', 'no-referrer');
    // A rendered page keeps its compressed copies: compressing 100 kB of navigation for each visitor cost more
    // than everything else the answer takes.
    const coding = result.encoded ? negotiateCoding(request.headers['accept-encoding']) : 'identity';
    if (coding !== 'identity' && result.encoded) {
      return reply
        .header('content-encoding', coding)
        .header('vary', 'accept-encoding')
        .send(await result.encoded(coding));
    }
    return reply.send(result.html);
  }

  // The sites' stylesheet and script: one copy for every site, named by its hash, so cached for a year.
  app.get(`${SITES_PREFIX}/~assets/:file`, async (request, reply) => {
    const asset = SITE_ASSETS.get(request.url.split('?')[0]!);
    if (!asset) return reply.code(404).header('content-type', 'text/plain; charset=utf-8').send('Not found');
    return (
      reply
        .header('content-type', asset.contentType)
        .header('cache-control', 'public, max-age=31536000, immutable')
        .header('x-content-type-options', 'nosniff')
        // Public bytes, the same for everyone: readable from any origin (the console's sandboxed preview has none).
        .header('access-control-allow-origin', '*')
        .send(asset.body)
    );
  });
  // GitBook's renderer in front of these sites: what a URL shows, and a site API token to read it with.
  app.withTypeProvider<ZodTypeProvider>().post(
    '/v1/urls/published',
    {
      config: { public: true },
      schema: { body: resolvePublishedUrlBodySchema, response: { 200: publishedSiteContentLookupSchema } },
    },
    async (request, reply) => {
      const found = await sites.resolveUrl(request.body);
      // Per visitor and per hour (the token): never kept by a shared cache.
      reply.header('cache-control', 'private, no-store');
      return found.kind === 'content' ? found.content : { redirect: found.redirect, target: found.target };
    },
  );

  app.get(`${SITES_PREFIX}/:siteId`, handle);
  app.get(`${SITES_PREFIX}/:siteId/*`, handle);

  // Readers' feedback forms post as HTML forms do (without the site's script). Only in this plugin's scope.
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: 8 * 1024 },
    (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(body.toString()))),
  );
  /** The body as `schema` reads it, or a 400 naming its first wrong field. */
  const bodyOf = <T>(schema: z.ZodType<T>, body: unknown): T => {
    const parsed = schema.safeParse(body ?? {});
    if (parsed.success) return parsed.data;
    const issue = parsed.error.issues[0]!;
    throw new InvalidError(issue.path.join('.') || 'body', issue.message);
  };
  // Posted to a page's address: a reader's action in one of its integration blocks (site-script.js: the block
  // rendered again, as the page's readers see it), or, under `~feedback`, the reader's feedback on the page.
  const post = async (request: FastifyRequest, reply: FastifyReply) => {
    const params = request.params as { siteId: string; '*'?: string };
    const query = request.query as Record<string, unknown>;
    const segments = (params['*'] ?? '').split('/').filter(Boolean);
    const feedbackAt = segments.indexOf(FEEDBACK_SEGMENT);
    const serve = (path: string[]) => ({
      siteId: params.siteId,
      segments: path,
      queryToken: typeof query[VISITOR_TOKEN_PARAM] === 'string' ? query[VISITOR_TOKEN_PARAM] : undefined,
      cookieToken: cookieOf(request, VISITOR_COOKIE),
      query: {},
    });
    if (feedbackAt >= 0) {
      const { rating, comment } = bodyOf(pageFeedbackBodySchema, request.body);
      const header = (name: string) => {
        const value = request.headers[name];
        return (Array.isArray(value) ? value[0] : value)?.slice(0, 512) ?? '';
      };
      const done = await sites.feedback(
        serve([...segments.slice(0, feedbackAt), ...segments.slice(feedbackAt + 1)]),
        { rating, comment: comment?.trim() || undefined },
        {
          userAgent: header('user-agent'),
          ip: request.ip,
          language: header('accept-language').split(',')[0] || undefined,
          referrer: header('referer'),
        },
      );
      if (!done) throw new NotFoundError('Not found');
      // A form sent without the site's script: back to the page, thanked.
      if (request.headers['content-type']?.startsWith('application/x-www-form-urlencoded')) {
        return reply.code(303).header('location', `${done.pageUrl}#page-feedback-sent`).send();
      }
      return reply.code(204).send();
    }
    const done = await sites.renderBlock(serve(segments), bodyOf(siteBlockActionBodySchema, request.body));
    if (!done) throw new NotFoundError('Not found');
    return done;
  };
  app.post(`${SITES_PREFIX}/:siteId`, { bodyLimit: 64 * 1024 }, post);
  app.post(`${SITES_PREFIX}/:siteId/*`, { bodyLimit: 64 * 1024 }, post);
}
