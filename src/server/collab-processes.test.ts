import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import crypto from 'node:crypto';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { databaseUrl } from './test/postgres.js';
import { apiAs, killStarted, start, within } from './test/processes.js';
import { collabClient, type CollabClient } from './test/collab-client.js';

/**
 * Live collaboration across real server processes: what an editor was told is saved survives `kill -9`, and two
 * processes on one PostgreSQL share a document.
 */
const TOKEN = 'collab-owner-token-0123456789abcdefghijklmnop';
const OWNER = { ADMIN_EMAIL: 'collab@example.com', ADMIN_PASSWORD: 'a-good-password', ADMIN_TOKEN: TOKEN };
const clients: CollabClient[] = [];
afterEach(() => {
  for (const c of clients.splice(0)) c.destroy();
  killStarted();
});

const api = apiAs(TOKEN);

/** A space with one page and an open change request, through the API of the server at `base`. */
async function pageToEdit(base: string) {
  const orgs = await api(base, 'GET', '/v1/orgs');
  const space = await api(base, 'POST', `/v1/orgs/${orgs.items[0].id}/spaces`, { title: 'Collab' });
  const seed = await api(base, 'POST', `/v1/spaces/${space.id}/change-requests`, {});
  const made = await api(base, 'POST', `/v1/spaces/${space.id}/change-requests/${seed.id}/content?compat=false`, {
    changes: [{ operation: 'insert_page', title: 'Shared', document: { markdown: '# Shared\n\nStart.\n' } }],
  });
  await api(base, 'POST', `/v1/spaces/${space.id}/change-requests/${seed.id}/merge`);
  const cr = await api(base, 'POST', `/v1/spaces/${space.id}/change-requests`, {});
  return { spaceId: space.id as string, number: cr.number as number, pageId: made.changes[0].page.id as string };
}

/** An account that joins the first organization with `role`, through the API of the server at `base`. */
async function member(base: string, role: string) {
  const email = `writer-${crypto.randomBytes(4).toString('hex')}@example.com`;
  const res = await fetch(`${base}/v1/auth/signup`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: 'a-good-password', displayName: 'Writer' }),
  });
  const signedUp = await res.json();
  if (res.status !== 201) throw new Error(`signup: ${res.status} ${JSON.stringify(signedUp)}`);
  const orgs = await api(base, 'GET', '/v1/orgs');
  const link = await api(base, 'POST', `/v1/orgs/${orgs.items[0].id}/link-invites`, { role });
  const joined = await fetch(`${base}/v1/orgs/${orgs.items[0].id}/invites/${link.id}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${signedUp.token}` },
  });
  if (joined.status !== 200) throw new Error(`join: ${joined.status}`);
  return { id: signedUp.user.id as string, token: signedUp.token as string, orgId: orgs.items[0].id as string };
}

function open(base: string, target: Awaited<ReturnType<typeof pageToEdit>>, token = TOKEN) {
  const client = collabClient(base, target, token);
  clients.push(client);
  return client;
}

describe('live collaboration across server processes', () => {
  it('keeps what an editor was told is saved through kill -9', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ds-collab-'));
    try {
      const first = start({ DATA_DIR: dataDir, ...OWNER });
      const base = (await within(60_000, 'listening', [first], first.listening)).split(' ')[2]!;
      const target = await pageToEdit(base);
      const editor = open(base, target);
      await editor.ready;
      editor.append('Typed just before the crash.');
      await editor.saved();
      // Killed at once: before the page is written (a second after typing stops).
      editor.stayDisconnected();
      first.child.kill('SIGKILL');
      await first.exited;
      editor.destroy();

      const second = start({ DATA_DIR: dataDir, ...OWNER });
      const base2 = (await within(60_000, 'listening again', [second], second.listening)).split(' ')[2]!;
      const again = open(base2, target);
      await again.ready;
      expect(again.markdown()).toContain('Typed just before the crash.');
      // And the page of the change request is written from it.
      await within(
        15_000,
        'page written',
        [second],
        (async () => {
          for (;;) {
            const page = await api(
              base2,
              'GET',
              `/v1/spaces/${target.spaceId}/change-requests/${target.number}/content/page/${target.pageId}?format=markdown`,
            );
            if (String(page.markdown).includes('Typed just before the crash.')) return;
            await new Promise((r) => setTimeout(r, 200));
          }
        })(),
      );
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }, 120_000);

  it.runIf(process.env.TEST_DATABASE_URL)(
    'two processes on one PostgreSQL: editors on each see the other’s text and cursor; a removal made on one disconnects at once on the other',
    async () => {
      const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
      await admin.connect();
      const name = `ds_collab_${crypto.randomBytes(5).toString('hex')}`;
      await admin.query(`create database ${name}`);
      try {
        // Connections are checked by the clock only every 10 minutes: what follows a change within the test's
        // waits was pushed from the process the change was made on.
        const env = {
          DATABASE_URL: databaseUrl(process.env.TEST_DATABASE_URL!, name),
          COLLAB_RECHECK_SECONDS: '600',
          ...OWNER,
        };
        const [p1, p2] = [start(env), start(env)];
        const [l1, l2] = await within(60_000, 'both listening', [p1, p2], Promise.all([p1.listening, p2.listening]));
        const [base1, base2] = [l1.split(' ')[2]!, l2.split(' ')[2]!];
        const target = await pageToEdit(base1);
        const a = open(base1, target);
        const b = open(base2, target);
        await Promise.all([a.ready, b.ready]);
        a.append('Typed on process one.');
        b.append('Typed on process two.');
        await within(
          15_000,
          'both see both',
          [p1, p2],
          Promise.all([a.until((m) => m.includes('process two')), b.until((m) => m.includes('process one'))]),
        );
        // Named by the account (the server vouches for cursors), whatever the client said.
        const me = await api(base1, 'GET', '/v1/user');
        a.provider.setAwarenessField('user', { name: 'Ada' });
        await within(
          15_000,
          'cursor across processes',
          [p1, p2],
          new Promise<void>((resolve) => {
            const check = () => {
              if (b.provider.awareness!.getStates().get(a.doc.clientID)?.user?.name === me.displayName) resolve();
            };
            b.provider.awareness!.on('change', check);
            check();
          }),
        );
        expect(a.markdown()).toBe(b.markdown());

        // A member editing on process two is disconnected as soon as process one removes them.
        const writer = await member(base1, 'edit');
        const w = open(base2, target, writer.token);
        await w.ready;
        await api(base1, 'DELETE', `/v1/orgs/${writer.orgId}/members/${writer.id}`);
        await within(15_000, 'removed member disconnected on the other process', [p1, p2], w.closed);
      } finally {
        for (const c of clients.splice(0)) c.destroy();
        killStarted();
        await admin.query(`drop database if exists ${name} with (force)`);
        await admin.end();
      }
    },
    150_000,
  );
});
