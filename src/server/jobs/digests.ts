import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../storage/db.js';
import { queueDueDigests } from '../domain/notifications/digest.js';

/**
 * Looks for due daily digests every minute, in every process; each due digest is claimed by exactly one of them
 * (domain/notifications/digest.ts). Returns a function that stops it.
 */
export function scheduleDigests(db: Db, log: FastifyBaseLogger, everyMs = 60_000): () => void {
  const run = () => queueDueDigests(db).catch((err: unknown) => log.error({ err }, 'looking for due digests failed'));
  const timer = setInterval(run, everyMs);
  timer.unref();
  void run();
  return () => clearInterval(timer);
}
