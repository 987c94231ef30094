import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { defineConfig, devices } from '@playwright/test';
import { OWNER } from './e2e/support';

/**
 * Journeys run against the real server (src/server/main.ts) serving the built console (dist/console, built by
 * `npm run test:e2e` before Playwright starts) on a fresh SQLite database.
 */
/** E2E_PORT lets two checkouts run their journeys at once on one machine. */
const PORT = Number(process.env.E2E_PORT ?? 3123);
const BASE_URL = `http://127.0.0.1:${PORT}`;

// The config is evaluated by the runner and again by each worker; the workers inherit the runner's directory.
if (!process.env.DS_E2E_DATA_DIR) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ds-e2e-'));
  process.env.DS_E2E_DATA_DIR = dir;
  process.on('exit', () => fs.rmSync(dir, { recursive: true, force: true }));
}

export default defineConfig({
  testDir: 'e2e',
  fullyParallel: false,
  workers: 1,
  retries: 0,
  forbidOnly: !!process.env.CI,
  reporter: 'list',
  // A journey is a whole user story (often 10–20 s alone); on a shared, loaded machine 30 s was too tight.
  timeout: 60_000,
  expect: { timeout: 5_000 },
  use: {
    baseURL: BASE_URL,
    screenshot: 'only-on-failure',
    trace: 'retain-on-failure',
  },
  projects: [
    {
      name: 'chromium',
      use: {
        ...devices['Desktop Chrome'],
        launchOptions: {
          executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
          args: [
            '--no-sandbox',
            '--disable-gpu',
            '--disable-background-networking',
            '--disable-component-update',
            '--disable-sync',
          ],
        },
      },
    },
  ],
  webServer: {
    command: 'npx tsx src/server/main.ts',
    url: `${BASE_URL}/v1/health`,
    reuseExistingServer: false,
    timeout: 60_000,
    stdout: 'pipe',
    stderr: 'pipe',
    env: {
      PORT: String(PORT),
      HOST: '127.0.0.1',
      DATA_DIR: process.env.DS_E2E_DATA_DIR,
      PUBLIC_URL: BASE_URL,
      ADMIN_EMAIL: OWNER.email,
      ADMIN_PASSWORD: OWNER.password,
      ADMIN_TOKEN: 'e2e-admin-token-0123456789abcdefghijklmn',
      SIGNUP: 'open',
      LOG_LEVEL: 'warn',
    },
  },
});
