import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  describeEachDialect,
  startTestServer,
  OWNER_EMAIL,
  OWNER_PASSWORD,
  type ApiResponse,
  type TestServer,
  MEMBER_PASSWORD,
} from '../test/harness.js';

const PASSWORD = 'a-good-password';

function uniqueEmail(prefix = 'auth'): string {
  return `${prefix}-${crypto.randomBytes(4).toString('hex')}@example.com`;
}

/** name → value of every cookie a response sets, and the raw Set-Cookie lines by name. */
function cookiesOf(res: ApiResponse): { values: Record<string, string>; raw: Record<string, string> } {
  const values: Record<string, string> = {};
  const raw: Record<string, string> = {};
  for (const line of res.headers.getSetCookie()) {
    const [pair] = line.split(';');
    const eq = pair!.indexOf('=');
    const name = pair!.slice(0, eq).trim();
    values[name] = decodeURIComponent(pair!.slice(eq + 1).trim());
    raw[name] = line;
  }
  return { values, raw };
}

function cookieHeader(values: Record<string, string>): string {
  return Object.entries(values)
    .map(([k, v]) => `${k}=${v}`)
    .join('; ');
}

function expectNoSecretLeak(body: unknown, secret: string) {
  expect(JSON.stringify(body)).not.toContain(secret);
}

describeEachDialect('auth', (dialect) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(dialect);
  });
  afterAll(() => server.close());

  async function signup(email = uniqueEmail(), password = PASSWORD) {
    const res = await server.request('POST', '/v1/auth/signup', {
      token: null,
      body: { email, password, displayName: 'Someone' },
    });
    expect(res.status).toBe(201);
    return { email, password, id: res.body.user.id as string, token: res.body.token as string };
  }

  async function login(email: string, password: string) {
    return server.request('POST', '/v1/auth/login', { token: null, body: { email, password } });
  }

  describe('POST /v1/auth/signup', () => {
    it('creates an account, answers 201 with the user and a working API token, and opens a session', async () => {
      const email = uniqueEmail();
      const res = await server.request('POST', '/v1/auth/signup', {
        token: null,
        body: { email, password: PASSWORD, displayName: 'New Person' },
      });
      expect(res.status).toBe(201);
      expect(res.body.user).toMatchObject({ object: 'user', email, displayName: 'New Person' });
      expect(typeof res.body.user.id).toBe('string');
      expect(typeof res.body.token).toBe('string');
      expect(res.body.token.length).toBeGreaterThan(20);
      expectNoSecretLeak(res.body, PASSWORD);

      const me = await server.request('GET', '/v1/user', { token: res.body.token });
      expect(me.status).toBe(200);
      expect(me.body.id).toBe(res.body.user.id);

      const { values } = cookiesOf(res);
      expect(values.ds_session).toBeTruthy();
      expect(values.ds_csrf).toBeTruthy();
      // A new account is in no organization.
      const orgs = await server.request('GET', '/v1/orgs', { token: res.body.token });
      expect(orgs.status).toBe(200);
      expect(orgs.body.items).toEqual([]);
      expect(orgs.body.count).toBe(0);
    });

    it('refuses a second account with the same e-mail, whatever its case (409)', async () => {
      const { email } = await signup();
      const res = await server.request('POST', '/v1/auth/signup', {
        token: null,
        body: { email: email.toUpperCase(), password: PASSWORD, displayName: 'Copy' },
      });
      expect(res.status).toBe(409);
      expect(res.body.error.code).toBe(409);
    });

    it('accepts a password of 8 characters and refuses 7 (400 naming password)', async () => {
      await signup(uniqueEmail(), '12345678');
      const res = await server.request('POST', '/v1/auth/signup', {
        token: null,
        body: { email: uniqueEmail(), password: '1234567', displayName: 'Short' },
      });
      expect(res.status).toBe(400);
      expect(res.body.error.issues.map((i: { path: string }) => i.path)).toContain('password');
    });

    it('accepts a display name of 100 characters and refuses 101', async () => {
      const ok = await server.request('POST', '/v1/auth/signup', {
        token: null,
        body: { email: uniqueEmail(), password: PASSWORD, displayName: 'n'.repeat(100) },
      });
      expect(ok.status).toBe(201);
      expect(ok.body.user.displayName).toBe('n'.repeat(100));
      const bad = await server.request('POST', '/v1/auth/signup', {
        token: null,
        body: { email: uniqueEmail(), password: PASSWORD, displayName: 'n'.repeat(101) },
      });
      expect(bad.status).toBe(400);
      expect(bad.body.error.issues.map((i: { path: string }) => i.path)).toContain('displayName');
    });

    it('refuses an invalid e-mail (400 naming email)', async () => {
      const res = await server.request('POST', '/v1/auth/signup', {
        token: null,
        body: { email: 'not-an-email', password: PASSWORD, displayName: 'X' },
      });
      expect(res.status).toBe(400);
      expect(res.body.error.issues.map((i: { path: string }) => i.path)).toContain('email');
    });
  });

  describe('POST /v1/auth/login', () => {
    it('signs in: 200 with a token, an HttpOnly ds_session cookie and a readable ds_csrf cookie', async () => {
      const res = await login(OWNER_EMAIL, OWNER_PASSWORD);
      expect(res.status).toBe(200);
      expect(res.body.user).toMatchObject({ object: 'user', id: server.owner.id, email: OWNER_EMAIL });
      expect(typeof res.body.token).toBe('string');
      const { values, raw } = cookiesOf(res);
      expect(values.ds_session).toBeTruthy();
      expect(values.ds_csrf).toBeTruthy();
      expect(raw.ds_session).toMatch(/;\s*HttpOnly/i);
      expect(raw.ds_csrf).not.toMatch(/HttpOnly/i);
      expect(raw.ds_session).toMatch(/Path=\//);
      expect(raw.ds_session).toMatch(/SameSite=Lax/i);
      // The API token returned works as Bearer.
      const me = await server.request('GET', '/v1/user', { token: res.body.token });
      expect(me.status).toBe(200);
      expect(me.body.id).toBe(server.owner.id);
    });

    it('accepts the e-mail in any case', async () => {
      const user = await signup();
      const res = await login(user.email.toUpperCase(), user.password);
      expect(res.status).toBe(200);
      expect(res.body.user.id).toBe(user.id);
    });

    it('authenticates a GET with the session cookie alone', async () => {
      const user = await signup();
      const { values } = cookiesOf(await login(user.email, user.password));
      const me = await server.request('GET', '/v1/user', { token: null, headers: { cookie: cookieHeader(values) } });
      expect(me.status).toBe(200);
      expect(me.body.id).toBe(user.id);
    });

    it('refuses a cookie-authenticated write without x-csrf-token (403) or with a wrong one, and accepts it with the right one', async () => {
      const user = await signup();
      const { values } = cookiesOf(await login(user.email, user.password));
      const cookie = cookieHeader(values);

      const without = await server.request('POST', '/v1/user/tokens', {
        token: null,
        headers: { cookie },
        body: { label: 'no csrf' },
      });
      expect(without.status).toBe(403);
      expect(without.body.error.code).toBe(403);

      const wrong = await server.request('POST', '/v1/user/tokens', {
        token: null,
        headers: { cookie, 'x-csrf-token': 'not-the-right-one' },
        body: { label: 'wrong csrf' },
      });
      expect(wrong.status).toBe(403);

      const right = await server.request('POST', '/v1/user/tokens', {
        token: null,
        headers: { cookie, 'x-csrf-token': values.ds_csrf! },
        body: { label: 'with csrf', password: user.password },
      });
      expect(right.status).toBe(201);
      expect(right.body.label).toBe('with csrf');

      // Nothing was created by the refused requests.
      const list = await server.request('GET', '/v1/user/tokens', { token: user.token });
      const labels = list.body.items.map((t: { label: string }) => t.label);
      expect(labels).toContain('with csrf');
      expect(labels).not.toContain('no csrf');
      expect(labels).not.toContain('wrong csrf');
    });

    it('refuses a cookie-authenticated DELETE without x-csrf-token', async () => {
      const user = await signup();
      const { values } = cookiesOf(await login(user.email, user.password));
      const created = await server.request('POST', '/v1/user/tokens', {
        token: user.token,
        body: { label: 'victim', password: MEMBER_PASSWORD },
      });
      const res = await server.request('DELETE', `/v1/user/tokens/${created.body.id}`, {
        token: null,
        headers: { cookie: cookieHeader(values) },
      });
      expect(res.status).toBe(403);
      expect((await server.request('GET', '/v1/user', { token: created.body.token })).status).toBe(200);
    });

    it('answers 401 for a wrong password and for an unknown e-mail, with the same message', async () => {
      const user = await signup();
      const wrong = await login(user.email, 'not-the-password');
      expect(wrong.status).toBe(401);
      expect(wrong.body.error.code).toBe(401);
      expect(wrong.headers.getSetCookie()).toEqual([]);
      const unknown = await login(uniqueEmail('nobody'), 'whatever-password');
      expect(unknown.status).toBe(401);
      expect(unknown.body.error.message).toBe(wrong.body.error.message);
    });

    it('answers 429 with retry-after after 10 failures for one e-mail, even with the right password; other e-mails are unaffected', async () => {
      const user = await signup();
      const other = await signup();
      for (let i = 0; i < 10; i += 1) {
        const res = await login(user.email, `wrong-password-${i}`);
        expect(res.status).toBe(401);
      }
      const locked = await login(user.email, user.password);
      expect(locked.status).toBe(429);
      expect(locked.body.error.code).toBe(429);
      const retryAfter = Number(locked.headers.get('retry-after'));
      expect(Number.isInteger(retryAfter)).toBe(true);
      expect(retryAfter).toBeGreaterThan(0);

      expect((await login(other.email, other.password)).status).toBe(200);
    });

    it('refuses a body without password (400)', async () => {
      const res = await server.request('POST', '/v1/auth/login', { token: null, body: { email: OWNER_EMAIL } });
      expect(res.status).toBe(400);
      expect(res.body.error.issues.map((i: { path: string }) => i.path)).toContain('password');
    });
  });

  describe('POST /v1/auth/logout', () => {
    it('ends the session: the cookie no longer authenticates', async () => {
      const user = await signup();
      const { values } = cookiesOf(await login(user.email, user.password));
      const cookie = cookieHeader(values);
      expect((await server.request('GET', '/v1/user', { token: null, headers: { cookie } })).status).toBe(200);

      // Without its CSRF header the cookie is not used: another site cannot sign the user out.
      const forged = await server.request('POST', '/v1/auth/logout', { token: null, headers: { cookie } });
      expect(forged.status).toBe(204);
      expect((await server.request('GET', '/v1/user', { token: null, headers: { cookie } })).status).toBe(200);

      const out = await server.request('POST', '/v1/auth/logout', {
        token: null,
        headers: { cookie, 'x-csrf-token': values.ds_csrf! },
      });
      expect(out.status).toBe(204);
      // The cookies are cleared in the browser too.
      const cleared = cookiesOf(out).values;
      expect(cleared.ds_session ?? '').toBe('');

      const after = await server.request('GET', '/v1/user', { token: null, headers: { cookie } });
      expect(after.status).toBe(401);
      // The API token of the account is unaffected.
      expect((await server.request('GET', '/v1/user', { token: user.token })).status).toBe(200);
    });
  });

  describe('GET /v1/user', () => {
    it('returns the caller', async () => {
      const res = await server.request('GET', '/v1/user');
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ object: 'user', id: server.owner.id, email: OWNER_EMAIL });
      expect(res.body.urls.location).toContain(`/v1/users/${server.owner.id}`);
      expect(res.body).not.toHaveProperty('password');
      expect(res.body).not.toHaveProperty('passwordHash');
    });

    it('answers 401 without a token, with an unknown token, and with a malformed Authorization header', async () => {
      const none = await server.request('GET', '/v1/user', { token: null });
      expect(none.status).toBe(401);
      expect(none.body.error.code).toBe(401);
      expect((await server.request('GET', '/v1/user', { token: 'ds_unknown-token' })).status).toBe(401);
      const malformed = await server.request('GET', '/v1/user', {
        token: null,
        headers: { authorization: 'Token abc' },
      });
      expect(malformed.status).toBe(401);
    });
  });

  describe('API tokens', () => {
    it('POST /v1/user/tokens shows the token once (201); it works as Bearer; the list never contains it', async () => {
      const user = await signup();
      const created = await server.request('POST', '/v1/user/tokens', {
        token: user.token,
        body: { label: 'ci', password: MEMBER_PASSWORD },
      });
      expect(created.status).toBe(201);
      expect(created.body).toMatchObject({ object: 'api-token', label: 'ci' });
      expect(typeof created.body.id).toBe('string');
      expect(typeof created.body.createdAt).toBe('string');
      const secret = created.body.token as string;
      expect(secret.length).toBeGreaterThan(20);

      const me = await server.request('GET', '/v1/user', { token: secret });
      expect(me.status).toBe(200);
      expect(me.body.id).toBe(user.id);

      const list = await server.request('GET', '/v1/user/tokens', { token: user.token });
      expect(list.status).toBe(200);
      const mine = list.body.items.find((t: { id: string }) => t.id === created.body.id);
      expect(mine).toMatchObject({ object: 'api-token', label: 'ci' });
      expect(mine).not.toHaveProperty('token');
      expectNoSecretLeak(list.body, secret);
      expectNoSecretLeak(list.body, user.token);
      // Only the caller's own tokens are listed.
      const ownerList = await server.request('GET', '/v1/user/tokens');
      expect(ownerList.body.items.map((t: { id: string }) => t.id)).not.toContain(created.body.id);
    });

    it('GET /v1/user/tokens paginates with a total count', async () => {
      const user = await signup();
      for (const label of ['a', 'b', 'c']) {
        expect(
          (
            await server.request('POST', '/v1/user/tokens', {
              token: user.token,
              body: { label, password: user.password },
            })
          ).status,
        ).toBe(201);
      }
      // The three; the token handed out at sign-up belongs to its session and is not listed.
      const first = await server.request('GET', '/v1/user/tokens?limit=2', { token: user.token });
      expect(first.status).toBe(200);
      expect(first.body.count).toBe(3);
      expect(first.body.items).toHaveLength(2);
      expect(first.body.next.page).toBeTruthy();
      const second = await server.request(
        'GET',
        `/v1/user/tokens?limit=2&page=${encodeURIComponent(first.body.next.page)}`,
        {
          token: user.token,
        },
      );
      expect(second.body.items).toHaveLength(1);
      expect(second.body.next).toBeUndefined();
      const ids = [...first.body.items, ...second.body.items].map((t: { id: string }) => t.id);
      expect(new Set(ids).size).toBe(3);
    });

    it('accepts a label of 100 characters and refuses 101 or an empty one', async () => {
      const ok = await server.request('POST', '/v1/user/tokens', {
        body: { label: 'l'.repeat(100), password: MEMBER_PASSWORD },
      });
      expect(ok.status).toBe(201);
      const long = await server.request('POST', '/v1/user/tokens', {
        body: { label: 'l'.repeat(101), password: MEMBER_PASSWORD },
      });
      expect(long.status).toBe(400);
      expect(long.body.error.issues.map((i: { path: string }) => i.path)).toContain('label');
      expect(
        (await server.request('POST', '/v1/user/tokens', { body: { label: '', password: MEMBER_PASSWORD } })).status,
      ).toBe(400);
      expect((await server.request('POST', '/v1/user/tokens', { body: {} })).status).toBe(400);
    });

    it('DELETE /v1/user/tokens/{id} revokes it (205): the token then answers 401 and leaves the list', async () => {
      const user = await signup();
      const created = await server.request('POST', '/v1/user/tokens', {
        token: user.token,
        body: { label: 'tmp', password: MEMBER_PASSWORD },
      });
      const del = await server.request('DELETE', `/v1/user/tokens/${created.body.id}`, { token: user.token });
      expect(del.status).toBe(205);
      expect(del.body).toBeUndefined();
      expect((await server.request('GET', '/v1/user', { token: created.body.token })).status).toBe(401);
      const list = await server.request('GET', '/v1/user/tokens', { token: user.token });
      expect(list.body.items.map((t: { id: string }) => t.id)).not.toContain(created.body.id);
    });

    it('DELETE of a token that no longer exists answers 204 (contract: 205 deleted, 204 absent)', async () => {
      const user = await signup();
      const created = await server.request('POST', '/v1/user/tokens', {
        token: user.token,
        body: { label: 'tmp', password: MEMBER_PASSWORD },
      });
      expect((await server.request('DELETE', `/v1/user/tokens/${created.body.id}`, { token: user.token })).status).toBe(
        205,
      );
      const again = await server.request('DELETE', `/v1/user/tokens/${created.body.id}`, { token: user.token });
      expect(again.status).toBe(204);
    });

    it("cannot revoke another user's token", async () => {
      const alice = await signup();
      const bob = await signup();
      const created = await server.request('POST', '/v1/user/tokens', {
        token: alice.token,
        body: { label: 'a', password: MEMBER_PASSWORD },
      });
      const res = await server.request('DELETE', `/v1/user/tokens/${created.body.id}`, { token: bob.token });
      expect(res.status).not.toBe(205);
      expect([204, 404]).toContain(res.status);
      expect((await server.request('GET', '/v1/user', { token: created.body.token })).status).toBe(200);
    });

    it('every token endpoint answers 401 without a token', async () => {
      expect((await server.request('GET', '/v1/user/tokens', { token: null })).status).toBe(401);
      expect(
        (
          await server.request('POST', '/v1/user/tokens', {
            token: null,
            body: { label: 'x', password: MEMBER_PASSWORD },
          })
        ).status,
      ).toBe(401);
      expect((await server.request('DELETE', '/v1/user/tokens/whatever', { token: null })).status).toBe(401);
    });
  });
});

describeEachDialect('auth with closed sign-up', (dialect) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(dialect, { signup: 'closed' });
  });
  afterAll(() => server.close());

  it('refuses sign-up of an e-mail nobody invited (403)', async () => {
    const res = await server.request('POST', '/v1/auth/signup', {
      token: null,
      body: { email: uniqueEmail('closed'), password: PASSWORD, displayName: 'Nobody' },
    });
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe(403);
  });

  it('lets someone with an invite link sign up; they join the org with the link’s role', async () => {
    const email = uniqueEmail('invited');
    const link = await server.request('POST', `/v1/orgs/${server.orgId}/link-invites`, { body: { role: 'edit' } });
    expect(link.status).toBe(201);
    const wrong = await server.request('POST', '/v1/auth/signup', {
      token: null,
      body: { email, password: PASSWORD, displayName: 'Invited', invite: { organization: server.orgId, id: 'nope' } },
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error.issues[0].path).toBe('invite');

    const res = await server.request('POST', '/v1/auth/signup', {
      token: null,
      body: {
        email,
        password: PASSWORD,
        displayName: 'Invited',
        invite: { organization: server.orgId, id: link.body.id },
      },
    });
    expect(res.status).toBe(201);
    const token = res.body.token as string;

    const orgs = await server.request('GET', '/v1/orgs', { token });
    expect(orgs.body.items.map((o: { id: string }) => o.id)).toEqual([server.orgId]);
    const org = orgs.body.items[0];
    expect(org.permissions.admin).toBe(false);
    expect(org.permissions.createContent).toBe(false);

    // The edit role: may retitle a space, may not change its settings.
    const space = await server.request('POST', `/v1/orgs/${server.orgId}/spaces`, { body: { title: 'Docs' } });
    expect((await server.request('PATCH', `/v1/spaces/${space.body.id}`, { token, body: { title: 'Y' } })).status).toBe(
      200,
    );
    expect(
      (await server.request('PATCH', `/v1/spaces/${space.body.id}`, { token, body: { visibility: 'public' } })).status,
    ).toBe(403);
  });

  it('lets an invitation by e-mail sign up only with its link, for its address', async () => {
    const email = uniqueEmail('emailed');
    const invite = await server.request('POST', `/v1/orgs/${server.orgId}/invites`, {
      body: { emails: [email], role: 'admin' },
    });
    expect(invite.body).toMatchObject({ users: [], invited: 1, unknownEmails: [] });
    const res = await server.request('POST', '/v1/auth/signup', {
      token: null,
      body: { email, password: PASSWORD, displayName: 'Emailed' },
    });
    expect(res.status).toBe(403);
    const mail = await server.heldMail(email, 'invitation');
    const [, id, token] = /\/invitations\/([^#\s]+)#(\S+)/.exec(mail.text)!;
    const other = await server.request('POST', '/v1/auth/signup', {
      token: null,
      body: { email: uniqueEmail('other'), password: PASSWORD, displayName: 'Other', invitation: { id, token } },
    });
    expect(other.status).toBe(400);
    const joined = await server.request('POST', '/v1/auth/signup', {
      token: null,
      body: { email, password: PASSWORD, displayName: 'Emailed', invitation: { id, token } },
    });
    expect(joined.status).toBe(201);
  });

  it('still lets existing accounts sign in', async () => {
    const res = await server.request('POST', '/v1/auth/login', {
      token: null,
      body: { email: OWNER_EMAIL, password: OWNER_PASSWORD },
    });
    expect(res.status).toBe(200);
  });
});

describeEachDialect('auth: sign-in credentials', (dialect) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(dialect);
  });
  afterAll(() => server.close());

  it('counts failed sign-ins sent in parallel: past 10 they get 429', async () => {
    const attempts = await Promise.all(
      Array.from({ length: 20 }, () =>
        server.request('POST', '/v1/auth/login', { token: null, body: { email: OWNER_EMAIL, password: 'wrong-one' } }),
      ),
    );
    const statuses = attempts.map((a) => a.status);
    expect(statuses.filter((s) => s === 401).length).toBeLessThanOrEqual(10);
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(10);
  });

  it('the token handed out at sign-in is revoked at sign-out, and expires with the session', async () => {
    const user = await server.signup('session');
    const login = await server.request('POST', '/v1/auth/login', {
      token: null,
      body: { email: user.email, password: 'a-good-password' },
    });
    const token = login.body.token as string;
    expect((await server.request('GET', '/v1/user', { token })).status).toBe(200);
    const row = await server.storage.db
      .selectFrom('api_tokens')
      .select(['expires_at', 'session_id'])
      .where('user_id', '=', user.id)
      .where('label', '=', 'Sign-in')
      .orderBy('created_at', 'desc')
      .executeTakeFirstOrThrow();
    expect(row.session_id).toBeTruthy();
    expect(row.expires_at).toBeTruthy();
    const cookies = Object.fromEntries(
      login.headers.getSetCookie().map((c) => {
        const [pair] = c.split(';');
        const i = pair!.indexOf('=');
        return [pair!.slice(0, i), decodeURIComponent(pair!.slice(i + 1))];
      }),
    );
    const out = await server.request('POST', '/v1/auth/logout', {
      token: null,
      headers: {
        cookie: `ds_session=${cookies.ds_session}; ds_csrf=${cookies.ds_csrf}`,
        'x-csrf-token': cookies.ds_csrf!,
      },
    });
    expect(out.status).toBe(204);
    expect((await server.request('GET', '/v1/user', { token })).status).toBe(401);
    // The token of another sign-in (here, the sign-up's) is untouched.
    expect((await server.request('GET', '/v1/user', { token: user.token })).status).toBe(200);
  });
});
