import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  describeEachDialect,
  startTestServer,
  type ApiResponse,
  type TestServer,
  MEMBER_PASSWORD,
} from '../test/harness.js';
import { USER_PHOTO_BYTES_MAX } from '../../shared/contract/account.js';
import { SSO_ONLY_PASSWORD } from '../domain/sso/service.js';

/**
 * Account settings (profile, photo, password, sessions, API tokens), and what a self-registered attacker tries
 * against them: another account's token or session, no credential, a cookie without its CSRF header, bad input.
 * Each refusal re-reads the state it aimed at to check that nothing changed.
 */

const PASSWORD = 'a-good-password';
/** A 2×2 PNG. */
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAEUlEQVR4nGP4z8AARAxg8j8AG/ID/fPnS7EAAAAASUVORK5CYII=';
/** A 1×1 GIF. */
const GIF = 'R0lGODlhAQABAIAAAP///wAAACH5BAEAAAAALAAAAAABAAEAAAICRAEAOw==';
const SVG = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>').toString('base64');

interface Session {
  cookie: string;
  csrf: string;
  /** The API token handed out with this sign-in. */
  token: string;
}

function paths(res: ApiResponse): string[] {
  return (res.body?.error?.issues ?? []).map((i: { path: string }) => i.path);
}

describeEachDialect('account settings', (dialect) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(dialect);
  });
  afterAll(async () => {
    await server.close();
  });

  /** Signs in with the password, as a browser would (the cookies, and the sign-in's token). */
  async function signIn(email: string, password = PASSWORD, userAgent = 'TestBrowser/1.0'): Promise<Session> {
    const res = await server.request('POST', '/v1/auth/login', {
      token: null,
      body: { email, password },
      headers: { 'user-agent': userAgent },
    });
    expect(res.status, `login ${email}`).toBe(200);
    const values: Record<string, string> = {};
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const eq = pair!.indexOf('=');
      values[pair!.slice(0, eq)] = decodeURIComponent(pair!.slice(eq + 1));
    }
    return { cookie: `ds_session=${values.ds_session}`, csrf: values.ds_csrf!, token: res.body.token };
  }

  /** A request with the session's cookie (and its CSRF header unless `csrf: false`). */
  function withCookie(session: Session, method: string, path: string, body?: unknown, csrf = true) {
    return server.request(method, path, {
      token: null,
      body,
      headers: { cookie: session.cookie, ...(csrf ? { 'x-csrf-token': session.csrf } : {}) },
    });
  }

  const me = (token: string) => server.request('GET', '/v1/user', { token });

  /** The path of a photo URL on the test server. */
  const photoPath = (url: string) => new URL(url).pathname;

  describe('GET /v1/users/{userId}', () => {
    it('shows an account’s name and photo to members of its organizations, its address only to itself, and nothing to anyone else', async () => {
      const writer = await server.member('edit');
      const reader = await server.member('read');
      const self = await server.request('GET', `/v1/users/${writer.id}`, { token: writer.token });
      expect(self.status).toBe(200);
      expect(self.body).toMatchObject({ object: 'user', id: writer.id, email: writer.email });
      const seen = await server.request('GET', `/v1/users/${writer.id}`, { token: reader.token });
      expect(seen.status).toBe(200);
      expect(seen.body).toEqual({
        object: 'user',
        id: writer.id,
        displayName: self.body.displayName,
        urls: { location: self.body.urls.location },
      });
      // The owner, seen by a member.
      expect((await server.request('GET', `/v1/users/${server.owner.id}`, { token: reader.token })).status).toBe(200);

      // Another organization's admin, a guest, a removed member, an unknown id, nobody: as if there were no account.
      const stranger = await server.signup('stranger');
      const theirs = await server.request('POST', '/v1/orgs', { token: stranger.token, body: { title: 'Elsewhere' } });
      expect(theirs.status).toBe(201);
      const guest = await server.member(null);
      const removed = await server.member('admin');
      expect((await server.request('DELETE', `/v1/orgs/${server.orgId}/members/${removed.id}`)).status).toBe(205);
      const unknown = await server.request('GET', '/v1/users/nobody-has-this-id', { token: reader.token });
      expect(unknown.status).toBe(404);
      for (const token of [stranger.token, guest.token, removed.token]) {
        const res = await server.request('GET', `/v1/users/${writer.id}`, { token });
        expect(res.status).toBe(404);
        expect(res.body).toEqual(unknown.body);
      }
      // A stranger is no one a member may look up either.
      expect((await server.request('GET', `/v1/users/${stranger.id}`, { token: reader.token })).status).toBe(404);
      expect((await server.request('GET', `/v1/users/${writer.id}`, { token: null })).status).toBe(401);
    });
  });

  describe('PATCH /v1/user', () => {
    it('changes the display name (trimmed); GET /v1/user and a sign-in then show it', async () => {
      const user = await server.signup();
      const res = await server.request('PATCH', '/v1/user', { token: user.token, body: { displayName: '  Ada L.  ' } });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ object: 'user', id: user.id, displayName: 'Ada L.', email: user.email });
      expect((await me(user.token)).body.displayName).toBe('Ada L.');
      const login = await server.request('POST', '/v1/auth/login', {
        token: null,
        body: { email: user.email, password: PASSWORD },
      });
      expect(login.body.user.displayName).toBe('Ada L.');
    });

    it('refuses a blank, too long or missing name with a 400 naming the field, and changes nothing', async () => {
      const user = await server.signup();
      const before = (await me(user.token)).body;
      for (const displayName of ['', '   ', 'n'.repeat(101), 42]) {
        const res = await server.request('PATCH', '/v1/user', { token: user.token, body: { displayName } });
        expect(res.status, JSON.stringify(displayName)).toBe(400);
        expect(paths(res)).toContain('displayName');
      }
      const empty = await server.request('PATCH', '/v1/user', { token: user.token, body: {} });
      expect(empty.status).toBe(400);
      expect(empty.body.error.message).toMatch(/displayName/);
      expect((await me(user.token)).body).toEqual(before);
      const longest = await server.request('PATCH', '/v1/user', {
        token: user.token,
        body: { displayName: 'n'.repeat(100) },
      });
      expect(longest.status).toBe(200);
    });

    it('answers 401 without a credential and 403 to a cookie without its CSRF header; nothing changes', async () => {
      const user = await server.signup();
      const session = await signIn(user.email);
      expect((await server.request('PATCH', '/v1/user', { token: null, body: { displayName: 'X' } })).status).toBe(401);
      expect((await withCookie(session, 'PATCH', '/v1/user', { displayName: 'X' }, false)).status).toBe(403);
      expect((await me(user.token)).body.displayName).not.toBe('X');
      expect((await withCookie(session, 'PATCH', '/v1/user', { displayName: 'Y' })).status).toBe(200);
      expect((await me(user.token)).body.displayName).toBe('Y');
    });

    it('stores an uploaded photo and serves it with headers that keep it from running anything', async () => {
      const user = await server.signup();
      const res = await server.request('PATCH', '/v1/user', { token: user.token, body: { photo: PNG } });
      expect(res.status).toBe(200);
      expect(res.body.photoURL).toMatch(new RegExp(`^http://docs\\.test/v1/users/${user.id}/photos/[\\w-]+$`));
      expect((await me(user.token)).body.photoURL).toBe(res.body.photoURL);

      const photo = await fetch(server.url + photoPath(res.body.photoURL), {
        headers: { authorization: `Bearer ${user.token}` },
      });
      expect(photo.status).toBe(200);
      expect(photo.headers.get('content-type')).toBe('image/png');
      expect(photo.headers.get('content-security-policy')).toBe("default-src 'none'");
      expect(photo.headers.get('x-content-type-options')).toBe('nosniff');
      expect(Buffer.from(await photo.arrayBuffer()).equals(Buffer.from(PNG, 'base64'))).toBe(true);

      // Others see it where the API shows the person (any signed-in account with the URL); no one anonymous does.
      const other = await server.signup();
      const seen = await server.request('GET', photoPath(res.body.photoURL), { token: other.token });
      expect(seen.status).toBe(200);
      expect((await server.request('GET', photoPath(res.body.photoURL), { token: null })).status).toBe(401);
    });

    it('replaces the photo under a new URL (the old one is gone) and removes it with null', async () => {
      const user = await server.signup();
      const first = (await server.request('PATCH', '/v1/user', { token: user.token, body: { photo: PNG } })).body;
      const second = await server.request('PATCH', '/v1/user', { token: user.token, body: { photo: GIF } });
      expect(second.status).toBe(200);
      expect(second.body.photoURL).not.toBe(first.photoURL);
      expect((await server.request('GET', photoPath(first.photoURL), { token: user.token })).status).toBe(404);
      const gif = await server.request('GET', photoPath(second.body.photoURL), { token: user.token });
      expect(gif.headers.get('content-type')).toBe('image/gif');

      // The name alone leaves the photo as it is.
      const renamed = await server.request('PATCH', '/v1/user', { token: user.token, body: { displayName: 'Z' } });
      expect(renamed.body.photoURL).toBe(second.body.photoURL);

      const removed = await server.request('PATCH', '/v1/user', { token: user.token, body: { photo: null } });
      expect(removed.status).toBe(200);
      expect(removed.body.photoURL).toBeUndefined();
      expect((await server.request('GET', photoPath(second.body.photoURL), { token: user.token })).status).toBe(404);
    });

    it('refuses SVG, non-images, non-base64 and images over the limit with a 400 naming photo; nothing changes', async () => {
      const user = await server.signup();
      const kept = (await server.request('PATCH', '/v1/user', { token: user.token, body: { photo: PNG } })).body;
      const tooBig = Buffer.alloc(USER_PHOTO_BYTES_MAX + 1);
      Buffer.from(PNG, 'base64').copy(tooBig);
      for (const photo of [
        SVG,
        Buffer.from('just some text, not an image').toString('base64'),
        'not base64!',
        '',
        tooBig.toString('base64'),
      ]) {
        const res = await server.request('PATCH', '/v1/user', {
          token: user.token,
          body: { photo, displayName: 'Changed' },
        });
        expect(res.status, photo.slice(0, 20)).toBe(400);
        expect(paths(res)).toContain('photo');
      }
      const after = (await me(user.token)).body;
      expect(after.photoURL).toBe(kept.photoURL);
      expect(after.displayName).toBe(kept.displayName);
    });

    it('answers 404 for a photo id that is not the account’s current one, or another account’s id', async () => {
      const user = await server.signup();
      const other = await server.signup();
      const url = (await server.request('PATCH', '/v1/user', { token: user.token, body: { photo: PNG } })).body
        .photoURL;
      const photoId = url.split('/').pop();
      expect((await server.request('GET', `/v1/users/${other.id}/photos/${photoId}`)).status).toBe(404);
      expect((await server.request('GET', `/v1/users/${user.id}/photos/nope`)).status).toBe(404);
    });
  });

  describe('POST /v1/user/password', () => {
    it('changes the password and signs out the other sessions (and their sign-in tokens), keeping this one and lasting tokens', async () => {
      const user = await server.signup();
      const here = await signIn(user.email);
      const elsewhere = await signIn(user.email, PASSWORD, 'OtherBrowser/2.0');
      const lasting = (
        await server.request('POST', '/v1/user/tokens', {
          token: user.token,
          body: { label: 'ci', password: MEMBER_PASSWORD },
        })
      ).body.token;

      const res = await withCookie(here, 'POST', '/v1/user/password', {
        currentPassword: PASSWORD,
        newPassword: 'a-new-password',
      });
      expect(res.status).toBe(200);
      // The other sign-in, and the one made at sign-up; the lasting token was kept, and the answer says so.
      expect(res.body).toMatchObject({ signedOut: 2, revokedTokens: 0, remainingTokens: [{ label: 'ci' }] });
      expect(res.body.remainingTokens).toHaveLength(1);

      expect((await withCookie(here, 'GET', '/v1/user')).status).toBe(200);
      expect((await me(here.token)).status).toBe(200);
      expect((await withCookie(elsewhere, 'GET', '/v1/user')).status).toBe(401);
      expect((await me(elsewhere.token)).status).toBe(401);
      expect((await me(user.token)).status).toBe(401);
      expect((await me(lasting)).status).toBe(200);

      const old = await server.request('POST', '/v1/auth/login', {
        token: null,
        body: { email: user.email, password: PASSWORD },
      });
      expect(old.status).toBe(401);
      await signIn(user.email, 'a-new-password');
    });

    it('revokes the lasting API tokens with the password when asked (revokeTokens): none remain', async () => {
      const user = await server.signup();
      const here = await signIn(user.email);
      const lasting = [];
      for (const label of ['ci', 'deploy']) {
        const made = await server.request('POST', '/v1/user/tokens', {
          token: user.token,
          body: { label, password: PASSWORD },
        });
        lasting.push(made.body.token as string);
      }
      const res = await withCookie(here, 'POST', '/v1/user/password', {
        currentPassword: PASSWORD,
        newPassword: 'a-new-password',
        revokeTokens: true,
      });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ signedOut: 1, revokedTokens: 2, remainingTokens: [] });
      for (const token of lasting) expect((await me(token)).status).toBe(401);
      expect((await withCookie(here, 'GET', '/v1/user')).status).toBe(200);
    });

    it('asks a sign-in for the password again to create a lasting token; a lasting token creates one as it is', async () => {
      const user = await server.signup();
      const here = await signIn(user.email);
      // The console's session (a browser left open a moment) and the token handed out at sign-in.
      for (const create of [
        (body: object) => withCookie(here, 'POST', '/v1/user/tokens', body),
        (body: object) => server.request('POST', '/v1/user/tokens', { token: user.token, body }),
      ]) {
        const without = await create({ label: 'stolen' });
        expect(without.status).toBe(400);
        expect(paths(without)).toEqual(['password']);
        const wrong = await create({ label: 'stolen', password: 'not-the-password' });
        expect(wrong.status).toBe(400);
        expect(paths(wrong)).toEqual(['password']);
        // A wrong password counts with sign-in's: it is throttled alike.
        const failures = await server.storage.db
          .selectFrom('login_attempts')
          .selectAll()
          .where('email', '=', user.email)
          .execute();
        expect(failures.length).toBeGreaterThan(0);
        expect((await create({ label: 'mine', password: PASSWORD })).status).toBe(201);
      }
      const list = await server.request('GET', '/v1/user/tokens', { token: user.token });
      expect(list.body.items.map((t: { label: string }) => t.label)).toEqual(['mine', 'mine']);
      const lasting = (
        await server.request('POST', '/v1/user/tokens', {
          token: user.token,
          body: { label: 'ci', password: PASSWORD },
        })
      ).body.token as string;
      expect(
        (await server.request('POST', '/v1/user/tokens', { token: lasting, body: { label: 'ci-2' } })).status,
      ).toBe(201);
    });

    it('lets an account without a password (single sign-on) create a token only soon after signing in', async () => {
      const user = await server.signup();
      await server.storage.db
        .updateTable('users')
        .set({ password_hash: SSO_ONLY_PASSWORD })
        .where('id', '=', user.id)
        .execute();
      expect(
        (await server.request('POST', '/v1/user/tokens', { token: user.token, body: { label: 'fresh' } })).status,
      ).toBe(201);
      // The sign-in, eleven minutes old.
      const old = new Date(Date.now() - 11 * 60_000).toISOString();
      await server.storage.db
        .updateTable('api_tokens')
        .set({ created_at: old })
        .where('user_id', '=', user.id)
        .where('kind', '=', 'session')
        .execute();
      const stale = await server.request('POST', '/v1/user/tokens', { token: user.token, body: { label: 'stale' } });
      expect(stale.status).toBe(403);
      expect(stale.body.error.message).toMatch(/Sign in again/);
    });

    it("shows where each lasting token was last used from (address and browser), not a sign-in's", async () => {
      const user = await server.signup();
      const made = await server.request('POST', '/v1/user/tokens', {
        token: user.token,
        body: { label: 'ci', password: PASSWORD },
      });
      const before = await server.request('GET', '/v1/user/tokens', { token: user.token });
      expect(before.body.items[0].lastUsedFrom).toBeUndefined();
      const used = await server.request('GET', '/v1/user', {
        token: made.body.token,
        headers: { 'user-agent': 'deploy-bot/1.0' },
      });
      expect(used.status).toBe(200);
      const after = await server.request('GET', '/v1/user/tokens', { token: user.token });
      expect(after.body.items[0]).toMatchObject({
        label: 'ci',
        lastUsedAt: expect.any(String),
        lastUsedFrom: { ip: expect.stringMatching(/127\.0\.0\.1/), userAgent: 'deploy-bot/1.0' },
      });
    });

    it('refuses a wrong current password with a 400 naming currentPassword; the password stays', async () => {
      const user = await server.signup();
      const elsewhere = await signIn(user.email);
      const res = await server.request('POST', '/v1/user/password', {
        token: user.token,
        body: { currentPassword: 'not-the-password', newPassword: 'a-new-password' },
      });
      expect(res.status).toBe(400);
      expect(paths(res)).toEqual(['currentPassword']);
      expect(res.body.error.message).toMatch(/current password/);
      await signIn(user.email, PASSWORD);
      expect((await withCookie(elsewhere, 'GET', '/v1/user')).status).toBe(200);
    });

    it('applies sign-up’s rules to the new password (400 naming newPassword) and needs a credential (401)', async () => {
      const user = await server.signup();
      for (const newPassword of ['short', 'p'.repeat(201), undefined]) {
        const res = await server.request('POST', '/v1/user/password', {
          token: user.token,
          body: { currentPassword: PASSWORD, newPassword },
        });
        expect(res.status).toBe(400);
        expect(paths(res)).toContain('newPassword');
      }
      const missing = await server.request('POST', '/v1/user/password', {
        token: user.token,
        body: { newPassword: 'a-new-password' },
      });
      expect(paths(missing)).toContain('currentPassword');
      const anonymous = await server.request('POST', '/v1/user/password', {
        token: null,
        body: { currentPassword: PASSWORD, newPassword: 'a-new-password' },
      });
      expect(anonymous.status).toBe(401);
      const session = await signIn(user.email);
      const noCsrf = await withCookie(
        session,
        'POST',
        '/v1/user/password',
        { currentPassword: PASSWORD, newPassword: 'a-new-password' },
        false,
      );
      expect(noCsrf.status).toBe(403);
      await signIn(user.email, PASSWORD);
    });

    it('throttles guesses of the current password like sign-in: 429 after 10 failures, even for the right one', async () => {
      const user = await server.signup();
      const guess = (currentPassword: string) =>
        server.request('POST', '/v1/user/password', {
          token: user.token,
          body: { currentPassword, newPassword: 'a-new-password' },
        });
      for (let i = 0; i < 10; i++) expect((await guess(`wrong-${i}`)).status).toBe(400);
      const refused = await guess(PASSWORD);
      expect(refused.status).toBe(429);
      expect(refused.headers.get('retry-after')).toBeTruthy();
      // Still the old password, and sign-in from this address is refused for the account too.
      const login = await server.request('POST', '/v1/auth/login', {
        token: null,
        body: { email: user.email, password: PASSWORD },
      });
      expect(login.status).toBe(429);
    });
  });

  describe('sessions', () => {
    it('lists the console sessions with their browser, address and method, marking the current one', async () => {
      const user = await server.signup();
      const a = await signIn(user.email, PASSWORD, 'Firefox/130');
      const b = await signIn(user.email, PASSWORD, 'Chrome/129');
      const list = await withCookie(a, 'GET', '/v1/user/sessions');
      expect(list.status).toBe(200);
      // The sign-up's session, and the two sign-ins.
      expect(list.body.count).toBe(3);
      const agents = list.body.items.map((s: { userAgent?: string }) => s.userAgent);
      expect(agents).toEqual(expect.arrayContaining(['Firefox/130', 'Chrome/129']));
      const current = list.body.items.filter((s: { current: boolean }) => s.current);
      expect(current).toHaveLength(1);
      expect(current[0]).toMatchObject({ object: 'session', userAgent: 'Firefox/130', method: 'password' });
      expect(current[0].ip).toBeTruthy();
      expect(current[0].createdAt).toBeTruthy();
      expect(current[0].expiresAt).toBeTruthy();
      // No secret in the list.
      expect(JSON.stringify(list.body)).not.toContain(a.cookie.split('=')[1]);

      // The sign-in's token belongs to its session: that one is current.
      const viaToken = await me(b.token).then(() => server.request('GET', '/v1/user/sessions', { token: b.token }));
      expect(viaToken.body.items.find((s: { current: boolean }) => s.current).userAgent).toBe('Chrome/129');
      // A lasting API token is no session: none is current.
      const lasting = (
        await server.request('POST', '/v1/user/tokens', {
          token: user.token,
          body: { label: 'ci', password: MEMBER_PASSWORD },
        })
      ).body.token;
      const viaLasting = await server.request('GET', '/v1/user/sessions', { token: lasting });
      expect(viaLasting.body.items.some((s: { current: boolean }) => s.current)).toBe(false);
      expect(viaLasting.body.count).toBe(3);
    });

    it('paginates', async () => {
      const user = await server.signup();
      await signIn(user.email);
      await signIn(user.email);
      const first = await server.request('GET', '/v1/user/sessions?limit=2', { token: user.token });
      expect(first.body.items).toHaveLength(2);
      const second = await server.request('GET', `/v1/user/sessions?limit=2&page=${first.body.next.page}`, {
        token: user.token,
      });
      expect(second.body.items).toHaveLength(1);
      expect(second.body.next).toBeUndefined();
    });

    it('signs out one session (204) with its sign-in token; the others stay', async () => {
      const user = await server.signup();
      const here = await signIn(user.email);
      const there = await signIn(user.email, PASSWORD, 'Elsewhere/1');
      const list = (await withCookie(here, 'GET', '/v1/user/sessions')).body.items;
      const target = list.find((s: { userAgent?: string }) => s.userAgent === 'Elsewhere/1');
      const res = await withCookie(here, 'DELETE', `/v1/user/sessions/${target.id}`);
      expect(res.status).toBe(204);
      expect((await withCookie(there, 'GET', '/v1/user')).status).toBe(401);
      expect((await me(there.token)).status).toBe(401);
      expect((await withCookie(here, 'GET', '/v1/user')).status).toBe(200);
      expect((await me(user.token)).status).toBe(200);
      // Gone: a second time is not found.
      expect((await withCookie(here, 'DELETE', `/v1/user/sessions/${target.id}`)).status).toBe(404);
    });

    it('answers 404 for another account’s session and for a token id, and ends nothing', async () => {
      const victim = await server.signup();
      const victimSession = await signIn(victim.email);
      const victimSessions = (await withCookie(victimSession, 'GET', '/v1/user/sessions')).body.items;
      const victimToken = await server.request('POST', '/v1/user/tokens', {
        token: victim.token,
        body: { label: 'victim', password: MEMBER_PASSWORD },
      });
      const attacker = await server.signup();
      for (const s of victimSessions) {
        const res = await server.request('DELETE', `/v1/user/sessions/${s.id}`, { token: attacker.token });
        expect(res.status).toBe(404);
      }
      // A token's id is not a session's, even the caller's own.
      const own = await server.request('POST', '/v1/user/tokens', {
        token: victim.token,
        body: { label: 'mine', password: MEMBER_PASSWORD },
      });
      expect((await server.request('DELETE', `/v1/user/sessions/${own.body.id}`, { token: victim.token })).status).toBe(
        404,
      );
      expect(
        (await server.request('DELETE', `/v1/user/sessions/${victimToken.body.id}`, { token: attacker.token })).status,
      ).toBe(404);
      expect((await withCookie(victimSession, 'GET', '/v1/user')).status).toBe(200);
      expect((await me(victim.token)).status).toBe(200);
      expect((await me(own.body.token)).status).toBe(200);
      // The attacker's list shows only the attacker's sessions.
      const theirs = await server.request('GET', '/v1/user/sessions', { token: attacker.token });
      const ids = theirs.body.items.map((s: { id: string }) => s.id);
      for (const s of victimSessions) expect(ids).not.toContain(s.id);
    });

    it('signs out all other sessions at once, keeping this one and lasting API tokens', async () => {
      const user = await server.signup();
      const here = await signIn(user.email);
      const there = await signIn(user.email);
      const lasting = (
        await server.request('POST', '/v1/user/tokens', {
          token: user.token,
          body: { label: 'ci', password: MEMBER_PASSWORD },
        })
      ).body.token;
      const res = await withCookie(here, 'DELETE', '/v1/user/sessions');
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ signedOut: 2 });
      expect((await withCookie(here, 'GET', '/v1/user')).status).toBe(200);
      expect((await withCookie(there, 'GET', '/v1/user')).status).toBe(401);
      expect((await me(user.token)).status).toBe(401);
      expect((await me(lasting)).status).toBe(200);
      const list = await withCookie(here, 'GET', '/v1/user/sessions');
      expect(list.body.count).toBe(1);
      expect(list.body.items[0].current).toBe(true);
    });

    it('needs a credential (401) and, with a cookie, its CSRF header (403); nothing is signed out', async () => {
      const user = await server.signup();
      const here = await signIn(user.email);
      const there = await signIn(user.email);
      expect((await server.request('GET', '/v1/user/sessions', { token: null })).status).toBe(401);
      expect((await server.request('DELETE', '/v1/user/sessions', { token: null })).status).toBe(401);
      const ids = (await withCookie(here, 'GET', '/v1/user/sessions')).body.items.map((s: { id: string }) => s.id);
      expect((await server.request('DELETE', `/v1/user/sessions/${ids[0]}`, { token: null })).status).toBe(401);
      expect((await withCookie(here, 'DELETE', '/v1/user/sessions', undefined, false)).status).toBe(403);
      expect((await withCookie(here, 'DELETE', `/v1/user/sessions/${ids[0]}`, undefined, false)).status).toBe(403);
      expect((await withCookie(there, 'GET', '/v1/user')).status).toBe(200);
      expect((await me(user.token)).status).toBe(200);
      const tooLong = await server.request('DELETE', `/v1/user/sessions/${'x'.repeat(65)}`, { token: user.token });
      expect(tooLong.status).toBe(400);
      expect(paths(tooLong)).toContain('sessionId');
    });
  });

  describe('API tokens', () => {
    it('lists when each token was created and last used', async () => {
      const user = await server.signup();
      const created = await server.request('POST', '/v1/user/tokens', {
        token: user.token,
        body: { label: 'ci', password: MEMBER_PASSWORD },
      });
      let item = (await server.request('GET', '/v1/user/tokens', { token: user.token })).body.items[0];
      expect(item).toEqual({
        object: 'api-token',
        id: created.body.id,
        label: 'ci',
        createdAt: created.body.createdAt,
      });
      expect((await me(created.body.token)).status).toBe(200);
      item = (await server.request('GET', '/v1/user/tokens', { token: user.token })).body.items[0];
      expect(Date.parse(item.lastUsedAt)).toBeGreaterThanOrEqual(Date.parse(item.createdAt));
    });

    it('leaves another account’s token alone: DELETE answers as for an absent one (204) and it keeps working', async () => {
      const victim = await server.signup();
      const token = await server.request('POST', '/v1/user/tokens', {
        token: victim.token,
        body: { label: 'v', password: MEMBER_PASSWORD },
      });
      const attacker = await server.signup();
      const res = await server.request('DELETE', `/v1/user/tokens/${token.body.id}`, { token: attacker.token });
      expect(res.status).toBe(204);
      expect((await me(token.body.token)).status).toBe(200);
      const list = await server.request('GET', '/v1/user/tokens', { token: attacker.token });
      expect(list.body.items).toEqual([]);
      expect((await server.request('GET', '/v1/user/tokens', { token: null })).status).toBe(401);
    });
  });
});
