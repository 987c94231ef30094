import crypto from 'node:crypto';
import type { Db } from '../../../storage/db.js';
import { findSiteById, type SectionRow } from '../../../storage/repos/sites.js';
import { SHARE_SEGMENT, SITES_PREFIX } from '../../../lib/urls.js';
import { NotFoundError, UnauthorizedError } from '../../errors.js';
import type { SiteCache } from './cache.js';
import { signSiteToken } from './site-token.js';
import { visibleSiteSpaces, visitorAccess } from './visitor-access.js';

/**
 * `POST /v1/urls/published` (0.143.2 resolvePublishedContentByUrl): which site, section, site space and space a
 * URL of a published site shows, and a site API token to read them with. A renderer of published sites (GitBook's
 * own) asks this for every request, for the URL and for shorter forms of it, and keeps the answer that is
 * `complete` or that answers the whole URL.
 *
 * The URLs are those of this server (`PUBLIC_URL/sites/{siteId}/[~share/{key}/][{section}/][{site space}/]
 * [{page path}]`), whatever their scheme. A site is checked as the published site checks a visitor
 * (visitor-access.ts): unpublished sites, share-link sites without an active key and unknown URLs answer 404; a
 * visitor-auth site without an acceptable `visitor.jwtToken` answers the redirect to its sign-in URL (401 when it
 * has none, or when the token is refused and no redirect was asked for).
 */

export interface ResolveUrlInput {
  url: string;
  redirectOnError?: boolean;
  visitor?: { jwtToken?: string; unsignedClaims?: Record<string, unknown> };
}

export interface PublishedSiteContentAnswer {
  site: string;
  siteSection?: string;
  siteSpace: string;
  space: string;
  organization: string;
  revision: string;
  pathname: string;
  basePath: string;
  siteBasePath: string;
  apiToken: string;
  complete: boolean;
  canonicalUrl: string;
  shareKey?: string;
  contextId?: string;
}

export type UrlResolution =
  | { kind: 'content'; content: PublishedSiteContentAnswer }
  | { kind: 'redirect'; redirect: string; target: 'application' | 'content' | 'external' };

const notFound = () => new NotFoundError('No published content at this URL');

/** Where this server's published sites are: PUBLIC_URL's origin and host, and the path of `/sites/` under it. */
function sitesRoot(publicUrl: string) {
  const base = new URL(publicUrl);
  return {
    origin: base.origin,
    host: base.host.toLowerCase(),
    path: `${base.pathname.replace(/\/+$/, '')}${SITES_PREFIX}/`,
  };
}

/** The URL's path segments under this server's published sites (decoded), or undefined when it is not one. */
function siteSegments(sites: ReturnType<typeof sitesRoot>, raw: string): string[] | undefined {
  let url: URL;
  try {
    url = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(raw) ? raw : `https://${raw}`);
  } catch {
    return undefined;
  }
  if (url.host.toLowerCase() !== sites.host || !url.pathname.startsWith(sites.path)) return undefined;
  try {
    return url.pathname.slice(sites.path.length).split('/').filter(Boolean).map(decodeURIComponent);
  } catch {
    return undefined;
  }
}

/** The sign-in URL of a visitor-auth site, told to come back to `url`. */
function signIn(fallbackUrl: string, url: string): UrlResolution {
  const target = new URL(fallbackUrl);
  target.searchParams.set('location', url);
  return { kind: 'redirect', redirect: target.toString(), target: 'external' };
}

export async function resolvePublishedUrl(
  db: Db,
  cache: SiteCache,
  publicUrl: string,
  input: ResolveUrlInput,
): Promise<UrlResolution> {
  const sites = sitesRoot(publicUrl);
  const all = siteSegments(sites, input.url);
  if (!all || all.length === 0) throw notFound();
  const [siteId, ...afterSite] = all as [string, ...string[]];
  const checked = await visitorAccess(db, cache, publicUrl, {
    siteId,
    segments: afterSite,
    queryToken: input.visitor?.jwtToken,
  });
  if ('refused' in checked) {
    const refused = checked.refused;
    if (refused.kind === 'redirect') return signIn(refused.location, input.url);
    if ('status' in refused && refused.status === 401) {
      // A token refused (valid signature, too long a lifetime): the sign-in URL when the caller asks for it.
      const site = input.redirectOnError ? await findSiteById(db, siteId) : undefined;
      if (site?.visitor_fallback_url) return signIn(site.visitor_fallback_url, input.url);
      throw new UnauthorizedError('This site is for authenticated visitors: the visitor token is missing or refused');
    }
    throw notFound();
  }
  const { view } = checked;
  const { site, structure, visible } = view;
  let segments = view.segments;
  const consumed: string[] = [];
  const shareKey = afterSite[0] === SHARE_SEGMENT ? afterSite[1] : undefined;
  const siteBase = [siteId, ...(shareKey !== undefined ? [SHARE_SEGMENT, shareKey] : [])];

  // The section and site space, as the published site picks them (dispatch.ts): a segment naming one, otherwise
  // the default. The answer is complete when no further segment could name a section or a site space: when the
  // URL named the site space.
  let section: SectionRow | undefined;
  let complete = true;
  if (structure.sections.length > 0) {
    section = visible.sections.find((s) => s.path === segments[0]);
    if (section) {
      consumed.push(segments[0]!);
      segments = segments.slice(1);
    } else {
      section = visible.sections.find((s) => s.id === site.default_section_id) ?? visible.sections[0];
    }
    if (!section) throw notFound();
  }
  const candidates = visible.siteSpaces.get(section?.id ?? '') ?? [];
  let siteSpace = candidates.find((s) => s.path === segments[0]);
  if (siteSpace) {
    consumed.push(segments[0]!);
    segments = segments.slice(1);
  } else {
    const pointer = section ? section.default_site_space_id : site.default_site_space_id;
    siteSpace = candidates.find((s) => s.id === pointer) ?? candidates[0];
    // The next segment may still name it: this server's own URLs always do.
    complete = false;
  }
  if (!siteSpace) throw notFound();
  const space = view.spaces.get(siteSpace.space_id)!;

  const spaceIds = visibleSiteSpaces(visible).map((ss) => ss.space_id);
  const claims = Object.keys(view.claims).length > 0 ? view.claims : undefined;
  const apiToken = await signSiteToken(
    db,
    {
      organizationId: site.organization_id,
      siteId: site.id,
      ...(section ? { siteSectionId: section.id } : {}),
      siteSpaceId: siteSpace.id,
      spaceId: space.id,
      spaceIds,
      ...(shareKey !== undefined ? { shareKey } : {}),
      ...(claims ? { claims } : {}),
    },
    { notAfter: typeof claims?.exp === 'number' ? claims.exp : undefined },
  );

  const encode = (parts: string[]) => parts.map(encodeURIComponent).join('/');
  const siteBasePath = `${sites.path}${encode(siteBase)}/`;
  const basePath = consumed.length > 0 ? `${siteBasePath}${encode(consumed)}/` : siteBasePath;
  const pathname = segments.join('/');
  return {
    kind: 'content',
    content: {
      site: site.id,
      ...(section ? { siteSection: section.id } : {}),
      siteSpace: siteSpace.id,
      space: space.id,
      organization: site.organization_id,
      revision: space.revision_id,
      pathname,
      basePath,
      siteBasePath,
      apiToken,
      complete,
      canonicalUrl: `${sites.origin}${basePath}${encode(segments)}`,
      ...(shareKey !== undefined ? { shareKey } : {}),
      // What this visitor sees depends on their claims: the renderer keys what it keeps by this.
      ...(claims
        ? { contextId: crypto.createHash('sha256').update(JSON.stringify(claims)).digest('hex').slice(0, 32) }
        : {}),
    },
  };
}
