import fs from 'node:fs';
import { defineConfig } from 'vitest/config';

/**
 * The integration suites run on SQLite, and on PostgreSQL too when TEST_DATABASE_URL is set, as two projects: each
 * suite's two databases are two files to the scheduler, so they run side by side instead of one after the other
 * in one worker. Only the suites that run on a database (`describeEachDialect`) join the PostgreSQL project.
 */
const databaseSuites = fs
  .readdirSync('src', { recursive: true, encoding: 'utf8' })
  .map((file) => `src/${file}`)
  .filter((file) => /\.test\.tsx?$/.test(file) && fs.readFileSync(file, 'utf8').includes('describeEachDialect('));

/**
 * Workers: vitest's default is one less than the cores, one on a 2-core machine; the suites mostly wait on their
 * servers, the database and the network, so more workers than cores pay. VITEST_MAX_WORKERS overrides.
 */
const maxWorkers = Number(process.env.VITEST_MAX_WORKERS) || 3;

export default defineConfig({
  test: {
    environment: 'node',
    // A suite shares 2 cores with two others and their worker threads: its slowest tests (PDF exports, the GitBook
    // CLI, 10,000-block pages) need room beyond their quiet-machine time.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    fileParallelism: true,
    maxWorkers,
    // A worker imports the server's modules once for all the suites it runs, not once per suite: importing them was
    // two seconds a suite on a quiet machine, more than most suites' own tests, and half the run's time (4 minutes
    // instead of 7 on both databases). Each suite starts its own servers on its own database, so no state of one is
    // reachable from the next; what a suite changes of the process (the clock, stubbed globals, the worker pool's
    // time limit) it puts back, and stubbed globals are put back after each test here as well.
    isolate: false,
    unstubGlobals: true,
    // Migrates once per project; each suite then copies the SQLite file or clones the PostgreSQL template.
    globalSetup: ['src/server/test/global-setup.ts'],
    projects: [
      {
        extends: true as const,
        test: {
          name: 'sqlite',
          include: ['src/**/*.test.ts', 'src/**/*.test.tsx'],
          env: { TEST_DIALECTS: 'sqlite' },
        },
      },
      ...(process.env.TEST_DATABASE_URL
        ? [
            {
              extends: true as const,
              test: { name: 'postgres', include: databaseSuites, env: { TEST_DIALECTS: 'postgres' } },
            },
          ]
        : []),
    ],
  },
});
