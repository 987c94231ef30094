import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../storage/db.js';
import type { TxtLookup } from '../lib/dns.js';
import { recheckDomains } from '../domain/organizations/domains.js';

/** Looks up verified domains' records again (recheckDomains) at start and then every `everyMs`; returns a stop. */
export function scheduleDomainRechecks(
  db: Db,
  lookup: TxtLookup,
  log: FastifyBaseLogger,
  everyMs = 60 * 60 * 1000,
): () => void {
  const run = () =>
    recheckDomains(db, lookup).then(
      (r) =>
        r.unverified.length &&
        log.warn({ unverified: r.unverified }, 'e-mail domains unverified: their DNS record is gone'),
      (err: unknown) => log.error({ err }, 'e-mail domain re-check failed'),
    );
  void run();
  const timer = setInterval(run, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}
