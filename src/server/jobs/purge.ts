import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../storage/db.js';
import { purgeSpacesDeletedBefore } from '../storage/repos/spaces.js';
import { deleteExpiredTokens, deleteLoginAttemptsBefore } from '../storage/repos/tokens.js';
import { deleteFinishedJobsBefore } from '../storage/repos/jobs.js';
import { purgeBlobUploads } from '../storage/repos/objects.js';
import { purgeCollabDocuments } from '../storage/repos/collab.js';
import { SPACE_TRASH_DAYS } from '../../shared/contract/spaces.js';
import { DAY_MS, isoMinus, nowIso } from '../lib/time.js';
import { LOGIN_WINDOW_MS } from '../domain/auth/service.js';
import { purgeMail } from '../storage/repos/mail.js';
import { purgeAccountTokens } from '../storage/repos/account-tokens.js';
import { purgeEventsBefore } from '../storage/repos/notifications.js';
import { deleteExpiredIntegrationTokens } from '../storage/repos/integration-tokens.js';

/**
 * Removes for good the spaces deleted more than 7 days ago, expired console sessions and integration tokens, old sign-in failures and
 * background jobs finished more than 7 days ago, the chunks of uploads left unfinished a day ago, and the shared documents (live collaboration) of change
 * requests merged or archived a day ago, old e-mail and mailed links. Every statement is idempotent, so several server processes on one database may all run it.
 */
export async function purgeOnce(db: Db, now = Date.now()): Promise<{ spaces: number }> {
  const spaces = await purgeSpacesDeletedBefore(db, isoMinus(SPACE_TRASH_DAYS * DAY_MS, now));
  await deleteExpiredTokens(db, nowIso());
  await deleteExpiredIntegrationTokens(db, nowIso());
  await deleteLoginAttemptsBefore(db, isoMinus(LOGIN_WINDOW_MS, now));
  await deleteFinishedJobsBefore(db, isoMinus(7 * DAY_MS, now));
  // Chunks of uploads a stopped process never finished (an upload takes minutes at most).
  await purgeBlobUploads(db, isoMinus(DAY_MS, now));
  // Shared documents of change requests merged or archived a day ago (live collaboration).
  await purgeCollabDocuments(db, isoMinus(DAY_MS, now));
  // Sent and settled e-mail after 30 days, held mail (its links long expired) after 7, rate windows after a day;
  // mailed links a day after they expired.
  await purgeMail(db, isoMinus(30 * DAY_MS, now), isoMinus(7 * DAY_MS, now), isoMinus(DAY_MS, now));
  await purgeAccountTokens(db, isoMinus(DAY_MS, now));
  // Notifications after 180 days, read or not.
  await purgeEventsBefore(db, isoMinus(180 * DAY_MS, now));
  return { spaces };
}

/** Runs the purge at start and then every `everyMs`; returns a function that stops it. */
export function schedulePurge(db: Db, log: FastifyBaseLogger, everyMs = 60 * 60 * 1000): () => void {
  const run = () =>
    purgeOnce(db).then(
      (r) => r.spaces && log.info({ purgedSpaces: r.spaces }, 'purged spaces deleted more than 7 days ago'),
      (err: unknown) => log.error({ err }, 'purge failed'),
    );
  void run();
  const timer = setInterval(run, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}
