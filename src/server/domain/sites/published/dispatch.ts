import type { Db } from '../../../storage/db.js';
import * as repo from '../../../storage/repos/sites.js';
import type { SiteRow, SectionRow, SiteSpaceRow } from '../../../storage/repos/sites.js';
import { LruCache } from '../../../lib/lru-cache.js';
import { findRevision } from '../../../storage/repos/spaces.js';
import { openBlob } from '../../../storage/repos/objects.js';
import { gitEditLink, gitRedirect } from '../../git-sync/service.js';
import { RevisionReader, type PageNode } from '../../content/model.js';
import { blocksToMarkdown } from '../../content/blocks.js';
import { FILES_SEGMENT, PAGES_SEGMENT, SEARCH_SEGMENT, publishedSiteUrl } from '../../../lib/urls.js';
import type { Customization } from '../../../../shared/contract/customization.js';
import type { SitePreviews } from '../customization.js';
import type { ServeRequest, ServeResult } from './answer.js';
import { SiteCache, encodePage, hashKey, pageAt, type PageIndex, type SpaceIndex } from './cache.js';
import { BranchTooLarge } from './branch.js';
import { MACHINE_FILES, machineFile } from './machine-files.js';
import { pagesUrlIn, renderPage, type IntegrationBlocksRenderer } from './page.js';
import type { ReaderAction } from '../../integrations/render.js';
import type { PageFeedback, SpaceBlocks } from '../../integrations/published-scripts.js';

import { contentKitToHast, type ContentKitOutput } from '../../../../shared/contentkit.js';
import { toHtml } from 'hast-util-to-html';
import { messagePage, pageListHtml } from './page-html.js';
import { linkTargets, pageList } from './navigation.js';
import { siteSearch } from './search-page.js';
import { pageUrlIn, siteSpaceUrlIn } from './urls.js';
import { findRedirect } from '../redirects.js';
import { resolvePublishedUrl, type ResolveUrlInput, type UrlResolution } from './resolve-url.js';
import {
  spacesOf,
  visibleHeaderItems,
  visibleSiteSpaces,
  visibleStructure,
  visitorAccess,
  type Visible,
  type VisitorView,
} from './visitor-access.js';

/**
 * Serves published sites as HTML: a request is checked first (visitor-access.ts), then answered with what its path
 * names: the search page (search-page.ts), a machine file (machine-files.ts), a file of a site space, a page's
 * markdown, or a page (page.ts). Per request the database is asked for what may have changed: the site row (its
 * `version` goes up with every change to the site or its structure), the share link when one is used, and the
 * site's spaces (their current revision). Everything else is cached (cache.ts) under keys made of those values, which
 * are immutable inputs: the structure by (site, version), a space's page tree by revision id, and each rendered page
 * by all that it shows. A merge or a structure change makes new keys, so it is visible at the next request, in every
 * process sharing the database, with no invalidation step.
 */

/** Published spaces whose page index is kept ready (the most recently updated), per look (see warmIndexes). */
const WARM_SPACES = 16;

export class PublishedSites implements SitePreviews {
  private readonly cache: SiteCache;
  /** The revision whose index was last made ready, by space. */
  private readonly warmed = new LruCache<string>(WARM_SPACES * 4);

  /** `branchMin`: see SiteCache (tests serve smaller spaces from branches). */
  constructor(
    private readonly db: Db,
    private readonly publicUrl: string,
    opts: {
      branchMin?: number;
      integrationBlocks?: IntegrationBlocksRenderer;
      blockAction?: (organizationId: string, spaceId: string, input: ReaderAction) => Promise<ContentKitOutput>;
      /** What the site's integrations add to its pages: scripts, a feedback form (integrations/published-scripts.ts). */
      siteExtras?: (organizationId: string, siteId: string) => Promise<{ scripts: string[]; feedback: boolean }>;
      /** Sends a reader's feedback on a page to the site's integrations. */
      sendFeedback?: (organizationId: string, feedback: PageFeedback) => Promise<number>;
      /** The languages of fenced code a space's pages show as integrations' blocks (published-scripts.ts). */
      spaceBlocks?: (organizationId: string, spaceId: string) => Promise<SpaceBlocks>;
    } = {},
  ) {
    this.spaceBlocks = opts.spaceBlocks;
    this.siteExtras = opts.siteExtras;
    this.sendFeedback = opts.sendFeedback;
    this.cache = new SiteCache(db, opts.branchMin);
    this.integrationBlocks = opts.integrationBlocks;
    this.blockAction = opts.blockAction;
  }

  /** The fences and links a space's pages show as integrations' blocks (none: code is code, embeds embeds). */
  private readonly spaceBlocks: ((organizationId: string, spaceId: string) => Promise<SpaceBlocks>) | undefined;

  /** What a site's integrations add to its pages (none: nothing). */
  private readonly siteExtras:
    ((organizationId: string, siteId: string) => Promise<{ scripts: string[]; feedback: boolean }>) | undefined;
  private readonly sendFeedback: ((organizationId: string, feedback: PageFeedback) => Promise<number>) | undefined;

  /** Renders a block again after a reader acted in it (none: readers' actions are refused). */
  private readonly blockAction:
    ((organizationId: string, spaceId: string, input: ReaderAction) => Promise<ContentKitOutput>) | undefined;

  /** Renders pages' integration blocks (none: they show their label). */
  private readonly integrationBlocks: IntegrationBlocksRenderer | undefined;

  /**
   * Makes ready the page indexes of the spaces published sites show whose revision changed since the last call (the
   * WARM_SPACES most recently updated), one after the other, each read in slices of the event loop. Reading the
   * index of a space of 100,000 pages takes about a second (half that from the previous revision's): made here, after
   * a merge or a restart, it is not the first visitor who waits for it. Answers how many were made.
   */
  async warmIndexes(): Promise<number> {
    let made = 0;
    for (const { space_id, revision_id } of await repo.publishedSpaceRevisions(this.db, WARM_SPACES)) {
      if (this.warmed.get(space_id) === revision_id) continue;
      await this.cache.index(revision_id);
      this.warmed.set(space_id, revision_id);
      made++;
    }
    return made;
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
    const structure = await this.cache.structure(site);
    const spaces = await spacesOf(this.db, structure);
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
    const index = await this.cache.index(spaces.get(siteSpace.space_id)!.revision_id);
    if (!index) return undefined;
    const root = publishedSiteUrl(this.publicUrl, site.id);
    return renderPage(this.db, {
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
      ...(this.integrationBlocks ? { integrationBlocks: this.integrationBlocks } : {}),
    });
  }

  /** What a published URL shows, for another renderer of this server's sites (resolve-url.ts). */
  resolveUrl(input: ResolveUrlInput): Promise<UrlResolution> {
    return resolvePublishedUrl(this.db, this.cache, this.publicUrl, input);
  }

  async serve(req: ServeRequest): Promise<ServeResult> {
    const checked = await visitorAccess(this.db, this.cache, this.publicUrl, req);
    if ('refused' in checked) return checked.refused;
    const { view } = checked;
    if (view.segments[0] === SEARCH_SEGMENT && view.segments.length === 1)
      return siteSearch(this.db, this.cache, view, req.query ?? {});
    const only = view.segments.length === 1 ? view.segments[0]! : '';
    if (Object.hasOwn(MACHINE_FILES, only)) {
      return machineFile(this.cache, view, only as keyof typeof MACHINE_FILES);
    }
    const { site, spaces, root, personal } = view;
    let { segments } = view;
    // `<page URL>.md`: the page's markdown, through the same checks as the page.
    const last = segments[segments.length - 1];
    const asMarkdown = last !== undefined && last.endsWith('.md') && last.length > 3;
    if (asMarkdown) segments = [...segments.slice(0, -1), last.slice(0, -3)];

    const located = this.locate(view, segments);
    if ('kind' in located) return located;
    const { section } = located;
    const siteSpace = located.siteSpace;
    segments = located.segments;
    const { noindex } = view;
    const home = { url: root, title: site.title };
    if (!siteSpace) return messagePage(404, 'Not found', 'This site has no content to show yet.', noindex, personal);
    const space = spaces.get(siteSpace.space_id)!;
    const notAvailable = () => messagePage(404, 'Not found', 'This content is not available.', noindex, personal, home);
    // A list of pages needs their level whole; anything else is served from a large space's page branch until its
    // whole index is read (cache.ts pageIndex).
    const listing = segments[0] === PAGES_SEGMENT && segments.length <= 2;
    const index = listing ? await this.cache.index(space.revision_id) : await this.cache.pageIndex(space.revision_id);
    if (!index) return notAvailable();
    const siteSpaceUrl = siteSpaceUrlIn(root, section, siteSpace);

    if (segments[0] === FILES_SEGMENT) {
      const fileId = segments[1] ?? '';
      const file = index.files.get(fileId);
      const blob = file && segments.length === 2 ? await openBlob(this.db, file.blob) : undefined;
      if (!file || !blob) return messagePage(404, 'Not found', 'No such file.', noindex, personal, home);
      return { kind: 'file', file, blob, private: personal || noindex };
    }

    if (listing) {
      const whole = index as SpaceIndex;
      const parent = segments[1] === undefined ? undefined : whole.byId.get(segments[1]);
      if (segments[1] !== undefined && !parent)
        return messagePage(404, 'Not found', 'No such page.', noindex, personal, home);
      const nodes = parent?.pages ?? whole.tree;
      const bound = (value: string | undefined, fallback: number) => {
        const n = Number(value);
        return value !== undefined && Number.isSafeInteger(n) ? Math.max(0, Math.min(n, nodes.length)) : fallback;
      };
      const url = (n: PageNode) => pageUrlIn(siteSpaceUrl, n.path);
      const pagesUrl = pagesUrlIn(siteSpaceUrl);
      const list = pageList(
        nodes,
        parent?.id,
        bound(req.query?.from, 0),
        bound(req.query?.to, nodes.length),
        url,
        pagesUrl,
        linkTargets(whole, url),
      );
      return {
        kind: 'html',
        status: 200,
        html: pageListHtml({
          title: parent?.version.title ?? 'Pages',
          siteTitle: site.title,
          back: siteSpaceUrl,
          list,
        }),
        noindex: true,
        private: personal,
      };
    }

    const place: PagePlace = { section, siteSpace, siteSpaceUrl, pagePath: segments.join('/'), asMarkdown };
    try {
      return await this.page(view, place, index);
    } catch (err) {
      // A branch too large to read quickly: the page waits for the whole index.
      if (!(err instanceof BranchTooLarge)) throw err;
      const whole = await this.cache.index(space.revision_id);
      return whole ? this.page(view, place, whole) : notAvailable();
    }
  }

  /**
   * Which section and site space `segments` (a path of the site) are in: a segment naming one, otherwise the default
   * (the first visible one when the default is hidden from this visitor); the segments after them.
   */
  private locate(
    view: VisitorView,
    path: string[],
  ): { section?: SectionRow; siteSpace?: SiteSpaceRow; segments: string[] } | ServeResult {
    const { site, structure, visible, personal } = view;
    let segments = path;
    const hasSections = structure.sections.length > 0;
    let section: SectionRow | undefined;
    if (hasSections) {
      section = visible.sections.find((s) => s.path === segments[0]);
      if (section) segments = segments.slice(1);
      else section = pickDefault(site.default_section_id, visible.sections);
      if (!section)
        return messagePage(
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
    return { ...(section ? { section } : {}), ...(siteSpace ? { siteSpace } : {}), segments };
  }

  /**
   * An integration block of a page (at `req.segments`) rendered again after its reader acted in it: for whoever
   * may read that page's site space, as its blocks are rendered for readers (integrations/render.ts). The block's
   * HTML (shared/contentkit.ts, as on the page), its state and props; undefined when the page's site space is not
   * visible to this visitor (404).
   */
  async renderBlock(
    req: ServeRequest,
    input: ReaderAction,
  ): Promise<{ html: string; state: unknown; props: unknown } | undefined> {
    if (!this.blockAction) return undefined;
    const checked = await visitorAccess(this.db, this.cache, this.publicUrl, req);
    if ('refused' in checked) return undefined;
    const located = this.locate(checked.view, checked.view.segments);
    if ('kind' in located || !located.siteSpace) return undefined;
    const output = await this.blockAction(checked.view.site.organization_id, located.siteSpace.space_id, input);
    const tree = contentKitToHast(output);
    return { html: tree ? toHtml(tree) : '', state: output.state ?? {}, props: output.props ?? input.props };
  }

  /**
   * A reader's feedback on the page at `req.segments` (its path, after the site's root), sent to the site's
   * integrations that read feedback. False when there is no such page visible to this visitor, or none reads it.
   */
  async feedback(
    req: ServeRequest,
    input: { rating: 'bad' | 'ok' | 'good'; comment?: string | undefined },
    visitor: { userAgent: string; ip: string; language?: string | undefined; referrer: string },
  ): Promise<{ pageUrl: string } | undefined> {
    if (!this.sendFeedback) return undefined;
    const checked = await visitorAccess(this.db, this.cache, this.publicUrl, req);
    if ('refused' in checked) return undefined;
    const { view } = checked;
    const located = this.locate(view, view.segments);
    if ('kind' in located || !located.siteSpace) return undefined;
    const space = view.spaces.get(located.siteSpace.space_id);
    const index = space && (await this.cache.index(space.revision_id));
    const path = located.segments.join('/');
    const node = index && (path ? index.byPath.get(path) : index.first);
    if (!node || node.version.type !== 'document') return undefined;
    const pageUrl = pageUrlIn(siteSpaceUrlIn(view.root, located.section, located.siteSpace), node.path);
    const { referrer, ...who } = visitor;
    const sent = await this.sendFeedback(view.site.organization_id, {
      siteId: view.site.id,
      spaceId: located.siteSpace.space_id,
      pageId: node.id,
      rating: input.rating,
      comment: input.comment,
      url: pageUrl,
      referrer,
      visitor: who,
    });
    return sent > 0 ? { pageUrl } : undefined;
  }

  /** Where the first of these paths that a site redirect starts from leads, for this visitor. */
  private async redirectFrom(view: VisitorView, paths: string[][]): Promise<string | undefined> {
    const shown = new Set(visibleSiteSpaces(view.visible).map((ss) => ss.id));
    for (const segments of paths) {
      const source = `/${segments.filter(Boolean).map(encodeURIComponent).join('/')}`;
      if (source === '/') continue;
      const found = await findRedirect(this.db, view.site, view.structure, view.spaces, source, view.root, (id) =>
        shown.has(id),
      );
      if (found) return found.target;
    }
    return undefined;
  }

  /** A page, or its markdown, from `index`. */
  private async page(view: VisitorView, place: PagePlace, index: PageIndex): Promise<ServeResult> {
    const { site, structure, spaces, visible, root, personal, noindex } = view;
    const { section, siteSpace, siteSpaceUrl, pagePath, asMarkdown } = place;
    const home = { url: root, title: site.title };
    const node = await pageAt(index, pagePath);
    const missing = !node && pagePath !== '';

    if (asMarkdown) {
      if (!node)
        return messagePage(404, 'Page not found', 'There is no page at this address.', noindex, personal, home);
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

    // No page here: a redirect of the site from this path (from the site's root, or from the site space's).
    if (missing) {
      const target = await this.redirectFrom(view, [view.segments, pagePath.split('/')]);
      if (target) return { kind: 'redirect', location: target };
      // A redirect of the repository the space syncs with (`.gitbook.yaml`): from an old path to the page now.
      const moved = await gitRedirect(this.db, siteSpace.space_id, pagePath);
      if (moved) {
        await index.prepare?.([moved]);
        const to = index.byId.get(moved);
        if (to?.version.type === 'document') {
          return { kind: 'redirect', location: pageUrlIn(siteSpaceUrl, to.path) };
        }
      }
    }

    // Header links shown only to some visitors make the page differ by which of them this visitor sees.
    const settings = this.cache.settingsOf(site, siteSpace);
    const header = visibleHeaderItems(settings, view.claims);
    // "Edit on GitHub": the page's file in the repository the space syncs with, when the site shows such links.
    const editLink =
      node && settings.git.showEditLink ? await gitEditLink(this.db, siteSpace.space_id, node.id) : undefined;
    const extras = this.siteExtras
      ? await this.siteExtras(site.organization_id, site.id)
      : { scripts: [], feedback: false };
    const integrationScripts = extras.scripts;
    const blocks = this.spaceBlocks
      ? await this.spaceBlocks(site.organization_id, siteSpace.space_id)
      : { codeblocks: [], unfurls: [] };
    const key = hashKey([
      site.id,
      site.version,
      integrationScripts,
      extras.feedback,
      blocks,
      editLink?.url ?? '',
      header.shown,
      root,
      visible.sections.map((s) => s.id),
      visibleSiteSpaces(visible).map((s) => [s.id, spaces.get(s.space_id)!.title]),
      siteSpace.id,
      index.revisionId,
      node?.id ?? '',
      missing,
    ]);
    const rendered = await this.cache.renderedPage(key, site.organization_id, (out) =>
      renderPage(this.db, {
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
        missing,
        ...(editLink ? { editLink } : {}),
        ...(this.integrationBlocks ? { integrationBlocks: this.integrationBlocks } : {}),
        integrationScripts,
        feedback: extras.feedback,
        codeblocks: new Map(blocks.codeblocks),
        unfurls: blocks.unfurls,
      }),
    );
    if (!rendered) {
      return messagePage(503, 'Try again shortly', 'This page is taking too long to prepare.', noindex, personal, home);
    }
    const shared = !(personal || noindex);
    return {
      kind: 'html',
      // No page at this address: "Page not found" in the site's own layout, so the reader can go on from it.
      status: missing ? 404 : 200,
      html: rendered.html,
      noindex,
      private: !shared,
      keepToken: view.keepToken,
      // Only an answer that is the same for everyone is revalidated; a personal one is never stored (no-store).
      ...(shared && !missing ? { etag: rendered.etag } : {}),
      encoded: (coding) => encodePage(rendered, coding),
      ...(integrationScripts.length ? { scripts: integrationScripts } : {}),
    };
  }
}

/** Where a page request leads in a site: its section and site space, and the page's path there. */
interface PagePlace {
  section: SectionRow | undefined;
  siteSpace: SiteSpaceRow;
  siteSpaceUrl: string;
  /** '' for the site space's first page. */
  pagePath: string;
  /** The page's markdown is asked for (`<page URL>.md`). */
  asMarkdown: boolean;
}

function pickDefault<T extends { id: string }>(pointer: string | null, among: T[]): T | undefined {
  return among.find((x) => x.id === pointer) ?? among[0];
}
