import type { Db } from '../../storage/db.js';
import * as repo from '../../storage/repos/integrations.js';
import { LruCache } from '../../lib/lru-cache.js';
import type { Urls } from '../../lib/urls.js';
import { grantedScopes } from './tokens.js';
import { queueIntegrationEvent } from './delivery.js';
import { transaction } from '../../storage/db.js';
import { INTEGRATION_EVENTS_PENDING_MAX } from '../../../shared/contract/integrations.js';
import {
  codeblockBlocks,
  unfurlBlocks,
  type CodeblockBlock,
  type UnfurlBlock,
} from '../../../shared/gitbook-blocks.js';

/**
 * What integrations add to published sites beyond their blocks. Scripts integrations add to published sites (issue 31: analytics, chat widgets…): an integration installed on a
 * site whose installation was granted `site:script:inject` has its script in every page of the site, served from the
 * integrations' origin (`…/installations/{id}/sites/{siteId}/script.js`, the script's `fetch_published_script`
 * event, endpoints.ts) and named, exactly, in the pages' Content-Security-Policy. No integrations' origin: none.
 */

export const SCRIPT_INJECT_SCOPE = 'site:script:inject';
export const FEEDBACK_SCOPE = 'page:feedback:read';

/** How long a site's list is kept by a process: a page view does not read it each time (installs show within it). */
const FRESH_MS = 5000;

/** What `load` gives for `key`, or gave it less than FRESH_MS ago (each process keeps its own). */
async function keptFresh<T>(
  cache: LruCache<{ at: number; value: T }>,
  key: string,
  load: () => Promise<T>,
): Promise<T> {
  const hit = cache.get(key);
  if (hit && Date.now() - hit.at < FRESH_MS) return hit.value;
  const value = await load();
  cache.set(key, { at: Date.now(), value });
  return value;
}

const siteExtrasKept = new LruCache<{ at: number; value: SiteExtras }>(1000);

/** The address of an installation's script for a site (the integration's version in it: a new one is loaded anew). */
export function scriptUrl(origin: string, name: string, installationId: string, siteId: string, version: number) {
  const path = [name, 'installations', installationId, 'sites', siteId].map(encodeURIComponent).join('/');
  return `${origin}/v1/integrations/${path}/script.js?v=${version}`;
}

/** Whether an installation may add its script to sites (granted at install, still declared). */
export function injectsScripts(row: { granted: string | null; declared: string }): boolean {
  return grantedScopes(row.declared, row.granted).includes(SCRIPT_INJECT_SCOPE);
}

/** Whether an installation reads its sites' readers' feedback (granted at install, still declared). */
function readsFeedback(row: { granted: string | null; declared: string }): boolean {
  return grantedScopes(row.declared, row.granted).includes(FEEDBACK_SCOPE);
}

/** What the integrations installed on a site add to its pages: their scripts, and whether pages ask for feedback. */
export interface SiteExtras {
  /** Addresses of their scripts, in order of their names. */
  scripts: string[];
  /** Some installation was granted `page:feedback:read`: pages ask readers whether they helped. */
  feedback: boolean;
}

/** What the integrations installed on a site add to its pages (kept FRESH_MS per process). */
export function siteExtras(db: Db, urls: Urls, organizationId: string, siteId: string): Promise<SiteExtras> {
  return keptFresh(siteExtrasKept, `${organizationId}:${siteId}`, async () => {
    const rows = await repo.installationsReachingSite(db, organizationId, siteId);
    const origin = urls.integrations;
    return {
      scripts: origin
        ? rows.filter(injectsScripts).map((row) => scriptUrl(origin, row.integration_name, row.id, siteId, row.version))
        : [],
      feedback: rows.some(readsFeedback),
    };
  });
}

/** A reader's feedback on a page of a published site (`page_feedback`). */
export interface PageFeedback {
  siteId: string;
  spaceId: string;
  pageId: string;
  rating: 'bad' | 'ok' | 'good';
  comment?: string | undefined;
  url: string;
  referrer: string;
  visitor: { userAgent: string; ip: string; language?: string | undefined };
}

/**
 * Sends a reader's feedback on a page to each integration installed on its site that was granted
 * `page:feedback:read`, as a `page_feedback` event (nothing is kept here). An integration with
 * INTEGRATION_EVENTS_PENDING_MAX events waiting gets none. Answers how many were sent.
 */
export async function sendPageFeedback(db: Db, organizationId: string, feedback: PageFeedback): Promise<number> {
  const rows = (await repo.installationsReachingSite(db, organizationId, feedback.siteId)).filter(readsFeedback);
  let sent = 0;
  for (const row of rows) {
    if ((await repo.countPendingEvents(db, row.integration_name, organizationId)) >= INTEGRATION_EVENTS_PENDING_MAX) {
      continue;
    }
    await transaction(db, (tx) =>
      queueIntegrationEvent(tx, {
        integration: row.integration_name,
        installationId: row.id,
        organizationId,
        payload: {
          type: 'page_feedback',
          siteId: feedback.siteId,
          spaceId: feedback.spaceId,
          pageId: feedback.pageId,
          feedback: { rating: feedback.rating, ...(feedback.comment ? { comment: feedback.comment } : {}) },
          visitor: { anonymousId: '', cookies: {}, ...feedback.visitor },
          url: feedback.url,
          referrer: feedback.referrer,
        },
      }),
    );
    sent++;
  }
  return sent;
}

/** What a space's pages show as integrations' blocks beyond their tags: fences of some languages, some links. */
export interface SpaceBlocks {
  /** `[language, block]`: fences of that language are the block (Mermaid's ```` ```mermaid ````). */
  codeblocks: Array<[string, CodeblockBlock]>;
  /** Embeds of links these blocks unfurl are the block. */
  unfurls: UnfurlBlock[];
}

const spaceBlocksKept = new LruCache<{ at: number; value: SpaceBlocks }>(1000);

/** What the integrations reaching a space show its pages' fences and links as (kept FRESH_MS per process). */
export function spaceBlockSpecs(db: Db, organizationId: string, spaceId: string): Promise<SpaceBlocks> {
  return keptFresh(spaceBlocksKept, `${organizationId}:${spaceId}`, async () => {
    const rows = await repo.integrationsReachingSpace(db, organizationId, spaceId);
    const integrations = rows.map((row) => ({
      name: row.name,
      blocks: row.blocks ? (JSON.parse(row.blocks) as never) : [],
    }));
    return { codeblocks: [...codeblockBlocks(integrations)], unfurls: unfurlBlocks(integrations) };
  });
}
