import type { Element, ElementContent } from 'hast';
import { toHtml } from 'hast-util-to-html';
import type { Db } from '../../../storage/db.js';
import { SEARCH_SEGMENT } from '../../../lib/urls.js';
import { presentBySpace } from '../../../presenters/search.js';
import { SEARCH_QUERY_MAX, type SearchSpaceResult, type TextRange } from '../../../../shared/contract/search.js';
import { liveSpaces, scopedSiteSpaces, searchPages, type PageHit, type SearchHits } from '../../search/service.js';
import { InvalidError } from '../../errors.js';
import { el, text } from '../hast.js';
import type { ServeResult } from './answer.js';
import type { SiteCache } from './cache.js';
import { safeHref, siteLook, type RefResolver, type SiteLook } from './look.js';
import { messagePage, searchForm, siteHeader, themedDocument } from './page-html.js';
import { pageUrlIn, siteSpaceUrlIn, siteSpaceUrlOf } from './urls.js';
import { pageTree, sectionTabs } from './navigation.js';
import { pagesUrlIn } from './page.js';
import type { PageNode } from '../../content/model.js';
import { visibleHeaderItems, visibleSiteSpaces, type VisitorView } from './visitor-access.js';

/** Results per page of a published site's search. */
const SITE_SEARCH_LIMIT = 20;

/**
 * `…/~search?q=`: the site spaces this visitor sees (access above), searched. Scope: the default site space of
 * each visible section plus the one the visitor is in (`in`), or every visible one with `scope=all`. An HTML page
 * of results, or with `format=json` the list of the API's organization search (`urls.app` on this site).
 */
export async function siteSearch(
  db: Db,
  cache: SiteCache,
  view: VisitorView,
  params: Record<string, string | undefined>,
): Promise<ServeResult> {
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
      : messagePage(400, 'Bad request', `${field}: ${message}`, view.noindex, view.personal);
  const q = (params.q ?? '').trim();
  if (q.length > SEARCH_QUERY_MAX) return invalid('q', `must be at most ${SEARCH_QUERY_MAX} characters`);
  const limit = params.limit === undefined ? SITE_SEARCH_LIMIT : Number(params.limit);
  if (!Number.isInteger(limit) || limit < 1 || limit > 100) return invalid('limit', 'must be an integer from 1 to 100');
  if (!q && json) return invalid('q', 'is required');

  const { site, structure, visible } = view;
  const hasSections = structure.sections.length > 0;
  const shown = new Set(visibleSiteSpaces(visible).map((ss) => ss.id));
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
      result = await searchPages(db, liveSpaces(db, ids), q, params.page, limit, { published: true });
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
    return pageUrlIn(siteSpaceUrl, hit.path);
  };
  // The results of the site space the visitor searches from come first, then the others in their order.
  const searchedFrom = covered.find((ss) => ss.id === params.in);
  const current = searchedFrom?.space_id;
  const items = presentBySpace(result, url).sort((a, b) => Number(b.id === current) - Number(a.id === current));
  if (json) return { kind: 'json', status: 200, body: { items, next: result.next, count: result.count }, ...base };
  const nextUrl = result.next
    ? `${view.root}/${SEARCH_SEGMENT}?${new URLSearchParams({
        q,
        page: result.next.page,
        ...(params.in ? { in: params.in } : {}),
        ...(params.scope === 'all' ? { scope: 'all' } : {}),
      })}`
    : undefined;
  const settings = cache.settingsOf(site);
  const refs: RefResolver = (to) =>
    to.kind === 'url'
      ? safeHref(to.url)
      : to.kind === 'space'
        ? siteSpaceUrlOf(structure, visible, view.root, to.space)
        : undefined;
  const look = siteLook(site, settings, visibleHeaderItems(settings, view.claims).items, refs);
  // Each space's results say where they come from: the site's section (and its variant when it has several).
  const from = new Map(
    covered.map((ss) => {
      const section = structure.sections.find((x) => x.id === ss.section_id);
      const title = view.spaces.get(ss.space_id)?.title ?? '';
      return [ss.space_id, section ? (section.title === title ? title : `${section.title} › ${title}`) : title];
    }),
  );
  const currentSection = structure.sections.find((x) => x.id === searchedFrom?.section_id);
  const tabs = sectionTabs(structure, visible, view.root, currentSection);
  // Beside the results, the pages of the site space searched from (or the first searched), as on its pages.
  const home = searchedFrom ?? covered[0];
  let pages: Element | undefined;
  const homeSpace = home && view.spaces.get(home.space_id);
  const index = homeSpace ? await cache.pageIndex(homeSpace.revision_id) : undefined;
  if (home && index) {
    const siteSpaceUrl = siteSpaceUrlIn(
      view.root,
      structure.sections.find((x) => x.id === home.section_id),
      home,
    );
    const pageUrl = (n: PageNode) => pageUrlIn(siteSpaceUrl, n.path);
    pages = pageTree(index, pageUrl, undefined, pagesUrlIn(siteSpaceUrl));
  }
  const html = searchPage(
    look,
    view.root,
    q,
    params.in,
    items,
    result.count,
    nextUrl,
    (id) => from.get(id),
    tabs,
    pages,
  );
  return { kind: 'html', status: 200, html, ...base };
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
  look: SiteLook,
  root: string,
  q: string,
  inSiteSpace: string | undefined,
  items: SearchSpaceResult[],
  count: number,
  nextUrl: string | undefined,
  from: (spaceId: string) => string | undefined,
  tabs: Element | undefined,
  pages: Element | undefined,
): string {
  const several = items.length > 1;
  const results = items.flatMap((space) =>
    space.pages.map((p) =>
      el('li', {}, [
        el('a', { className: ['result'], href: p.urls.app }, marked(p.title, p.highlights.title)),
        ...(several ? [el('span', { className: ['space'] }, [text(` · ${from(space.id) || space.title}`)])] : []),
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
      ...siteHeader(root, look.title, {
        search: searchForm(root, q, inSiteSpace),
        menu: pages !== undefined,
        ...(tabs ? { tabs } : {}),
        ...look.header,
      }),
      ...wrapped(
        pages,
        el('main', { className: ['search-results'], id: 'content' }, [
          el('h1', {}, [text('Search')]),
          el('p', {}, [text(summary)]),
          ...(results.length ? [el('ol', { className: ['results'] }, results)] : []),
          ...(nextUrl ? [el('p', {}, [el('a', { href: nextUrl, rel: ['next'] }, [text('More results')])])] : []),
        ]),
      ),
      look.footer,
    ],
  });
  return toHtml(doc);
}

/** The results in the pages' layout, the page tree beside them, when there is one. */
function wrapped(pages: Element | undefined, main: Element): Element[] {
  if (!pages) return [main];
  return [
    el('div', { className: ['layout', 'no-toc'] }, [
      el('aside', { className: ['sidebar'], id: 'site-nav' }, [
        el('nav', { className: ['pages'], ariaLabel: 'Pages' }, [pages]),
      ]),
      main,
    ]),
  ];
}
