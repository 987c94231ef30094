import { serverEnv, serverNodeArgs } from './scripts/server-node-args.mjs';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './scripts/chromium.mjs';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { defineConfig, devices } from '@playwright/test';
import { MAIL_SINK_URL, OWNER } from './e2e/support';

/**
 * Journeys run against the real server (src/server/main.ts) serving the built console (dist/console, built by
 * `npm run test:e2e` before Playwright starts) on a fresh SQLite database.
 */
/** E2E_PORT lets two checkouts run their journeys at once on one machine. */
const PORT = Number(process.env.E2E_PORT ?? 3123);
const BASE_URL = `http://127.0.0.1:${PORT}`;
/** The mailbox the server delivers to (e2e/mail-sink.ts): SMTP on the next port, its reader on the one after. */
const SINK_SMTP_PORT = PORT + 1;

// The config is evaluated by the runner and again by each worker; the workers inherit the runner's directory.
if (!process.env.DS_E2E_DATA_DIR) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ds-e2e-'));
  process.env.DS_E2E_DATA_DIR = dir;
  process.on('exit', () => fs.rmSync(dir, { recursive: true, force: true }));
}

/** Chromium as every project runs it. */
const chromium = {
  ...devices['Desktop Chrome'],
  launchOptions: { executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS },
};

/**
 * The journeys whose outcome depends on what the whole instance holds, not only on their own organization: they run
 * first, one at a time, before any other journey starts (the `journeys` project depends on this one; they run first
 * even when only one file is asked for, and `--no-deps` leaves them out).
 * - auth.spec.ts: signs the owner in with a wrong password, then with the right one, and out. Failed sign-ins are
 *   counted per address and per client address across the instance (throttlePasswordAttempt), and every worker
 *   signs the same owner in: the first journey's sign-in must not meet the others'.
 * - integrations.spec.ts: the directory lists every organization's public integrations, and the journey counts what
 *   its filters leave ("stats" in Analytics: exactly one). screens.spec.ts publishes another analytics integration
 *   named "Screens stats"; run before it, the count is the journey's own.
 * The rest run two at a time, a file per worker (each journey makes its own organization, and the people it needs
 * sign up with addresses of their own), including the ones that look instance-wide but are not:
 * - identity.spec.ts and people.spec.ts verify e-mail domains (as the instance owner, for SSO), and the sign-in page's
 *   "Sign in with SSO" looks across the instance, but each journey's domain is its own (a timestamp in its name);
 * - console-weight.spec.ts weighs bytes downloaded, which other journeys running beside it do not change;
 * - "Sign-up is closed" (auth.spec.ts) is the answer of a route the page fakes; no journey changes a server setting;
 * - screens.spec.ts shows the owner's own account and its organization's screens; only the layout of what it shows
 *   is checked there, not how many items the instance has.
 */
const INSTANCE_WIDE = ['**/auth.spec.ts', '**/integrations.spec.ts'];

export default defineConfig({
  testDir: 'e2e',
  // Two workers (the machine has two cores), each running whole files: the tests of a file share its set-up and
  // run in order. screens.spec.ts, a third of the run, spreads its screens over both (mode: 'parallel').
  fullyParallel: false,
  workers: 2,
  retries: 0,
  forbidOnly: !!process.env.CI,
  reporter: 'list',
  // A journey is a whole user story (often 10–20 s alone); on a shared, loaded machine 30 s was too tight. The CI
  // machine ran the journeys four times slower than a quiet 2-core machine (a screen of screens.spec.ts in 13–25 s
  // instead of 3–4 s), and a new space's first render missed a 5 s wait there: the journeys check what is shown, not
  // how fast (speed is measured by `npm run bench`), so each wait allows for such a machine.
  timeout: 120_000,
  expect: { timeout: 15_000 },
  use: {
    baseURL: BASE_URL,
    screenshot: 'only-on-failure',
    // No trace: recording one (DOM snapshots and a screencast of every step, kept only when the journey fails)
    // took a third of the journeys' time on two cores (screens.spec.ts: 160 s with, 108 s without). To see why a
    // journey fails, run it again with `--trace retain-on-failure` and open the trace with `npx playwright show-trace`.
    trace: 'off',
  },
  projects: [
    { name: 'instance-wide', testMatch: INSTANCE_WIDE, workers: 1, use: chromium },
    { name: 'journeys', testIgnore: INSTANCE_WIDE, dependencies: ['instance-wide'], use: chromium },
  ],
  webServer: [
    {
      // Started first (Playwright starts these in order): the server checks its SMTP relay when it starts.
      command: 'node --import tsx e2e/mail-sink.ts',
      url: `${MAIL_SINK_URL}/health`,
      reuseExistingServer: false,
      timeout: 30_000,
      env: { MAIL_SINK_SMTP_PORT: String(SINK_SMTP_PORT), MAIL_SINK_HTTP_PORT: String(PORT + 2) },
    },
    {
      // As `npm start` runs it: the compiled server (built here when older than its sources; the console was just
      // built by `npm run test:e2e`).
      // As `npm start` runs it, with the options it gives node.
      command: ['node', ...serverNodeArgs(), 'scripts/start.mjs'].join(' '),
      url: `${BASE_URL}/v1/health`,
      reuseExistingServer: false,
      timeout: 60_000,
      stdout: 'pipe',
      stderr: 'pipe',
      env: {
        ...serverEnv(),
        PORT: String(PORT),
        HOST: '127.0.0.1',
        DATA_DIR: process.env.DS_E2E_DATA_DIR,
        PUBLIC_URL: BASE_URL,
        ADMIN_EMAIL: OWNER.email,
        ADMIN_PASSWORD: OWNER.password,
        ADMIN_TOKEN: 'e2e-admin-token-0123456789abcdefghijklmn',
        SIGNUP: 'open',
        LOG_LEVEL: 'warn',
        // The Git Sync journey's repository is served on this one loopback address (every other private address,
        // 127.0.0.1 included, stays refused as in production).
        ALLOW_PRIVATE_FETCH: '127.0.0.2/32',
        // A page of a published site renders in a worker thread (one readers' thread on two cores) within the time
        // limit; on a loaded machine a big render passed the default 10 s, and the page said "Try again shortly". The
        // journeys do not test that limit (src/server/workers/pool.test.ts does): here it is the journeys' own.
        WORKER_TIMEOUT_SECONDS: '60',
        // Journeys sign up dozens of people: a cheap scrypt, as the integration suite's servers use.
        PASSWORD_HASH_COST: '10',
        // Mail goes to the journeys' mailbox (e2e/mail-sink.ts), on loopback without TLS.
        SMTP_HOST: '127.0.0.1',
        SMTP_PORT: String(SINK_SMTP_PORT),
        SMTP_TLS: 'none',
        SMTP_FROM: 'Docspace journeys <docs@example.com>',
      },
    },
  ],
});
