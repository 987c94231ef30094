import type { Element, ElementContent } from 'hast';
import type { Db } from '../../../storage/db.js';
import type { SectionRow, SiteRow, SiteSpaceRow } from '../../../storage/repos/sites.js';
import type { SpaceRow } from '../../../storage/repos/spaces.js';
import { findRevision } from '../../../storage/repos/spaces.js';
import { RevisionReader, pageLayoutOf, type PageNode } from '../../content/model.js';
import { blocksToMarkdown, markdownCost } from '../../content/blocks.js';
import { withIncludes } from '../../content/reusable.js';
import { withAnchorAliases } from '../../content/anchors.js';
import { FILES_SEGMENT, PAGES_SEGMENT } from '../../../lib/urls.js';
import { operationBlocks } from '../../../../shared/openapi-blocks.js';
import { withoutTitle } from '../../../../shared/page-title.js';
import {
  embedsAsBlocks,
  fencesAsBlocks,
  integrationBlocksIn,
  type CodeblockBlock,
  type IntegrationBlockRef,
  type UnfurlBlock,
} from '../../../../shared/gitbook-blocks.js';
import type { ContentKitOutput } from '../../../../shared/contentkit.js';
import type { Customization, HeaderItem } from '../../../../shared/contract/customization.js';
import { loadOperations, type OperationDeps } from '../../openapi/operations.js';
import { workers } from '../../../workers/pool.js';
import type { Structure } from '../model.js';
import {
  hrefTargets,
  markdownUrls,
  renderMarkdown,
  resolveHref,
  type ImageSize,
  type LinkResolver,
  type RenderedBody,
} from '../render.js';
import type { PageIndex } from './cache.js';
import { safeHref, siteLook, type RefResolver } from './look.js';
import {
  breadcrumbs,
  onThisPage,
  pageTree,
  pagination,
  sectionTabs,
  siteSpaceVariants,
  type PagesUrl,
} from './navigation.js';
import { contentPageHtml, emptySpaceArticle, feedbackForm, notFoundArticle, pageArticle } from './page-html.js';
import { pageUrlIn, siteSpaceUrlOf } from './urls.js';
import type { Visible } from './visitor-access.js';

/**
 * A page of a published site rendered: its document read from the site space's revision, its links resolved
 * against the space's page index (pages, files, image sizes), its OpenAPI blocks' operations loaded, its body
 * rendered (render.ts; in the worker pool when big or with code), the links of the site's customization resolved.
 * page-html.ts writes the page's HTML from these, navigation.ts its navigation.
 */

/** What a page is rendered from: the site as this visitor sees it, and the page (none: the space has no pages). */
export interface PageToRender {
  site: SiteRow;
  structure: Structure;
  visible: Visible;
  spaces: Map<string, SpaceRow>;
  root: string;
  section?: SectionRow;
  siteSpace: SiteSpaceRow;
  siteSpaceUrl: string;
  index: PageIndex;
  node?: PageNode;
  settings: Customization;
  headerItems: HeaderItem[];
  /** The console's preview: no script. */
  preview?: boolean;
  /** No page at the address asked: the site space's "Page not found", in its layout. */
  missing?: boolean;
  /** The page's "Edit on GitHub" link (Git Sync with `git.showEditLink`). */
  editLink?: { url: string; label: string };
  /** Set to what the rendering depends on beyond its cache key. */
  out?: PageDeps;
  /** Renders the page's integration blocks for its readers (none: they show their label). */
  integrationBlocks?: IntegrationBlocksRenderer;
  /** Scripts the site's integrations add to its pages. */
  integrationScripts?: string[];
  /** Languages of fenced code shown as integrations' blocks (Mermaid's ```` ```mermaid ````). */
  codeblocks?: Map<string, CodeblockBlock>;
  /** Links installed blocks unfurl: an embed of one is shown as that block. */
  unfurls?: UnfurlBlock[];
  /** An integration of the site reads feedback: the page asks for it. */
  feedback?: boolean;
}

/** What a rendered page depends on beyond its cache key (cache.ts). */
export interface PageDeps {
  /** The OpenAPI spec versions its blocks show. */
  openapi?: OperationDeps;
  /** When the first of its integration blocks' renders stops being fresh (ms since the epoch). */
  expires?: number;
}

/** The integration blocks of a page of `spaceId` rendered for its readers, by key, and until when they are fresh. */
export type IntegrationBlocksRenderer = (
  organizationId: string,
  spaceId: string,
  refs: IntegrationBlockRef[],
) => Promise<{ outputs: Record<string, ContentKitOutput | null>; expires: number }>;

/** The HTML of a page, or of a site space without pages, as this visitor sees the site. */
export async function renderPage(db: Db, c: PageToRender): Promise<string> {
  const { site, index, node, siteSpaceUrl, settings } = c;
  const pageUrl = (n: PageNode) => pageUrlIn(siteSpaceUrl, n.path);
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
  let around: { before: Element[]; after: Element[]; toc?: Element; classes?: string[] } = { before: [], after: [] };
  if (node) {
    const revision = (await findRevision(db, index.revisionId))!;
    const reader = new RevisionReader(db, revision);
    const blocks = await reader.document(node.version);
    // The reusable contents it includes, in place: readers see them as part of the page.
    const written = await withIncludes(reader, withoutTitle(blocksToMarkdown(blocks), node.version.title));
    // Fences of a language an installed integration claims are its blocks (as GitBook shows Mermaid's).
    const fenced = c.codeblocks?.size ? fencesAsBlocks(written, c.codeblocks) : written;
    // …and embeds of links an installed block unfurls are that block (GitHub files' for a file on GitHub).
    const markdown = c.unfurls?.length ? embedsAsBlocks(fenced, c.unfurls) : fenced;
    const apiBlocks = operationBlocks(markdown);
    if (apiBlocks.length) {
      const loaded = await loadOperations(db, site.organization_id, apiBlocks);
      resolver.operations = loaded.operations;
      if (c.out) c.out.openapi = loaded.deps;
    }
    const integrationRefs = integrationBlocksIn(markdown);
    if (integrationRefs.length) {
      const rendered = c.integrationBlocks
        ? await c.integrationBlocks(site.organization_id, c.siteSpace.space_id, integrationRefs)
        : { outputs: {}, expires: 0 };
      resolver.integrations = rendered.outputs;
      if (c.out) c.out.expires = rendered.expires;
    }
    // A partial index first reads the pages the body's links name (see branch.ts).
    const prepare =
      index.prepare &&
      ((urls: string[]) =>
        index.prepare!(
          urls.flatMap((url) =>
            (hrefTargets(url, resolver.currentPath)?.targets ?? []).flatMap((t) => (t.kind === 'page' ? [t.ref] : [])),
          ),
        ));
    const body = await renderPageBody(markdown, resolver, prepare);
    // Ids its headings had before they were reworded lead to them still (content/anchors.ts).
    const html = withAnchorAliases(body.html, node.version.anchors, blocks);
    const cover = node.version.cover && resolver.file(node.version.cover.file);
    article = pageArticle(node, html, settings, pageUrl(node), c.editLink, cover);
    if (c.feedback && !c.preview) article.push(feedbackForm(c.root, pageUrl(node)));
    // The page's own layout may leave out "On this page", the previous and next pages, the page tree.
    const layout = pageLayoutOf(node.version);
    const toc = layout.outline ? onThisPage(body.headings) : undefined;
    around = {
      before: breadcrumbs(index, node, pageUrl),
      after: settings.pagination.enabled && layout.pagination ? pagination(index, node, pageUrl) : [],
      ...(toc ? { toc } : {}),
      classes: [...(layout.width === 'wide' ? ['wide'] : []), ...(layout.tableOfContents ? [] : ['no-nav'])],
    };
  } else if (c.missing) {
    article = notFoundArticle({ url: c.root, title: site.title });
  } else {
    article = emptySpaceArticle(c.spaces.get(c.siteSpace.space_id)!.title);
  }

  const tabs = sectionTabs(c.structure, c.visible, c.root, c.section);
  const variants = c.visible.siteSpaces.get(c.section?.id ?? '') ?? [];
  const parentUrl = c.section ? `${c.root}/${c.section.path}` : c.root;
  const variantNav = siteSpaceVariants(variants, parentUrl, c.siteSpace, (ss) => c.spaces.get(ss.space_id)!.title);

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
  if (index.prepare) {
    // The pages the site's own links (header, announcement, footer) name, read first by a partial index.
    const named: string[] = [];
    siteLook(site, settings, c.headerItems, (to) => {
      if ((to.kind === 'page' || to.kind === 'anchor') && to.page && (!to.space || to.space === c.siteSpace.space_id))
        named.push(to.page);
      return undefined;
    });
    await index.prepare(named);
  }
  const look = siteLook(site, settings, c.headerItems, refs);
  return contentPageHtml({
    look,
    root: c.root,
    ...(node ? { page: { node, url: pageUrl(node), image: settings.socialPreview.url } } : {}),
    ...(c.missing ? { title: 'Page not found' } : {}),
    // A page may ask search engines not to index it (`noRobotsIndex`), on a public site too.
    noindex: site.visibility !== 'public' || !!node?.version.noRobotsIndex,
    scripts: !c.preview,
    ...(!c.preview && c.integrationScripts?.length ? { integrationScripts: c.integrationScripts } : {}),
    ...(tabs ? { tabs } : {}),
    siteSpaceId: c.siteSpace.id,
    variants: variantNav,
    pageTree: pageTree(index, pageUrl, node?.id, pagesUrlIn(siteSpaceUrl)),
    article,
    around,
  });
}

/** Where a site space lists the pages its navigation leaves out (`…/~pages[/{parent}]?from=&to=`). */
export function pagesUrlIn(siteSpaceUrl: string): PagesUrl {
  return (parent, from, to) =>
    `${siteSpaceUrl}/${PAGES_SEGMENT}${parent ? `/${encodeURIComponent(parent)}` : ''}?from=${from}&to=${to}`;
}

/**
 * A page body as HTML. A big one, or one with code, is rendered in the worker pool, in two tasks: the first lists
 * its link targets, which are resolved here against the site's page index, and the second renders with those
 * answers.
 */
async function renderPageBody(
  markdown: string,
  links: LinkResolver,
  prepare?: (urls: string[]) => Promise<void>,
): Promise<RenderedBody> {
  // A page with code blocks always goes to a worker, where they are highlighted (too costly for the event loop).
  const fenced =
    /^ {0,3}(```|~~~)/m.test(markdown) || links.operations !== undefined || links.integrations !== undefined;
  const cost = markdownCost(markdown);
  if (!fenced && workers.runsInline(cost)) {
    if (prepare) await prepare(markdownUrls(markdown));
    return renderMarkdown(markdown, links);
  }
  const urls = await workers.run('markdownUrls', markdown, cost);
  if (prepare) await prepare(urls);
  const resolved = Object.fromEntries(urls.map((url) => [url, resolveHref(url, links)]));
  const sizes: Record<string, ImageSize> = {};
  for (const url of Object.values(resolved)) {
    const found = links.imageSize?.(url);
    if (found) sizes[url] = found;
  }
  const size = fenced ? Number.MAX_SAFE_INTEGER : cost;
  return workers.run(
    'renderBody',
    {
      markdown,
      resolved,
      siteRoot: links.siteRoot,
      sizes,
      ...(links.operations ? { operations: links.operations } : {}),
      ...(links.integrations ? { integrations: links.integrations } : {}),
    },
    size,
  );
}
