import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  describeEachDialect,
  MEMBER_PASSWORD,
  startTestServer,
  withClockAhead,
  type TestServer,
  type TestUser,
} from '../test/harness.js';
import { startSmtpServer, type TestSmtpServer } from '../test/smtp-server.js';
import { SSO_ONLY_PASSWORD } from '../domain/sso/service.js';
import { RESET_MAILS_PER_ADDRESS_HOUR, RESET_REQUESTS_PER_IP_HOUR } from '../domain/auth/recovery.js';
import { PASSWORD_RESET_MINUTES } from '../../shared/contract/account.js';

/**
 * "Forgot password" end to end, with the mail read from a real SMTP server: the same answer for every address,
 * a link that works once and only for a while, every session signed out, API tokens kept (and listed) unless the
 * reset revokes them, and what an attacker tries: an unknown address, a used, expired or superseded link, a link
 * of another account, a flood of requests.
 */

describeEachDialect('password reset', (dialect) => {
  let smtp: TestSmtpServer;
  let server: TestServer;
  beforeAll(async () => {
    smtp = await startSmtpServer();
    server = await startTestServer(dialect, { smtp: smtp.config(), trustProxy: true });
  });
  afterAll(async () => {
    await server.close();
    await smtp.close();
  });

  /** Asks for a reset as the console does (from a client address of the test's choice), and runs the job. */
  async function ask(email: string, ip = '203.0.113.5') {
    const res = await server.request('POST', '/v1/auth/password-reset', {
      token: null,
      body: { email },
      headers: { 'x-forwarded-for': ip },
    });
    await server.drainJobs();
    return res;
  }

  /** Waits for `count` messages to `email` with this subject (sign-up's verification mail comes first). */
  async function mailsTitled(email: string, subject: string, count = 1) {
    for (let i = 0; i < 100; i++) {
      const found = smtp.to(email).filter((m) => m.mail.subject === subject);
      if (found.length >= count) return found;
      await server.drainJobs();
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error(`expected ${count} "${subject}" to ${email}`);
  }

  /** The secret in the newest reset link mailed to `email`. */
  async function linkFor(email: string, count = 1): Promise<string> {
    const mails = await mailsTitled(email, 'Reset your password', count);
    const text = mails[count - 1]!.mail.text ?? '';
    const match = /\/reset-password#(\S+)/.exec(text);
    expect(match, text).toBeTruthy();
    return match![1]!;
  }

  async function lastingToken(user: TestUser): Promise<string> {
    const res = await server.request('POST', '/v1/user/tokens', {
      token: user.token,
      body: { label: 'CI', password: MEMBER_PASSWORD },
    });
    expect(res.status).toBe(201);
    return res.body.token;
  }

  it('answers the same for an address with an account and one without, and mails only the account', async () => {
    const user = await server.signup('reset');
    const known = await ask(user.email);
    const unknown = await ask('nobody-here@example.com');
    expect(known.status).toBe(202);
    expect(unknown.status).toBe(202);
    expect(unknown.body).toEqual(known.body);
    expect(unknown.headers.get('content-length')).toBe(known.headers.get('content-length'));
    const [mail] = await mailsTitled(user.email, 'Reset your password');
    expect(mail!.mail.text).toContain(`${server.config.publicUrl}/reset-password#`);
    expect(mail!.mail.text).toContain(`${PASSWORD_RESET_MINUTES} minutes`);
    expect(mail!.mail.headers.has('list-unsubscribe'), 'security mail has no unsubscribe').toBe(false);
    expect(smtp.to('nobody-here@example.com')).toEqual([]);
  });

  it('resets with the link once: every session out, API tokens kept and listed, this browser signed in', async () => {
    const user = await server.signup('reset');
    const ci = await lastingToken(user);
    await ask(user.email);
    const token = await linkFor(user.email);

    const check = await server.request('POST', '/v1/auth/password-reset/check', { token: null, body: { token } });
    expect(check.status).toBe(200);
    expect(check.body.email).toBe(`${user.email[0]}•••@example.com`);
    expect(check.body.tokens).toEqual([expect.objectContaining({ label: 'CI' })]);

    const done = await server.request('POST', '/v1/auth/password-reset/complete', {
      token: null,
      body: { token, newPassword: 'a-brand-new-password' },
    });
    expect(done.status).toBe(200);
    expect(done.body).toMatchObject({ user: { id: user.id }, signedOut: 1, revokedTokens: 0 });
    expect(done.body.remainingTokens).toEqual([expect.objectContaining({ label: 'CI' })]);
    expect(done.headers.getSetCookie().some((c) => c.startsWith('ds_session='))).toBe(true);

    expect((await server.request('GET', '/v1/user', { token: user.token })).status, 'old sign-in').toBe(401);
    expect((await server.request('GET', '/v1/user', { token: done.body.token })).status, 'new sign-in').toBe(200);
    expect((await server.request('GET', '/v1/user', { token: ci })).status, 'lasting token kept').toBe(200);
    const oldPassword = await server.request('POST', '/v1/auth/login', {
      token: null,
      body: { email: user.email, password: MEMBER_PASSWORD },
    });
    expect(oldPassword.status).toBe(401);
    const newPassword = await server.request('POST', '/v1/auth/login', {
      token: null,
      body: { email: user.email, password: 'a-brand-new-password' },
    });
    expect(newPassword.status).toBe(200);

    const again = await server.request('POST', '/v1/auth/password-reset/complete', {
      token: null,
      body: { token, newPassword: 'yet-another-password' },
    });
    expect(again.status).toBe(400);
    expect(again.body.error.message).toMatch(/^token: This link has expired or was already used/);
    const check2 = await server.request('POST', '/v1/auth/password-reset/check', { token: null, body: { token } });
    expect(check2.status).toBe(400);

    const [told] = await mailsTitled(user.email, 'Your password was reset');
    expect(told!.mail.text).toContain('One API token of the account still works');
  });

  it('revokes the lasting API tokens when asked', async () => {
    const user = await server.signup('reset');
    const ci = await lastingToken(user);
    await ask(user.email);
    const token = await linkFor(user.email);
    const done = await server.request('POST', '/v1/auth/password-reset/complete', {
      token: null,
      body: { token, newPassword: 'a-brand-new-password', revokeTokens: true },
    });
    expect(done.body).toMatchObject({ revokedTokens: 1, remainingTokens: [] });
    expect((await server.request('GET', '/v1/user', { token: ci })).status).toBe(401);
  });

  it('refuses an expired link and one a newer request superseded', async () => {
    const user = await server.signup('reset');
    await ask(user.email);
    const first = await linkFor(user.email);
    await ask(user.email);
    const second = await linkFor(user.email, 2);
    expect(second).not.toBe(first);
    const superseded = await server.request('POST', '/v1/auth/password-reset/complete', {
      token: null,
      body: { token: first, newPassword: 'a-brand-new-password' },
    });
    expect(superseded.status).toBe(400);
    const expired = await withClockAhead((PASSWORD_RESET_MINUTES + 1) * 60_000, () =>
      server.request('POST', '/v1/auth/password-reset/complete', {
        token: null,
        body: { token: second, newPassword: 'a-brand-new-password' },
      }),
    );
    expect(expired.status).toBe(400);
    const login = await server.request('POST', '/v1/auth/login', {
      token: null,
      body: { email: user.email, password: MEMBER_PASSWORD },
    });
    expect(login.status, 'the password is unchanged').toBe(200);
  });

  it('changes only the account the link was sent for, and refuses made-up links', async () => {
    const ann = await server.signup('ann');
    const bob = await server.signup('bob');
    await ask(ann.email);
    const token = await linkFor(ann.email);
    const done = await server.request('POST', '/v1/auth/password-reset/complete', {
      token: null,
      body: { token, newPassword: 'anns-new-password' },
    });
    expect(done.body.user.id).toBe(ann.id);
    expect((await server.request('GET', '/v1/user', { token: bob.token })).status, 'bob still signed in').toBe(200);
    for (const forged of ['dsr_x', token.slice(0, -2), 'a'.repeat(200)]) {
      const res = await server.request('POST', '/v1/auth/password-reset/check', {
        token: null,
        body: { token: forged },
      });
      expect(res.status).toBe(400);
    }
    const bad = await server.request('POST', '/v1/auth/password-reset/complete', {
      token: null,
      body: { token: 'x', newPassword: 'short' },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toMatch(/newPassword/);
    const noEmail = await server.request('POST', '/v1/auth/password-reset', { token: null, body: { email: 'nope' } });
    expect(noEmail.status).toBe(400);
    expect(noEmail.body.error.message).toMatch(/email/);
  });

  it('tells an account without a password that it signs in through SSO, with no link', async () => {
    const user = await server.signup('sso');
    await server.storage.db
      .updateTable('users')
      .set({ password_hash: SSO_ONLY_PASSWORD })
      .where('id', '=', user.id)
      .execute();
    await ask(user.email);
    const [mail] = await mailsTitled(user.email, 'Your account has no password');
    expect(mail!.mail.text).not.toContain('reset-password#');
  });

  it('limits requests per client address (429) and mails per address (silently)', async () => {
    const user = await server.signup('flood');
    const ip = '198.51.100.77';
    for (let i = 0; i < RESET_MAILS_PER_ADDRESS_HOUR + 2; i++) expect((await ask(user.email, ip)).status).toBe(202);
    await mailsTitled(user.email, 'Reset your password', RESET_MAILS_PER_ADDRESS_HOUR);
    await server.drainJobs();
    expect(smtp.to(user.email).filter((m) => m.mail.subject === 'Reset your password')).toHaveLength(
      RESET_MAILS_PER_ADDRESS_HOUR,
    );
    for (let i = RESET_MAILS_PER_ADDRESS_HOUR + 2; i < RESET_REQUESTS_PER_IP_HOUR; i++) {
      await server.request('POST', '/v1/auth/password-reset', {
        token: null,
        body: { email: `x${i}@example.com` },
        headers: { 'x-forwarded-for': ip },
      });
    }
    const refused = await server.request('POST', '/v1/auth/password-reset', {
      token: null,
      body: { email: user.email },
      headers: { 'x-forwarded-for': ip },
    });
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('3600');
    const elsewhere = await server.request('POST', '/v1/auth/password-reset', {
      token: null,
      body: { email: user.email },
      headers: { 'x-forwarded-for': '198.51.100.78' },
    });
    expect(elsewhere.status).toBe(202);
  });
});
