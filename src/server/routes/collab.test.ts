import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDialect, startTestServer, type TestServer } from '../test/harness.js';
import { editContent, mergeChangeRequest, newChangeRequest, newSpace, seedPage } from '../test/factories.js';
import { purgeOnce } from '../jobs/purge.js';
import { DAY_MS } from '../lib/time.js';
import { Urls } from '../lib/urls.js';
import { CollabDocuments } from '../domain/collab/documents.js';
import { collabClient, type CollabClient } from '../test/collab-client.js';
import * as encoding from 'lib0/encoding';
import { COLLAB_NOT_WRITTEN } from '../../shared/contract/collab.js';
import { PAGE_MARKDOWN_MAX } from '../../shared/contract/content.js';

/** Live collaboration over the real WebSocket: co-editing, the page written from it, access. */
describeEachDialect('live collaboration on a change request page', (dialect) => {
  let server: TestServer;
  const clients: CollabClient[] = [];
  const open = (target: Target, token: string) => {
    const client = collabClient(server.url, target, token);
    clients.push(client);
    return client;
  };
  interface Target {
    spaceId: string;
    number: number;
    pageId: string;
    crId: string;
  }
  const pageOf = async (t: Target) => {
    const res = await server.request(
      'GET',
      `/v1/spaces/${t.spaceId}/change-requests/${t.crId}/content/page/${t.pageId}?format=markdown`,
    );
    expect(res.status).toBe(200);
    return res.body.markdown as string;
  };
  const until = async (test: () => Promise<boolean>, ms = 10_000) => {
    const end = Date.now() + ms;
    while (!(await test())) {
      if (Date.now() > end) throw new Error('not within time');
      await new Promise((r) => setTimeout(r, 100));
    }
  };
  const newTarget = async (
    markdown = '# Guide\n\nIntro text.\n\n{% hint style="info" %}\nKeep me.\n{% endhint %}\n',
  ): Promise<Target> => {
    const space = await newSpace(server);
    const pageId = await seedPage(server, space.id, 'Guide', markdown);
    const cr = await newChangeRequest(server, space.id);
    return { spaceId: space.id, number: cr.number, pageId, crId: cr.id };
  };

  beforeAll(async () => {
    // Connections are checked again when something changes, not by the clock (every 10 minutes here): what follows
    // a change within a test's wait was pushed.
    server = await startTestServer(dialect, { collabRecheckSeconds: 600 });
  });
  afterAll(async () => {
    for (const c of clients) c.destroy();
    await server.close();
  });

  it('two editors see each other, and the change request page is written from what they typed', async () => {
    const target = await newTarget();
    const writer = await server.member('edit');
    const a = open(target, server.owner.token);
    const b = open(target, writer.token);
    await Promise.all([a.ready, b.ready]);
    expect(a.markdown()).toContain('Intro text.');
    a.append('From A.');
    b.append('From B.');
    await Promise.all([a.until((m) => m.includes('From B.')), b.until((m) => m.includes('From A.'))]);
    await Promise.all([a.saved(), b.saved()]);
    // Written after a pause in typing; untouched blocks (the GitBook hint) exactly as they were.
    await until(async () => {
      const page = await pageOf(target);
      return page.includes('From A.') && page.includes('From B.');
    });
    const page = await pageOf(target);
    expect(page).toContain('{% hint style="info" %}\nKeep me.\n{% endhint %}');
    expect(page.startsWith('# Guide\n\nIntro text.')).toBe(true);
  });

  it('each cursor is named by its account, whatever the client says; nobody takes over another’s cursor', async () => {
    const target = await newTarget();
    const writer = await server.member('edit');
    const writerName = (await server.request('GET', '/v1/user', { token: writer.token })).body.displayName as string;
    const a = open(target, server.owner.token);
    const b = open(target, writer.token);
    await Promise.all([a.ready, b.ready]);
    const seenByA = () =>
      a.provider.awareness!.getStates().get(b.doc.clientID)?.user as
        { id: string; name: string; color?: string } | undefined;
    // The writer claims to be the owner, with a color of its own making.
    b.provider.setAwarenessField('user', { id: server.owner.id, name: 'The owner', color: 'red; background: url(x)' });
    await until(async () => seenByA() !== undefined);
    expect(seenByA()).toEqual({ id: writer.id, name: writerName });
    // A cursor update for the owner's cursor, sent on the writer's connection, closes that connection.
    a.provider.setAwarenessField('user', { id: server.owner.id, name: 'Owner' });
    await until(async () => b.provider.awareness!.getStates().has(a.doc.clientID));
    const message = encoding.createEncoder();
    encoding.writeVarString(message, b.provider.configuration.name);
    encoding.writeVarUint(message, 1); // Hocuspocus's awareness message
    const forged = encoding.createEncoder();
    encoding.writeVarUint(forged, 1);
    encoding.writeVarUint(forged, a.doc.clientID);
    encoding.writeVarUint(forged, a.provider.awareness!.meta.get(a.doc.clientID)!.clock + 10);
    encoding.writeVarString(forged, JSON.stringify({ user: { id: 'x', name: 'Not the owner' } }));
    encoding.writeVarUint8Array(message, encoding.toUint8Array(forged));
    b.provider.configuration.websocketProvider.send(encoding.toUint8Array(message));
    // The connection is closed: its cursor leaves the others' view.
    await until(async () => !a.provider.awareness!.getStates().has(b.doc.clientID));
    // The owner's cursor, as the writer's new connection is sent it: still the owner's.
    const c = open(target, writer.token);
    await c.ready;
    await until(async () => c.provider.awareness!.getStates().has(a.doc.clientID));
    expect(c.provider.awareness!.getStates().get(a.doc.clientID)?.user).toMatchObject({ id: server.owner.id });
  });

  it('a page that cannot be written when its last editor leaves (deleted meanwhile) leaves the server running', async () => {
    const target = await newTarget('# Gone\n\nText.\n');
    const a = open(target, server.owner.token);
    await a.ready;
    a.append('Typed before the page went.');
    await a.saved();
    await editContent(server, target.spaceId, target.crId, [{ operation: 'delete_page', page: target.pageId }]);
    a.destroy();
    // The write on leaving fails (there is no page); the process goes on serving (a rejection would end it).
    await new Promise((r) => setTimeout(r, 1500));
    expect((await server.request('GET', '/v1/user')).status).toBe(200);
  });

  it('a page past the limit of a page body is not written, and its editors are told why', async () => {
    const target = await newTarget('# Long\n\nText.\n');
    const a = open(target, server.owner.token);
    await a.ready;
    const told = new Promise<string>((resolve) =>
      a.provider.on('stateless', ({ payload }: { payload: string }) => {
        if (payload.startsWith(COLLAB_NOT_WRITTEN)) resolve(payload.slice(COLLAB_NOT_WRITTEN.length));
      }),
    );
    a.append('x'.repeat(PAGE_MARKDOWN_MAX));
    await a.saved();
    expect(await told).toMatch(/longer than 500000 characters/);
    // What was typed is stored; the page is as it was.
    expect(await pageOf(target)).toBe('# Long\n\nText.\n');
  });

  it('an edit through the API reaches the editors', async () => {
    const target = await newTarget('# Notes\n\nFirst.\n');
    const a = open(target, server.owner.token);
    await a.ready;
    await editContent(server, target.spaceId, target.crId, [
      {
        operation: 'update_page',
        page: target.pageId,
        document: { markdown: '# Notes\n\nFirst.\n\nAdded by the API.\n' },
      },
    ]);
    await a.until((m) => m.includes('Added by the API.'));
    // The editor's own typing afterwards keeps it.
    a.append('Then typed.');
    await a.saved();
    await until(async () => (await pageOf(target)).includes('Then typed.'));
    expect(await pageOf(target)).toContain('Added by the API.');
  });

  it('a reader watches but cannot type; strangers and the anonymous cannot open it', async () => {
    const target = await newTarget('# Read\n\nOnly.\n');
    const reader = await server.member('read');
    const r = open(target, reader.token);
    await r.ready;
    expect(r.provider.authorizedScope).toBe('readonly');
    r.append('Sneaky.');
    const a = open(target, server.owner.token);
    await a.ready;
    a.append('Real.');
    await a.saved();
    // The reader's update went out before the owner opened the page, so the server had it before it sent them
    // the page: refused, it reached nobody.
    await r.until((m) => m.includes('Real.'));
    expect(a.markdown()).not.toContain('Sneaky.');
    await until(async () => (await pageOf(target)).includes('Real.'));
    expect(await pageOf(target)).not.toContain('Sneaky.');

    // Another organization's admin, a bad token, no token.
    const stranger = await server.signup('stranger');
    for (const token of [stranger.token, 'not-a-token', '']) {
      const c = open(target, token);
      await expect(c.ready).rejects.toThrow(/authentication failed/);
    }
    // A name that is no page.
    const c = open({ ...target, pageId: 'nope' }, server.owner.token);
    await expect(c.ready).rejects.toThrow(/authentication failed/);
  });

  it('one person has at most 20 pages open together', async () => {
    const target = await newTarget('# Many\n\nTabs.\n');
    const writer = await server.member('edit');
    const tabs = Array.from({ length: 20 }, () => open(target, writer.token));
    await Promise.all(tabs.map((t) => t.ready));
    const more = open(target, writer.token);
    await expect(more.ready).rejects.toThrow(/authentication failed/);
    // Someone else still opens it.
    const other = open(target, server.owner.token);
    await other.ready;
    for (const t of tabs) t.destroy();
  });

  it('forgets the shared documents of merged change requests a day later, keeping what was typed', async () => {
    const merged = await newTarget('# Merged\n\nText.\n');
    const open = await newTarget('# Open\n\nText.\n');
    for (const target of [merged, open]) {
      const c = collabClient(server.url, target, server.owner.token);
      await c.ready;
      c.append('Typed together.');
      await c.saved();
      c.destroy();
    }
    // Written when the last editor left.
    await until(async () => (await pageOf(merged)).includes('Typed together.'));
    await mergeChangeRequest(server, merged.spaceId, merged.crId);
    const db = server.storage.db;
    const names = async () =>
      (await db.selectFrom('collab_documents').select('name').execute()).map((r) => r.name.split('/')[0]);
    expect(await names()).toEqual(expect.arrayContaining([merged.spaceId, open.spaceId]));
    await purgeOnce(db, Date.now() + 2 * DAY_MS);
    const left = await names();
    expect(left).not.toContain(merged.spaceId);
    expect(left).toContain(open.spaceId);
    const space = await server.request(
      'GET',
      `/v1/spaces/${merged.spaceId}/content/page/${merged.pageId}?format=markdown`,
    );
    expect(space.body.markdown).toContain('Typed together.');
  });

  it("merges a document's stored updates into one, and the document reads the same after", async () => {
    const target = await newTarget('# Compact\n\nText.\n');
    const a = open(target, server.owner.token);
    await a.ready;
    for (const word of ['One.', 'Two.', 'Three.']) {
      a.append(word);
      await a.saved();
    }
    const name = `${target.spaceId}/${target.number}/${target.pageId}`;
    const db = server.storage.db;
    const count = async () =>
      Number(
        (
          await db
            .selectFrom('collab_updates')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .where('name', '=', name)
            .executeTakeFirstOrThrow()
        ).n,
      );
    expect(await count()).toBeGreaterThan(3);
    await new CollabDocuments(db, new Urls(server.config.publicUrl), async () => undefined).compact(name, 2);
    expect(await count()).toBe(1);
    a.destroy();
    const b = open(target, server.owner.token);
    await b.ready;
    expect(b.markdown()).toMatch(/Text\.[\s\S]*One\.[\s\S]*Two\.[\s\S]*Three\./);
  });

  it('a member removed while editing is disconnected at once (not at the next check by the clock)', async () => {
    const target = await newTarget('# Team\n\nText.\n');
    const writer = await server.member('edit');
    const w = open(target, writer.token);
    await w.ready;
    const removed = await server.request('DELETE', `/v1/orgs/${server.orgId}/members/${writer.id}`);
    expect(removed.status).toBeLessThan(300);
    const closed = await Promise.race([w.closed, new Promise((r) => setTimeout(() => r('timeout'), 8000))]);
    expect(closed).not.toBe('timeout');
  });
});
