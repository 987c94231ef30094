import crypto from 'node:crypto';
import {
  SAML,
  ValidateInResponseTo,
  generateServiceProviderMetadata,
  type CacheProvider,
  type Profile,
} from '@node-saml/node-saml';
import type { Config } from '../../config.js';
import type { ServiceContext } from '../context.js';
import { transaction, type Db, type Executor } from '../../storage/db.js';
import * as saml from '../../storage/repos/saml.js';
import * as teams from '../../storage/repos/teams.js';
import * as members from '../../storage/repos/members.js';
import * as users from '../../storage/repos/users.js';
import * as domains from '../../storage/repos/domains.js';
import { hashToken, isPasswordHash, newSecret, verifyPassword } from '../../lib/secrets.js';
import { keysetPage } from '../../storage/pagination.js';
import { newId } from '../../lib/ids.js';
import { nowIso, isoMinus } from '../../lib/time.js';
import { orgAccess, requireOrgAccess, requireOrgRole } from '../permissions/resolver.js';
import { ConflictError, DomainError, ForbiddenError, InvalidError, NotFoundError } from '../errors.js';
import { signIn, type SignInClient } from '../auth/service.js';
import type { Urls } from '../../lib/urls.js';
import type { CreateSamlProviderBody, UpdateSamlProviderBody } from '../../../shared/contract/saml.js';
import { DISPLAY_NAME_MAX, EMAIL_MAX } from '../../../shared/contract/auth.js';
import { organizationPolicy } from '../organizations/policy.js';

/**
 * SAML single sign-on. Each provider of an organization has its own service-provider endpoints on this server:
 * the start URL (redirects to the identity provider with an AuthnRequest), the ACS URL (receives the signed
 * response) and the entity id (which also serves this provider's service-provider metadata). Responses are
 * checked by @node-saml/node-saml: signature by the configured certificate, audience, validity window; the
 * issuer and one-time use of each assertion are checked here.
 */

/** Password hash of accounts created by SSO: no password matches it (see lib/secrets.verifyPassword). */
export const SSO_ONLY_PASSWORD = '!sso-only';
/** Clock difference tolerated between this server and the identity provider. */
const CLOCK_SKEW_MS = 30_000;
/** How long an assertion id is kept when the assertion states no end of validity. */
const DEFAULT_ASSERTION_LIFETIME_MS = 24 * 3600 * 1000;

export function serviceEndpoints(urls: Urls, providerId: string) {
  return {
    acsURL: urls.api(`/sso/saml/${providerId}/acs`),
    startURL: urls.api(`/sso/saml/${providerId}/start`),
    entityID: urls.api(`/sso/saml/${providerId}/metadata`),
  };
}

/** A PEM X.509 certificate, parsed (not pattern-matched); returns it normalized. */
export function parseCertificate(pem: string): string {
  const blocks = pem.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g);
  if (!blocks || blocks.length !== 1) {
    throw new InvalidError('certificate', 'must hold exactly one PEM X.509 certificate');
  }
  try {
    const cert = new crypto.X509Certificate(blocks[0]!);
    return cert.toString().trim();
  } catch {
    throw new InvalidError('certificate', 'is not a valid PEM X.509 certificate');
  }
}

async function requireTeamOfOrg(db: Executor, organizationId: string, teamId: string | null | undefined) {
  if (teamId === null || teamId === undefined) return;
  if (!(await teams.findTeam(db, organizationId, teamId))) {
    throw new InvalidError('defaultTeam', 'no such team in this organization');
  }
}

async function adminAccess(db: Executor, ctx: ServiceContext, organizationId: string) {
  const access = await requireOrgAccess(db, ctx.actor, organizationId);
  requireOrgRole(access, organizationPolicy.needs('admin'), 'manage single sign-on');
  return access;
}

/** The provider with its default team presented for the caller. */
async function view(db: Executor, ctx: ServiceContext, row: saml.SamlProviderRow) {
  const team = row.default_team_id
    ? await teams.findTeamView(db, row.organization_id, row.default_team_id, ctx.actor.userId)
    : undefined;
  return { row, team };
}

export async function listProviders(
  ctx: ServiceContext,
  organizationId: string,
  page: string | undefined,
  limit: number,
) {
  await adminAccess(ctx.db, ctx, organizationId);
  const result = await keysetPage({
    page,
    limit,
    arity: 1,
    rows: (after, take) => saml.listProviders(ctx.db, organizationId, after, take),
    count: () => saml.countProviders(ctx.db, organizationId),
    key: (row) => [row.id],
  });
  return { ...result, items: await Promise.all(result.items.map((row) => view(ctx.db, ctx, row))) };
}

export async function getProvider(ctx: ServiceContext, organizationId: string, id: string) {
  await adminAccess(ctx.db, ctx, organizationId);
  const row = await saml.findOrgProvider(ctx.db, organizationId, id);
  if (!row) throw new NotFoundError('SAML provider not found');
  return view(ctx.db, ctx, row);
}

export async function createProvider(ctx: ServiceContext, organizationId: string, body: CreateSamlProviderBody) {
  return transaction(ctx.db, async (tx) => {
    await adminAccess(tx, ctx, organizationId);
    const certificate = parseCertificate(body.certificate);
    await requireTeamOfOrg(tx, organizationId, body.defaultTeam);
    const now = nowIso();
    const row: saml.SamlProviderRow = {
      id: newId(),
      organization_id: organizationId,
      label: body.label,
      sso_url: body.ssoURL,
      idp_entity_id: body.entityID,
      certificate,
      default_team_id: body.defaultTeam ?? null,
      default_role: body.defaultRole,
      status: 'pending',
      created_at: now,
      updated_at: now,
    };
    await saml.insertProvider(tx, row);
    return view(tx, ctx, row);
  });
}

export async function updateProvider(
  ctx: ServiceContext,
  organizationId: string,
  id: string,
  body: UpdateSamlProviderBody,
) {
  return transaction(ctx.db, async (tx) => {
    await adminAccess(tx, ctx, organizationId);
    if (!(await saml.findOrgProvider(tx, organizationId, id))) throw new NotFoundError('SAML provider not found');
    const patch: Partial<saml.SamlProviderRow> = { updated_at: nowIso() };
    if (body.certificate !== undefined) patch.certificate = parseCertificate(body.certificate);
    if (body.defaultTeam !== undefined) {
      await requireTeamOfOrg(tx, organizationId, body.defaultTeam);
      patch.default_team_id = body.defaultTeam;
    }
    if (body.label !== undefined) patch.label = body.label;
    if (body.ssoURL !== undefined) patch.sso_url = body.ssoURL;
    if (body.entityID !== undefined) patch.idp_entity_id = body.entityID;
    if (body.defaultRole !== undefined) patch.default_role = body.defaultRole;
    await saml.updateProvider(tx, id, patch);
    return view(tx, ctx, (await saml.findOrgProvider(tx, organizationId, id))!);
  });
}

/** False when there was no such provider (the route answers 204). */
export async function deleteProvider(ctx: ServiceContext, organizationId: string, id: string) {
  await adminAccess(ctx.db, ctx, organizationId);
  return saml.deleteProvider(ctx.db, organizationId, id);
}

/**
 * An organization's providers with their start URLs, for its members (any role, and without an SSO session:
 * this is how a member of an organization that enforces SSO finds the way in).
 */
export async function listLogins(ctx: ServiceContext, organizationId: string) {
  await requireOrgAccess(ctx.db, { userId: ctx.actor.userId }, organizationId);
  const rows = await saml.allProviders(ctx.db, organizationId);
  return rows.map((row) => ({ id: row.id, label: row.label, startURL: serviceEndpoints(ctx.urls, row.id).startURL }));
}

/**
 * Sign-in discovery by e-mail address: the providers of the organizations that verified the address's domain.
 * Public (the sign-in page asks before anyone signs in); what it tells is public already, since a verified
 * domain is published in DNS or vouched for by the instance owner.
 */
export async function discover(db: Db, urls: Urls, email: string) {
  const domain = email.toLowerCase().split('@')[1] ?? '';
  const rows = await saml.providersOfVerifiedDomain(db, domain);
  return rows.map((row) => ({
    id: row.id,
    label: row.label,
    organization: { id: row.organization_id, title: row.title },
    startURL: serviceEndpoints(urls, row.id).startURL,
  }));
}

/** How long an AuthnRequest this server sent can be answered. */
const REQUEST_LIFETIME_MS = 10 * 60 * 1000;

/**
 * node-saml's store of request ids, kept in the database so that any process can check a response against the
 * request another process sent. Saving records the request with its purpose; a response is checked against a
 * live request of this provider; the request is spent by `acs` itself (consumeRequest), once.
 */
function requestStore(
  db: Db,
  providerId: string,
  purpose: 'signin' | 'link',
  userId: string | null,
  bindingHash: string | null = null,
): CacheProvider {
  return {
    async saveAsync(key, value) {
      const now = Date.now();
      await saml.purgeExpiredRequests(db, new Date(now).toISOString());
      await saml.insertRequest(db, {
        id: key,
        provider_id: providerId,
        purpose,
        user_id: userId,
        created_at: new Date(now).toISOString(),
        expires_at: new Date(now + REQUEST_LIFETIME_MS).toISOString(),
        binding_hash: bindingHash,
      });
      return { value, createdAt: now };
    },
    async getAsync(key) {
      const row = await saml.findLiveRequest(db, providerId, key, nowIso());
      return row ? row.created_at : null;
    },
    async removeAsync(key) {
      return key;
    },
  };
}

function samlFor(urls: Urls, row: saml.SamlProviderRow, store: CacheProvider, idpInitiated: boolean): SAML {
  const sp = serviceEndpoints(urls, row.id);
  return new SAML({
    entryPoint: row.sso_url,
    issuer: sp.entityID,
    audience: sp.entityID,
    callbackUrl: sp.acsURL,
    idpCert: row.certificate,
    idpIssuer: row.idp_entity_id,
    // The assertion must carry the provider's signature; a signed envelope is checked when present.
    wantAssertionsSigned: true,
    wantAuthnResponseSigned: false,
    acceptedClockSkewMs: CLOCK_SKEW_MS,
    identifierFormat: 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress',
    disableRequestedAuthnContext: true,
    // A response must answer a request this server sent (kept in the database), unless the operator allowed
    // sign-in started at the identity provider for this provider; replays are refused by the assertion store.
    validateInResponseTo: idpInitiated ? ValidateInResponseTo.ifPresent : ValidateInResponseTo.always,
    cacheProvider: store,
    requestIdExpirationPeriodMs: REQUEST_LIFETIME_MS,
  });
}

/** A sign-in attempt refused: 401 with the reason, which the route also logs. */
export class SsoRefusedError extends DomainError {
  constructor(reason: string) {
    super(401, `SAML sign-in refused: ${reason}`);
  }
}

async function loadProviderForFlow(db: Db, providerId: string) {
  const row = await saml.findProvider(db, providerId);
  if (!row) throw new NotFoundError('SAML provider not found');
  return row;
}

/**
 * The identity provider's sign-in URL carrying a new AuthnRequest, recorded for its answer. A sign-in records the
 * hash of the secret the start sets as a cookie in the browser (`bindingHash`): its answer completes only there.
 */
export async function startUrl(
  db: Db,
  urls: Urls,
  providerId: string,
  purpose: 'signin' | 'link' = 'signin',
  userId: string | null = null,
  bindingHash: string | null = null,
): Promise<string> {
  const row = await loadProviderForFlow(db, providerId);
  const store = requestStore(db, row.id, purpose, userId, bindingHash);
  return samlFor(urls, row, store, false).getAuthorizeUrlAsync('', undefined, {});
}

/** How long a sign-in checked at the ACS URL waits to be completed in its browser. */
const COMPLETION_LIFETIME_MS = 2 * 60_000;

/**
 * Completes a sign-in the ACS URL checked (`acs` answered `kind: 'complete'`), in the browser that started it: the
 * cookie the start set must be the one the request recorded. A response posted from another browser (someone's own
 * valid response, to sign a victim's browser into their account) is refused here.
 */
export async function completeSignIn(
  db: Db,
  config: Config,
  providerId: string,
  completionId: string,
  binding: string | undefined,
  client: SignInClient = {},
) {
  const row = await saml.takeCompletion(db, providerId, completionId);
  if (!row || Date.parse(row.expires_at) <= Date.now()) {
    throw new SsoRefusedError('this sign-in has expired or was completed already: sign in again');
  }
  if (!binding || hashToken(binding) !== row.binding_hash) {
    throw new SsoRefusedError('this sign-in was started in another browser: sign in again from this one');
  }
  const user = await users.findUserById(db, row.user_id);
  if (!user) throw new SsoRefusedError('the account of this identity no longer exists');
  const session = await signIn(db, user.id, config.sessionTtlSeconds, providerId, client);
  return { user, organizationId: row.organization_id, ...session };
}

export async function metadata(db: Db, urls: Urls, providerId: string): Promise<string> {
  const row = await loadProviderForFlow(db, providerId);
  const sp = serviceEndpoints(urls, row.id);
  return generateServiceProviderMetadata({
    issuer: sp.entityID,
    callbackUrl: sp.acsURL,
    identifierFormat: 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress',
    wantAssertionsSigned: true,
  });
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

function attribute(profile: Profile, ...names: string[]): string | undefined {
  for (const name of names) {
    const value = (profile as Record<string, unknown>)[name];
    if (typeof value === 'string' && value.trim()) return value.trim();
    if (Array.isArray(value) && typeof value[0] === 'string' && value[0].trim()) return value[0].trim();
  }
  return undefined;
}

/** Validity end of the assertion: the earliest NotOnOrAfter it states. */
function assertionExpiry(profile: Profile): number {
  const assertion = profile.getAssertion?.() as
    | {
        Assertion?: {
          Conditions?: Array<{ $?: { NotOnOrAfter?: string } }>;
          Subject?: Array<{
            SubjectConfirmation?: Array<{ SubjectConfirmationData?: Array<{ $?: { NotOnOrAfter?: string } }> }>;
          }>;
        };
      }
    | undefined;
  const ends = [
    assertion?.Assertion?.Conditions?.[0]?.$?.NotOnOrAfter,
    assertion?.Assertion?.Subject?.[0]?.SubjectConfirmation?.[0]?.SubjectConfirmationData?.[0]?.$?.NotOnOrAfter,
  ]
    .filter((v): v is string => typeof v === 'string')
    .map((v) => Date.parse(v))
    .filter((v) => Number.isFinite(v));
  return ends.length ? Math.min(...ends) : Date.now() + DEFAULT_ASSERTION_LIFETIME_MS;
}

function assertionId(profile: Profile): string | undefined {
  const assertion = profile.getAssertion?.() as { Assertion?: { $?: { ID?: string } } } | undefined;
  return assertion?.Assertion?.$?.ID;
}

/**
 * Handles the identity provider's POST to the ACS URL.
 *
 * A provider signs in only identities its organization owns: an account it created, or an account whose owner
 * linked it (`POST /v1/user/sso-links`, while signed in with their password). It creates an account (just in
 * time) only for an address of one of the organization's verified e-mail domains, and never for an address
 * that has an account already. A response answering a link request ties the asserted identity to the account
 * that asked, instead of signing in.
 */
export async function acs(
  db: Db,
  config: Config,
  urls: Urls,
  providerId: string,
  samlResponse: string,
  client: SignInClient = {},
) {
  const row = await loadProviderForFlow(db, providerId);
  const idpInitiated = config.samlIdpInitiatedProviders.includes(row.id);
  let profile: Profile | null;
  try {
    ({ profile } = await samlFor(
      urls,
      row,
      requestStore(db, row.id, 'signin', null),
      idpInitiated,
    ).validatePostResponseAsync({ SAMLResponse: samlResponse }));
  } catch (err) {
    throw new SsoRefusedError((err as Error).message || 'invalid SAML response');
  }
  if (!profile) throw new SsoRefusedError('the response holds no assertion');
  if (profile.issuer !== row.idp_entity_id) {
    throw new SsoRefusedError(`unexpected issuer ${String(profile.issuer)} (expected ${row.idp_entity_id})`);
  }
  const id = assertionId(profile);
  if (!id) throw new SsoRefusedError('the assertion has no ID');
  const email = (attribute(profile, 'email', 'mail') ?? profile.nameID ?? '').toLowerCase();
  if (!EMAIL.test(email) || email.length > EMAIL_MAX) {
    throw new SsoRefusedError('the assertion names no e-mail address (NameID or email attribute)');
  }
  const displayName =
    (
      attribute(profile, 'displayName', 'http://schemas.microsoft.com/identity/claims/displayname', 'cn', 'name') ??
      [attribute(profile, 'givenName', 'firstName'), attribute(profile, 'sn', 'lastName', 'surname')]
        .filter(Boolean)
        .join(' ') ??
      ''
    ).slice(0, DISPLAY_NAME_MAX) || email.split('@')[0]!.slice(0, DISPLAY_NAME_MAX);

  // The assertion is spent before anything else, in its own write: even a sign-in refused below cannot be
  // replayed later (say, once the person has linked the provider).
  await saml.purgeExpiredAssertions(db, isoMinus(CLOCK_SKEW_MS));
  const fresh = await saml.recordAssertion(db, {
    provider_id: row.id,
    assertion_id: id,
    expires_at: new Date(assertionExpiry(profile) + CLOCK_SKEW_MS).toISOString(),
  });
  if (!fresh) throw new SsoRefusedError('this assertion was used already (replay)');

  // The request it answers is spent too (node-saml checked that it is a live request of this provider).
  let request: saml.SamlRequestRow | undefined;
  const inResponseTo = typeof profile.inResponseTo === 'string' ? profile.inResponseTo : undefined;
  if (inResponseTo) {
    request = await saml.findLiveRequest(db, row.id, inResponseTo, nowIso());
    if (!request || !(await saml.consumeRequest(db, row.id, inResponseTo))) {
      throw new SsoRefusedError('the request this response answers was answered already or has expired');
    }
  } else if (!idpInitiated) {
    throw new SsoRefusedError('the response answers no request of this server');
  }

  if (request?.purpose === 'link') return link(db, row, request, email);
  // A sign-in request that did not come from the start URL has no browser to complete in.
  if (request && !request.binding_hash) throw new SsoRefusedError('this sign-in was not started here: sign in again');

  return transaction(db, async (tx) => {
    const now = nowIso();
    const identity = await saml.findIdentity(tx, row.id, email);
    let user: users.UserRow | undefined;
    if (identity) {
      user = await users.findUserById(tx, identity.user_id);
    } else {
      const domain = email.split('@')[1]!;
      if (!(await domains.isVerifiedDomainOf(tx, row.organization_id, domain))) {
        throw new SsoRefusedError(
          `${domain} is not a verified e-mail domain of this organization, so its provider cannot create accounts for it`,
        );
      }
      const created: users.UserRow = {
        id: newId(),
        email,
        display_name: displayName,
        password_hash: SSO_ONLY_PASSWORD,
        photo_url: null,
        created_at: now,
        // The organization proved it controls the domain, and its provider asserts the address.
        email_verified_at: now,
      };
      // An existing account is never taken over: its owner links the provider from their account settings.
      if (!(await users.insertUserIfEmailFree(tx, created))) {
        const raced = await saml.findIdentity(tx, row.id, email);
        if (!raced) {
          throw new SsoRefusedError(
            'an account with this e-mail exists and is not linked to this provider: its owner can link it from account settings, signed in with their password',
          );
        }
        // A concurrent first sign-in of the same person created it: the same account.
        user = await users.findUserById(tx, raced.user_id);
      } else {
        user = created;
        await saml.insertIdentity(tx, {
          provider_id: row.id,
          organization_id: row.organization_id,
          subject: email,
          user_id: user.id,
          kind: 'created',
          created_at: now,
        });
        await members.insertMembership(tx, {
          organization_id: row.organization_id,
          user_id: user.id,
          role: row.default_role,
          disabled: 0,
          joined_at: now,
          last_seen_at: null,
          sso: 1,
        });
        if (row.default_team_id && (await teams.findTeam(tx, row.organization_id, row.default_team_id))) {
          await teams.addTeamMemberIfAbsent(tx, {
            team_id: row.default_team_id,
            organization_id: row.organization_id,
            user_id: user.id,
            role: 'member',
            added_at: now,
          });
        }
      }
    }
    if (!user) throw new SsoRefusedError('the account of this identity no longer exists');
    if (row.status !== 'active') await saml.updateProvider(tx, row.id, { status: 'active', updated_at: now });
    // A response to a request is completed in the browser that sent the request (completeSignIn).
    if (request) {
      const completionId = newSecret();
      await saml.insertCompletion(tx, {
        id: completionId,
        provider_id: row.id,
        user_id: user.id,
        organization_id: row.organization_id,
        binding_hash: request.binding_hash!,
        expires_at: new Date(Date.now() + COMPLETION_LIFETIME_MS).toISOString(),
      });
      return { kind: 'complete' as const, user, completionId };
    }
    const session = await signIn(tx, user.id, config.sessionTtlSeconds, row.id, client);
    return { kind: 'signin' as const, user, organizationId: row.organization_id, ...session };
  });
}

/** Completes a link request: the asserted identity now signs in the account that asked for the link. */
async function link(db: Db, row: saml.SamlProviderRow, request: saml.SamlRequestRow, email: string) {
  return transaction(db, async (tx) => {
    const user = request.user_id ? await users.findUserById(tx, request.user_id) : undefined;
    const membership = user && (await members.findMembership(tx, row.organization_id, user.id));
    if (!user || !membership || membership.disabled) {
      throw new SsoRefusedError('the account that asked for this link is no longer a member of the organization');
    }
    // The identity provider must vouch for the account's own address. Otherwise someone could start a link
    // for their own account and lure a colleague, signed in at the identity provider, through it: the
    // colleague's identity would then sign in to the lurer's account.
    if (email !== user.email) {
      throw new SsoRefusedError(
        `the identity provider signed in ${email}, not ${user.email}: a provider is linked only with the account's own address`,
      );
    }
    const taken = await saml.findIdentity(tx, row.id, email);
    if (taken && taken.user_id !== user.id) {
      throw new SsoRefusedError(`the identity ${email} of this provider already signs in another account`);
    }
    if (!taken) {
      const previous = await saml.findIdentityOfUser(tx, row.id, user.id);
      if (previous) {
        throw new SsoRefusedError(
          `this account is already linked to this provider as ${previous.subject}: unlink it first`,
        );
      }
      await saml.insertIdentity(tx, {
        provider_id: row.id,
        organization_id: row.organization_id,
        subject: email,
        user_id: user.id,
        kind: 'linked',
        created_at: nowIso(),
      });
    }
    if (row.status !== 'active') await saml.updateProvider(tx, row.id, { status: 'active', updated_at: nowIso() });
    return { kind: 'link' as const, user, organizationId: row.organization_id };
  });
}

/**
 * Starts linking a provider to the caller's account: only from a password sign-in, with the password typed
 * again, and only for a provider of an organization the caller is a member of. Returns the identity
 * provider's URL to send the browser to.
 */
export async function startLink(
  ctx: ServiceContext,
  auth: { ssoProviderId: string | null },
  providerId: string,
  password: string,
) {
  if (auth.ssoProviderId !== null) {
    throw new ForbiddenError('Link a sign-in provider while signed in with your password, not through single sign-on');
  }
  const user = await users.findUserById(ctx.db, ctx.actor.userId);
  const ok = user && isPasswordHash(user.password_hash) && (await verifyPassword(password, user.password_hash));
  if (!ok) throw new InvalidError('password', 'is not your current password');
  // The provider will assert this address: it must be one the account proved it reads.
  if (!user.email_verified_at) {
    throw new ForbiddenError('Verify your e-mail address before linking a sign-in provider to your account');
  }
  const row = await saml.findProvider(ctx.db, providerId);
  // A provider of an organization the caller is not in is as unknown as a missing one.
  if (!row || !(await orgAccess(ctx.db, { userId: ctx.actor.userId }, row.organization_id))) {
    throw new InvalidError('provider', 'no such provider in your organizations');
  }
  return startUrl(ctx.db, ctx.urls, row.id, 'link', ctx.actor.userId);
}

/** The caller's linked and provider-created identities. */
export function listIdentities(ctx: ServiceContext) {
  return saml.identitiesOfUser(ctx.db, ctx.actor.userId);
}

/**
 * Unlinks a provider from the caller's account. The identity a provider created stays while the account has
 * no password: it is the only way in. False when there was no such link.
 */
export async function unlink(ctx: ServiceContext, providerId: string) {
  const identity = await saml.findIdentityOfUser(ctx.db, providerId, ctx.actor.userId);
  if (!identity) return false;
  if (identity.kind === 'created') {
    const user = await users.findUserById(ctx.db, ctx.actor.userId);
    if (!user || !isPasswordHash(user.password_hash)) {
      throw new ConflictError('This provider created your account and is its only way in: it cannot be unlinked');
    }
  }
  return saml.deleteIdentity(ctx.db, providerId, ctx.actor.userId);
}
