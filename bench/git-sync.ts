// Git Sync benchmark (part of `npm run bench`): GitBook-format repositories of 200 and 2,000 pages (a SUMMARY.md
// with a group per 100 pages, ~1.2 KB of markdown each, links between pages, an image among 10), served by
// `git http-backend` on loopback, synced into a space of the compiled server as `npm start` runs it, in a process of
// its own (SQLite; PostgreSQL too when BENCH_DATABASE_URL is set):
// - the first import of the whole repository: seconds, and the server's peak RSS (VmHWM) after the 2,000 pages;
// - an incremental sync of a one-file commit (goal ≤ 2 s, independent of the repository's size): median of
//   BENCH_ROUNDS, for both sizes side by side, and their ratio;
// - the push of a merged one-page change request (two-way): median.
// Times are from the API call that starts the sync to the run's end as GET …/git/runs/{id} reports it.
import fs from 'node:fs';
import path from 'node:path';
import { median, procStatus, startCompiledServer } from './setup.js';
import { buildServer } from '../scripts/build-server.mjs';
import { commitFiles, startGitServer } from '../src/server/test/git-server.js';

const TOKEN = 'bench-git-token-0123456789abcdefghijklmnopq';
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const SIZES = (process.env.BENCH_GIT_SIZES ?? '200,2000').split(',').map(Number);

function page(n: number, pages: number): string {
  const next = (n + 1) % pages;
  return `---
description: Topic ${n} of the handbook
---

# Topic ${n}

This page (number ${n}) explains one part of the product. Next: [topic ${next}](../section-${Math.floor(next / 100)}/topic-${next}.md).

## Usage

1. Open the **settings** of the workspace.
2. Choose \`Advanced\`, then *Integrations*.

![Diagram](../.gitbook/assets/diagram-${n % 10}.png)

| Option | Default |
| --- | --- |
| \`timeout\` | 30 |

\`\`\`ts
export const page = ${n};
\`\`\`

{% hint style="info" %}
Changes apply to every member of the organization.
{% endhint %}
`;
}

function repository(pages: number): Record<string, string | Buffer> {
  const png = Buffer.from(
    'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
    'base64',
  );
  const files: Record<string, string | Buffer> = { 'README.md': '# Handbook\n\nWelcome.\n' };
  for (let i = 0; i < 10; i++) files[`.gitbook/assets/diagram-${i}.png`] = Buffer.concat([png, Buffer.from([i])]);
  const summary = ['# Table of contents', '', '* [Handbook](README.md)'];
  for (let n = 0; n < pages; n++) {
    const section = Math.floor(n / 100);
    if (n % 100 === 0) summary.push('', `## Section ${section}`, '');
    summary.push(`* [Topic ${n}](section-${section}/topic-${n}.md)`);
    files[`section-${section}/topic-${n}.md`] = page(n, pages);
  }
  files['SUMMARY.md'] = `${summary.join('\n')}\n`;
  return files;
}

async function run(dialect: 'sqlite' | 'postgres', built: string) {
  const git = await startGitServer();
  const { base, child, stop } = await startCompiledServer(dialect, built, TOKEN, {
    // The repositories are served on loopback.
    ALLOW_PRIVATE_FETCH: 'true',
    IMPORT_TIME_LIMIT_SECONDS: '600',
  });
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON answers of several shapes
  const call = async (method: string, p: string, body?: unknown): Promise<any> => {
    const res = await fetch(base + p, {
      method,
      headers: {
        authorization: `Bearer ${TOKEN}`,
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`${method} ${p}: ${res.status} ${text}`);
    return text ? JSON.parse(text) : undefined;
  };
  /** Starts a sync and waits for its run to end: milliseconds, and the run. */
  const syncOnce = async (spaceId: string, direction: 'import' | 'export' = 'import', start = true) => {
    const started = performance.now();
    let id: string;
    if (start) id = (await call('POST', `/v1/spaces/${spaceId}/git/sync/run`, { direction })).id;
    else {
      // A run started by a merge: the newest.
      id = (await call('GET', `/v1/spaces/${spaceId}/git/runs?limit=1`)).items[0].id;
    }
    for (;;) {
      const r = await call('GET', `/v1/spaces/${spaceId}/git/runs/${id}`);
      if (r.status !== 'queued' && r.status !== 'running') {
        if (r.status === 'failure') throw new Error(`sync failed: ${r.error}`);
        return { ms: performance.now() - started, run: r };
      }
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  };
  try {
    const org = (await call('GET', '/v1/orgs')).items[0].id;
    const rows: string[] = [];
    const incremental = new Map<number, number>();
    for (const size of SIZES) {
      const url = await git.createRepo(`docs-${size}`);
      const dir = path.join(git.root, `docs-${size}.git`);
      await commitFiles(dir, repository(size), { message: 'Docs' });
      const space = await call('POST', `/v1/orgs/${org}/spaces`, { title: `Git ${size}` });
      await call('PUT', `/v1/spaces/${space.id}/git/sync`, { url, branch: 'main', direction: 'two-way' });
      const before = procStatus(child.pid!, 'VmRSS');
      const first = await syncOnce(space.id);
      const peak = procStatus(child.pid!, 'VmHWM');
      const mb = (n: number) => (n / 1024 / 1024).toFixed(0);
      rows.push(
        `  ${String(size).padStart(5)} pages: first import ${(first.ms / 1000).toFixed(2).padStart(6)} s ` +
          `(${((size / first.ms) * 1000).toFixed(0)} pages/s); peak RSS ${mb(peak)} MB (${mb(before)} MB before)`,
      );
      const times: number[] = [];
      for (let round = 0; round < ROUNDS; round++) {
        const n = (round * 37) % size;
        await commitFiles(dir, {
          [`section-${Math.floor(n / 100)}/topic-${n}.md`]: `${page(n, size)}\nEdited in round ${round}.\n`,
        });
        const one = await syncOnce(space.id);
        if (one.run.status !== 'success') throw new Error(`incremental sync: ${JSON.stringify(one.run)}`);
        times.push(one.ms);
      }
      incremental.set(size, median(times));
      // A merged one-page change request, pushed (two-way).
      const pages = (await call('GET', `/v1/spaces/${space.id}/content/pages`)).pages;
      const target = pages.find((p: { type: string }) => p.type === 'group').pages[0].id;
      const pushes: number[] = [];
      for (let round = 0; round < ROUNDS; round++) {
        const cr = await call('POST', `/v1/spaces/${space.id}/change-requests`, { subject: `Edit ${round}` });
        await call('POST', `/v1/spaces/${space.id}/change-requests/${cr.id}/content?compat=false`, {
          changes: [{ operation: 'update_page', page: target, document: { markdown: `Edited ${round}.\n` } }],
        });
        const started = performance.now();
        await call('POST', `/v1/spaces/${space.id}/change-requests/${cr.id}/merge`);
        const pushed = await syncOnce(space.id, 'export', false);
        if (pushed.run.direction !== 'export' || pushed.run.status !== 'success') {
          throw new Error(`push: ${JSON.stringify(pushed.run)}`);
        }
        pushes.push(performance.now() - started);
      }
      rows.push(
        `         one-file commit synced in ${(median(times) / 1000).toFixed(2)} s (median of ${ROUNDS}; goal ≤ 2 s); ` +
          `merge pushed in ${(median(pushes) / 1000).toFixed(2)} s (median, from the merge request)`,
      );
    }
    const small = incremental.get(SIZES[0]!)!;
    const large = incremental.get(SIZES[1]!)!;
    console.log(
      `\n[${dialect}] Git Sync (git http-backend on loopback, the compiled server in a process of its own):\n${rows.join('\n')}\n` +
        `  incremental sync, ${SIZES[1]} pages against ${SIZES[0]}: ×${(large / small).toFixed(2)}`,
    );
  } finally {
    await stop();
    await git.close();
  }
}

const dialects: Array<'sqlite' | 'postgres'> = process.env.BENCH_DATABASE_URL ? ['sqlite', 'postgres'] : ['sqlite'];
const cache = path.resolve('node_modules/.cache');
fs.mkdirSync(cache, { recursive: true });
const built = fs.mkdtempSync(path.join(cache, 'ds-bench-server-'));
try {
  await buildServer(built);
  for (const dialect of dialects)
    if (!process.env.BENCH_DIALECT || process.env.BENCH_DIALECT === dialect) await run(dialect, built);
} finally {
  fs.rmSync(built, { recursive: true, force: true });
}
