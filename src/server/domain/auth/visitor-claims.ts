import crypto from 'node:crypto';
import { SignJWT, jwtVerify, errors as joseErrors } from 'jose';
import type { Executor } from '../../storage/db.js';
import { serverKey } from './server-keys.js';
import { findMembership } from '../../storage/repos/members.js';
import { teamIdsOfMember } from '../../storage/repos/teams.js';
import { findUserById } from '../../storage/repos/users.js';
import { findOrganization } from '../../storage/repos/organizations.js';
import { providerOrganization } from '../../storage/repos/saml.js';
import { ROLES, type Role } from '../../../shared/contract/common.js';

/**
 * `serviceVisitorClaims`: a JWT (HS256) that this server signs for a member of an organization, carrying their
 * claims, so that a published site can trust who the visitor is. The key lives in the database (table
 * `server_secrets`), created once by whichever process needs it first; every process of a deployment reads the
 * same key, so a token signed by one verifies on all. Processes keep the key in memory after reading it.
 *
 * A token says who the member was when it was signed, not what they are when it is used: whatever trusts one
 * (published sites) calls `currentVisitorClaims`, which checks the membership in the database at that moment.
 */
const KEY_NAME = 'service-visitor-claims-hs256';
export const VISITOR_CLAIMS_ISSUER = 'docspace';
export const VISITOR_CLAIMS_AUDIENCE = 'docspace:visitor-claims';
/** Lifetime of a token: the console pings more often than this. */
export const VISITOR_CLAIMS_TTL_SECONDS = 3600;

export interface ServiceVisitorClaims {
  /** The user's id (the JWT `sub`). */
  userId: string;
  organization: string;
  role: Role | null;
  email: string;
  displayName: string;
  /** Ids of the teams of the organization the member is in. */
  teams: string[];
  sso: boolean;
}

export interface VerifiedVisitorClaims extends ServiceVisitorClaims {
  issuedAt: number;
  expiresAt: number;
  /** The identity provider the credential that asked for the token came through; null: a password sign-in. */
  via: string | null;
}

function signingKey(db: Executor): Promise<Uint8Array> {
  return serverKey(db, KEY_NAME);
}

/**
 * Signs `claims`; `via` is the identity provider the caller's credential came through (null: a password sign-in),
 * so that a site of an organization that enforces SSO can refuse a token asked for with another credential.
 */
export async function signServiceVisitorClaims(
  db: Executor,
  claims: ServiceVisitorClaims,
  via: string | null = null,
): Promise<string> {
  const { userId, ...rest } = claims;
  return new SignJWT({ ...rest, via })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(userId)
    .setIssuer(VISITOR_CLAIMS_ISSUER)
    .setAudience(VISITOR_CLAIMS_AUDIENCE)
    .setIssuedAt()
    .setJti(crypto.randomUUID())
    .setExpirationTime(`${VISITOR_CLAIMS_TTL_SECONDS}s`)
    .sign(await signingKey(db));
}

/**
 * The claims of a token signed by this deployment, or null when it is not one: bad signature, expired, another
 * issuer or audience, or malformed. These are the claims as signed: to trust a visitor, use `currentVisitorClaims`.
 */
export async function verifyServiceVisitorClaims(db: Executor, token: string): Promise<VerifiedVisitorClaims | null> {
  try {
    const { payload } = await jwtVerify(token, await signingKey(db), {
      algorithms: ['HS256'],
      issuer: VISITOR_CLAIMS_ISSUER,
      audience: VISITOR_CLAIMS_AUDIENCE,
    });
    const p = payload as Record<string, unknown>;
    const role =
      p.role === null || (ROLES as readonly unknown[]).includes(p.role) ? (p.role as Role | null) : undefined;
    if (
      typeof payload.sub !== 'string' ||
      typeof p.organization !== 'string' ||
      role === undefined ||
      typeof p.email !== 'string' ||
      typeof p.displayName !== 'string' ||
      !Array.isArray(p.teams) ||
      !p.teams.every((t) => typeof t === 'string') ||
      typeof p.sso !== 'boolean'
    ) {
      return null;
    }
    return {
      userId: payload.sub,
      organization: p.organization,
      role,
      email: p.email,
      displayName: p.displayName,
      teams: p.teams as string[],
      sso: p.sso,
      issuedAt: payload.iat ?? 0,
      expiresAt: payload.exp ?? 0,
      // Tokens signed before `via` was recorded count as password sign-ins.
      via: typeof p.via === 'string' ? p.via : null,
    };
  } catch (err) {
    if (err instanceof joseErrors.JOSEError) return null;
    throw err;
  }
}

/**
 * The visitor claims of a `serviceVisitorClaims` token used on a site of `organizationId`, as they are now, or null.
 * The token must be valid and made for that organization, and its user must still be an enabled member of it with a
 * role: a removed or disabled member, or a guest (guests do not see the organization's sites), gets null, however
 * long the token still runs. Role, teams, sso, e-mail and display name are read from the database, not from the
 * token, so a demotion or a team change applies at the next request.
 */
export async function currentVisitorClaims(
  db: Executor,
  token: string,
  organizationId: string,
): Promise<ServiceVisitorClaims | null> {
  const signed = await verifyServiceVisitorClaims(db, token);
  if (!signed || signed.organization !== organizationId) return null;
  const [membership, user, teams, organization] = await Promise.all([
    findMembership(db, organizationId, signed.userId),
    findUserById(db, signed.userId),
    teamIdsOfMember(db, organizationId, signed.userId),
    findOrganization(db, organizationId),
  ]);
  if (!membership || membership.disabled || !user) return null;
  const role = (ROLES as readonly unknown[]).includes(membership.role) ? (membership.role as Role) : null;
  if (role === null) return null;
  // Enforced SSO (the organization's or the member's) applies to the token at once, as to every API path: it must
  // have been asked for with a credential that came through one of the organization's providers (admins excepted,
  // as there; see enforceSso in permissions/resolver.ts).
  if ((organization?.sso === 1 || membership.sso === 1) && role !== 'admin') {
    const through = signed.via ? await providerOrganization(db, signed.via) : undefined;
    if (through !== organizationId) return null;
  }
  return {
    userId: user.id,
    organization: organizationId,
    role,
    email: user.email,
    displayName: user.display_name,
    teams,
    sso: membership.sso === 1,
  };
}
