import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { describeEachDialect, startTestServer, type TestServer, type TestUser } from '../../test/harness.js';
import { startSmtpServer, type TestSmtpServer } from '../../test/smtp-server.js';
import {
  editContent,
  joinOrg,
  mergeChangeRequest,
  newChangeRequest,
  newOrg,
  newSpace,
  newTeam,
} from '../../test/factories.js';
import { findEmailByDedupeKey } from '../../storage/repos/mail.js';
import { queueDueDigests } from './digest.js';
import { NOTIFICATION_MAILS_PER_ADDRESS_HOUR, notifyJobHandler } from './fanout.js';
import { emailRetryDelayMs } from '../mail/outbox.js';
import { transaction } from '../../storage/db.js';
import { recordEvent } from './events.js';

/**
 * Notifications end to end: who is told of what (never the actor), in the inbox and by mail (read from a real SMTP
 * server), as each person chose; never anything they may not see (a member removed, a space trashed, a mention of
 * someone outside the organization), checked again when the mail goes; mentions of people and teams; the daily
 * digest, once; one-click unsubscribe.
 */

describeEachDialect('notifications', (dialect) => {
  let smtp: TestSmtpServer;
  let server: TestServer;
  let ahead = 0;
  beforeAll(async () => {
    smtp = await startSmtpServer();
    server = await startTestServer(dialect, { smtp: smtp.config() }, { jobs: { now: () => Date.now() + ahead } });
  });
  afterAll(async () => {
    await server.close();
    await smtp.close();
  });
  afterEach(() => {
    smtp.behaviour = {};
    ahead = 0;
  });

  /** Someone who signed up and followed the link mailed to them (this server has SMTP: read from it). */
  async function person(prefix: string): Promise<TestUser> {
    const user = await server.signup(prefix, { verify: false });
    await server.drainJobs();
    const [mail] = await smtp.waitFor(user.email);
    const secret = /\/verify-email#(\S+)/.exec(mail!.mail.text ?? '')![1];
    const res = await server.request('POST', '/v1/auth/verify-email', { token: null, body: { token: secret } });
    expect(res.status).toBe(200);
    return user;
  }

  async function setup(title = 'Notify org') {
    const org = await newOrg(server, title);
    const space = await newSpace(server, org.id, { title: 'Handbook' });
    const author = await joinOrg(server, org.id, await person('author'), 'edit');
    const reviewer = await joinOrg(server, org.id, await person('reviewer'), 'review');
    const cr = await newChangeRequest(server, space.id, { token: author.token, subject: 'Fix the intro' });
    return { org, space, author, reviewer, cr };
  }

  const inbox = async (user: TestUser, query = '') =>
    (await server.request('GET', `/v1/user/notifications${query}`, { token: user.token })).body;
  const mailsTo = (user: TestUser, subject: RegExp) =>
    smtp.to(user.email).filter((m) => subject.test(m.mail.subject ?? ''));

  it('tells a requested reviewer in the inbox and by e-mail, never the one who asked', async () => {
    const { space, author, reviewer, cr } = await setup();
    const asked = await server.request('POST', `/v1/spaces/${space.id}/change-requests/${cr.id}/requested-reviewers`, {
      token: author.token,
      body: { users: [reviewer.id] },
    });
    expect(asked.status).toBe(200);
    await server.drainJobs();
    const mine = await inbox(reviewer);
    expect(mine.items).toEqual([
      expect.objectContaining({
        kind: 'review-requested',
        reason: 'reviewer',
        available: true,
        summary: `author 1 asked for your review of “#${cr.number} Fix the intro”`,
        target: `/o/${space.organization}/spaces/${space.id}/change-requests/${cr.number}`,
        changeRequest: { id: cr.id, number: cr.number, subject: 'Fix the intro' },
      }),
    ]);
    expect((await inbox(author)).items).toEqual([]);
    const [mail] = mailsTo(reviewer, /asked for your review/);
    expect(mail!.mail.text).toContain(`/change-requests/${cr.number}`);
    const list = mail!.mail.headers.get('list') as {
      unsubscribe: { url: string };
      'unsubscribe-post': { name: string };
    };
    expect(list.unsubscribe.url).toMatch(/\/v1\/notifications\/unsubscribe\?t=/);
    expect(list['unsubscribe-post'].name).toBe('List-Unsubscribe=One-Click');

    // The bell's count, answered 304 while it stays the same; read, it drops.
    const unread = await server.request('GET', '/v1/user/notifications/unread', { token: reviewer.token });
    expect(unread.body).toEqual({ count: 1 });
    const again = await server.request('GET', '/v1/user/notifications/unread', {
      token: reviewer.token,
      headers: { 'if-none-match': unread.headers.get('etag') ?? '' },
    });
    expect(again.status).toBe(304);
    const read = await server.request('POST', '/v1/user/notifications/read', {
      token: reviewer.token,
      body: { ids: [mine.items[0].id] },
    });
    expect(read.body).toEqual({ marked: 1 });
    expect((await server.request('GET', '/v1/user/notifications/unread', { token: reviewer.token })).body.count).toBe(
      0,
    );
    // Someone else's notification cannot be marked.
    const other = await server.request('POST', '/v1/user/notifications/read', {
      token: author.token,
      body: { ids: [mine.items[0].id] },
    });
    expect(other.body).toEqual({ marked: 0 });
    expect(
      (await server.request('POST', '/v1/user/notifications/read', { token: author.token, body: {} })).status,
    ).toBe(400);
  });

  it('tells the author of a review, a comment and a merge; a reply reaches the thread', async () => {
    const { space, author, reviewer, cr } = await setup();
    await server.request('POST', `/v1/spaces/${space.id}/change-requests/${cr.id}/reviews`, {
      token: reviewer.token,
      body: { status: 'approved' },
    });
    const comment = await server.request('POST', `/v1/spaces/${space.id}/change-requests/${cr.id}/comments`, {
      token: reviewer.token,
      body: { body: { markdown: 'Looks **good** to me' } },
    });
    expect(comment.status).toBe(200);
    await server.drainJobs();
    const kinds = (await inbox(author)).items.map((n: { kind: string }) => n.kind);
    expect(kinds.sort()).toEqual(['comment', 'review-submitted']);
    const commentNote = (await inbox(author)).items.find((n: { kind: string }) => n.kind === 'comment');
    expect(commentNote.excerpt).toBe('Looks good to me');

    // The author replies: the reviewer (who took part) hears of it; the author does not hear of their own reply.
    await server.request(
      'POST',
      `/v1/spaces/${space.id}/change-requests/${cr.id}/comments/${comment.body.id}/replies`,
      { token: author.token, body: { body: { markdown: 'Thanks!' } } },
    );
    await server.drainJobs();
    expect((await inbox(reviewer)).items.map((n: { kind: string }) => n.kind)).toContain('reply');
    expect((await inbox(author)).items.map((n: { kind: string }) => n.kind)).not.toContain('reply');

    // The owner merges: the author and the reviewer (who follows it) hear of it.
    await server.request('POST', `/v1/spaces/${space.id}/change-requests/${cr.id}/merge`);
    await server.drainJobs();
    expect((await inbox(author)).items[0]).toMatchObject({ kind: 'change-request-merged', reason: 'author' });
    expect((await inbox(reviewer)).items[0]).toMatchObject({ kind: 'change-request-merged', reason: 'watcher' });
    expect((await inbox(server.owner)).items.map((n: { kind: string }) => n.kind)).not.toContain(
      'change-request-merged',
    );
  });

  it('tells whoever created a page of comments on it and those who took part; anyone who may read follows or stops', async () => {
    const { org, space, author, reviewer, cr } = await setup('Pages org');
    const made = await editContent(server, space.id, cr.id, [
      { operation: 'insert_page', title: 'Guide', document: { markdown: 'Read me.' } },
    ]);
    const page = made.changes[0]!.page;
    const pageId = typeof page === 'string' ? page : page!.id;
    await mergeChangeRequest(server, space.id, cr.id);
    await server.drainJobs();

    const comment = (token: string, markdown: string) =>
      server.request('POST', `/v1/spaces/${space.id}/comments`, { token, body: { page: pageId, body: { markdown } } });
    const first = await comment(reviewer.token, 'Is this **current**?');
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    await server.drainJobs();
    const told = (await inbox(author)).items.find((n: { kind: string }) => n.kind === 'comment');
    expect(told).toMatchObject({
      reason: 'page-author',
      summary: expect.stringMatching(/^reviewer \d+ commented on “Guide” in “Handbook”$/),
      target: `/o/${org.id}/spaces/${space.id}/pages/${pageId}`,
      excerpt: 'Is this current?',
    });
    const [mail] = mailsTo(author, /commented on “Guide”/);
    expect(mail!.mail.text).toContain('you created the page');

    // The author answers with a comment of their own: the reviewer, who took part, hears of it.
    await comment(author.token, 'Yes, as of today.');
    await server.drainJobs();
    expect((await inbox(reviewer)).items).toEqual([
      expect.objectContaining({ kind: 'comment', reason: 'participant' }),
    ]);

    // A reader follows the page; the author stops following it; a mention still reaches them.
    const reader = await joinOrg(server, org.id, await person('reader'), 'read');
    const watch = `/v1/spaces/${space.id}/pages/${pageId}/watch`;
    expect((await server.request('GET', watch, { token: reader.token })).body).toEqual({ following: false });
    expect((await server.request('PUT', watch, { token: reader.token })).body).toEqual({ following: true });
    expect((await server.request('DELETE', watch, { token: author.token })).body).toEqual({ following: false });
    await comment(reviewer.token, 'One more thing.');
    await server.drainJobs();
    expect((await inbox(reader)).items).toEqual([expect.objectContaining({ kind: 'comment', reason: 'page-watcher' })]);
    expect((await inbox(author)).items.filter((n: { kind: string }) => n.kind === 'comment')).toHaveLength(1);
    await comment(reviewer.token, `Ask [@A](/users/${author.id})`);
    await server.drainJobs();
    expect((await inbox(author)).items[0]).toMatchObject({ kind: 'mention', reason: 'mention' });

    // The change request's author stops following it: a comment there no longer reaches them.
    const cr2 = await newChangeRequest(server, space.id, { token: author.token, subject: 'Second' });
    const crWatch = `/v1/spaces/${space.id}/change-requests/${cr2.id}/watch`;
    expect((await server.request('GET', crWatch, { token: author.token })).body).toEqual({ following: true });
    expect((await server.request('DELETE', crWatch, { token: author.token })).body).toEqual({ following: false });
    await server.request('POST', `/v1/spaces/${space.id}/change-requests/${cr2.id}/comments`, {
      token: reviewer.token,
      body: { body: { markdown: 'Quiet?' } },
    });
    await server.drainJobs();
    expect((await inbox(author)).items[0]).toMatchObject({ kind: 'mention' });

    // Someone of another organization learns nothing, not even that the page or change request exists.
    const outsider = await person('outsider');
    for (const path of [watch, crWatch, `/v1/spaces/${space.id}/pages/nope/watch`]) {
      const res = await server.request('PUT', path, { token: outsider.token });
      expect(res.status, path).toBe(404);
    }
    expect(
      (await server.request('PUT', `/v1/spaces/${space.id}/pages/nope/watch`, { token: reader.token })).status,
    ).toBe(404);
    expect((await server.request('GET', watch, { token: null })).status).toBe(401);
  });

  it('tells mentioned members and each member of a mentioned team once, nobody outside, and new mentions of an edit only', async () => {
    const { org, space, author, reviewer, cr } = await setup('Mentions org');
    const teammate = await joinOrg(server, org.id, await person('teammate'), 'read');
    const team = await newTeam(server, org.id, { title: 'Writers' });
    for (const user of [teammate, reviewer]) {
      await server.request('PUT', `/v1/orgs/${org.id}/teams/${team.id}/members/${user.id}`, {
        body: { role: 'member' },
      });
    }
    const outsider = await person('outsider');
    const markdown = `Ping [@R](/users/${reviewer.id}), [@W](/teams/${team.id}) and [@O](/users/${outsider.id}) \`[x](/users/${author.id})\``;
    const posted = await server.request('POST', `/v1/spaces/${space.id}/change-requests/${cr.id}/comments`, {
      token: author.token,
      body: { body: { markdown } },
    });
    expect(posted.status).toBe(200);
    await server.drainJobs();
    const reviewerNotes = (await inbox(reviewer)).items;
    expect(reviewerNotes).toHaveLength(1);
    expect(reviewerNotes[0]).toMatchObject({ kind: 'mention', reason: 'mention' });
    expect((await inbox(teammate)).items).toEqual([expect.objectContaining({ kind: 'mention' })]);
    expect((await inbox(outsider)).items).toEqual([]);

    // An edit that adds a mention tells only the newly mentioned.
    const third = await joinOrg(server, org.id, await person('third'), 'read');
    const edited = await server.request(
      'PUT',
      `/v1/spaces/${space.id}/change-requests/${cr.id}/comments/${posted.body.id}`,
      { token: author.token, body: { body: { markdown: `${markdown} and [@T](/users/${third.id})` } } },
    );
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    await server.drainJobs();
    expect((await inbox(third)).items).toEqual([expect.objectContaining({ kind: 'mention' })]);
    expect((await inbox(reviewer)).items).toHaveLength(1);
    expect((await inbox(teammate)).items).toHaveLength(1);

    const tooMany = Array.from({ length: 21 }, (_, i) => `[@x](/users/u${i})`).join(' ');
    const refused = await server.request('POST', `/v1/spaces/${space.id}/change-requests/${cr.id}/comments`, {
      token: author.token,
      body: { body: { markdown: tooMany } },
    });
    expect(refused.status).toBe(400);
    expect(refused.body.error.message).toMatch(/^body: /);
  });

  it('tells nobody who can no longer see it: a member removed, a space trashed, and says so in the inbox later', async () => {
    const { org, space, author, reviewer, cr } = await setup('Visibility org');
    // Asked for a review, but removed before the fan-out runs (the event is recorded as requestReviewers records
    // it, after the removal, so that no job can run in between): told nothing.
    expect((await server.request('DELETE', `/v1/orgs/${org.id}/members/${reviewer.id}`)).status).toBe(205);
    await transaction(server.storage.db, (tx) =>
      recordEvent(tx, {
        kind: 'review-requested',
        organizationId: org.id,
        spaceId: space.id,
        changeRequestId: cr.id,
        actorId: author.id,
        data: { reviewers: [reviewer.id] },
      }),
    );
    await server.drainJobs();
    expect((await inbox(reviewer)).items).toEqual([]);
    expect(mailsTo(reviewer, /review/)).toEqual([]);

    // Told, then the space goes to the trash: the inbox keeps only the kind and date.
    const other = await joinOrg(server, org.id, await person('other'), 'review');
    await server.request('POST', `/v1/spaces/${space.id}/change-requests/${cr.id}/requested-reviewers`, {
      token: author.token,
      body: { users: [other.id] },
    });
    await server.drainJobs();
    expect((await inbox(other)).items[0]).toMatchObject({ available: true });
    expect((await server.request('DELETE', `/v1/spaces/${space.id}`)).status).toBe(205);
    const hidden = (await inbox(other)).items[0];
    expect(hidden).toMatchObject({ available: false, summary: 'About something you can no longer see' });
    expect(hidden.changeRequest).toBeUndefined();
    expect(hidden.space).toBeUndefined();
  });

  it('checks again before mailing: a choice changed meanwhile leaves the mail unsent', async () => {
    const { space, author, reviewer, cr } = await setup('Recheck org');
    // The relay refuses for now, so the mail waits after the fan-out.
    smtp.behaviour = { rcpt: () => ({ code: 451, message: 'later' }) };
    await server.request('POST', `/v1/spaces/${space.id}/change-requests/${cr.id}/requested-reviewers`, {
      token: author.token,
      body: { users: [reviewer.id] },
    });
    await server.drainJobs();
    const note = (await inbox(reviewer)).items[0];
    const changed = await server.request('PATCH', '/v1/user/notification-settings', {
      token: reviewer.token,
      body: { kinds: { 'review-requested': 'in-app' } },
    });
    expect(changed.body.kinds.find((k: { kind: string }) => k.kind === 'review-requested')).toMatchObject({
      channel: 'in-app',
      isDefault: false,
    });
    smtp.behaviour = {};
    ahead = emailRetryDelayMs(1) + 1000;
    await server.drainJobs();
    expect(mailsTo(reviewer, /review/)).toEqual([]);
    const message = await findEmailByDedupeKey(server.storage.db, `notif:${note.id}`);
    expect(message?.state).toBe('suppressed');
  });

  it('gathers digest notifications into one daily mail, once, leaving out what was read', async () => {
    const { space, author, reviewer, cr } = await setup('Digest org');
    await server.request('PATCH', '/v1/user/notification-settings', {
      token: author.token,
      body: { kinds: { comment: 'digest' }, digestHour: 9, timeZone: 'Europe/Paris' },
    });
    for (const text of ['First remark', 'Second remark', 'Third remark']) {
      await server.request('POST', `/v1/spaces/${space.id}/change-requests/${cr.id}/comments`, {
        token: reviewer.token,
        body: { body: { markdown: text } },
      });
    }
    await server.drainJobs();
    const notes = (await inbox(author)).items;
    expect(notes).toHaveLength(3);
    expect(mailsTo(author, /commented/)).toEqual([]);
    await server.request('POST', '/v1/user/notifications/read', { token: author.token, body: { ids: [notes[0].id] } });
    // Nothing is due yet; at the next 09:00 in Paris, one digest, whichever process looks (two look here).
    expect(await queueDueDigests(server.storage.db)).toBe(0);
    const later = Date.now() + 25 * 3_600_000;
    await Promise.all([queueDueDigests(server.storage.db, later), queueDueDigests(server.storage.db, later)]);
    await server.drainJobs();
    const digests = smtp.to(author.email).filter((m) => /notifications today/.test(m.mail.subject ?? ''));
    expect(digests).toHaveLength(1);
    expect(digests[0]!.mail.subject).toBe('2 notifications today');
    expect(digests[0]!.mail.text).toContain('Second remark');
    expect(digests[0]!.mail.text).not.toContain('Third remark');
    expect(await queueDueDigests(server.storage.db, later)).toBe(0);
  });

  it('mails one address at most 30 notifications an hour; the rest wait for the digest', async () => {
    const { space, author, reviewer, cr } = await setup('Flood org');
    for (let i = 0; i < NOTIFICATION_MAILS_PER_ADDRESS_HOUR + 3; i++) {
      await server.request('POST', `/v1/spaces/${space.id}/change-requests/${cr.id}/requested-reviewers`, {
        token: author.token,
        body: { users: [reviewer.id] },
      });
    }
    await server.drainJobs();
    expect((await inbox(reviewer, '?limit=100')).count).toBe(NOTIFICATION_MAILS_PER_ADDRESS_HOUR + 3);
    expect(mailsTo(reviewer, /review/)).toHaveLength(NOTIFICATION_MAILS_PER_ADDRESS_HOUR);
    const waiting = await server.storage.db
      .selectFrom('notifications')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('user_id', '=', reviewer.id)
      .where('digest_state', '=', 'pending')
      .executeTakeFirstOrThrow();
    expect(Number(waiting.n)).toBe(3);
  });

  it('fans an event out once, even run again', async () => {
    const { space, author, reviewer, cr } = await setup('Replay org');
    await server.request('POST', `/v1/spaces/${space.id}/change-requests/${cr.id}/requested-reviewers`, {
      token: author.token,
      body: { users: [reviewer.id] },
    });
    await server.drainJobs();
    const event = await server.storage.db
      .selectFrom('notification_events')
      .select('id')
      .where('change_request_id', '=', cr.id)
      .executeTakeFirstOrThrow();
    const handler = notifyJobHandler(server.storage.db, {
      smtp: server.config.smtp,
      publicUrl: server.config.publicUrl,
    });
    await handler.run({ id: event.id }, undefined as never);
    await server.drainJobs();
    expect((await inbox(reviewer)).items).toHaveLength(1);
    expect(mailsTo(reviewer, /review/)).toHaveLength(1);
  });

  it('unsubscribes from one kind with the mail link, in one click; a GET only leads to the console', async () => {
    const { space, author, reviewer, cr } = await setup('Unsubscribe org');
    await server.request('POST', `/v1/spaces/${space.id}/change-requests/${cr.id}/requested-reviewers`, {
      token: author.token,
      body: { users: [reviewer.id] },
    });
    await server.drainJobs();
    const [mail] = mailsTo(reviewer, /review/);
    const url = new URL((mail!.mail.headers.get('list') as { unsubscribe: { url: string } }).unsubscribe.url);
    const path = `${url.pathname}${url.search}`;
    const looked = await fetch(`${server.url}${path}`, { redirect: 'manual' });
    expect(looked.status).toBe(303);
    expect(looked.headers.get('location')).toMatch(/^\/unsubscribe\?t=/);
    const settings = async () =>
      (await server.request('GET', '/v1/user/notification-settings', { token: reviewer.token })).body.kinds.find(
        (k: { kind: string }) => k.kind === 'review-requested',
      ).channel;
    expect(await settings()).toBe('email');
    const done = await server.request('POST', path, { token: null });
    expect(done.status).toBe(200);
    expect(done.body.kind).toBe('review-requested');
    expect(await settings()).toBe('in-app');
    const forged = await server.request('POST', `${url.pathname}?t=${url.searchParams.get('t') ?? ''}x`, {
      token: null,
    });
    expect(forged.status).toBe(400);
  });
});
