import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDialect, MEMBER_PASSWORD, startTestServer, type TestServer } from '../test/harness.js';
import { SSO_ONLY_PASSWORD } from '../domain/sso/service.js';
import { VERIFY_MAILS_PER_ACCOUNT_HOUR } from '../domain/auth/verification.js';

/**
 * Verified addresses: the link mailed at sign-up, asking for another, moving an account to a new address (the new
 * address confirms; the old one is told twice), and what an unverified address is not trusted with (e-mail domain
 * look-ups, single sign-on links). Mail is read from the owner's outbox (this server has no SMTP).
 */

describeEachDialect('e-mail verification', (dialect) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(dialect);
  });
  afterAll(() => server.close());

  async function secretOf(email: string, kind: string): Promise<string> {
    const mail = await server.heldMail(email, kind);
    const secret = /\/verify-email#(\S+)/.exec(mail.text)?.[1];
    expect(secret, mail.text).toBeTruthy();
    return secret!;
  }

  const verify = (token: string, auth: string | null = null) =>
    server.request('POST', '/v1/auth/verify-email', { token: auth, body: { token } });
  const me = async (token: string) => (await server.request('GET', '/v1/user', { token })).body;

  it('starts unverified, and is verified by the link mailed at sign-up, once', async () => {
    const user = await server.signup('fresh', { verify: false });
    expect((await me(user.token)).emailVerified).toBe(false);
    const mail = await server.heldMail(user.email, 'verify-email');
    expect(mail.subject).toBe('Confirm your e-mail address');
    const secret = await secretOf(user.email, 'verify-email');
    const res = await verify(secret);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ email: user.email, changed: false, signedOut: 0 });
    expect((await me(user.token)).emailVerified).toBe(true);
    expect((await verify(secret)).status, 'used').toBe(400);
    expect((await verify('dsv_made-up')).status).toBe(400);
    const again = await server.request('POST', '/v1/user/email/verification', { token: user.token });
    expect(again.status).toBe(409);
  });

  it('sends a new link on request (the old one stops working), a few times an hour at most', async () => {
    const user = await server.signup('resend', { verify: false });
    const first = await secretOf(user.email, 'verify-email');
    for (let i = 0; i < VERIFY_MAILS_PER_ACCOUNT_HOUR; i++) {
      expect((await server.request('POST', '/v1/user/email/verification', { token: user.token })).status).toBe(202);
    }
    const refused = await server.request('POST', '/v1/user/email/verification', { token: user.token });
    expect(refused.status).toBe(429);
    expect((await verify(first)).status, 'superseded').toBe(400);
    expect((await verify(await secretOf(user.email, 'verify-email'))).status).toBe(200);
    expect((await server.request('POST', '/v1/user/email/verification', { token: null })).status).toBe(401);
  });

  it('trusts no unverified address with e-mail domain look-ups or single sign-on links', async () => {
    const user = await server.signup('domain', { verify: false });
    const domain = user.email.split('@')[1]!;
    await server.request('PATCH', `/v1/orgs/${server.orgId}`, { body: { emailDomains: [domain] } });
    const link = await server.request('POST', `/v1/orgs/${server.orgId}/link-invites`, { body: { role: 'read' } });
    await server.request('POST', `/v1/orgs/${server.orgId}/invites/${link.body.id}`, { token: user.token });
    const unverified = await server.request('GET', `/v1/email-domains/${domain}/orgs`, { token: user.token });
    expect(unverified.body.organizations).toEqual([]);
    const sso = await server.request('POST', '/v1/user/sso-links', {
      token: user.token,
      body: { provider: 'any', password: MEMBER_PASSWORD },
    });
    expect(sso.status).toBe(403);
    expect(sso.body.error.message).toMatch(/Verify your e-mail address/);
    await server.verifyEmail(user.email);
    const verified = await server.request('GET', `/v1/email-domains/${domain}/orgs`, { token: user.token });
    expect(verified.body.organizations.map((o: { id: string }) => o.id)).toEqual([server.orgId]);
  });

  it('moves an account to a new address once that address confirms, and tells the old one twice', async () => {
    const user = await server.signup('mover');
    const lasting = await server.request('POST', '/v1/user/tokens', {
      token: user.token,
      body: { label: 'CI', password: MEMBER_PASSWORD },
    });
    const next = `moved-${user.email}`;
    const wrong = await server.request('POST', '/v1/user/email', {
      token: user.token,
      body: { email: next, password: 'not-my-password' },
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error.message).toMatch(/^password: /);
    const same = await server.request('POST', '/v1/user/email', {
      token: user.token,
      body: { email: user.email, password: MEMBER_PASSWORD },
    });
    expect(same.status).toBe(400);
    const asked = await server.request('POST', '/v1/user/email', {
      token: user.token,
      body: { email: next, password: MEMBER_PASSWORD },
    });
    expect(asked.status).toBe(202);
    const notice = await server.heldMail(user.email, 'email-change-requested');
    expect(notice.text).toContain(`m•••@example.com`);
    // Nothing changed yet.
    expect((await me(user.token)).email).toBe(user.email);

    const secret = await secretOf(next, 'change-email');
    const moved = await verify(secret);
    expect(moved.status).toBe(200);
    expect(moved.body).toMatchObject({ email: next, changed: true, signedOut: 1 });
    expect((await server.request('GET', '/v1/user', { token: user.token })).status, 'sessions end').toBe(401);
    const mine = await me(lasting.body.token);
    expect(mine).toMatchObject({ email: next, emailVerified: true });
    await server.heldMail(user.email, 'email-changed');
    const oldLogin = await server.request('POST', '/v1/auth/login', {
      token: null,
      body: { email: user.email, password: MEMBER_PASSWORD },
    });
    expect(oldLogin.status).toBe(401);
    const newLogin = await server.request('POST', '/v1/auth/login', {
      token: null,
      body: { email: next, password: MEMBER_PASSWORD },
    });
    expect(newLogin.status).toBe(200);
    expect((await verify(secret)).status, 'used').toBe(400);
  });

  it('answers the same for a taken address, and refuses it when the link is followed', async () => {
    const ann = await server.signup('ann');
    const bob = await server.signup('bob');
    const asked = await server.request('POST', '/v1/user/email', {
      token: ann.token,
      body: { email: bob.email, password: MEMBER_PASSWORD },
    });
    expect(asked.status).toBe(202);
    const secret = await secretOf(bob.email, 'change-email');
    const refused = await verify(secret);
    expect(refused.status).toBe(409);
    expect((await me(ann.token)).email).toBe(ann.email);
    expect((await me(bob.token)).email).toBe(bob.email);
  });

  it('keeps an address an identity provider asserted: a provider-made account cannot change it', async () => {
    const user = await server.signup('sso');
    await server.storage.db
      .updateTable('users')
      .set({ password_hash: SSO_ONLY_PASSWORD })
      .where('id', '=', user.id)
      .execute();
    const res = await server.request('POST', '/v1/user/email', {
      token: user.token,
      body: { email: `new-${user.email}`, password: 'anything-at-all' },
    });
    expect(res.status).toBe(403);
    const bad = await server.request('POST', '/v1/user/email', {
      token: user.token,
      body: { email: 'not an address', password: 'x' },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toMatch(/email/);
  });
});
