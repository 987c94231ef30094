import crypto from 'node:crypto';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generate } from 'selfsigned';
import { SignedXml } from 'xml-crypto';
import { describeEachDialect, startTestServer, type TestServer, type TestUser } from '../test/harness.js';

/** A test identity provider: its own key and self-signed certificate, made here. */
interface Idp {
  key: string;
  cert: string;
  entityId: string;
}

async function makeIdp(entityId: string): Promise<Idp> {
  const pems = await generate([{ name: 'commonName', value: entityId }], { keySize: 2048, algorithm: 'sha256' });
  return { key: pems.private, cert: pems.cert, entityId };
}

const iso = (ms: number) => new Date(ms).toISOString();

/** A SAML Response whose assertion is signed by `idp` (enveloped signature, exclusive c14n, RSA-SHA256). */
function samlResponse(
  idp: Idp,
  opts: {
    audience: string;
    acs: string;
    email: string;
    name?: string;
    notOnOrAfter?: number;
    assertionId?: string;
    issuer?: string;
  },
): string {
  const now = Date.now();
  const end = iso(opts.notOnOrAfter ?? now + 5 * 60_000);
  const issuer = opts.issuer ?? idp.entityId;
  const assertionId = opts.assertionId ?? `_a${crypto.randomBytes(8).toString('hex')}`;
  const assertion =
    `<saml:Assertion xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="${assertionId}" Version="2.0" IssueInstant="${iso(now)}">` +
    `<saml:Issuer>${issuer}</saml:Issuer>` +
    `<saml:Subject><saml:NameID Format="urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress">${opts.email}</saml:NameID>` +
    `<saml:SubjectConfirmation Method="urn:oasis:names:tc:SAML:2.0:cm:bearer"><saml:SubjectConfirmationData NotOnOrAfter="${end}" Recipient="${opts.acs}"/></saml:SubjectConfirmation></saml:Subject>` +
    `<saml:Conditions NotBefore="${iso(now - 60_000)}" NotOnOrAfter="${end}"><saml:AudienceRestriction><saml:Audience>${opts.audience}</saml:Audience></saml:AudienceRestriction></saml:Conditions>` +
    `<saml:AuthnStatement AuthnInstant="${iso(now)}" SessionIndex="_s1"><saml:AuthnContext><saml:AuthnContextClassRef>urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport</saml:AuthnContextClassRef></saml:AuthnContext></saml:AuthnStatement>` +
    `<saml:AttributeStatement><saml:Attribute Name="displayName"><saml:AttributeValue>${opts.name ?? 'Sam L'}</saml:AttributeValue></saml:Attribute></saml:AttributeStatement>` +
    `</saml:Assertion>`;
  const response =
    `<samlp:Response xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="_r${crypto.randomBytes(8).toString('hex')}" Version="2.0" IssueInstant="${iso(now)}" Destination="${opts.acs}">` +
    `<saml:Issuer>${issuer}</saml:Issuer><samlp:Status><samlp:StatusCode Value="urn:oasis:names:tc:SAML:2.0:status:Success"/></samlp:Status>` +
    assertion +
    `</samlp:Response>`;
  const sig = new SignedXml({
    privateKey: idp.key,
    publicCert: idp.cert,
    signatureAlgorithm: 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256',
    canonicalizationAlgorithm: 'http://www.w3.org/2001/10/xml-exc-c14n#',
  });
  sig.addReference({
    xpath: "//*[local-name(.)='Assertion']",
    transforms: ['http://www.w3.org/2000/09/xmldsig#enveloped-signature', 'http://www.w3.org/2001/10/xml-exc-c14n#'],
    digestAlgorithm: 'http://www.w3.org/2001/04/xmlenc#sha256',
  });
  sig.computeSignature(response, {
    location: { reference: "//*[local-name(.)='Assertion']/*[local-name(.)='Issuer']", action: 'after' },
  });
  return Buffer.from(sig.getSignedXml()).toString('base64');
}

describeEachDialect('SAML single sign-on', (dialect) => {
  let server: TestServer;
  let idp: Idp;
  let otherIdp: Idp;
  let teamId: string;
  let provider: { id: string; service: { acsURL: string; startURL: string; entityID: string } };

  beforeAll(async () => {
    server = await startTestServer(dialect);
    [idp, otherIdp] = await Promise.all([makeIdp('https://idp.test/entity'), makeIdp('https://idp.test/entity')]);
    teamId = (await server.request('PUT', `/v1/orgs/${server.orgId}/teams`, { body: { title: 'SSO people' } })).body.id;
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
  });
  afterAll(() => server.close());

  /** POSTs a response to the ACS URL like a browser form; redirects are not followed. */
  async function postAcs(samlResponseB64: string, providerId = provider.id) {
    const res = await fetch(`${server.url}/v1/sso/saml/${providerId}/acs`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ SAMLResponse: samlResponseB64 }).toString(),
      redirect: 'manual',
    });
    const text = await res.text();
    return { status: res.status, headers: res.headers, body: text ? (JSON.parse(text) as any) : undefined };
  }

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
      const org2 = (await server.request('POST', '/v1/orgs', { body: { title: 'Elsewhere' } })).body.id;
      const foreignTeam = (await server.request('PUT', `/v1/orgs/${org2}/teams`, { body: { title: 'Theirs' } })).body
        .id;
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
      const org2 = (await server.request('POST', '/v1/orgs', { body: { title: 'Other' } })).body.id;
      expect((await server.request('GET', `/v1/orgs/${org2}/saml/${provider.id}`)).status).toBe(404);
    });

    it('are listed publicly for the sign-in page, with labels and start URLs only', async () => {
      const res = await server.request('GET', `/v1/orgs/${server.orgId}/sso`, { token: null });
      expect(res.status).toBe(200);
      expect(res.body.items).toContainEqual({
        id: provider.id,
        label: 'Test IdP',
        startURL: provider.service.startURL,
      });
      expect(Object.keys(res.body.items[0]).sort()).toEqual(['id', 'label', 'startURL']);
      // An unknown organization looks like one without SSO.
      const unknown = await server.request('GET', '/v1/orgs/01unknownorganization/sso', { token: null });
      expect(unknown.status).toBe(200);
      expect(unknown.body.items).toEqual([]);
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

    it('signs a new user in: created, joins with the default role and team, marked SSO, provider active', async () => {
      const email = 'new.person@corp.test';
      const res = await postAcs(samlResponse(idp, forUs(email, { name: 'New Person' })));
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
      // Signing in again through SSO reaches the same account.
      const again = await postAcs(samlResponse(idp, forUs(email)));
      expect(again.status).toBe(303);
      // The account has no password.
      const login = await server.request('POST', '/v1/auth/login', {
        token: null,
        body: { email, password: 'whatever-password' },
      });
      expect(login.status).toBe(401);
    });

    it('refuses a response signed by another key, an expired one, a replayed one, another audience, another issuer', async () => {
      const cases: Array<[string, string, RegExp]> = [
        ['another key', samlResponse(otherIdp, forUs('k@corp.test')), /signature/i],
        ['expired', samlResponse(idp, forUs('e@corp.test', { notOnOrAfter: Date.now() - 10 * 60_000 })), /expired/i],
        ['audience', samlResponse(idp, forUs('a@corp.test', { audience: 'https://other.test/sp' })), /audience/i],
        ['issuer', samlResponse(idp, forUs('i@corp.test', { issuer: 'https://evil.test/idp' })), /issuer/i],
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
      const once = samlResponse(idp, forUs('replay@corp.test'));
      expect((await postAcs(once)).status).toBe(303);
      const replayed = await postAcs(once);
      expect(replayed.status).toBe(401);
      expect(replayed.body.error.message).toMatch(/replay/);
      // Nobody was created for the refused responses.
      const list = await server.request('GET', `/v1/orgs/${server.orgId}/members?search=corp.test&limit=1000`);
      const emails = list.body.items.map((m: { user: { email: string } }) => m.user.email);
      expect(emails).toContain('replay@corp.test');
      for (const email of ['k@corp.test', 'e@corp.test', 'a@corp.test', 'i@corp.test'])
        expect(emails).not.toContain(email);
      // Garbage and unknown providers are refused too, never a 500.
      expect((await postAcs(Buffer.from('<nope/>').toString('base64'))).status).toBe(401);
      expect((await postAcs(samlResponse(idp, forUs('x@corp.test')), '01unknownprovider')).status).toBe(404);
    });

    it('signs one new person in twice at once: one account, both sessions, no 500', async () => {
      const email = 'twice@corp.test';
      const [a, b] = await Promise.all([
        postAcs(samlResponse(idp, forUs(email))),
        postAcs(samlResponse(idp, forUs(email))),
      ]);
      expect([a.status, b.status]).toEqual([303, 303]);
      const found = await server.request('GET', `/v1/orgs/${server.orgId}/members?search=twice%40corp.test`);
      expect(found.body.count).toBe(1);
    });

    it('lets an existing account in only once it is a member marked SSO', async () => {
      const outsider = await server.signup('existing');
      const refused = await postAcs(samlResponse(idp, forUs(outsider.email)));
      expect(refused.status).toBe(401);
      expect(refused.body.error.message).toMatch(/not a member/);

      const member = await server.member('read');
      const refusedOnce = samlResponse(idp, forUs(member.email));
      const notSso = await postAcs(refusedOnce);
      expect(notSso.status).toBe(401);
      expect(notSso.body.error.message).toMatch(/not an SSO member/);
      const marked = await server.request('POST', `/v1/orgs/${server.orgId}/members/${member.id}/sso`);
      expect(marked.status).toBe(200);
      expect(marked.body.sso).toBe(true);
      // The refused assertion was spent: it cannot be replayed now that the member may sign in.
      expect((await postAcs(refusedOnce)).body.error.message).toMatch(/replay/);
      const ok = await postAcs(samlResponse(idp, forUs(member.email)));
      expect(ok.status).toBe(303);
      // Their role stays what it was.
      expect((await server.request('GET', `/v1/orgs/${server.orgId}/members/${member.id}`)).body.role).toBe('read');
    });
  });

  describe('enforced SSO', () => {
    it('refuses password sign-in to members of the organization, except admins', async () => {
      const org = (await server.request('POST', '/v1/orgs', { body: { title: 'Strict' } })).body.id as string;
      const reader: TestUser = await server.member('read', org);
      const admin: TestUser = await server.member('admin', org);
      const login = (email: string, password: string) =>
        server.request('POST', '/v1/auth/login', { token: null, body: { email, password } });
      expect((await login(reader.email, 'a-good-password')).status).toBe(200);
      const patched = await server.request('PATCH', `/v1/orgs/${org}`, { body: { sso: true } });
      expect(patched.body.sso).toBe(true);
      const refused = await login(reader.email, 'a-good-password');
      expect(refused.status).toBe(403);
      expect(refused.body.error.message).toMatch(/Strict requires single sign-on/);
      expect((await login(admin.email, 'a-good-password')).status).toBe(200);
      // A wrong password still says only that.
      expect((await login(reader.email, 'wrong-password-1')).status).toBe(401);
      await server.request('PATCH', `/v1/orgs/${org}`, { body: { sso: false } });
      expect((await login(reader.email, 'a-good-password')).status).toBe(200);
    });
  });
});
