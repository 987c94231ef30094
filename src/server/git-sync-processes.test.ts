import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { apiAs, killStarted, start, within } from './test/processes.js';
import { commitFiles, startGitServer } from './test/git-server.js';

/**
 * Git Sync across a real crash: the server process running a sync is killed (`kill -9`), a new one on the same data
 * takes the sync over once its lease runs out, and the space ends up with the commit's pages, each once.
 */
const TOKEN = 'git-crash-owner-token-0123456789abcdefghijklm';
const OWNER = { ADMIN_EMAIL: 'git-crash@example.com', ADMIN_PASSWORD: 'a-good-password', ADMIN_TOKEN: TOKEN };
const PAGES = 120;
afterEach(() => killStarted());

const api = apiAs(TOKEN);

describe('Git Sync across server processes', () => {
  it('finishes a sync whose process was killed mid-way, in a new process, with every page once', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ds-git-crash-'));
    const git = await startGitServer({ token: 'forge-token' });
    try {
      const url = await git.createRepo('crash');
      const files: Record<string, string> = { 'README.md': '# Home\n\nWelcome.\n' };
      const summary = ['# Table of contents', '', '* [Home](README.md)'];
      for (let i = 0; i < PAGES; i++) {
        files[`guide/page-${i}.md`] = `# Page ${i}\n\nThe text of page ${i}.\n\n## Details\n\nMore about ${i}.\n`;
        summary.push(`* [Page ${i}](guide/page-${i}.md)`);
      }
      files['SUMMARY.md'] = `${summary.join('\n')}\n`;
      await commitFiles(path.join(git.root, 'crash.git'), files, { message: 'Many pages' });
      const env = { DATA_DIR: dataDir, ALLOW_PRIVATE_FETCH: 'true', JOB_LEASE_SECONDS: '2', ...OWNER };

      const first = start(env);
      const base = (await within(60_000, 'listening', [first], first.listening)).split(' ')[2]!;
      const orgs = await api(base, 'GET', '/v1/orgs');
      const space = await api(base, 'POST', `/v1/orgs/${orgs.items[0].id}/spaces`, { title: 'Crashed sync' });
      await api(base, 'PUT', `/v1/spaces/${space.id}/git/sync`, {
        url,
        branch: 'main',
        root: '',
        token: 'forge-token',
        direction: 'import',
      });
      const run = await api(base, 'POST', `/v1/spaces/${space.id}/git/sync/run`, { direction: 'import' });
      // Killed while the sync runs.
      await within(
        30_000,
        'sync running',
        [first],
        (async () => {
          for (;;) {
            const now = await api(base, 'GET', `/v1/spaces/${space.id}/git/runs/${run.id}`);
            if (now.status === 'running') return;
            if (now.status !== 'queued') throw new Error(`the sync ended before it could be stopped: ${now.status}`);
            await new Promise((r) => setTimeout(r, 20));
          }
        })(),
      );
      await new Promise((r) => setTimeout(r, 300));
      first.child.kill('SIGKILL');
      await first.exited;
      // It was killed mid-way: its run is still running, as the dead process left it.
      const left = new SQLite(path.join(dataDir, 'docspace.sqlite'), { readonly: true });
      try {
        expect(left.prepare('SELECT status FROM git_sync_runs WHERE id = ?').get(run.id)).toEqual({
          status: 'running',
        });
      } finally {
        left.close();
      }

      const second = start(env);
      const base2 = (await within(60_000, 'listening again', [second], second.listening)).split(' ')[2]!;
      const ended = await within(
        90_000,
        'sync taken over',
        [second],
        (async () => {
          for (;;) {
            const now = await api(base2, 'GET', `/v1/spaces/${space.id}/git/runs/${run.id}`);
            if (now.status !== 'queued' && now.status !== 'running') return now;
            await new Promise((r) => setTimeout(r, 200));
          }
        })(),
      );
      expect(ended, JSON.stringify(ended)).toMatchObject({ status: 'success' });
      const pages = (await api(base2, 'GET', `/v1/spaces/${space.id}/content/pages`)).pages as Array<{ title: string }>;
      const titles = pages.map((p) => p.title);
      expect(titles).toHaveLength(PAGES + 1);
      expect(new Set(titles).size).toBe(PAGES + 1);
      expect(titles.slice(0, 3)).toEqual(['Home', 'Page 0', 'Page 1']);
      // One change request brought the commit in, merged; none is left open.
      const open = await api(base2, 'GET', `/v1/spaces/${space.id}/change-requests?status=open`);
      expect(open.items).toHaveLength(0);
      const merged = await api(base2, 'GET', `/v1/spaces/${space.id}/change-requests?status=merged`);
      expect(merged.items.map((cr: { subject: string }) => cr.subject)).toEqual([
        expect.stringMatching(/^Git Sync: Many pages/),
      ]);
    } finally {
      await git.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }, 180_000);
});
