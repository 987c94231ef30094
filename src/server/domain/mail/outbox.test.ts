import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { describeEachDialect, startTestServer, type TestServer } from '../../test/harness.js';
import { startSmtpServer, type TestSmtpServer } from '../../test/smtp-server.js';
import { transaction } from '../../storage/db.js';
import { findEmail } from '../../storage/repos/mail.js';
import { wakeJobQueues } from '../../jobs/queue.js';
import { emailRetryDelayMs, queueEmail, takeRate, type OutgoingEmail } from './outbox.js';
import { renderMail } from './templates.js';

/**
 * The outbox against a real SMTP server on loopback: what arrives, exactly once; retries when the relay refuses for
 * now; a refusal for good recorded with the relay's words; a connection cut after the message was written (or a
 * process that died while sending) never sent again; and, without SMTP, mail kept for the instance owner, who
 * alone can read it.
 */

describe('emailRetryDelayMs', () => {
  it('doubles from 30 s and stops at an hour', () => {
    expect([1, 2, 3, 4].map(emailRetryDelayMs)).toEqual([30_000, 60_000, 120_000, 240_000]);
    expect(emailRetryDelayMs(12)).toBe(3_600_000);
  });
});

function outgoing(to: string, over: Partial<OutgoingEmail> = {}): OutgoingEmail {
  return {
    dedupeKey: `test:${Math.random()}`,
    category: 'notification',
    kind: 'test',
    to,
    mail: renderMail({
      subject: 'Hello <there> & welcome',
      brand: 'Acme Docs',
      heading: 'A heading',
      paragraphs: ['First <b>paragraph</b>.'],
      button: { label: 'Open it', url: 'https://docs.test/x?a=1&b=2' },
      footer: 'Why you got this.',
    }),
    ...over,
  };
}

describeEachDialect('outbox', (dialect) => {
  let smtp: TestSmtpServer;
  let server: TestServer;
  /** The job queue's clock, moved forward to make a retry due. */
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

  async function queue(m: OutgoingEmail) {
    const settings = { smtp: server.config.smtp, publicUrl: server.config.publicUrl };
    const id = await transaction(server.storage.db, (tx) => queueEmail(tx, settings, m));
    wakeJobQueues();
    return id;
  }

  it('delivers a message once, as composed: Message-ID, both parts, escaped HTML, envelope sender', async () => {
    const to = 'ann@example.org';
    const m = outgoing(to, { headers: { 'X-Test': 'yes' } });
    const id = await queue(m);
    expect(await queue(m), 'same cause, no second message').toBeUndefined();
    await server.drainJobs();
    const [got, ...more] = await smtp.waitFor(to);
    expect(more).toEqual([]);
    expect(got!.envelope).toEqual({ from: 'bounces@docs.test', to: [to] });
    expect(got!.mail.messageId).toBe(`<${id}@docs.test>`);
    expect(got!.mail.subject).toBe('Hello <there> & welcome');
    expect(got!.mail.from?.value).toEqual([{ name: 'Docs', address: 'docs@docs.test' }]);
    expect(got!.mail.text).toContain('Open it: https://docs.test/x?a=1&b=2');
    expect(got!.mail.html).toContain('First &#x3C;b>paragraph&#x3C;/b>.');
    expect(got!.mail.html).toContain('href="https://docs.test/x?a=1&#x26;b=2"');
    expect(got!.mail.headers.get('auto-submitted')).toBe('auto-generated');
    expect(got!.mail.headers.get('x-test')).toBe('yes');
    const row = await findEmail(server.storage.db, id!);
    expect(row).toMatchObject({ state: 'sent', attempts: 1, smtp_reply: expect.stringMatching(/^250 /) });
    expect(row!.raw, 'a notification keeps its bytes').toBeTruthy();
  });

  it('forgets the content of security mail once sent', async () => {
    const id = await queue(outgoing('sec@example.org', { category: 'security' }));
    await server.drainJobs();
    await smtp.waitFor('sec@example.org');
    expect(await findEmail(server.storage.db, id!)).toMatchObject({
      state: 'sent',
      raw: null,
      text_body: null,
      html_body: null,
    });
  });

  it('retries with backoff when the relay refuses for now, and sends once when it recovers', async () => {
    const to = 'later@example.org';
    smtp.behaviour = { rcpt: () => ({ code: 451, message: 'Try again later' }) };
    const id = await queue(outgoing(to));
    await server.drainJobs();
    expect(await findEmail(server.storage.db, id!)).toMatchObject({
      state: 'queued',
      last_error: expect.stringContaining('451'),
    });
    // Not due before its backoff.
    await server.drainJobs();
    expect(smtp.to(to)).toEqual([]);
    smtp.behaviour = {};
    ahead = emailRetryDelayMs(1) + 1000;
    await server.drainJobs();
    await smtp.waitFor(to);
    expect(smtp.to(to)).toHaveLength(1);
    expect(await findEmail(server.storage.db, id!)).toMatchObject({ state: 'sent', attempts: 2, last_error: null });
  });

  it('records a refusal for good with the relay words, and does not retry it', async () => {
    const to = 'nobody@example.org';
    smtp.behaviour = { rcpt: () => ({ code: 550, message: 'No such user here' }) };
    const id = await queue(outgoing(to));
    await server.drainJobs();
    smtp.behaviour = {};
    ahead = 2 * 3_600_000;
    await server.drainJobs();
    expect(smtp.to(to)).toEqual([]);
    const row = await findEmail(server.storage.db, id!);
    expect(row).toMatchObject({ state: 'failed', attempts: 1 });
    expect(row!.last_error).toMatch(/550.*No such user here/);
  });

  it('never sends again a message whose connection was cut after it was written', async () => {
    const to = 'cut@example.org';
    smtp.behaviour = { dropAfterData: true };
    const id = await queue(outgoing(to));
    await server.drainJobs();
    smtp.behaviour = {};
    ahead = 2 * 3_600_000;
    await server.drainJobs();
    expect(smtp.to(to), 'the relay got it once, with no answer').toHaveLength(1);
    const row = await findEmail(server.storage.db, id!);
    expect(row).toMatchObject({ state: 'uncertain' });
    expect(row!.last_error).toMatch(/may have arrived/);

    // The owner may send it again: the same Message-ID, so a mail client shows one.
    const resent = await server.request('POST', `/v1/instance/outbox/${id}/resend`);
    expect(resent.status).toBe(200);
    await server.drainJobs();
    const both = await smtp.waitFor(to, 2);
    expect(both[1]!.mail.messageId).toBe(both[0]!.mail.messageId);
    expect((await findEmail(server.storage.db, id!))!.state).toBe('sent');
  });

  it('marks uncertain, and does not send, a message whose process died while sending it', async () => {
    const to = 'crash@example.org';
    // Queued with the queue asleep, then left as a dead process leaves it: `sending`, its job claimed again.
    const settings = { smtp: server.config.smtp, publicUrl: server.config.publicUrl };
    const id = await transaction(server.storage.db, async (tx) => {
      const messageId = await queueEmail(tx, settings, outgoing(to));
      await tx.updateTable('email_messages').set({ state: 'sending' }).where('id', '=', messageId!).execute();
      return messageId;
    });
    await server.drainJobs();
    expect(smtp.to(to)).toEqual([]);
    expect(await findEmail(server.storage.db, id!)).toMatchObject({
      state: 'uncertain',
      last_error: expect.stringMatching(/stopped while handing/),
    });
  });

  it('counts rates atomically per window', async () => {
    const db = server.storage.db;
    const key = `k${Math.random()}`;
    const results = await Promise.all(
      Array.from({ length: 8 }, () =>
        transaction(db, (tx) => takeRate(tx, 'test', key, 60_000, 5, { now: 1_000_000 })),
      ),
    );
    expect(results.filter(Boolean)).toHaveLength(5);
    expect(await transaction(db, (tx) => takeRate(tx, 'test', key, 60_000, 5, { now: 1_070_000 })), 'next window').toBe(
      true,
    );
  });

  /** A delivery status notification as Postfix writes one (RFC 3464), about the message `messageId`. */
  const dsn = (messageId: string, to: string, action = 'failed') =>
    [
      'From: MAILER-DAEMON@mx.example.org (Mail Delivery System)',
      'To: bounces@docs.test',
      'Subject: Undelivered Mail Returned to Sender',
      'MIME-Version: 1.0',
      'Content-Type: multipart/report; report-type=delivery-status; boundary="B0UND"',
      '',
      '--B0UND',
      'Content-Type: text/plain; charset=us-ascii',
      '',
      'This is the mail system at host mx.example.org. I am sorry to have to inform you that your message',
      'could not be delivered to one or more recipients.',
      '',
      '--B0UND',
      'Content-Type: message/delivery-status',
      '',
      'Reporting-MTA: dns; mx.example.org',
      'Arrival-Date: Mon, 30 Nov 2026 15:00:00 +0000 (UTC)',
      '',
      `Final-Recipient: rfc822; ${to}`,
      `Original-Recipient: rfc822;${to}`,
      `Action: ${action}`,
      `Status: ${action === 'failed' ? '5.1.1' : '4.4.1'}`,
      'Remote-MTA: dns; mail.example.org',
      `Diagnostic-Code: smtp; 550 5.1.1 <${to}>: Recipient address`,
      '    rejected: User unknown in virtual mailbox table',
      '',
      '--B0UND',
      'Content-Type: text/rfc822-headers',
      '',
      `Message-ID: ${messageId}`,
      'From: Docs <docs@docs.test>',
      `To: ${to}`,
      'Subject: Hello',
      '',
      '--B0UND--',
      '',
    ].join('\r\n');

  it('marks a message bounced from the report the operator pipes in, for the owner only', async () => {
    const to = 'gone@example.org';
    const id = await queue(outgoing(to));
    await server.drainJobs();
    await smtp.waitFor(to);
    const row = await findEmail(server.storage.db, id!);
    const post = (rawBody: string, token?: string | null) =>
      server.request('POST', '/v1/instance/mail/bounces', {
        rawBody,
        headers: { 'content-type': 'message/rfc822' },
        ...(token !== undefined ? { token } : {}),
      });

    // Delayed: said, nothing changes.
    const delayed = await post(dsn(row!.message_id, to, 'delayed'));
    expect(delayed.body).toEqual({ matched: true, id, action: 'delayed', status: '4.4.1', state: 'sent' });

    // Someone else than the owner learns nothing and changes nothing.
    const stranger = await server.signup('stranger');
    expect((await post(dsn(row!.message_id, to), stranger.token)).status).toBe(404);
    expect((await post(dsn(row!.message_id, to), null)).status).toBe(401);
    expect((await findEmail(server.storage.db, id!))!.state).toBe('sent');

    const failed = await post(dsn(row!.message_id, to));
    expect(failed.body).toEqual({ matched: true, id, action: 'failed', status: '5.1.1', state: 'bounced' });
    const shown = await server.request('GET', `/v1/instance/outbox/${id}`);
    expect(shown.body).toMatchObject({ state: 'bounced' });
    expect(shown.body.lastError).toBe(
      `Bounced: 5.1.1 550 5.1.1 <${to}>: Recipient address rejected: User unknown in virtual mailbox table`,
    );
    const listed = await server.request('GET', '/v1/instance/outbox?state=bounced');
    expect(listed.body.items.map((m: { id: string }) => m.id)).toEqual([id]);

    // A report of a message this server did not send matches nothing; a message that is no report is refused.
    expect((await post(dsn('<unknown@elsewhere>', to))).body).toEqual({ matched: false });
    const plain = await post('Subject: hi\r\n\r\nJust a letter.\r\n');
    expect(plain.status).toBe(400);
    expect(plain.body.error.message).toMatch(/^body: /);
    expect((await post('')).status).toBe(400);
  });

  it('lets only the instance owner read the outbox and the relay status', async () => {
    const id = await queue(outgoing('listed@example.org'));
    await server.drainJobs();
    const status = await server.request('GET', '/v1/instance/mail');
    expect(status.status).toBe(200);
    expect(status.body).toMatchObject({ configured: true, relay: `127.0.0.1:${smtp.port}`, tls: 'none' });
    expect(status.body.counts.sent).toBeGreaterThan(0);
    const list = await server.request('GET', '/v1/instance/outbox?to=listed@example.org');
    expect(list.body.items).toEqual([expect.objectContaining({ id, state: 'sent', to: 'listed@example.org' })]);
    const one = await server.request('GET', `/v1/instance/outbox/${id}`);
    expect(one.body).toMatchObject({ id, hasHtml: true, text: expect.stringContaining('A heading') });
    const html = await server.request('GET', `/v1/instance/outbox/${id}/html`);
    expect(html.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(html.body).toContain('<h1');

    const stranger = await server.member('admin');
    for (const path of ['/v1/instance/mail', '/v1/instance/outbox', `/v1/instance/outbox/${id}`]) {
      expect((await server.request('GET', path, { token: stranger.token })).status, path).toBe(404);
      expect((await server.request('GET', path, { token: null })).status, path).toBe(401);
    }
    const resend = await server.request('POST', `/v1/instance/outbox/${id}/resend`, { token: stranger.token });
    expect(resend.status).toBe(404);
    expect((await server.request('POST', `/v1/instance/outbox/${id}/resend`)).status, 'sent already').toBe(409);
    expect((await server.request('GET', '/v1/instance/outbox?state=nope')).status).toBe(400);
  });
});

describeEachDialect('outbox without SMTP', (dialect) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(dialect);
  });
  afterAll(async () => {
    await server.close();
  });

  it('keeps mail for the instance owner to read, and cannot resend it', async () => {
    const settings = { smtp: undefined, publicUrl: server.config.publicUrl };
    const id = await transaction(server.storage.db, (tx) => queueEmail(tx, settings, outgoing('held@example.org')));
    await server.drainJobs();
    expect((await findEmail(server.storage.db, id!))!.state).toBe('held');
    const status = await server.request('GET', '/v1/instance/mail');
    expect(status.body).toMatchObject({ configured: false, counts: { held: 1 } });
    const one = await server.request('GET', `/v1/instance/outbox/${id}`);
    expect(one.body).toMatchObject({ state: 'held', envelopeFrom: 'no-reply@docs.test' });
    expect(one.body.text).toContain('https://docs.test/x?a=1&b=2');
    const resend = await server.request('POST', `/v1/instance/outbox/${id}/resend`);
    expect(resend.status).toBe(409);
    expect(resend.body.error.message).toMatch(/SMTP is not configured/);
  });
});
