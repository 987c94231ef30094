import type { Db } from '../../storage/db.js';
import * as repo from '../../storage/repos/integrations.js';
import { LruCache } from '../../lib/lru-cache.js';
import type { Urls } from '../../lib/urls.js';
import { grantedScopes } from './tokens.js';
import { codeblockBlocks, type CodeblockBlock } from '../../../shared/gitbook-blocks.js';

/**
 * What integrations add to published sites beyond their blocks. Scripts integrations add to published sites (issue 31: analytics, chat widgets…): an integration installed on a
 * site whose installation was granted `site:script:inject` has its script in every page of the site, served from the
 * integrations' origin (`…/installations/{id}/sites/{siteId}/script.js`, the script's `fetch_published_script`
 * event, endpoints.ts) and named, exactly, in the pages' Content-Security-Policy. No integrations' origin: none.
 */

export const SCRIPT_INJECT_SCOPE = 'site:script:inject';

/** How long a site's list is kept by a process: a page view does not read it each time (installs show within it). */
const FRESH_MS = 5000;
const lists = new LruCache<{ at: number; urls: string[] }>(1000);

/** The address of an installation's script for a site (the integration's version in it: a new one is loaded anew). */
export function scriptUrl(origin: string, name: string, installationId: string, siteId: string, version: number) {
  const path = [name, 'installations', installationId, 'sites', siteId].map(encodeURIComponent).join('/');
  return `${origin}/v1/integrations/${path}/script.js?v=${version}`;
}

/** Whether an installation may add its script to sites (granted at install, still declared). */
export function injectsScripts(row: { granted: string | null; declared: string }): boolean {
  return grantedScopes(row.declared, row.granted).includes(SCRIPT_INJECT_SCOPE);
}

/** The addresses of the scripts the integrations installed on a site add to its pages, in order of their names. */
export async function siteScriptUrls(db: Db, urls: Urls, organizationId: string, siteId: string): Promise<string[]> {
  const origin = urls.integrations;
  if (!origin) return [];
  const key = `${organizationId}:${siteId}`;
  const hit = lists.get(key);
  if (hit && Date.now() - hit.at < FRESH_MS) return hit.urls;
  const rows = await repo.installationsReachingSite(db, organizationId, siteId);
  const found = rows
    .filter(injectsScripts)
    .map((row) => scriptUrl(origin, row.integration_name, row.id, siteId, row.version));
  lists.set(key, { at: Date.now(), urls: found });
  return found;
}

const codeblocks = new LruCache<{ at: number; blocks: Array<[string, CodeblockBlock]> }>(1000);

/**
 * The languages of fenced code a space's pages show as integrations' blocks (`blocks[].markdown.codeblock` of the
 * integrations reaching it: Mermaid's ```` ```mermaid ````), as `[language, block]` pairs; kept FRESH_MS per process.
 */
export async function spaceCodeblockBlocks(
  db: Db,
  organizationId: string,
  spaceId: string,
): Promise<Array<[string, CodeblockBlock]>> {
  const key = `${organizationId}:${spaceId}`;
  const hit = codeblocks.get(key);
  if (hit && Date.now() - hit.at < FRESH_MS) return hit.blocks;
  const rows = await repo.integrationsReachingSpace(db, organizationId, spaceId);
  const blocks = [
    ...codeblockBlocks(
      rows.map((row) => ({ name: row.name, blocks: row.blocks ? (JSON.parse(row.blocks) as never) : [] })),
    ),
  ];
  codeblocks.set(key, { at: Date.now(), blocks });
  return blocks;
}
