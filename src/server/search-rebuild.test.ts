import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import SQLite from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';

/**
 * The index of data that was there before it: built at start (before the server listens) and by
 * `npm run search:rebuild`, with the server's own configuration. Real processes, as an operator runs them.
 */
const children: ChildProcess[] = [];
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ds-search-'));
afterAll(() => {
  for (const c of children.splice(0)) c.kill('SIGKILL');
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const env = {
  ...process.env,
  LOG_LEVEL: 'silent',
  PORT: '0',
  DATA_DIR: dataDir,
  ADMIN_EMAIL: 'rebuild@example.com',
  ADMIN_PASSWORD: 'a-good-password',
  ADMIN_TOKEN: 'rebuild-token-0123456789abcdefghijklmnop',
};

function run(script: string) {
  const child = spawn(process.execPath, ['--import', 'tsx', script], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  const lines: string[] = [];
  const listening = new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).on('line', (line) => {
      lines.push(line);
      if (line.startsWith('Listening on ')) resolve(line.split(' ')[2]!);
    });
    child.once('exit', (code) => reject(new Error(`exited with ${code}: ${lines.join('\n')}`)));
  });
  listening.catch(() => undefined);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, lines, listening, exited };
}

async function call(url: string, method: string, p: string, body?: unknown) {
  const res = await fetch(url + p, {
    method,
    headers: { authorization: `Bearer ${env.ADMIN_TOKEN}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  return { status: res.status, body: (await res.json()) as any };
}

/** Empties the index, as a database from before migration 010 would be. */
function wipeIndex(): number {
  const db = new SQLite(path.join(dataDir, 'docspace.sqlite'));
  try {
    db.exec('delete from search_pages; delete from search_spaces;');
    return (db.prepare('select count(*) as n from search_fts').get() as { n: number }).n;
  } finally {
    db.close();
  }
}

function indexedPages(): number {
  const db = new SQLite(path.join(dataDir, 'docspace.sqlite'), { readonly: true });
  try {
    return (db.prepare('select count(*) as n from search_pages').get() as { n: number }).n;
  } finally {
    db.close();
  }
}

describe('search index of existing data', () => {
  let spaceId = '';

  it('is rebuilt by npm run search:rebuild, and caught up at start', async () => {
    const first = run('src/server/main.ts');
    const url = await first.listening;
    const orgId = (await call(url, 'GET', '/v1/orgs')).body.items[0].id;
    spaceId = (await call(url, 'POST', `/v1/orgs/${orgId}/spaces`, { title: 'Old' })).body.id;
    const cr = (await call(url, 'POST', `/v1/spaces/${spaceId}/change-requests`, {})).body.id;
    const page = { operation: 'insert_page', title: 'Archaeology', document: { markdown: 'Old pottery.' } };
    expect(
      (await call(url, 'POST', `/v1/spaces/${spaceId}/change-requests/${cr}/content`, { changes: [page] })).status,
    ).toBe(200);
    expect((await call(url, 'POST', `/v1/spaces/${spaceId}/change-requests/${cr}/merge`)).status).toBe(200);
    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(0);

    expect(wipeIndex()).toBe(0);
    const rebuild = run('scripts/search-rebuild.ts');
    expect(await rebuild.exited).toBe(0);
    expect(rebuild.lines.at(-1)).toBe('Search index rebuilt: 1 space(s), language english.');
    expect(indexedPages()).toBe(1);

    wipeIndex();
    const second = run('src/server/main.ts');
    const url2 = await second.listening;
    expect(second.lines).toContain('search: indexing 1 space(s)…');
    const found = await call(url2, 'GET', `/v1/spaces/${spaceId}/search?query=potter`);
    expect(found.body.items.map((p: { title: string }) => p.title)).toEqual(['Archaeology']);
    second.child.kill('SIGTERM');
    expect(await second.exited).toBe(0);
  });
});
