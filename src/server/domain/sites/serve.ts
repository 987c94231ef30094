import crypto from 'node:crypto';
import type { Element, ElementContent, Root } from 'hast';
import { toHtml } from 'hast-util-to-html';
import { jwtVerify, type JWTPayload } from 'jose';
import { currentVisitorClaims } from '../auth/visitor-claims.js';
import type { Db } from '../../storage/db.js';
import * as repo from '../../storage/repos/sites.js';
import type { SiteRow, SectionRow, SiteSpaceRow } from '../../storage/repos/sites.js';
import type { SpaceRow } from '../../storage/repos/spaces.js';
import { findRevision } from '../../storage/repos/spaces.js';
import { getBlob } from '../../storage/repos/objects.js';
import { RevisionReader, type FileEntry, type PageNode } from '../content/model.js';
import { blocksToMarkdown } from '../content/blocks.js';
import { FILES_SEGMENT, SHARE_SEGMENT, publishedSiteUrl } from '../../presenters/site.js';
import { LruCache } from '../../lib/lru-cache.js';
import { ServiceUnavailableError } from '../errors.js';
import { conditionMatches } from './conditions.js';
import { type Structure, orderedSections, readStructure, siteSpacesIn, topItems, groupSections } from './model.js';
import { el, renderMarkdown, resolveHref, text, type LinkResolver, type RenderedBody } from './render.js';
import { workers } from '../../workers/pool.js';

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
    }
  | { kind: 'file'; file: FileEntry; data: Buffer; private: boolean }
  | { kind: 'redirect'; location: string };

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

const STYLE = `
*{box-sizing:border-box}body{margin:0;font:16px/1.6 system-ui,-apple-system,Segoe UI,Roboto,sans-serif;color:#1f2328}
a{color:#346ddb}header{display:flex;gap:24px;align-items:center;padding:12px 24px;border-bottom:1px solid #e5e7eb}
header .site-title{font-weight:700;color:inherit;text-decoration:none}header ul,aside ul{list-style:none;margin:0;padding:0}
nav.sections>ul{display:flex;gap:16px;flex-wrap:wrap}nav.sections .group{display:flex;gap:8px;align-items:center}
nav.sections .group>ul{display:flex;gap:12px}[aria-current=page]{font-weight:700}
.layout{display:flex;max-width:1200px;margin:0 auto}aside{width:280px;padding:24px;border-right:1px solid #e5e7eb}
aside li ul{padding-left:16px}aside .group-title{display:block;margin-top:12px;font-weight:600;color:#57606a}
nav.variants{margin-bottom:16px}main{flex:1;min-width:0;padding:24px 40px}pre{overflow:auto;background:#f6f8fa;padding:12px}
table{border-collapse:collapse}td,th{border:1px solid #d0d7de;padding:4px 8px}.description{color:#57606a}
.toc{font-size:14px;border-left:2px solid #e5e7eb;padding-left:12px}img{max-width:100%}
`;

function hashKey(parts: unknown[]): string {
  return crypto.createHash('sha256').update(JSON.stringify(parts)).digest('base64url');
}

export class PublishedSites {
  private readonly structures = new LruCache<Structure>(1000);
  private readonly indexes = new LruCache<SpaceIndex>(64);
  /** Rendered pages, bounded by size (characters of HTML). */
  private readonly pages = new LruCache<string>(20_000, 64 * 1024 * 1024, (html) => html.length);
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

  async serve(req: ServeRequest): Promise<ServeResult> {
    const site = await repo.findSiteById(this.db, req.siteId);
    if (!site || site.published !== 1) return notFound(false);
    let segments = req.segments;
    let shareKey: string | undefined;
    if (segments[0] === SHARE_SEGMENT) {
      shareKey = segments[1];
      if (!shareKey || !(await repo.findActiveShareLinkByKey(this.db, site.id, shareKey))) return notFound(true);
      segments = segments.slice(2);
    } else if (site.visibility === 'share-link') {
      return notFound(true);
    }

    // Visitor claims: required on visitor-auth sites; elsewhere read only when adaptive content is on.
    const fromQuery = await this.claims(site, req.queryToken);
    const fromCookie = fromQuery.kind === 'claims' ? undefined : await this.claims(site, req.cookieToken);
    const verified =
      fromQuery.kind === 'claims' ? fromQuery.claims : fromCookie?.kind === 'claims' ? fromCookie.claims : undefined;
    if (site.visibility === 'visitor-auth' && !verified) {
      // A token signed with the site's key but not acceptable: say why, rather than send the visitor round the
      // fallback URL again with a token signed the same way.
      const refused = [fromQuery, fromCookie].find((t) => t?.kind === 'refused');
      if (refused?.kind === 'refused') return page(401, 'Visitor token refused', refused.reason, true);
      if (site.visitor_fallback_url) {
        const target = new URL(site.visitor_fallback_url);
        target.searchParams.set('location', `${publishedSiteUrl(this.publicUrl, site.id)}/${segments.join('/')}`);
        return { kind: 'redirect', location: target.toString() };
      }
      return page(
        401,
        'Sign-in required',
        'This site is for authenticated visitors: open it from the link you were given.',
        true,
      );
    }
    const claims = verified && (site.visibility === 'visitor-auth' || site.adaptive_enabled === 1) ? verified : {};
    const personal = shareKey !== undefined || verified !== undefined;

    const structure = await this.structure(site);
    const spaceRows = await repo.spacesByIds(this.db, [...new Set(structure.siteSpaces.map((s) => s.space_id))]);
    const spaces = new Map(spaceRows.map((s): [string, SpaceRow] => [s.id, s]));
    const visible = visibleStructure(structure, spaces, claims);
    const root = publishedSiteUrl(this.publicUrl, site.id, shareKey);

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
    const noindex = site.visibility !== 'public';
    if (!siteSpace) return page(404, 'Not found', 'This site has no content to show yet.', noindex, personal);
    const space = spaces.get(siteSpace.space_id)!;
    const index = await this.index(space.revision_id);
    if (!index) return page(404, 'Not found', 'This content is not available.', noindex, personal);
    const siteSpaceUrl = section ? `${root}/${section.path}/${siteSpace.path}` : `${root}/${siteSpace.path}`;

    if (segments[0] === FILES_SEGMENT) {
      const fileId = segments[1] ?? '';
      const file = index.files.get(fileId);
      const data = file && segments.length === 2 ? await getBlob(this.db, file.blob) : undefined;
      if (!file || !data) return page(404, 'Not found', 'No such file.', noindex, personal);
      return { kind: 'file', file, data, private: personal || noindex };
    }

    const pagePath = segments.join('/');
    const node = pagePath === '' ? index.first : index.byPath.get(pagePath);
    if (!node && pagePath !== '')
      return page(404, 'Page not found', 'There is no page at this address.', noindex, personal);

    const key = hashKey([
      site.id,
      site.version,
      root,
      visible.sections.map((s) => s.id),
      [...visible.siteSpaces.values()].flat().map((s) => [s.id, spaces.get(s.space_id)!.title]),
      siteSpace.id,
      index.revisionId,
      node?.id ?? '',
    ]);
    let html = this.pages.get(key);
    const unavailable = () =>
      page(503, 'Try again shortly', 'This page is taking too long to prepare.', noindex, personal);
    if (html === undefined && Date.now() - (this.failed.get(key) ?? 0) < FAILED_RETRY_MS) return unavailable();
    if (html === undefined) {
      try {
        html = await this.render({
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
        });
      } catch (err) {
        // A page body too big to render in time: this page only, as a page saying so (the site works on).
        if (!(err instanceof ServiceUnavailableError)) throw err;
        this.failed.set(key, Date.now());
        return unavailable();
      }
      this.pages.set(key, html);
    }
    const keepToken = fromQuery.kind === 'claims' ? req.queryToken : undefined;
    return { kind: 'html', status: 200, html, noindex, private: personal || noindex, keepToken };
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
  }): Promise<string> {
    const { site, index, node, siteSpaceUrl } = c;
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
    };

    let article: ElementContent[];
    if (node) {
      const revision = (await findRevision(this.db, index.revisionId))!;
      const blocks = await new RevisionReader(this.db, revision).document(node.version);
      const body = await renderPageBody(blocksToMarkdown(blocks), resolver);
      article = [
        el('h1', {}, [text(node.version.title)]),
        ...(node.version.description
          ? [el('p', { className: ['description'] }, [text(node.version.description)])]
          : []),
        ...(body.headings.length > 1
          ? [
              el('nav', { className: ['toc'], ariaLabel: 'On this page' }, [
                el(
                  'ul',
                  {},
                  body.headings.map((h) => el('li', {}, [el('a', { href: `#${h.id}` }, [text(h.title)])])),
                ),
              ]),
            ]
          : []),
        { type: 'raw', value: body.html } as unknown as ElementContent,
      ];
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

    const title = node ? `${node.version.title} · ${site.title}` : site.title;
    const doc: Root = {
      type: 'root',
      children: [
        { type: 'doctype' },
        el('html', { lang: 'en' }, [
          el('head', {}, [
            el('meta', { charSet: 'utf-8' }),
            el('meta', { name: 'viewport', content: 'width=device-width, initial-scale=1' }),
            ...(site.visibility !== 'public' ? [el('meta', { name: 'robots', content: 'noindex' })] : []),
            el('title', {}, [text(title)]),
            el('style', {}, [text(STYLE)]),
          ]),
          el('body', {}, [
            el('header', {}, [
              el('a', { className: ['site-title'], href: c.root }, [text(site.title)]),
              ...(tabs ? [tabs] : []),
            ]),
            el('div', { className: ['layout'] }, [
              el('aside', {}, [
                ...variantNav,
                el('nav', { className: ['pages'], ariaLabel: 'Pages' }, [pageTree(index.tree, pageUrl, node?.id)]),
              ]),
              el('main', {}, [el('article', {}, article)]),
            ]),
          ]),
        ]),
      ],
    };
    return toHtml(doc, { allowDangerousHtml: true });
  }
}

/** Sections and site spaces this visitor sees: conditions that match, spaces that exist and are not in the trash. */
/**
 * A page body as HTML. A big one is rendered in the worker pool, in two tasks: the first lists its link targets,
 * which are resolved here against the site's page index, and the second renders with those answers.
 */
async function renderPageBody(markdown: string, links: LinkResolver): Promise<RenderedBody> {
  if (workers.runsInline(markdown.length)) return renderMarkdown(markdown, links);
  const urls = await workers.run('markdownUrls', markdown, markdown.length);
  const resolved = Object.fromEntries(urls.map((url) => [url, resolveHref(url, links)]));
  return workers.run('renderBody', { markdown, resolved, siteRoot: links.siteRoot }, markdown.length);
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
    return [el('li', { className: ['group'] }, [el('span', {}, [text(item.row.title)]), el('ul', {}, inner.map(tab))])];
  });
  return el('nav', { className: ['sections'], ariaLabel: 'Sections' }, [el('ul', {}, items)]);
}

function pageTree(nodes: PageNode[], url: (n: PageNode) => string, currentId?: string): Element {
  return el(
    'ul',
    {},
    nodes.map((n) => {
      const children = n.pages.length ? [pageTree(n.pages, url, currentId)] : [];
      if (n.version.type === 'group') {
        return el('li', {}, [el('span', { className: ['group-title'] }, [text(n.version.title)]), ...children]);
      }
      if (n.version.type === 'link') {
        const href = n.version.href ?? '';
        const safe = /^https?:\/\//i.test(href) || (href.startsWith('/') && !href.startsWith('//'));
        return el('li', {}, [
          el('a', safe ? { href, rel: ['noopener', 'nofollow'] } : {}, [text(n.version.title)]),
          ...children,
        ]);
      }
      const current = n.id === currentId ? { ariaCurrent: 'page' } : {};
      return el('li', {}, [el('a', { href: url(n), ...current }, [text(n.version.title)]), ...children]);
    }),
  );
}

function page(status: number, title: string, message: string, noindex: boolean, personal = true): ServeResult {
  const doc: Root = {
    type: 'root',
    children: [
      { type: 'doctype' },
      el('html', { lang: 'en' }, [
        el('head', {}, [
          el('meta', { charSet: 'utf-8' }),
          ...(noindex ? [el('meta', { name: 'robots', content: 'noindex' })] : []),
          el('title', {}, [text(title)]),
          el('style', {}, [text(STYLE)]),
        ]),
        el('body', {}, [el('main', {}, [el('h1', {}, [text(title)]), el('p', {}, [text(message)])])]),
      ]),
    ],
  };
  return { kind: 'html', status, html: toHtml(doc), noindex, private: personal };
}

function notFound(noindex: boolean): ServeResult {
  return page(404, 'Not found', 'There is no published site at this address.', noindex);
}
