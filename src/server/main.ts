import { loadConfig, ConfigError } from './config.js';
import { openStorage, migrate, withStartupLock } from './storage/db.js';
import { buildApp } from './app.js';
import { bootstrapOwner } from './domain/auth/service.js';
import { schedulePurge } from './jobs/purge.js';
import { scheduleLinksBuild } from './jobs/links.js';
import { scheduleDomainRechecks } from './jobs/domains.js';
import { scheduleGitPolls } from './jobs/git-polls.js';
import { scheduleDigests } from './jobs/digests.js';
import { gitSyncSettings } from './domain/git-sync/service.js';
import { gitVersion } from './lib/git.js';
import { checkSmtp } from './lib/mailer.js';
import { Urls } from './lib/urls.js';
import { txtLookup } from './lib/dns.js';
import { workers } from './workers/pool.js';
import { ensureSearchIndex } from './domain/search/indexer.js';
import { collectWhenIdle } from './lib/idle-gc.js';

async function main() {
  let config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      for (const p of err.problems) console.error(`Invalid configuration: ${p}`);
      process.exit(1);
    }
    throw err;
  }

  workers.configure({
    ...(config.workers.threads ? { threads: config.workers.threads, maxQueue: config.workers.threads * 32 } : {}),
    timeoutMs: config.workers.timeoutSeconds * 1000,
    // A task may wait for a thread three times as long as it may run (at least 30 s), then answers 503.
    queueTimeoutMs: Math.max(30_000, 3 * config.workers.timeoutSeconds * 1000),
  });
  const storage = openStorage(config.storage);
  // Processes started at once on one database migrate and create the owner once (see withStartupLock).
  const owner = await withStartupLock(storage, async (db) => {
    await migrate({ db, schema: storage.schema });
    // The search index in SEARCH_LANGUAGE, every space's rows describing its current revision (all of them the
    // first time after migration 010); done before listening, so no search misses a page.
    await ensureSearchIndex(db, config.searchLanguage ?? 'english', { info: (m) => console.log(m) });
    return bootstrapOwner(db, config);
  });
  const { app } = await buildApp({ config, db: storage.db, logger: { level: config.logLevel } });
  // Memory goes back once the server is quiet (see lib/idle-gc.ts).
  const idle = collectWhenIdle();
  app.addHook('onRequest', async () => idle.noteRequest());

  if (owner) {
    const lines = [`First start: created the owner account ${owner.email} and a first organization.`];
    if (owner.generatedPassword) lines.push(`  Owner password (shown once): ${owner.generatedPassword}`);
    if (owner.generatedToken) lines.push(`  Owner API token (shown once): ${owner.generatedToken}`);
    console.log(lines.join('\n'));
  }

  const stopPurge = schedulePurge(storage.db, app.log);
  // Links of spaces from before they were kept, or changed meanwhile (see jobs/links.ts).
  scheduleLinksBuild(storage.db, config.publicUrl, app.log);
  // Verified e-mail domains whose DNS record is gone are unverified (see domain/organizations/domains.ts).
  const stopDomainRechecks = scheduleDomainRechecks(storage.db, txtLookup(config.dnsServers), app.log);
  // Git-synced spaces without a webhook look at their branch every so often (see domain/git-sync/webhooks.ts).
  // Daily digests of notifications, due at each person's hour (see domain/notifications/digest.ts).
  const stopDigests = scheduleDigests(storage.db, app.log);
  const stopGitPolls = scheduleGitPolls(storage.db, gitSyncSettings(config, new Urls(config.publicUrl)), app.log);
  // Mail: say once where it goes. A relay that cannot be reached is a warning, never a reason not to start.
  if (config.smtp) {
    const smtp = config.smtp;
    void checkSmtp(smtp).then((problem) =>
      problem
        ? app.log.warn(
            `SMTP: ${smtp.host}:${smtp.port} cannot be used now (${problem}); e-mail waits in the outbox and is retried`,
          )
        : app.log.info(`SMTP: delivering through ${smtp.host}:${smtp.port}`),
    );
    if (smtp.tls === 'none' && !['127.0.0.1', '::1', 'localhost'].includes(smtp.host)) {
      app.log.warn('SMTP_TLS=none: e-mail (password reset links too) goes to the relay unencrypted');
    }
  } else {
    console.log('SMTP is not configured: e-mail is kept in the outbox (console: your menu → Outbox)');
  }
  const git = await gitVersion();
  if (!git) app.log.warn('git is not installed: Git Sync cannot run (install the git package, 2.37 or later)');
  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down: finishing in-flight requests');
    stopPurge();
    stopDomainRechecks();
    stopGitPolls();
    stopDigests();
    idle.stop();
    await app.close();
    await workers.close();
    await storage.close();
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));

  // The start-up line below is the one people read; Fastify's own JSON "listening" entry would repeat it.
  const level = app.log.level;
  app.log.level = 'warn';
  await app.listen({ port: config.port, host: config.host });
  app.log.level = level;
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const db = config.storage.kind === 'sqlite' ? `SQLite ${config.storage.file}` : 'PostgreSQL';
  console.log(
    `Listening on http://${config.host}:${port} (console at /, API at /v1, ${db}); public URL ${config.publicUrl}`,
  );
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
