import crypto from 'node:crypto';
import zlib from 'node:zlib';
import { generate } from 'selfsigned';
import { SignedXml } from 'xml-crypto';

/**
 * A test identity provider for the SAML suites: a key and a self-signed certificate made in the test, responses
 * signed with it, and the AuthnRequest ids this server sends (responses answer them with InResponseTo).
 */
/** A test identity provider: its own key and self-signed certificate, made here. */
export interface Idp {
  key: string;
  cert: string;
  entityId: string;
}

export async function makeIdp(entityId: string): Promise<Idp> {
  const pems = await generate([{ name: 'commonName', value: entityId }], { keySize: 2048, algorithm: 'sha256' });
  return { key: pems.private, cert: pems.cert, entityId };
}

const iso = (ms: number) => new Date(ms).toISOString();

/** A SAML Response whose assertion is signed by `idp` (enveloped signature, exclusive c14n, RSA-SHA256). */
export function samlResponse(
  idp: Idp,
  opts: {
    audience: string;
    acs: string;
    email: string;
    name?: string;
    notOnOrAfter?: number;
    assertionId?: string;
    issuer?: string;
    /** The id of the AuthnRequest this response answers (see `requestId`); absent: unsolicited. */
    inResponseTo?: string;
  },
): string {
  const now = Date.now();
  const end = iso(opts.notOnOrAfter ?? now + 5 * 60_000);
  const issuer = opts.issuer ?? idp.entityId;
  const assertionId = opts.assertionId ?? `_a${crypto.randomBytes(8).toString('hex')}`;
  const irt = opts.inResponseTo ? ` InResponseTo="${opts.inResponseTo}"` : '';
  const assertion =
    `<saml:Assertion xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="${assertionId}" Version="2.0" IssueInstant="${iso(now)}">` +
    `<saml:Issuer>${issuer}</saml:Issuer>` +
    `<saml:Subject><saml:NameID Format="urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress">${opts.email}</saml:NameID>` +
    `<saml:SubjectConfirmation Method="urn:oasis:names:tc:SAML:2.0:cm:bearer"><saml:SubjectConfirmationData NotOnOrAfter="${end}" Recipient="${opts.acs}"${irt}/></saml:SubjectConfirmation></saml:Subject>` +
    `<saml:Conditions NotBefore="${iso(now - 60_000)}" NotOnOrAfter="${end}"><saml:AudienceRestriction><saml:Audience>${opts.audience}</saml:Audience></saml:AudienceRestriction></saml:Conditions>` +
    `<saml:AuthnStatement AuthnInstant="${iso(now)}" SessionIndex="_s1"><saml:AuthnContext><saml:AuthnContextClassRef>urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport</saml:AuthnContextClassRef></saml:AuthnContext></saml:AuthnStatement>` +
    `<saml:AttributeStatement><saml:Attribute Name="displayName"><saml:AttributeValue>${opts.name ?? 'Sam L'}</saml:AttributeValue></saml:Attribute></saml:AttributeStatement>` +
    `</saml:Assertion>`;
  const response =
    `<samlp:Response xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="_r${crypto.randomBytes(8).toString('hex')}" Version="2.0" IssueInstant="${iso(now)}" Destination="${opts.acs}"${irt}>` +
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

/** The id of the AuthnRequest in an identity provider redirect URL (the `SAMLRequest` query parameter). */
export function requestIdOf(redirectUrl: string): string {
  const request = zlib
    .inflateRawSync(Buffer.from(new URL(redirectUrl).searchParams.get('SAMLRequest')!, 'base64'))
    .toString();
  const id = /<samlp:AuthnRequest[^>]*\sID="([^"]+)"/.exec(request)?.[1];
  if (!id) throw new Error(`no AuthnRequest ID in ${request}`);
  return id;
}

/**
 * The browser each sign-in was started in, as the test sees it: the cookie the start URL set (`ds_saml=…`), by the
 * id of the request it sent. postAcs completes a sign-in with the cookie of the request it answers.
 */
const browsers = new Map<string, string>();

/** Starts a sign-in at this server (`startURL`, rewritten to `serverUrl`) and returns the request id sent. */
export async function startSignIn(serverUrl: string, startURL: string): Promise<string> {
  const res = await fetch(startURL.replace('http://docs.test', serverUrl), { redirect: 'manual' });
  if (res.status !== 302) throw new Error(`start answered ${res.status}`);
  const id = requestIdOf(res.headers.get('location')!);
  const cookie = res.headers.getSetCookie().find((c) => c.startsWith('ds_saml='));
  if (cookie) browsers.set(id, cookie.split(';')[0]!);
  return id;
}

/** The request id a response answers (its InResponseTo), if any. */
function answeredRequest(samlResponseB64: string): string | undefined {
  return /InResponseTo="([^"]+)"/.exec(Buffer.from(samlResponseB64, 'base64').toString())?.[1];
}

/**
 * POSTs a response to a provider's ACS URL like a browser form. A sign-in the ACS URL checked is then completed
 * as the browser would, at the URL it sends it to, with the cookie of the browser that started it (`browser`: that
 * of another request, or none, to play another browser). Other redirects are not followed.
 */
export async function postAcs(
  serverUrl: string,
  providerId: string,
  samlResponseB64: string,
  { browser }: { browser?: string | null } = {},
) {
  const posted = await fetch(`${serverUrl}/v1/sso/saml/${providerId}/acs`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ SAMLResponse: samlResponseB64 }).toString(),
    redirect: 'manual',
  });
  let res = posted;
  const location = posted.headers.get('location');
  if (posted.status === 303 && location?.includes('/complete?c=')) {
    await posted.arrayBuffer();
    const request = answeredRequest(samlResponseB64);
    const cookie = browser === undefined ? request && browsers.get(request) : browser;
    res = await fetch(location.replace('http://docs.test', serverUrl), {
      headers: cookie ? { cookie } : {},
      redirect: 'manual',
    });
  }
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? (JSON.parse(text) as any) : undefined };
}

/** The cookie of the browser that started `requestId` (to post another request's response from it). */
export function browserOf(requestId: string): string | undefined {
  return browsers.get(requestId);
}
