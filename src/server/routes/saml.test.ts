import crypto from 'node:crypto';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeEachDialect, startTestServer, type TestServer, type TestUser } from '../test/harness.js';
import { newOrg, newTeam } from '../test/factories.js';
import { browserOf, makeIdp, samlResponse, startSignIn, postAcs as post, type Idp } from '../test/saml-idp.js';

describeEachDialect('SAML single sign-on', (dialect) => {
  let server: TestServer;
  let idp: Idp;
  let otherIdp: Idp;
  let teamId: string;
  let provider: { id: string; service: { acsURL: string; startURL: string; entityID: string } };

  beforeAll(async () => {
    server = await startTestServer(dialect);
    [idp, otherIdp] = await Promise.all([makeIdp('https://idp.test/entity'), makeIdp('https://idp.test/entity')]);
    teamId = (await newTeam(server, server.orgId, { title: 'SSO people' })).id;
    const res = await server.request('POST', `/v1/orgs/${server.orgId}/saml`, {
      body: {
        label: 'Test IdP',
        entityID: idp.entityId,
        certificate: idp.cert,
        ssoURL: 'https://idp.test/sso',
        defaultTeam: teamId,
        defaultRole: 'edit',
      },
    });
    expect(res.status).toBe(201);
    expect(res.headers.get('location')).toBe(`http://docs.test/v1/orgs/${server.orgId}/saml/${res.body.id}`);
    provider = res.body;
    // corp.test is a verified domain of the organization (vouched for by the instance owner).
    await server.request('POST', `/v1/orgs/${server.orgId}/email-domains`, { body: { domain: 'corp.test' } });
    const verified = await server.request('POST', `/v1/orgs/${server.orgId}/email-domains/corp.test/verify`, {
      body: { method: 'owner' },
    });
    expect(verified.body).toMatchObject({ domain: 'corp.test', verified: true, verifiedBy: 'owner' });
  });
  afterAll(() => server.close());

  const postAcs = (body: string, providerId = provider.id) => post(server.url, providerId, body);
  /** A response to a sign-in started at this server, as the identity provider would send it. */
  const answer = async (email: string, extra: Partial<Parameters<typeof samlResponse>[1]> = {}, signer = idp) =>
    samlResponse(signer, {
      ...forUs(email),
      inResponseTo: await startSignIn(server.url, provider.service.startURL),
      ...extra,
    });

  const forUs = (email: string, extra: Partial<Parameters<typeof samlResponse>[1]> = {}) => ({
    audience: provider.service.entityID,
    acs: provider.service.acsURL,
    email,
    ...extra,
  });

  describe('providers', () => {
    it("answer this server's endpoints, status pending, the default team and role; Location on create", async () => {
      expect(provider).toMatchObject({
        object: 'saml-provider',
        label: 'Test IdP',
        entityID: idp.entityId,
        ssoURL: 'https://idp.test/sso',
        defaultRole: 'edit',
        status: 'pending',
        defaultTeam: { id: teamId, title: 'SSO people' },
        service: {
          acsURL: `http://docs.test/v1/sso/saml/${provider.id}/acs`,
          startURL: `http://docs.test/v1/sso/saml/${provider.id}/start`,
          entityID: `http://docs.test/v1/sso/saml/${provider.id}/metadata`,
        },
      });
      expect(new crypto.X509Certificate((provider as any).certificate).subject).toContain(idp.entityId);
      const got = await server.request('GET', `/v1/orgs/${server.orgId}/saml/${provider.id}`);
      expect(got.status).toBe(200);
      expect(got.body.id).toBe(provider.id);
      const list = await server.request('GET', `/v1/orgs/${server.orgId}/saml`);
      expect(list.body.items.map((p: { id: string }) => p.id)).toContain(provider.id);
      // The entity id is a real endpoint: this provider's service-provider metadata.
      const meta = await fetch(`${server.url}/v1/sso/saml/${provider.id}/metadata`);
      expect(meta.status).toBe(200);
      const xml = await meta.text();
      expect(xml).toContain(`entityID="${provider.service.entityID}"`);
      expect(xml).toContain(`Location="${provider.service.acsURL}"`);
    });

    it('refuse a certificate that does not parse, a non-http ssoURL, a team of another org, a long label', async () => {
      const base = { label: 'X', entityID: 'e', certificate: idp.cert, ssoURL: 'https://idp.test/sso' };
      const org2 = (await newOrg(server, 'Elsewhere')).id;
      const foreignTeam = (await newTeam(server, org2, { title: 'Theirs' })).id;
      const cases: Array<[Record<string, unknown>, string]> = [
        [{ certificate: '-----BEGIN CERTIFICATE-----\nMIIBAAAA\n-----END CERTIFICATE-----' }, 'certificate'],
        [{ certificate: 'not a certificate' }, 'certificate'],
        [{ ssoURL: 'ftp://idp.test/sso' }, 'ssoURL'],
        [{ ssoURL: 'idp.test/sso' }, 'ssoURL'],
        [{ defaultTeam: foreignTeam }, 'defaultTeam'],
        [{ label: 'x'.repeat(31) }, 'label'],
        [{ defaultRole: 'owner' }, 'defaultRole'],
      ];
      for (const [patch, field] of cases) {
        const res = await server.request('POST', `/v1/orgs/${server.orgId}/saml`, { body: { ...base, ...patch } });
        expect(res.status, field).toBe(400);
        expect(res.body.error.issues.map((i: { path: string }) => i.path)).toContain(field);
      }
      const max = await server.request('POST', `/v1/orgs/${server.orgId}/saml`, {
        body: { ...base, label: 'x'.repeat(30) },
      });
      expect(max.status).toBe(201);
      const patched = await server.request('PATCH', `/v1/orgs/${server.orgId}/saml/${max.body.id}`, {
        body: { label: 'Renamed', defaultRole: null },
      });
      expect(patched.status).toBe(200);
      expect(patched.body).toMatchObject({ label: 'Renamed', defaultRole: null });
      const badPatch = await server.request('PATCH', `/v1/orgs/${server.orgId}/saml/${max.body.id}`, {
        body: { certificate: '-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----' },
      });
      expect(badPatch.status).toBe(400);
      expect((await server.request('DELETE', `/v1/orgs/${server.orgId}/saml/${max.body.id}`)).status).toBe(205);
      expect((await server.request('DELETE', `/v1/orgs/${server.orgId}/saml/${max.body.id}`)).status).toBe(204);
      expect((await server.request('GET', `/v1/orgs/${server.orgId}/saml/${max.body.id}`)).status).toBe(404);
    });

    it('are for admins: 403 to members, 404 to outsiders and across organizations, 401 without a token', async () => {
      const editor = await server.member('edit');
      const outsider = await server.signup('outsider');
      const path = `/v1/orgs/${server.orgId}/saml/${provider.id}`;
      expect((await server.request('GET', path, { token: editor.token })).status).toBe(403);
      expect((await server.request('GET', `/v1/orgs/${server.orgId}/saml`, { token: editor.token })).status).toBe(403);
      expect((await server.request('GET', path, { token: outsider.token })).status).toBe(404);
      expect((await server.request('GET', path, { token: null })).status).toBe(401);
      const org2 = (await newOrg(server, 'Other')).id;
      expect((await server.request('GET', `/v1/orgs/${org2}/saml/${provider.id}`)).status).toBe(404);
    });

    it("are listed for the organization's members only, with labels and start URLs", async () => {
      const guest = await server.member(null);
      const res = await server.request('GET', `/v1/orgs/${server.orgId}/sso`, { token: guest.token });
      expect(res.status).toBe(200);
      expect(res.body.items).toContainEqual({
        id: provider.id,
        label: 'Test IdP',
        startURL: provider.service.startURL,
      });
      expect(Object.keys(res.body.items[0]).sort()).toEqual(['id', 'label', 'startURL']);
      // Anyone else learns nothing: no token, an outsider, an unknown organization.
      expect((await server.request('GET', `/v1/orgs/${server.orgId}/sso`, { token: null })).status).toBe(401);
      const outsider = await server.signup('outsider');
      expect((await server.request('GET', `/v1/orgs/${server.orgId}/sso`, { token: outsider.token })).status).toBe(404);
      expect((await server.request('GET', '/v1/orgs/01unknownorganization/sso')).status).toBe(404);
    });
  });

  describe('sign-in', () => {
    it('the start URL redirects to the identity provider with an AuthnRequest for this entity', async () => {
      const res = await fetch(provider.service.startURL.replace('http://docs.test', server.url), {
        redirect: 'manual',
      });
      expect(res.status).toBe(302);
      const location = new URL(res.headers.get('location')!);
      expect(`${location.origin}${location.pathname}`).toBe('https://idp.test/sso');
      const request = zlib.inflateRawSync(Buffer.from(location.searchParams.get('SAMLRequest')!, 'base64')).toString();
      expect(request).toContain('<samlp:AuthnRequest');
      expect(request).toContain(`AssertionConsumerServiceURL="${provider.service.acsURL}"`);
      expect(request).toContain(`>${provider.service.entityID}</saml:Issuer>`);
    });

    it('signs a new user of a verified domain in: created, joins with the default role and team, marked SSO, provider active', async () => {
      const email = 'new.person@corp.test';
      const res = await postAcs(await answer(email, { name: 'New Person' }));
      expect(res.status).toBe(303);
      expect(res.headers.get('location')).toBe(`http://docs.test/o/${server.orgId}`);
      const cookies = res.headers.getSetCookie();
      const session = cookies.find((c) => c.startsWith('ds_session='))!.split(';')[0]!;
      const me = await fetch(`${server.url}/v1/user`, { headers: { cookie: session } });
      expect(me.status).toBe(200);
      const user = (await me.json()) as { id: string; email: string; displayName: string };
      expect(user).toMatchObject({ email, displayName: 'New Person' });

      const member = await server.request('GET', `/v1/orgs/${server.orgId}/members/${user.id}`);
      expect(member.body).toMatchObject({ role: 'edit', sso: true, teams: 1 });
      const inTeam = await server.request('GET', `/v1/orgs/${server.orgId}/teams/${teamId}/members`);
      expect(inTeam.body.items.map((m: { organization: { id: string } }) => m.organization.id)).toContain(user.id);
      const after = await server.request('GET', `/v1/orgs/${server.orgId}/saml/${provider.id}`);
      expect(after.body.status).toBe('active');
      // Signing in again through SSO reaches the same account, and its session reaches the organization.
      const again = await postAcs(await answer(email));
      expect(again.status).toBe(303);
      const session2 = again.headers
        .getSetCookie()
        .find((c) => c.startsWith('ds_session='))!
        .split(';')[0]!;
      const org = await fetch(`${server.url}/v1/orgs/${server.orgId}`, { headers: { cookie: session2 } });
      expect(org.status).toBe(200);
      // The account has no password.
      const login = await server.request('POST', '/v1/auth/login', {
        token: null,
        body: { email, password: 'whatever-password' },
      });
      expect(login.status).toBe(401);
    });

    it("signs in only the browser that started the sign-in: someone's own valid response posted from another browser is refused", async () => {
      const email = 'mallory@corp.test';
      // Mallory starts a sign-in in her browser and gets her identity provider's answer...
      const mine = await answer(email);
      // ...and has a victim's browser post it: one that started no sign-in, or one that started its own.
      const victimRequest = await startSignIn(server.url, provider.service.startURL);
      for (const browser of [null, browserOf(victimRequest)!]) {
        const res = await post(server.url, provider.id, mine, { browser });
        expect(res.status).toBe(401);
        expect(res.body.error.message).toMatch(/sign-in/);
        expect(res.headers.getSetCookie().some((c) => c.startsWith('ds_session='))).toBe(false);
      }
      // Refused, it is spent: not even her own browser completes it now.
      expect((await postAcs(mine)).status).toBe(401);
      // A sign-in posted from the browser that started it completes.
      const own = await postAcs(await answer(email));
      expect(own.status).toBe(303);
      expect(own.headers.getSetCookie().some((c) => c.startsWith('ds_session='))).toBe(true);
    });

    it('refuses a response signed by another key, an expired one, a replayed one, another audience, another issuer', async () => {
      const cases: Array<[string, string, RegExp]> = [
        ['another key', await answer('k@corp.test', {}, otherIdp), /signature/i],
        [
          'expired',
          await answer('e@corp.test', { notOnOrAfter: Date.now() - 10 * 60_000 }),
          /expired|no valid subject confirmation/i,
        ],
        ['audience', await answer('a@corp.test', { audience: 'https://other.test/sp' }), /audience/i],
        ['issuer', await answer('i@corp.test', { issuer: 'https://evil.test/idp' }), /issuer/i],
        ['unsolicited', samlResponse(idp, forUs('u@corp.test')), /InResponseTo is missing/i],
        ['unknown request', samlResponse(idp, forUs('r@corp.test', { inResponseTo: '_nope' })), /InResponseTo/i],
      ];
      for (const [name, body, message] of cases) {
        const res = await postAcs(body);
        expect(res.status, name).toBe(401);
        expect(res.body.error.message, name).toMatch(/^SAML sign-in refused: /);
        expect(res.body.error.message, name).toMatch(message);
        expect(
          res.headers.getSetCookie().some((c) => c.startsWith('ds_session=')),
          name,
        ).toBe(false);
      }
      const once = await answer('replay@corp.test');
      expect((await postAcs(once)).status).toBe(303);
      // A replay answers a request already answered, and repeats a spent assertion: refused either way.
      const replayed = await postAcs(once);
      expect(replayed.status).toBe(401);
      expect(replayed.body.error.message).toMatch(/replay|InResponseTo is not valid/);
      // A request is answered once: a second assertion for the same request is refused.
      const requestId = await startSignIn(server.url, provider.service.startURL);
      expect((await postAcs(samlResponse(idp, forUs('first@corp.test', { inResponseTo: requestId })))).status).toBe(
        303,
      );
      const second = await postAcs(samlResponse(idp, forUs('second@corp.test', { inResponseTo: requestId })));
      expect(second.status).toBe(401);
      // Nobody was created for the refused responses.
      const list = await server.request('GET', `/v1/orgs/${server.orgId}/members?search=corp.test&limit=1000`);
      const emails = list.body.items.map((m: { user: { email: string } }) => m.user.email);
      expect(emails).toContain('replay@corp.test');
      for (const email of ['k@corp.test', 'e@corp.test', 'a@corp.test', 'i@corp.test', 'u@corp.test', 'r@corp.test'])
        expect(emails).not.toContain(email);
      expect(emails).not.toContain('second@corp.test');
      // Garbage and unknown providers are refused too, never a 500.
      expect((await postAcs(Buffer.from('<nope/>').toString('base64'))).status).toBe(401);
      expect((await postAcs(samlResponse(idp, forUs('x@corp.test')), '01unknownprovider')).status).toBe(404);
    });

    it('signs one new person in twice at once: one account, both sessions, no 500', async () => {
      const email = 'twice@corp.test';
      const [first, second] = await Promise.all([answer(email), answer(email)]);
      const [a, b] = await Promise.all([postAcs(first), postAcs(second)]);
      expect([a.status, b.status]).toEqual([303, 303]);
      const found = await server.request('GET', `/v1/orgs/${server.orgId}/members?search=twice%40corp.test`);
      expect(found.body.count).toBe(1);
    });

    it('never signs in an existing account it did not create and that was not linked to it, even a member marked SSO', async () => {
      const outsider = await server.signup('existing');
      // Same address in the verified domain: still not the provider's to take.
      await server.request('POST', '/v1/auth/signup', {
        token: null,
        body: { email: 'taken@corp.test', password: 'a-good-password', displayName: 'Taken' },
      });
      const taken = await postAcs(await answer('taken@corp.test'));
      expect(taken.status).toBe(401);
      expect(taken.body.error.message).toMatch(/exists and is not linked/);
      // An address outside the verified domains: no account is created.
      const outside = await postAcs(await answer(outsider.email));
      expect(outside.status).toBe(401);
      expect(outside.body.error.message).toMatch(/not a verified e-mail domain/);

      const member = await server.member('read');
      const marked = await server.request('POST', `/v1/orgs/${server.orgId}/members/${member.id}/sso`);
      expect(marked.status).toBe(200);
      expect(marked.body.sso).toBe(true);
      const refused = await postAcs(await answer(member.email));
      expect(refused.status).toBe(401);
      // Their role stays what it was.
      expect((await server.request('GET', `/v1/orgs/${server.orgId}/members/${member.id}`)).body.role).toBe('read');
    });
  });

  describe('enforced SSO', () => {
    it('governs the organization only: password sign-in and other organizations keep working; admins keep access', async () => {
      const org = (await newOrg(server, 'Strict')).id;
      const reader: TestUser = await server.member('read', org);
      const admin: TestUser = await server.member('admin', org);
      // The reader is also a member of the owner's first organization.
      const link = await server.request('POST', `/v1/orgs/${server.orgId}/link-invites`, { body: { role: 'read' } });
      await server.request('POST', `/v1/orgs/${server.orgId}/invites/${link.body.id}`, { token: reader.token });
      const login = (email: string, password: string) =>
        server.request('POST', '/v1/auth/login', { token: null, body: { email, password } });
      const patched = await server.request('PATCH', `/v1/orgs/${org}`, { body: { sso: true } });
      expect(patched.body.sso).toBe(true);

      const signedIn = await login(reader.email, 'a-good-password');
      expect(signedIn.status).toBe(200);
      const token = signedIn.body.token as string;
      const strict = await server.request('GET', `/v1/orgs/${org}`, { token });
      expect(strict.status).toBe(403);
      expect(strict.body.error.reason).toBe('sso-required');
      expect((await server.request('GET', `/v1/orgs/${org}/spaces`, { token })).status).toBe(403);
      // Their other organization is not affected, nor their account.
      expect((await server.request('GET', `/v1/orgs/${server.orgId}`, { token })).status).toBe(200);
      expect((await server.request('GET', '/v1/user', { token })).status).toBe(200);
      // The way in stays visible to them.
      expect((await server.request('GET', `/v1/orgs/${org}/sso`, { token })).status).toBe(200);
      // Admins keep password access (the recovery path).
      const adminLogin = await login(admin.email, 'a-good-password');
      expect((await server.request('GET', `/v1/orgs/${org}`, { token: adminLogin.body.token })).status).toBe(200);
      // A wrong password still says only that.
      expect((await login(reader.email, 'wrong-password-1')).status).toBe(401);
      await server.request('PATCH', `/v1/orgs/${org}`, { body: { sso: false } });
      expect((await server.request('GET', `/v1/orgs/${org}`, { token })).status).toBe(200);
    });
  });
});
