import zlib from 'node:zlib';
import type { BrowserContext } from '@playwright/test';
import { makeIdp, samlResponse } from '../src/server/test/saml-idp';
import type { Idp } from '../src/server/test/saml-idp';

/**
 * A test identity provider that lives in the browser: its key and self-signed certificate are made here, and its
 * sign-in URL is answered by Playwright (`context.route`) instead of a server. Like a real identity provider once
 * its user has signed in, it reads the AuthnRequest of the HTTP-Redirect binding (its ID, ACS URL and issuer),
 * signs a response that answers it (`InResponseTo`), and posts it to the ACS URL with a form that submits itself.
 */
export interface TestIdp extends Idp {
  /** Its sign-in URL, where this server sends AuthnRequests. */
  ssoURL: string;
  /** AuthnRequests received, decoded. */
  requests: string[];
}

const IDP_ORIGIN = 'http://idp.e2e.test';

/** How long a sign-in through the identity provider may take: start URL, identity provider, ACS, redirect back. */
export const SSO_ROUND_TRIP_MS = 15_000;

export async function makeTestIdp(): Promise<TestIdp> {
  const idp = await makeIdp(`${IDP_ORIGIN}/metadata`);
  return { ...idp, ssoURL: `${IDP_ORIGIN}/sso`, requests: [] };
}

const htmlEscape = (value: string) =>
  value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

function attribute(xml: string, name: string): string {
  const value = new RegExp(`\\s${name}="([^"]+)"`).exec(xml)?.[1];
  if (!value) throw new Error(`The AuthnRequest has no ${name}: ${xml}`);
  return value;
}

/**
 * From now on, the identity provider signs in `person` whenever this browser context is sent to it: sign-ins
 * started on the sign-in page, and links started from the account page alike.
 */
export async function signInAtIdp(
  context: BrowserContext,
  idp: TestIdp,
  person: { email: string; name: string },
): Promise<void> {
  await context.unroute((url) => url.origin === IDP_ORIGIN);
  await context.route(
    (url) => url.origin === IDP_ORIGIN,
    async (route) => {
      const url = new URL(route.request().url());
      const samlRequest = url.searchParams.get('SAMLRequest');
      if (url.pathname !== '/sso' || !samlRequest) {
        await route.fulfill({ status: 400, contentType: 'text/plain', body: 'Not an AuthnRequest' });
        return;
      }
      const request = zlib.inflateRawSync(Buffer.from(samlRequest, 'base64')).toString('utf8');
      idp.requests.push(request);
      const acs = attribute(request, 'AssertionConsumerServiceURL');
      const audience = /<saml:Issuer[^>]*>([^<]+)<\/saml:Issuer>/.exec(request)?.[1];
      if (!audience) throw new Error(`The AuthnRequest names no issuer: ${request}`);
      const fields: Record<string, string> = {
        SAMLResponse: samlResponse(idp, {
          audience,
          acs,
          email: person.email,
          name: person.name,
          inResponseTo: attribute(request, 'ID'),
        }),
      };
      const relayState = url.searchParams.get('RelayState');
      if (relayState) fields.RelayState = relayState;
      const inputs = Object.entries(fields)
        .map(([name, value]) => `<input type="hidden" name="${name}" value="${htmlEscape(value)}">`)
        .join('');
      await route.fulfill({
        status: 200,
        contentType: 'text/html; charset=utf-8',
        body:
          `<!doctype html><title>Test IdP</title><form method="post" action="${htmlEscape(acs)}">${inputs}` +
          `<noscript><button>Continue</button></noscript></form><script>document.forms[0].submit()</script>`,
      });
    },
  );
}
