import { jwtVerify, type JWTPayload } from 'jose';
import { currentVisitorClaims } from '../../auth/visitor-claims.js';
import { findMembership } from '../../../storage/repos/members.js';
import { asRole } from '../../permissions/roles.js';
import { sitePolicy } from '../policy.js';
import { PREVIEW_AUDIENCE, previewKey } from '../preview.js';
import type { Db } from '../../../storage/db.js';
import * as repo from '../../../storage/repos/sites.js';
import type { SiteRow, SectionRow, SiteSpaceRow } from '../../../storage/repos/sites.js';
import type { SpaceRow } from '../../../storage/repos/spaces.js';
import { SHARE_SEGMENT, publishedSiteUrl } from '../../../lib/urls.js';
import type { Customization } from '../../../../shared/contract/customization.js';
import { conditionMatches } from '../conditions.js';
import { type Structure, orderedSections, siteSpacesIn } from '../model.js';
import type { ServeRequest, ServeResult } from './answer.js';
import type { SiteCache } from './cache.js';
import { messagePage, notFound } from './page-html.js';

/**
 * Who sees what of a published site. A request is checked before anything is served: the site is published, the
 * share key (share-link sites) is active, the visitor token (visitor-auth sites) is acceptable, or a site manager's
 * preview grant opens it. The visitor's claims then decide which sections, site spaces and header links they see.
 */

/** Query parameter and cookie carrying the visitor JWT. */
export const VISITOR_TOKEN_PARAM = 'jwt_token';

export const VISITOR_COOKIE = 'visitor_token';

/**
 * The longest a visitor JWT signed with a site's key may be valid: `exp - iat`, or `exp - now` when it has no `iat`
 * (and `exp - now` too when its `iat` lies in the future). A token without `exp`, or valid for longer, is refused:
 * a leaked link would otherwise open the site for ever. Seven days, plus a minute for the clocks of the signer and
 * this server to disagree.
 */
export const VISITOR_TOKEN_MAX_LIFETIME_SECONDS = 7 * 24 * 3600;
const VISITOR_TOKEN_CLOCK_SKEW_SECONDS = 60;

/** Why a visitor JWT that verifies with the site's key is refused anyway, or undefined when it is acceptable. */
export function visitorTokenLifetimeProblem(payload: JWTPayload, nowSeconds = Date.now() / 1000): string | undefined {
  const days = VISITOR_TOKEN_MAX_LIFETIME_SECONDS / 86400;
  if (typeof payload.exp !== 'number') {
    return `This visitor token has no expiry time (exp): tokens for this site must expire within ${days} days.`;
  }
  const from = typeof payload.iat === 'number' ? Math.min(payload.iat, nowSeconds) : nowSeconds;
  if (payload.exp - from > VISITOR_TOKEN_MAX_LIFETIME_SECONDS + VISITOR_TOKEN_CLOCK_SKEW_SECONDS) {
    return `This visitor token is valid for too long: tokens for this site must expire within ${days} days of being issued.`;
  }
  return undefined;
}

/** What a visitor token gives: claims, nothing (absent, invalid, expired), or a refusal with its reason. */
type VisitorToken =
  { kind: 'claims'; claims: Record<string, unknown> } | { kind: 'none' } | { kind: 'refused'; reason: string };

/** What a visitor may see of a site, once the share key and the visitor token have been checked (visitorAccess). */
export interface VisitorView {
  site: SiteRow;
  /** The path segments after the site root and the share key. */
  segments: string[];
  structure: Structure;
  spaces: Map<string, SpaceRow>;
  visible: Visible;
  /** Root URL of the site as this visitor reaches it (with the share key). */
  root: string;
  /** The answer depends on who asks (share key, visitor token). */
  personal: boolean;
  noindex: boolean;
  keepToken?: string;
  /** The visitor's claims (empty without a token, or where claims are not read): header links' conditions. */
  claims: Record<string, unknown>;
}

/** The sections and site spaces a visitor sees (visibleStructure). */
export interface Visible {
  sections: SectionRow[];
  /** Visible site spaces by parent ('' = root). */
  siteSpaces: Map<string, SiteSpaceRow[]>;
}

/**
 * The verified claims of a visitor token: a JWT signed with the site's key (HS256) that expires within
 * VISITOR_TOKEN_MAX_LIFETIME_SECONDS, or the `serviceVisitorClaims` that `POST /v1/orgs/{id}/ping` gives a member
 * of the site's organization (signed by this deployment). For the latter, the user must still be an enabled
 * member with a role when the token is used, and the claims (`userId`, `role`, `email`, `displayName`, `teams`,
 * `sso`) are read from the database then.
 */
async function readVisitorToken(db: Db, site: SiteRow, token: string | undefined): Promise<VisitorToken> {
  if (!token) return { kind: 'none' };
  let payload: JWTPayload | undefined;
  try {
    ({ payload } = await jwtVerify(token, new TextEncoder().encode(site.visitor_key), { algorithms: ['HS256'] }));
  } catch {
    payload = undefined;
  }
  if (payload) {
    const problem = visitorTokenLifetimeProblem(payload);
    return problem ? { kind: 'refused', reason: problem } : { kind: 'claims', claims: payload };
  }
  const member = await currentVisitorClaims(db, token, site.organization_id);
  return member ? { kind: 'claims', claims: { ...member } } : { kind: 'none' };
}

/**
 * Whether `token` is a preview grant of this site (signed with previewKey, unexpired) whose user still manages the
 * site's organization: checked at every use, so a member removed or demoted loses it at once.
 */
async function previewGrant(db: Db, site: SiteRow, token: string | undefined): Promise<boolean> {
  if (!token) return false;
  let userId: string | undefined;
  try {
    const { payload } = await jwtVerify(token, previewKey(site), {
      algorithms: ['HS256'],
      audience: PREVIEW_AUDIENCE,
    });
    userId = payload.sub;
  } catch {
    return false;
  }
  if (!userId) return false;
  const member = await findMembership(db, site.organization_id, userId);
  return !!member && !member.disabled && sitePolicy.can(asRole(member.role), 'edit');
}

/** The spaces the site's structure shows, by id. */
export async function spacesOf(db: Db, structure: Structure): Promise<Map<string, SpaceRow>> {
  const rows = await repo.spacesByIds(db, [...new Set(structure.siteSpaces.map((s) => s.space_id))]);
  return new Map(rows.map((s): [string, SpaceRow] => [s.id, s]));
}

/**
 * What this visitor may see of the site, or the answer refusing them: unknown or unpublished site, share-link site
 * without an active key, visitor-auth site without an acceptable token. Sections and site spaces whose condition
 * does not match the visitor's claims are left out, as are spaces in the trash. Pages and search both go through
 * here, so a search never finds what the visitor could not open.
 */
export async function visitorAccess(
  db: Db,
  cache: SiteCache,
  publicUrl: string,
  req: ServeRequest,
): Promise<{ view: VisitorView } | { refused: ServeResult }> {
  const site = await repo.findSiteById(db, req.siteId);
  if (!site || site.published !== 1) return { refused: notFound(false) };
  // A site manager's preview grant (from the console's "Open live site") opens any visibility.
  const preview = (await previewGrant(db, site, req.queryToken))
    ? req.queryToken
    : (await previewGrant(db, site, req.cookieToken))
      ? req.cookieToken
      : undefined;
  let segments = req.segments;
  let shareKey: string | undefined;
  if (segments[0] === SHARE_SEGMENT) {
    shareKey = segments[1];
    if (!shareKey || !(await repo.findActiveShareLinkByKey(db, site.id, shareKey))) {
      return { refused: notFound(true) };
    }
    segments = segments.slice(2);
  } else if (site.visibility === 'share-link' && !preview) {
    return { refused: notFound(true) };
  }

  // Visitor claims: required on visitor-auth sites; elsewhere read only when adaptive content is on.
  const fromQuery = await readVisitorToken(db, site, req.queryToken);
  const fromCookie = fromQuery.kind === 'claims' ? undefined : await readVisitorToken(db, site, req.cookieToken);
  const verified =
    fromQuery.kind === 'claims' ? fromQuery.claims : fromCookie?.kind === 'claims' ? fromCookie.claims : undefined;
  if (site.visibility === 'visitor-auth' && !verified && !preview) {
    // A token signed with the site's key but not acceptable: say why, rather than send the visitor round the
    // fallback URL again with a token signed the same way.
    const refused = [fromQuery, fromCookie].find((t) => t?.kind === 'refused');
    if (refused?.kind === 'refused')
      return { refused: messagePage(401, 'Visitor token refused', refused.reason, true) };
    if (site.visitor_fallback_url) {
      const target = new URL(site.visitor_fallback_url);
      target.searchParams.set('location', `${publishedSiteUrl(publicUrl, site.id)}/${segments.join('/')}`);
      return { refused: { kind: 'redirect', location: target.toString() } };
    }
    return {
      refused: messagePage(
        401,
        'Sign-in required',
        'This site is for authenticated visitors: open it from the link you were given.',
        true,
      ),
    };
  }
  const claims = verified && (site.visibility === 'visitor-auth' || site.adaptive_enabled === 1) ? verified : {};

  const structure = await cache.structure(site);
  const spaces = await spacesOf(db, structure);
  return {
    view: {
      site,
      segments,
      structure,
      spaces,
      visible: visibleStructure(structure, spaces, claims),
      root: publishedSiteUrl(publicUrl, site.id, shareKey),
      personal: shareKey !== undefined || verified !== undefined || preview !== undefined,
      noindex: site.visibility !== 'public' || preview !== undefined,
      keepToken: fromQuery.kind === 'claims' || (preview && preview === req.queryToken) ? req.queryToken : undefined,
      claims,
    },
  };
}

/** Every site space this visitor sees, whatever its section. */
export function visibleSiteSpaces(visible: Visible): SiteSpaceRow[] {
  return [...visible.siteSpaces.values()].flat();
}

/** Sections and site spaces this visitor sees: conditions that match, spaces that exist and are not in the trash. */
export function visibleStructure(
  structure: Structure,
  spaces: Map<string, SpaceRow>,
  claims: Record<string, unknown>,
): Visible {
  const sections = orderedSections(structure).filter((s) => conditionMatches(s.condition, claims));
  const parents = structure.sections.length > 0 ? sections.map((s) => s.id) : [''];
  const siteSpaces = new Map<string, SiteSpaceRow[]>();
  for (const parent of parents) {
    siteSpaces.set(
      parent,
      siteSpacesIn(structure, parent || null).filter((ss) => {
        const space = spaces.get(ss.space_id);
        return space && !space.deleted_at && conditionMatches(ss.condition, claims);
      }),
    );
  }
  return { sections, siteSpaces };
}

/**
 * The header links a visitor sees (those whose condition their claims match), and which they are by position (part
 * of a rendered page's cache key: two links may share a title).
 */
export function visibleHeaderItems(settings: Customization, claims: Record<string, unknown>) {
  const shown: number[] = [];
  const items = settings.header.links.filter((link, i) => {
    const visible = conditionMatches(link.condition ?? null, claims);
    if (visible) shown.push(i);
    return visible;
  });
  return { items, shown };
}
