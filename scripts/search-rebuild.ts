// `npm run search:rebuild`: rebuilds the full-text search index from every space's current revision, with the
// server's own configuration (DATABASE_URL or DATA_DIR, SEARCH_LANGUAGE, WORKER_THREADS). Safe while servers run on
// the same database: each space is rewritten in its own transaction, under the space's row lock, as a merge is.
// The server also catches up on its own at start; this is for when the index is suspected wrong, or after
// changing how text is extracted.
import { ConfigError, loadConfig } from '../src/server/config.js';
import { migrate, openStorage } from '../src/server/storage/db.js';
import { rebuildSearchIndex } from '../src/server/domain/search/indexer.js';
import { workers } from '../src/server/workers/pool.js';

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
});
const storage = openStorage(config.storage);
try {
  await migrate(storage);
  const spaces = await rebuildSearchIndex(storage.db, config.searchLanguage ?? 'english', {
    info: (m) => console.log(m),
  });
  console.log(`Search index rebuilt: ${spaces} space(s), language ${config.searchLanguage ?? 'english'}.`);
} catch (err) {
  console.error(err instanceof Error ? err.message : err);
  process.exitCode = 1;
} finally {
  await workers.close();
  await storage.close();
}
