import crypto from 'node:crypto';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { Element, ElementContent } from 'hast';
import { toHtml } from 'hast-util-to-html';
import { jwtVerify, type JWTPayload } from 'jose';
import { currentVisitorClaims } from '../auth/visitor-claims.js';
import { findMembership } from '../../storage/repos/members.js';
import { asRole, atLeast } from '../permissions/roles.js';
import { SITE_MANAGE_ROLE } from './access.js';
import { PREVIEW_AUDIENCE, previewKey } from './preview.js';
import type { Db } from '../../storage/db.js';
import * as repo from '../../storage/repos/sites.js';
import type { SiteRow, SectionRow, SiteSpaceRow } from '../../storage/repos/sites.js';
import type { SpaceRow } from '../../storage/repos/spaces.js';
import { findRevision } from '../../storage/repos/spaces.js';
import { getBlob } from '../../storage/repos/objects.js';
import { RevisionReader, type FileEntry, type PageNode } from '../content/model.js';
import { blocksToMarkdown } from '../content/blocks.js';
import { FILES_SEGMENT, SEARCH_SEGMENT, SHARE_SEGMENT, publishedSiteUrl } from '../../presenters/site.js';
import { presentBySpace } from '../../presenters/search.js';
import { SEARCH_QUERY_MAX, type SearchSpaceResult, type TextRange } from '../../../shared/contract/search.js';
import { liveSpaces, scopedSiteSpaces, searchPages, type PageHit, type SearchHits } from '../search/service.js';
import { LruCache } from '../../lib/lru-cache.js';
import { InvalidError, ServiceUnavailableError } from '../errors.js';
import { conditionMatches } from './conditions.js';
import { type Structure, orderedSections, readStructure, siteSpacesIn, topItems, groupSections } from './model.js';
import { renderMarkdown, resolveHref, type ImageSize, type LinkResolver, type RenderedBody } from './render.js';
import { el, text } from './hast.js';
import { operationBlocks } from '../../../shared/openapi-blocks.js';
import { withoutTitle } from '../../../shared/page-title.js';
import { currentDeps, loadOperations, sameDeps, type OperationDeps } from '../openapi/operations.js';
import { workers } from '../../workers/pool.js';
import { ancestorIds, breadcrumbs, onThisPage, pagination, siteHeader, themedDocument } from './theme.js';
import {
  announcement,
  favicon,
  fixedTheme,
  footer,
  headerLinks,
  logo,
  lookStyles,
  safeHref,
  type RefResolver,
} from './published/look.js';
import { siteCustomization, siteSpaceCustomization } from './customization.js';
import type { Customization, HeaderItem } from '../../../shared/contract/customization.js';

/**
 * Serves published sites as HTML. Per request the database is asked for what may have changed: the site row (its
 * `version` goes up with every change to the site or its structure), the share link when one is used, and the
 * site's spaces (their current revision). Everything else is cached under keys made of those values, which are
 * immutable inputs: the structure by (site, version), a space's page tree by revision id, and each rendered page by
 * all that it shows. A merge or a structure change makes new keys, so it is visible at the next request, in every
 * process sharing the database, with no invalidation step.
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

export interface ServeRequest {
  siteId: string;
  /** Decoded path segments after the site's root. */
  segments: string[];
  /** Visitor JWT from the query string (it is then kept in a cookie) or from the cookie. */
  queryToken?: string;
  cookieToken?: string;
  /** Query parameters of a search (`~search`): `q`, `in`, `page`, `format`. */
  search?: Record<string, string | undefined>;
}

export type ServeResult =
  | {
      kind: 'html';
      status: number;
      html: string;
      /** Ask robots not to index (every visibility except public). */
      noindex: boolean;
      /** The answer depends on who asks (share key, visitor token): never stored by shared caches. */
      private: boolean;
      /** A visitor token given in the query string and valid: keep it in a cookie scoped to the site. */
      keepToken?: string;
      /** The strong ETag of `html` (a digest of its bytes), on pages everyone may cache: `If-None-Match` gets 304. */
      etag?: string;
      /** `html` compressed, once per rendered page and kept with it (rendered pages only). */
      encoded?: (coding: 'br' | 'gzip') => Promise<Buffer>;
    }
  | { kind: 'file'; file: FileEntry; data: Buffer; private: boolean }
  /** sitemap.xml, robots.txt, llms.txt, a page's markdown (`<page URL>.md`). */
  | {
      kind: 'text';
      status: number;
      contentType: string;
      body: string;
      private: boolean;
      noindex: boolean;
      keepToken?: string;
    }
  | { kind: 'json'; status: number; body: unknown; private: boolean; noindex: boolean; keepToken?: string }
  | { kind: 'redirect'; location: string };

interface RenderedPage {
  html: string;
  etag: string;
  /** Compressed copies, made on first demand (on libuv's threads) and kept while the page is. */
  encoded: Partial<Record<'br' | 'gzip', Promise<Buffer>>>;
  /** The OpenAPI spec versions its blocks show: the page is rendered again once one of them has a newer one. */
  openapi?: OperationDeps;
}

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/** A rendered page compressed: brotli at quality 9 (done once per rendering, read by every visitor), gzip at 6. */
function encodePage(page: RenderedPage, coding: 'br' | 'gzip'): Promise<Buffer> {
  let done = page.encoded[coding];
  if (!done) {
    done =
      coding === 'br'
        ? brotli(page.html, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 9 } })
        : gzip(page.html, { level: 6 });
    // A failure is not kept: the next visitor tries again.
    done.catch(() => delete page.encoded[coding]);
    page.encoded[coding] = done;
  }
  return done;
}

/** What a visitor may see of a site, once the share key and the visitor token have been checked (see access). */
interface VisitorView {
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

interface SpaceIndex {
  revisionId: string;
  byId: Map<string, PageNode>;
  byPath: Map<string, PageNode>;
  tree: PageNode[];
  first?: PageNode;
  files: Map<string, FileEntry>;
  fileByName: Map<string, string>;
}

interface Visible {
  sections: SectionRow[];
  /** Visible site spaces by parent ('' = root). */
  siteSpaces: Map<string, SiteSpaceRow[]>;
}

function hashKey(parts: unknown[]): string {
  return crypto.createHash('sha256').update(JSON.stringify(parts)).digest('base64url');
}

export class PublishedSites {
  private readonly structures = new LruCache<Structure>(1000);
  /** Customization settings parsed, by site version and site space (the version goes up with any change to them). */
  private readonly settings = new LruCache<Customization>(1000);
  private readonly indexes = new LruCache<SpaceIndex>(64);
  /** Rendered pages, bounded by size (characters of HTML). */
  /** Rendered pages, with the ETag of their bytes (computed once, when rendered). */
  private readonly pages = new LruCache<RenderedPage>(20_000, 64 * 1024 * 1024, (p) => p.html.length);
  /** Pages whose rendering was stopped (time limit), by key, with when: not tried again for a minute. */
  private readonly failed = new LruCache<number>(1000);

  constructor(
    private readonly db: Db,
    private readonly publicUrl: string,
  ) {}

  /** The site's structure at `version`, read once per version. */
  private async structure(site: SiteRow): Promise<Structure> {
    const key = `${site.id}:${site.version}`;
    const hit = this.structures.get(key);
    if (hit) return hit;
    const structure = await readStructure(this.db, site.id);
    // Cache it only when no write came in between: then it is exactly the structure of `version`.
    const again = await repo.findSiteById(this.db, site.id);
    if (again?.version === site.version) this.structures.set(key, structure);
    return structure;
  }

  private async index(revisionId: string): Promise<SpaceIndex | undefined> {
    const hit = this.indexes.get(revisionId);
    if (hit) return hit;
    const revision = await findRevision(this.db, revisionId);
    if (!revision) return undefined;
    const reader = new RevisionReader(this.db, revision);
    const [tree, files] = await Promise.all([reader.tree(), reader.files()]);
    const byId = new Map<string, PageNode>();
    const byPath = new Map<string, PageNode>();
    let first: PageNode | undefined;
    const visit = (nodes: PageNode[]) => {
      for (const node of nodes) {
        byId.set(node.id, node);
        if (node.version.type === 'document') {
          if (!byPath.has(node.path)) byPath.set(node.path, node);
          first ??= node;
        }
        visit(node.pages);
      }
    };
    visit(tree);
    const index: SpaceIndex = {
      revisionId,
      byId,
      byPath,
      tree,
      first,
      files: new Map(files),
      fileByName: new Map(files.map(([id, f]) => [f.name, id])),
    };
    this.indexes.set(revisionId, index);
    return index;
  }

  /**
   * The verified claims of a visitor token: a JWT signed with the site's key (HS256) that expires within
   * VISITOR_TOKEN_MAX_LIFETIME_SECONDS, or the `serviceVisitorClaims` that `POST /v1/orgs/{id}/ping` gives a member
   * of the site's organization (signed by this deployment). For the latter, the user must still be an enabled
   * member with a role when the token is used, and the claims (`userId`, `role`, `email`, `displayName`, `teams`,
   * `sso`) are read from the database then.
   */
  private async claims(site: SiteRow, token: string | undefined): Promise<VisitorToken> {
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
    const member = await currentVisitorClaims(this.db, token, site.organization_id);
    return member ? { kind: 'claims', claims: { ...member } } : { kind: 'none' };
  }

  /** A site's customization, or a site space's (the site's with its overrides), parsed once per site version. */
  private settingsOf(site: SiteRow, siteSpace?: SiteSpaceRow): Customization {
    const key = `${site.id}:${site.version}:${siteSpace?.id ?? ''}`;
    let settings = this.settings.get(key);
    if (!settings) {
      settings = siteSpace ? siteSpaceCustomization(site, siteSpace).settings : siteCustomization(site);
      this.settings.set(key, settings);
    }
    return settings;
  }

  /** The spaces the site's structure shows, by id. */
  private async spacesOf(structure: Structure): Promise<Map<string, SpaceRow>> {
    const rows = await repo.spacesByIds(this.db, [...new Set(structure.siteSpaces.map((s) => s.space_id))]);
    return new Map(rows.map((s): [string, SpaceRow] => [s.id, s]));
  }

  /**
   * Whether `token` is a preview grant of this site (signed with previewKey, unexpired) whose user still manages the
   * site's organization: checked at every use, so a member removed or demoted loses it at once.
   */
  private async previewGrant(site: SiteRow, token: string | undefined): Promise<boolean> {
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
    const member = await findMembership(this.db, site.organization_id, userId);
    return !!member && !member.disabled && atLeast(asRole(member.role), SITE_MANAGE_ROLE);
  }

  /**
   * What this visitor may see of the site, or the answer refusing them: unknown or unpublished site, share-link site
   * without an active key, visitor-auth site without an acceptable token. Sections and site spaces whose condition
   * does not match the visitor's claims are left out, as are spaces in the trash. Pages and search both go through
   * here, so a search never finds what the visitor could not open.
   */
  private async access(req: ServeRequest): Promise<{ view: VisitorView } | { refused: ServeResult }> {
    const site = await repo.findSiteById(this.db, req.siteId);
    if (!site || site.published !== 1) return { refused: notFound(false) };
    // A site manager's preview grant (from the console's "Open live site") opens any visibility.
    const preview = (await this.previewGrant(site, req.queryToken))
      ? req.queryToken
      : (await this.previewGrant(site, req.cookieToken))
        ? req.cookieToken
        : undefined;
    let segments = req.segments;
    let shareKey: string | undefined;
    if (segments[0] === SHARE_SEGMENT) {
      shareKey = segments[1];
      if (!shareKey || !(await repo.findActiveShareLinkByKey(this.db, site.id, shareKey))) {
        return { refused: notFound(true) };
      }
      segments = segments.slice(2);
    } else if (site.visibility === 'share-link' && !preview) {
      return { refused: notFound(true) };
    }

    // Visitor claims: required on visitor-auth sites; elsewhere read only when adaptive content is on.
    const fromQuery = await this.claims(site, req.queryToken);
    const fromCookie = fromQuery.kind === 'claims' ? undefined : await this.claims(site, req.cookieToken);
    const verified =
      fromQuery.kind === 'claims' ? fromQuery.claims : fromCookie?.kind === 'claims' ? fromCookie.claims : undefined;
    if (site.visibility === 'visitor-auth' && !verified && !preview) {
      // A token signed with the site's key but not acceptable: say why, rather than send the visitor round the
      // fallback URL again with a token signed the same way.
      const refused = [fromQuery, fromCookie].find((t) => t?.kind === 'refused');
      if (refused?.kind === 'refused') return { refused: page(401, 'Visitor token refused', refused.reason, true) };
      if (site.visitor_fallback_url) {
        const target = new URL(site.visitor_fallback_url);
        target.searchParams.set('location', `${publishedSiteUrl(this.publicUrl, site.id)}/${segments.join('/')}`);
        return { refused: { kind: 'redirect', location: target.toString() } };
      }
      return {
        refused: page(
          401,
          'Sign-in required',
          'This site is for authenticated visitors: open it from the link you were given.',
          true,
        ),
      };
    }
    const claims = verified && (site.visibility === 'visitor-auth' || site.adaptive_enabled === 1) ? verified : {};

    const structure = await this.structure(site);
    const spaces = await this.spacesOf(structure);
    return {
      view: {
        site,
        segments,
        structure,
        spaces,
        visible: visibleStructure(structure, spaces, claims),
        root: publishedSiteUrl(this.publicUrl, site.id, shareKey),
        personal: shareKey !== undefined || verified !== undefined || preview !== undefined,
        noindex: site.visibility !== 'public' || preview !== undefined,
        keepToken: fromQuery.kind === 'claims' || (preview && preview === req.queryToken) ? req.queryToken : undefined,
        claims,
      },
    };
  }

  /**
   * The site's first page with `settings` for its customization: the console's live preview. As a visitor without
   * claims would see it, published or not, among the site spaces `readable` lets through (those of spaces the
   * caller can read); never cached. Undefined when there is nothing to show.
   */
  async preview(
    site: SiteRow,
    settings: Customization,
    readable: (ss: SiteSpaceRow) => boolean,
  ): Promise<string | undefined> {
    const structure = await this.structure(site);
    const spaces = await this.spacesOf(structure);
    const shown = visibleStructure(structure, spaces, {});
    const visible: Visible = {
      sections: shown.sections,
      siteSpaces: new Map([...shown.siteSpaces].map(([k, v]) => [k, v.filter(readable)])),
    };
    const section =
      structure.sections.length > 0
        ? pickDefault(
            site.default_section_id,
            visible.sections.filter((s) => (visible.siteSpaces.get(s.id) ?? []).length > 0),
          )
        : undefined;
    if (structure.sections.length > 0 && !section) return undefined;
    const candidates = visible.siteSpaces.get(section?.id ?? '') ?? [];
    const siteSpace = pickDefault(section ? section.default_site_space_id : site.default_site_space_id, candidates);
    if (!siteSpace) return undefined;
    const index = await this.index(spaces.get(siteSpace.space_id)!.revision_id);
    if (!index) return undefined;
    const root = publishedSiteUrl(this.publicUrl, site.id);
    return this.render({
      site,
      structure,
      visible,
      spaces,
      root,
      section,
      siteSpace,
      siteSpaceUrl: siteSpaceUrlIn(root, section, siteSpace),
      index,
      node: index.first,
      settings,
      headerItems: settings.header.links.filter((l) => !l.condition),
      preview: true,
    });
  }

  async serve(req: ServeRequest): Promise<ServeResult> {
    const checked = await this.access(req);
    if ('refused' in checked) return checked.refused;
    const { view } = checked;
    if (view.segments[0] === SEARCH_SEGMENT && view.segments.length === 1) return this.search(view, req.search ?? {});
    const only = view.segments.length === 1 ? view.segments[0]! : '';
    if (Object.hasOwn(MACHINE_FILES, only)) {
      return this.machineFile(view, only as keyof typeof MACHINE_FILES);
    }
    const { site, structure, spaces, visible, root, personal } = view;
    let { segments } = view;
    // `<page URL>.md`: the page's markdown, through the same checks as the page.
    const last = segments[segments.length - 1];
    const asMarkdown = last !== undefined && last.endsWith('.md') && last.length > 3;
    if (asMarkdown) segments = [...segments.slice(0, -1), last.slice(0, -3)];

    // Which section and site space: a path segment naming one, otherwise the default (the first visible one when
    // the default is hidden from this visitor).
    const hasSections = structure.sections.length > 0;
    let section: SectionRow | undefined;
    if (hasSections) {
      section = visible.sections.find((s) => s.path === segments[0]);
      if (section) segments = segments.slice(1);
      else section = pickDefault(site.default_section_id, visible.sections);
      if (!section)
        return page(
          404,
          'Not found',
          'Nothing on this site is visible to you.',
          site.visibility !== 'public',
          personal,
        );
    }
    const candidates = visible.siteSpaces.get(section?.id ?? '') ?? [];
    let siteSpace = candidates.find((s) => s.path === segments[0]);
    if (siteSpace) segments = segments.slice(1);
    else siteSpace = pickDefault(section ? section.default_site_space_id : site.default_site_space_id, candidates);
    const { noindex } = view;
    const home = { url: root, title: site.title };
    if (!siteSpace) return page(404, 'Not found', 'This site has no content to show yet.', noindex, personal);
    const space = spaces.get(siteSpace.space_id)!;
    const index = await this.index(space.revision_id);
    if (!index) return page(404, 'Not found', 'This content is not available.', noindex, personal, home);
    const siteSpaceUrl = siteSpaceUrlIn(root, section, siteSpace);

    if (segments[0] === FILES_SEGMENT) {
      const fileId = segments[1] ?? '';
      const file = index.files.get(fileId);
      const data = file && segments.length === 2 ? await getBlob(this.db, file.blob) : undefined;
      if (!file || !data) return page(404, 'Not found', 'No such file.', noindex, personal, home);
      return { kind: 'file', file, data, private: personal || noindex };
    }

    const pagePath = segments.join('/');
    const node = pagePath === '' ? index.first : index.byPath.get(pagePath);
    if (!node && pagePath !== '')
      return page(404, 'Page not found', 'There is no page at this address.', noindex, personal, home);

    if (asMarkdown) {
      if (!node) return page(404, 'Page not found', 'There is no page at this address.', noindex, personal, home);
      const revision = (await findRevision(this.db, index.revisionId))!;
      const blocks = await new RevisionReader(this.db, revision).document(node.version);
      const description = node.version.description ? `\n> ${node.version.description}\n` : '';
      return {
        kind: 'text',
        status: 200,
        contentType: 'text/markdown; charset=utf-8',
        body: `# ${node.version.title}\n${description}\n${blocksToMarkdown(blocks).trimEnd()}\n`,
        private: personal || noindex,
        noindex,
      };
    }

    // Header links shown only to some visitors make the page differ by which of them this visitor sees.
    const settings = this.settingsOf(site, siteSpace);
    const header = visibleHeaderItems(settings, view.claims);
    const key = hashKey([
      site.id,
      site.version,
      header.shown,
      root,
      visible.sections.map((s) => s.id),
      [...visible.siteSpaces.values()].flat().map((s) => [s.id, spaces.get(s.space_id)!.title]),
      siteSpace.id,
      index.revisionId,
      node?.id ?? '',
    ]);
    let rendered = this.pages.get(key);
    if (rendered?.openapi) {
      const now = await currentDeps(this.db, site.organization_id, Object.keys(rendered.openapi));
      if (!sameDeps(now, rendered.openapi)) rendered = undefined;
    }
    const unavailable = () =>
      page(503, 'Try again shortly', 'This page is taking too long to prepare.', noindex, personal, home);
    if (rendered === undefined && Date.now() - (this.failed.get(key) ?? 0) < FAILED_RETRY_MS) return unavailable();
    if (rendered === undefined) {
      let html: string;
      const out: { openapi?: OperationDeps } = {};
      try {
        html = await this.render({
          out,
          site,
          structure,
          visible,
          spaces,
          root,
          section,
          siteSpace,
          siteSpaceUrl,
          index,
          node,
          settings,
          headerItems: header.items,
        });
      } catch (err) {
        // A page body too big to render in time: this page only, as a page saying so (the site works on).
        if (!(err instanceof ServiceUnavailableError)) throw err;
        this.failed.set(key, Date.now());
        return unavailable();
      }
      rendered = {
        html,
        etag: `"${crypto.createHash('sha256').update(html).digest('base64url').slice(0, 27)}"`,
        encoded: {},
        ...(out.openapi ? { openapi: out.openapi } : {}),
      };
      this.pages.set(key, rendered);
    }
    const shared = !(personal || noindex);
    const cached = rendered;
    return {
      kind: 'html',
      status: 200,
      html: rendered.html,
      noindex,
      private: !shared,
      keepToken: view.keepToken,
      // Only an answer that is the same for everyone is revalidated; a personal one is never stored (no-store).
      ...(shared ? { etag: rendered.etag } : {}),
      encoded: (coding) => encodePage(cached, coding),
    };
  }

  /**
   * `robots.txt`, `sitemap.xml` and `llms.txt` of a site, from what this visitor sees. Only a public site is open
   * to robots: any other (unlisted, share link, visitor sign-in) answers a robots.txt that disallows everything and
   * no sitemap. The sitemap and llms.txt list the pages of every visible site space, up to MACHINE_PAGES_MAX.
   */
  private async machineFile(view: VisitorView, name: keyof typeof MACHINE_FILES): Promise<ServeResult> {
    const { site, root, personal, noindex } = view;
    const text = (body: string, status = 200): ServeResult => ({
      kind: 'text',
      status,
      contentType: MACHINE_FILES[name],
      body,
      private: personal || noindex,
      noindex,
    });
    if (name === 'robots.txt') {
      return text(
        noindex ? 'User-agent: *\nDisallow: /\n' : `User-agent: *\nAllow: /\n\nSitemap: ${root}/sitemap.xml\n`,
      );
    }
    if (name === 'sitemap.xml' && noindex) return text('Not found: this site is not indexed.\n', 404);
    const listed = await this.listPages(view);
    if (name === 'sitemap.xml') {
      const urls = listed.flatMap((group) => group.pages.map((p) => `<url><loc>${escapeXml(p.url)}</loc></url>`));
      return text(
        `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls.join('\n')}\n</urlset>\n`,
      );
    }
    const lines = [`# ${site.title}`, ''];
    for (const group of listed) {
      lines.push(`## ${group.title}`, '');
      for (const p of group.pages) {
        lines.push(`- [${p.title}](${p.url}.md)${p.description ? `: ${p.description}` : ''}`);
      }
      lines.push('');
    }
    return text(lines.join('\n'));
  }

  /** The pages of each site space this visitor sees, with their URLs, in the site's order. */
  private async listPages(view: VisitorView) {
    const { structure, visible, spaces, root } = view;
    const groups: Array<{ title: string; pages: Array<{ url: string; title: string; description: string }> }> = [];
    let count = 0;
    const parents = structure.sections.length > 0 ? visible.sections : [undefined];
    for (const section of parents) {
      for (const siteSpace of visible.siteSpaces.get(section?.id ?? '') ?? []) {
        const space = spaces.get(siteSpace.space_id)!;
        const index = await this.index(space.revision_id);
        if (!index) continue;
        const base = siteSpaceUrlIn(root, section, siteSpace);
        const pages: Array<{ url: string; title: string; description: string }> = [];
        for (const node of index.byPath.values()) {
          if (count >= MACHINE_PAGES_MAX) break;
          pages.push({
            url: node.path ? `${base}/${node.path}` : base,
            title: node.version.title,
            description: node.version.description ?? '',
          });
          count++;
        }
        groups.push({ title: section ? `${section.title} · ${space.title}` : space.title, pages });
      }
    }
    return groups;
  }

  /**
   * `…/~search?q=`: the site spaces this visitor sees (access above), searched. Scope: the default site space of
   * each visible section plus the one the visitor is in (`in`), or every visible one with `scope=all`. An HTML page
   * of results, or with `format=json` the list of the API's organization search (`urls.app` on this site).
   */
  private async search(view: VisitorView, params: Record<string, string | undefined>): Promise<ServeResult> {
    const json = params.format === 'json';
    const base = { private: view.personal || view.noindex, noindex: view.noindex, keepToken: view.keepToken };
    const invalid = (field: string, message: string): ServeResult =>
      json
        ? {
            kind: 'json',
            status: 400,
            body: { error: { code: 400, message: `${field}: ${message}`, issues: [{ path: field, message }] } },
            ...base,
          }
        : page(400, 'Bad request', `${field}: ${message}`, view.noindex, view.personal);
    const q = (params.q ?? '').trim();
    if (q.length > SEARCH_QUERY_MAX) return invalid('q', `must be at most ${SEARCH_QUERY_MAX} characters`);
    const limit = params.limit === undefined ? SITE_SEARCH_LIMIT : Number(params.limit);
    if (!Number.isInteger(limit) || limit < 1 || limit > 100)
      return invalid('limit', 'must be an integer from 1 to 100');
    if (!q && json) return invalid('q', 'is required');

    const { site, structure, visible } = view;
    const hasSections = structure.sections.length > 0;
    const shown = new Set([...visible.siteSpaces.values()].flat().map((ss) => ss.id));
    const covered = scopedSiteSpaces(
      site,
      structure,
      hasSections ? visible.sections : null,
      (ss) => shown.has(ss.id),
      params.scope === 'all' ? { mode: 'all' } : { mode: 'default', currentSiteSpace: params.in },
    );
    let result: SearchHits = { hits: [], count: 0, spaces: new Map() };
    if (q) {
      try {
        const ids = [...new Set(covered.map((ss) => ss.space_id))];
        result = await searchPages(this.db, liveSpaces(this.db, ids), q, params.page, limit);
      } catch (err) {
        if (err instanceof InvalidError) return invalid('page', 'is not a page cursor returned by this search');
        throw err;
      }
    }
    const url = (hit: PageHit) => {
      const ss = covered.find((c) => c.space_id === hit.spaceId);
      if (!ss) return undefined;
      const section = structure.sections.find((x) => x.id === ss.section_id);
      const siteSpaceUrl = siteSpaceUrlIn(view.root, section, ss);
      return hit.path ? `${siteSpaceUrl}/${hit.path}` : siteSpaceUrl;
    };
    const items = presentBySpace(result, url);
    if (json) return { kind: 'json', status: 200, body: { items, next: result.next, count: result.count }, ...base };
    const nextUrl = result.next
      ? `${view.root}/${SEARCH_SEGMENT}?${new URLSearchParams({
          q,
          page: result.next.page,
          ...(params.in ? { in: params.in } : {}),
          ...(params.scope === 'all' ? { scope: 'all' } : {}),
        })}`
      : undefined;
    const settings = this.settingsOf(site);
    const refs: RefResolver = (to) =>
      to.kind === 'url'
        ? safeHref(to.url)
        : to.kind === 'space'
          ? siteSpaceUrlOf(structure, visible, view.root, to.space)
          : undefined;
    const look = siteLook(site, settings, visibleHeaderItems(settings, view.claims).items, refs);
    const html = searchPage(look, view.root, q, params.in, items, result.count, nextUrl);
    return { kind: 'html', status: 200, html, ...base };
  }

  private async render(c: {
    site: SiteRow;
    structure: Structure;
    visible: Visible;
    spaces: Map<string, SpaceRow>;
    root: string;
    section?: SectionRow;
    siteSpace: SiteSpaceRow;
    siteSpaceUrl: string;
    index: SpaceIndex;
    node?: PageNode;
    settings: Customization;
    headerItems: HeaderItem[];
    /** The console's preview: no script. */
    preview?: boolean;
    /** Set to what the rendering depends on beyond its cache key. */
    out?: { openapi?: OperationDeps };
  }): Promise<string> {
    const { site, index, node, siteSpaceUrl, settings } = c;
    const pageUrl = (n: PageNode) => (n.path ? `${siteSpaceUrl}/${n.path}` : siteSpaceUrl);
    const resolver: LinkResolver = {
      currentPath: node?.path ?? '',
      siteRoot: c.root,
      page: (idOrPath) => {
        const target = index.byId.get(idOrPath) ?? index.byPath.get(idOrPath);
        return target && target.version.type === 'document' ? pageUrl(target) : undefined;
      },
      file: (id) => (index.files.has(id) ? `${siteSpaceUrl}/${FILES_SEGMENT}/${id}` : undefined),
      fileNamed: (name) => {
        const id = index.fileByName.get(name);
        return id ? `${siteSpaceUrl}/${FILES_SEGMENT}/${id}` : undefined;
      },
      imageSize: (url) => {
        const prefix = `${siteSpaceUrl}/${FILES_SEGMENT}/`;
        const file = url.startsWith(prefix) ? index.files.get(url.slice(prefix.length)) : undefined;
        return file?.width && file.height ? { width: file.width, height: file.height } : undefined;
      },
    };

    let article: ElementContent[];
    let around: { before: Element[]; after: Element[]; toc?: Element } = { before: [], after: [] };
    if (node) {
      const revision = (await findRevision(this.db, index.revisionId))!;
      const blocks = await new RevisionReader(this.db, revision).document(node.version);
      const markdown = withoutTitle(blocksToMarkdown(blocks), node.version.title);
      const apiBlocks = operationBlocks(markdown);
      if (apiBlocks.length) {
        const loaded = await loadOperations(this.db, site.organization_id, apiBlocks);
        resolver.operations = loaded.operations;
        if (c.out) c.out.openapi = loaded.deps;
      }
      const body = await renderPageBody(markdown, resolver);
      article = [
        el('h1', {}, [text(node.version.title)]),
        ...(node.version.description
          ? [el('p', { className: ['description'] }, [text(node.version.description)])]
          : []),
        ...(settings.pageActions.markdown
          ? [
              el('p', { className: ['page-actions'] }, [
                el('a', { href: `${pageUrl(node)}.md`, type: 'text/markdown' }, [text('View as Markdown')]),
              ]),
            ]
          : []),
        { type: 'raw', value: body.html } as unknown as ElementContent,
        lastUpdated(node.version.updatedAt),
      ];
      around = {
        before: breadcrumbs(index.tree, node, pageUrl),
        after: settings.pagination.enabled ? pagination(index.tree, node, pageUrl) : [],
        toc: onThisPage(body.headings),
      };
    } else {
      article = [
        el('h1', {}, [text(c.spaces.get(c.siteSpace.space_id)!.title)]),
        el('p', {}, [text('This space has no pages yet.')]),
      ];
    }

    const tabs = sectionTabs(c.structure, c.visible, c.root, c.section);
    const variants = c.visible.siteSpaces.get(c.section?.id ?? '') ?? [];
    const parentUrl = c.section ? `${c.root}/${c.section.path}` : c.root;
    const variantNav =
      variants.length > 1
        ? [
            el('nav', { className: ['variants'], ariaLabel: 'Versions' }, [
              el(
                'ul',
                {},
                variants.map((ss) =>
                  el('li', {}, [
                    el(
                      'a',
                      { href: `${parentUrl}/${ss.path}`, ...(ss.id === c.siteSpace.id ? { ariaCurrent: 'page' } : {}) },
                      [text(c.spaces.get(ss.space_id)!.title)],
                    ),
                  ]),
                ),
              ),
            ]),
          ]
        : [];

    const refs: RefResolver = (to) => {
      switch (to.kind) {
        case 'url':
          return safeHref(to.url);
        case 'page':
          return !to.space || to.space === c.siteSpace.space_id ? resolver.page(to.page) : siteSpaceOf(to.space);
        case 'anchor': {
          if (to.space && to.space !== c.siteSpace.space_id) return undefined;
          const at = to.page ? resolver.page(to.page) : node && pageUrl(node);
          return at && `${at}#${encodeURIComponent(to.anchor)}`;
        }
        case 'file':
          return resolver.file(to.file);
        case 'space':
          return siteSpaceOf(to.space);
        default:
          return undefined;
      }
    };
    const siteSpaceOf = (spaceId: string) => siteSpaceUrlOf(c.structure, c.visible, c.root, spaceId);
    const look = siteLook(site, settings, c.headerItems, refs);
    const doc = themedDocument({
      title: node ? `${node.version.title} · ${look.title}` : look.title,
      noindex: site.visibility !== 'public',
      head: [...(node ? pageMeta(look.title, node, pageUrl(node), settings.socialPreview.url) : []), ...look.head],
      styles: look.styles,
      htmlProps: look.htmlProps,
      scripts: !c.preview,
      body: [
        ...siteHeader(c.root, look.title, {
          ...(tabs ? { tabs } : {}),
          search: searchForm(c.root, '', c.siteSpace.id),
          menu: true,
          ...look.header,
        }),
        el('div', { className: around.toc ? ['layout'] : ['layout', 'no-toc'] }, [
          el('aside', { className: ['sidebar'], id: 'site-nav' }, [
            ...variantNav,
            el('nav', { className: ['pages'], ariaLabel: 'Pages' }, [pageTree(index.tree, pageUrl, node?.id)]),
          ]),
          el('main', { id: 'content' }, [...around.before, el('article', {}, article), ...around.after]),
          ...(around.toc ? [around.toc] : []),
        ]),
        look.footer,
      ],
    });
    return toHtml(doc, { allowDangerousHtml: true });
  }
}

/** Sections and site spaces this visitor sees: conditions that match, spaces that exist and are not in the trash. */
/**
 * A page body as HTML. A big one, or one with code, is rendered in the worker pool, in two tasks: the first lists
 * its link targets, which are resolved here against the site's page index, and the second renders with those
 * answers.
 */
async function renderPageBody(markdown: string, links: LinkResolver): Promise<RenderedBody> {
  // A page with code blocks always goes to a worker, where they are highlighted (too costly for the event loop).
  const fenced = /^ {0,3}(```|~~~)/m.test(markdown) || links.operations !== undefined;
  if (!fenced && workers.runsInline(markdown.length)) return renderMarkdown(markdown, links);
  const urls = await workers.run('markdownUrls', markdown, markdown.length);
  const resolved = Object.fromEntries(urls.map((url) => [url, resolveHref(url, links)]));
  const sizes: Record<string, ImageSize> = {};
  for (const url of Object.values(resolved)) {
    const found = links.imageSize?.(url);
    if (found) sizes[url] = found;
  }
  const size = fenced ? Number.MAX_SAFE_INTEGER : markdown.length;
  return workers.run(
    'renderBody',
    {
      markdown,
      resolved,
      siteRoot: links.siteRoot,
      sizes,
      ...(links.operations ? { operations: links.operations } : {}),
    },
    size,
  );
}

/** Results per page of a published site's search. */
const SITE_SEARCH_LIMIT = 20;

/** The search box of a published site: a plain GET form (pages run no script). */
function searchForm(root: string, q: string, inSiteSpace: string | undefined): Element {
  return el('form', { className: ['search'], role: 'search', method: 'get', action: `${root}/${SEARCH_SEGMENT}` }, [
    el('input', { type: 'search', name: 'q', value: q, placeholder: 'Search', ariaLabel: 'Search this site' }),
    ...(inSiteSpace ? [el('input', { type: 'hidden', name: 'in', value: inSiteSpace })] : []),
    el('button', { type: 'submit' }, [text('Search')]),
  ]);
}

/** Plain text with its matched ranges in <mark> (as hast: the text is escaped when serialized, never parsed). */
function marked(value: string, ranges: TextRange[]): ElementContent[] {
  const out: ElementContent[] = [];
  let at = 0;
  for (const r of ranges) {
    if (r.start < at || r.end > value.length) continue;
    if (r.start > at) out.push(text(value.slice(at, r.start)));
    out.push(el('mark', {}, [text(value.slice(r.start, r.end))]));
    at = r.end;
  }
  if (at < value.length) out.push(text(value.slice(at)));
  return out;
}

function searchPage(
  look: ReturnType<typeof siteLook>,
  root: string,
  q: string,
  inSiteSpace: string | undefined,
  items: SearchSpaceResult[],
  count: number,
  nextUrl: string | undefined,
): string {
  const several = items.length > 1;
  const results = items.flatMap((space) =>
    space.pages.map((p) =>
      el('li', {}, [
        el('a', { className: ['result'], href: p.urls.app }, marked(p.title, p.highlights.title)),
        ...(several ? [el('span', { className: ['space'] }, [text(` · ${space.title}`)])] : []),
        ...(p.sections.length
          ? [
              el(
                'ul',
                {},
                p.sections.map((s) =>
                  el('li', {}, [
                    el('a', { href: s.urls.app }, marked(s.title, s.highlights.title)),
                    ...(s.body ? [el('p', {}, marked(s.body, s.highlights.body))] : []),
                  ]),
                ),
              ),
            ]
          : []),
      ]),
    ),
  );
  const summary = !q
    ? 'Type words to look for.'
    : count === 0
      ? `No page matches “${q}”.`
      : `${count} page${count === 1 ? '' : 's'} match “${q}”.`;
  const doc = themedDocument({
    title: q ? `${q} · Search · ${look.title}` : `Search · ${look.title}`,
    // Result pages are never worth indexing.
    noindex: true,
    head: look.head,
    styles: look.styles,
    htmlProps: look.htmlProps,
    body: [
      ...siteHeader(root, look.title, { search: searchForm(root, q, inSiteSpace), menu: false, ...look.header }),
      el('main', { className: ['search-results'], id: 'content' }, [
        el('h1', {}, [text('Search')]),
        el('p', {}, [text(summary)]),
        ...(results.length ? [el('ol', { className: ['results'] }, results)] : []),
        ...(nextUrl ? [el('p', {}, [el('a', { href: nextUrl, rel: ['next'] }, [text('More results')])])] : []),
      ]),
      look.footer,
    ],
  });
  return toHtml(doc);
}

const DATE = new Intl.DateTimeFormat('en', { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' });

/** "Last updated November 26, 2026" at the end of a page (its content's last change). */
function lastUpdated(at: string): Element {
  const date = new Date(at);
  return el('p', { className: ['last-updated'] }, [
    text('Last updated '),
    el('time', { dateTime: date.toISOString() }, [text(Number.isNaN(date.getTime()) ? at : DATE.format(date))]),
  ]);
}

/**
 * The header links a visitor sees (those whose condition their claims match), and which they are by position (part
 * of a rendered page's cache key: two links may share a title).
 */
function visibleHeaderItems(settings: Customization, claims: Record<string, unknown>) {
  const shown: number[] = [];
  const items = settings.header.links.filter((link, i) => {
    const visible = conditionMatches(link.condition ?? null, claims);
    if (visible) shown.push(i);
    return visible;
  });
  return { items, shown };
}

/** What a site's customization puts around its pages (look.ts): title, head, styles, header parts and footer. */
function siteLook(site: SiteRow, settings: Customization, headerItems: HeaderItem[], refs: RefResolver) {
  const title = settings.title ?? site.title;
  const external = settings.externalLinks.target === 'blank';
  const links = headerLinks(headerItems, refs, external);
  return {
    title,
    head: favicon(settings, DEFAULT_ICON),
    styles: lookStyles(settings),
    htmlProps: fixedTheme(settings),
    header: {
      logo: logo(settings.header.logo, title, 'header-logo'),
      before: announcement(settings, refs, external),
      ...(links ? { links } : {}),
    },
    footer: footer(settings, title, refs, external),
  };
}

/** The published URL of a site space: under its section's path on a site with sections. */
function siteSpaceUrlIn(root: string, section: SectionRow | undefined, ss: SiteSpaceRow): string {
  return section ? `${root}/${section.path}/${ss.path}` : `${root}/${ss.path}`;
}

/** The published URL of the first site space this visitor sees that shows `spaceId`. */
function siteSpaceUrlOf(structure: Structure, visible: Visible, root: string, spaceId: string): string | undefined {
  for (const [parent, siteSpaces] of visible.siteSpaces) {
    const ss = siteSpaces.find((x) => x.space_id === spaceId);
    if (!ss) continue;
    const section = parent ? structure.sections.find((x) => x.id === parent) : undefined;
    return siteSpaceUrlIn(root, section, ss);
  }
  return undefined;
}

/** The icon of a site without one of its own: a page, drawn inline (no request). */
const DEFAULT_ICON =
  "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 32 32'%3E%3Crect width='32' height='32' rx='7' fill='%233a5bd9'/%3E%3Cpath d='M10 8h9l5 5v11H10z' fill='white'/%3E%3C/svg%3E";

/** The canonical URL of a page, its markdown twin, and what link previews show (OpenGraph). */
function pageMeta(siteTitle: string, node: PageNode, url: string, image?: string): Element[] {
  const description = node.version.description ?? '';
  return [
    ...(image ? [el('meta', { property: 'og:image', content: image })] : []),
    el('link', { rel: ['canonical'], href: url }),
    el('link', { rel: ['alternate'], type: 'text/markdown', href: `${url}.md` }),
    ...(description ? [el('meta', { name: 'description', content: description })] : []),
    el('meta', { property: 'og:type', content: 'article' }),
    el('meta', { property: 'og:site_name', content: siteTitle }),
    el('meta', { property: 'og:title', content: node.version.title }),
    el('meta', { property: 'og:url', content: url }),
    ...(description ? [el('meta', { property: 'og:description', content: description })] : []),
  ];
}

/** Files for robots and tools at a site's root, with their content types. */
const MACHINE_FILES = {
  'robots.txt': 'text/plain; charset=utf-8',
  'sitemap.xml': 'application/xml; charset=utf-8',
  'llms.txt': 'text/plain; charset=utf-8',
} as const;

/** Pages listed at most in a sitemap (the sitemap protocol's limit for one file) and in llms.txt. */
const MACHINE_PAGES_MAX = 50_000;

function escapeXml(value: string): string {
  return value.replace(
    /[<>&'"]/g,
    (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', "'": '&apos;', '"': '&quot;' })[c]!,
  );
}

/** How long a page whose rendering was stopped answers 503 without trying again (its content has not changed). */
const FAILED_RETRY_MS = 60_000;

function visibleStructure(
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

function pickDefault<T extends { id: string }>(pointer: string | null, among: T[]): T | undefined {
  return among.find((x) => x.id === pointer) ?? among[0];
}

/** The header's tabs: one per section; a group of sections is a menu of its own (<details>, closed by the script). */
function sectionTabs(structure: Structure, visible: Visible, root: string, current?: SectionRow): Element | undefined {
  if (visible.sections.length < 2) return undefined;
  const shown = new Set(visible.sections.map((s) => s.id));
  const tab = (s: SectionRow) =>
    el('li', {}, [
      el('a', { href: `${root}/${s.path}`, ...(s.id === current?.id ? { ariaCurrent: 'page' } : {}) }, [text(s.title)]),
    ]);
  const items = topItems(structure).flatMap((item): Element[] => {
    if (item.kind === 'section') return shown.has(item.row.id) ? [tab(item.row)] : [];
    const inner = groupSections(structure, item.row.id).filter((s) => shown.has(s.id));
    if (inner.length === 0) return [];
    const here = inner.some((s) => s.id === current?.id);
    return [
      el('li', { className: here ? ['group', 'current'] : ['group'] }, [
        el('details', {}, [el('summary', {}, [text(item.row.title)]), el('ul', {}, inner.map(tab))]),
      ]),
    ];
  });
  return el('nav', { className: ['sections'], ariaLabel: 'Sections' }, [el('ul', {}, items)]);
}

/**
 * The navigation's page tree. Pages with pages under them, and groups, fold with <details> (no script): groups start
 * open, a page's subpages start open on the way to the current page.
 */
function pageTree(nodes: PageNode[], url: (n: PageNode) => string, currentId?: string): Element {
  const open = new Set(currentId ? ancestorIds(nodes, currentId) : []);
  if (currentId) open.add(currentId);
  const tree = (level: PageNode[]): Element =>
    el(
      'ul',
      {},
      level.map((n) => {
        const title = n.version.title;
        if (n.version.type === 'group') {
          return el('li', {}, [
            el('details', { className: ['group'], open: true }, [
              el('summary', { className: ['group-title'] }, [text(title)]),
              ...(n.pages.length ? [tree(n.pages)] : []),
            ]),
          ]);
        }
        let link: Element;
        if (n.version.type === 'link') {
          const href = n.version.href ?? '';
          const safe = /^https?:\/\//i.test(href) || (href.startsWith('/') && !href.startsWith('//'));
          link = el('a', safe ? { href, rel: ['noopener', 'nofollow'] } : {}, [text(title)]);
        } else {
          link = el('a', { href: url(n), ...(n.id === currentId ? { ariaCurrent: 'page' } : {}) }, [text(title)]);
        }
        if (n.pages.length === 0) return el('li', {}, [link]);
        return el('li', { className: ['folder'] }, [
          link,
          el('details', { open: open.has(n.id) }, [
            el('summary', { ariaLabel: `${title}: pages inside` }, []),
            tree(n.pages),
          ]),
        ]);
      }),
    );
  return tree(nodes);
}

/** A page that says why there is nothing to show: styled like the site, with a way back to it when there is one. */
function page(
  status: number,
  title: string,
  message: string,
  noindex: boolean,
  personal = true,
  home?: { url: string; title: string },
): ServeResult {
  const doc = themedDocument({
    title: home ? `${title} · ${home.title}` : title,
    noindex,
    body: [
      el('main', { className: ['message'], id: 'content' }, [
        el('h1', {}, [text(title)]),
        el('p', {}, [text(message)]),
        ...(home ? [el('a', { className: ['button'], href: home.url }, [text(`Go to ${home.title}`)])] : []),
      ]),
    ],
  });
  return { kind: 'html', status, html: toHtml(doc), noindex, private: personal };
}

function notFound(noindex: boolean): ServeResult {
  return page(404, 'Not found', 'There is no published site at this address.', noindex);
}
