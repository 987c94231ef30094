import { SignJWT, jwtVerify, decodeJwt } from 'jose';
import type { Executor } from '../../../storage/db.js';
import { serverKey } from '../../auth/server-keys.js';

/**
 * Site API tokens: the `apiToken` of a published URL's resolution (`POST /v1/urls/published`), the 0.143.2
 * `SiteAPIToken`. A JWT (HS256) this deployment signs, which a renderer of published sites (GitBook's own) sends
 * back as `Authorization: Bearer` to read what the site shows. It names the site, the site space and space the
 * URL resolved to, and the spaces of the site the visitor may see; it gives nothing else (see siteReach in
 * site-reach.ts for what a request with one may read, checked again at every use).
 *
 * The same site, site space, visitor and hour give the same token (its times are those of the hour, HS256 is
 * deterministic): the renderer keys its caches by the token, so a token that changed with every request would make
 * it render every page anew.
 */

const KEY_NAME = 'site-api-token-hs256';
const ISSUER = 'docspace';
const AUDIENCE = 'docspace:site-api';
/** Tokens are made per hour… */
export const SITE_TOKEN_BUCKET_SECONDS = 3600;
/** …and valid for three hours from the start of that hour, so at least two hours after they are handed out. */
export const SITE_TOKEN_TTL_SECONDS = 3 * 3600;

/** What a site token gives access to. */
export interface SiteTokenScope {
  organizationId: string;
  siteId: string;
  siteSectionId?: string;
  siteSpaceId: string;
  spaceId: string;
  /** The spaces of the site this visitor sees (the site spaces' spaces after conditions). */
  spaceIds: string[];
  /** The share key the URL carried (share-link sites). */
  shareKey?: string;
  /** The visitor's verified claims (visitor-auth and adaptive sites), as the site's conditions read them. */
  claims?: Record<string, unknown>;
}

/** A JWT's shape: three base64url parts. Our other tokens (`ds_…`, `dss_…`) never look like this. */
export function looksLikeJwt(token: string): boolean {
  return /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/.test(token) && token.startsWith('eyJ');
}

/**
 * Signs a token for `scope`, valid from the start of the current hour for SITE_TOKEN_TTL_SECONDS, and no longer
 * than `notAfter` (the expiry of the visitor token it was made from).
 */
export async function signSiteToken(
  db: Executor,
  scope: SiteTokenScope,
  opts: { nowSeconds?: number; notAfter?: number } = {},
): Promise<string> {
  const now = Math.floor(opts.nowSeconds ?? Date.now() / 1000);
  const issued = now - (now % SITE_TOKEN_BUCKET_SECONDS);
  const expires = Math.min(issued + SITE_TOKEN_TTL_SECONDS, opts.notAfter ?? Infinity);
  const payload: Record<string, unknown> = {
    kind: 'site',
    organization: scope.organizationId,
    spaces: [...new Set(scope.spaceIds)].sort(),
    site: scope.siteId,
    siteSpace: scope.siteSpaceId,
    ...(scope.siteSectionId ? { siteSection: scope.siteSectionId } : {}),
    space: scope.spaceId,
    ...(scope.shareKey ? { shareKey: scope.shareKey } : {}),
    ...(scope.claims && Object.keys(scope.claims).length > 0 ? { claims: scope.claims } : {}),
  };
  return new SignJWT(payload)
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuer(ISSUER)
    .setAudience(AUDIENCE)
    .setIssuedAt(issued)
    .setExpirationTime(expires)
    .sign(await serverKey(db, KEY_NAME));
}

const isString = (v: unknown): v is string => typeof v === 'string' && v.length > 0;

/** The scope of a site token this deployment signed and that has not expired; undefined for anything else. */
export async function verifySiteToken(db: Executor, token: string): Promise<SiteTokenScope | undefined> {
  // Only a token that says it is a site token is checked against the key (cheap refusal of anything else).
  let kind: unknown;
  try {
    kind = decodeJwt(token).kind;
  } catch {
    return undefined;
  }
  if (kind !== 'site') return undefined;
  let payload: Record<string, unknown>;
  try {
    ({ payload } = await jwtVerify(token, await serverKey(db, KEY_NAME), {
      algorithms: ['HS256'],
      issuer: ISSUER,
      audience: AUDIENCE,
      requiredClaims: ['exp'],
    }));
  } catch {
    return undefined;
  }
  const { organization, site, siteSpace, space, spaces, siteSection, shareKey, claims } = payload;
  if (!isString(organization) || !isString(site) || !isString(siteSpace) || !isString(space)) return undefined;
  if (!Array.isArray(spaces) || !spaces.every(isString)) return undefined;
  return {
    organizationId: organization,
    siteId: site,
    siteSpaceId: siteSpace,
    spaceId: space,
    spaceIds: spaces,
    ...(isString(siteSection) ? { siteSectionId: siteSection } : {}),
    ...(isString(shareKey) ? { shareKey } : {}),
    ...(claims && typeof claims === 'object' && !Array.isArray(claims)
      ? { claims: claims as Record<string, unknown> }
      : {}),
  };
}
