import crypto from 'node:crypto';
import { SAML, ValidateInResponseTo, generateServiceProviderMetadata, type Profile } from '@node-saml/node-saml';
import type { Config } from '../../config.js';
import type { ServiceContext } from '../context.js';
import { transaction, type Db, type Executor } from '../../storage/db.js';
import * as saml from '../../storage/repos/saml.js';
import * as teams from '../../storage/repos/teams.js';
import * as members from '../../storage/repos/members.js';
import * as users from '../../storage/repos/users.js';
import { keysetPage } from '../../storage/pagination.js';
import { newId } from '../../lib/ids.js';
import { nowIso, isoMinus } from '../../lib/time.js';
import { requireOrgAccess, requireOrgRole } from '../permissions/resolver.js';
import { DomainError, InvalidError, NotFoundError } from '../errors.js';
import { signIn } from '../auth/service.js';
import type { Urls } from '../../presenters/urls.js';
import type { CreateSamlProviderBody, UpdateSamlProviderBody } from '../../../shared/contract/saml.js';

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
  requireOrgRole(access, 'admin', 'manage single sign-on');
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
 * The sign-in page's list of an organization's providers. Public: the page is shown before anyone signs in.
 * It holds only labels and start URLs, and an unknown organization answers an empty list like one without SSO,
 * so it tells nothing about which organizations exist.
 */
export async function listLogins(db: Db, urls: Urls, organizationId: string) {
  const rows = await saml.allProviders(db, organizationId);
  return rows.map((row) => ({ id: row.id, label: row.label, startURL: serviceEndpoints(urls, row.id).startURL }));
}

function samlFor(urls: Urls, row: saml.SamlProviderRow): SAML {
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
    // Requests are not remembered (sign-in may also start at the identity provider); replays are refused by
    // the assertion-id store instead, which every process shares.
    validateInResponseTo: ValidateInResponseTo.never,
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

/** The identity provider's sign-in URL carrying a new AuthnRequest. */
export async function startUrl(db: Db, urls: Urls, providerId: string): Promise<string> {
  const row = await loadProviderForFlow(db, providerId);
  return samlFor(urls, row).getAuthorizeUrlAsync('', undefined, {});
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
 * Handles the identity provider's POST to the ACS URL. On success: the user (found, or created) is a member
 * of the organization marked SSO, the provider is active, and a console session is returned.
 *
 * An existing account signs in this way only if it is already a member of the organization marked as an SSO
 * member (by an earlier SSO sign-in, or by an admin with `POST …/members/{userId}/sso`): otherwise whoever
 * controls an organization's identity provider could sign in as any account of the server.
 */
export async function acs(db: Db, config: Config, urls: Urls, providerId: string, samlResponse: string) {
  const row = await loadProviderForFlow(db, providerId);
  let profile: Profile | null;
  try {
    ({ profile } = await samlFor(urls, row).validatePostResponseAsync({ SAMLResponse: samlResponse }));
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
  if (!EMAIL.test(email) || email.length > 254) {
    throw new SsoRefusedError('the assertion names no e-mail address (NameID or email attribute)');
  }
  const displayName =
    (
      attribute(profile, 'displayName', 'http://schemas.microsoft.com/identity/claims/displayname', 'cn', 'name') ??
      [attribute(profile, 'givenName', 'firstName'), attribute(profile, 'sn', 'lastName', 'surname')]
        .filter(Boolean)
        .join(' ') ??
      ''
    ).slice(0, 100) || email.split('@')[0]!.slice(0, 100);

  // The assertion is spent before anything else, in its own write: even a sign-in refused below cannot be
  // replayed later (say, once an admin has marked the member SSO).
  await saml.purgeExpiredAssertions(db, isoMinus(CLOCK_SKEW_MS));
  const fresh = await saml.recordAssertion(db, {
    provider_id: row.id,
    assertion_id: id,
    expires_at: new Date(assertionExpiry(profile) + CLOCK_SKEW_MS).toISOString(),
  });
  if (!fresh) throw new SsoRefusedError('this assertion was used already (replay)');

  return transaction(db, async (tx) => {
    const now = nowIso();
    const created: users.UserRow = {
      id: newId(),
      email,
      display_name: displayName,
      password_hash: SSO_ONLY_PASSWORD,
      photo_url: null,
      created_at: now,
    };
    let user = await users.findUserByEmail(tx, email);
    // A concurrent first sign-in of the same person may create the account between the read and the insert:
    // then it is an existing account, checked like any other.
    if (!user && (await users.insertUserIfEmailFree(tx, created))) {
      user = created;
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
    } else {
      user ??= (await users.findUserByEmail(tx, email))!;
      const membership = await members.findMembership(tx, row.organization_id, user.id);
      if (!membership) {
        throw new SsoRefusedError(
          'an account with this e-mail exists but is not a member of the organization: an admin must add it, then mark it as an SSO member',
        );
      }
      if (membership.disabled) throw new SsoRefusedError('this membership is disabled');
      if (!membership.sso) {
        throw new SsoRefusedError(
          'this member is not an SSO member: an admin must mark them with POST /v1/orgs/{organizationId}/members/{userId}/sso',
        );
      }
    }
    if (row.status !== 'active') await saml.updateProvider(tx, row.id, { status: 'active', updated_at: now });
    const session = await signIn(tx, user.id, config.sessionTtlSeconds);
    return { user, organizationId: row.organization_id, ...session };
  });
}
