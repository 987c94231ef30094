import type { FastifyBaseLogger } from 'fastify';
import { transaction, type Db } from '../storage/db.js';
import { findRevision } from '../storage/repos/spaces.js';
import { analyzeLinkTables, staleLinkSpaces } from '../storage/repos/links.js';
import { LARGE_BUILD, prefetchDocuments } from '../domain/links/maintain.js';
import { syncSpaceLinks } from '../domain/links/hooks.js';
import { yieldToEventLoop } from '../lib/yield.js';

/**
 * Builds the links of every space that has none, or whose links are behind its content or were computed for
 * another PUBLIC_URL: the spaces that existed before links were kept (migration 011), and any change made while
 * links were not maintained. Merges keep them up to date afterwards; a read of a space's links that finds them
 * behind brings them up to date itself, so this only saves that first read its wait.
 *
 * One space at a time: its bodies' links are read outside any transaction (in the worker pool when big), then its
 * rows are written in one transaction holding the space's lock, as a merge would. Several processes may run it at
 * once: the second finds each space done.
 */
export async function buildLinks(db: Db, appBase: string, log?: FastifyBaseLogger): Promise<number> {
  let built = 0;
  for (const space of await staleLinkSpaces(db, appBase)) {
    const revision = await findRevision(db, space.revision_id);
    if (!revision) continue;
    const from =
      space.scope_revision_id && space.app_base === appBase
        ? await findRevision(db, space.scope_revision_id)
        : undefined;
    await prefetchDocuments(db, from ?? { pages_root: null, files_root: null }, revision);
    const { built: targets } = await transaction(db, (tx) => syncSpaceLinks(tx, space.id, appBase));
    if (targets >= LARGE_BUILD) await analyzeLinkTables(db);
    built++;
    await yieldToEventLoop();
  }
  if (built) log?.info({ spaces: built }, 'built the links of spaces');
  return built;
}

/** Runs buildLinks once, in the background; failures are logged (reads build what is missing anyway). */
export function scheduleLinksBuild(db: Db, appBase: string, log: FastifyBaseLogger): void {
  void buildLinks(db, appBase, log).catch((err: unknown) => log.error({ err }, 'building links failed'));
}
