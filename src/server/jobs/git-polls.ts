import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../storage/db.js';
import { pollGitSyncs } from '../domain/git-sync/webhooks.js';
import type { GitImportSettings } from '../domain/git-sync/import.js';

/** Looks at the branches of Git-synced spaces that poll (pollGitSyncs) every `everyMs`; returns a stop. */
export function scheduleGitPolls(
  db: Db,
  settings: GitImportSettings,
  log: FastifyBaseLogger,
  everyMs = 60 * 1000,
): () => void {
  let running = false;
  const run = async () => {
    if (running) return;
    running = true;
    try {
      await pollGitSyncs(db, settings);
    } catch (err) {
      log.error({ err }, 'polling Git-synced branches failed');
    } finally {
      running = false;
    }
  };
  const timer = setInterval(() => void run(), everyMs);
  timer.unref();
  return () => clearInterval(timer);
}
