import type { Element } from 'hast';
import type { PageNode } from '../../content/model.js';
import type { SectionRow, SiteSpaceRow } from '../../../storage/repos/sites.js';
import { type Structure, groupSections, topItems } from '../model.js';
import { el, text } from '../hast.js';
import type { Visible } from './visitor-access.js';

/**
 * The navigation of published pages (page-html.ts places it): the header's section tabs, the site space's variants
 * and page tree beside the article, breadcrumbs, previous and next pages, and "On this page". It works without
 * JavaScript: groups of sections, groups of pages and pages with pages under them fold with <details>.
 */

/**
 * A space's page tree with what navigation looks up on every page: each node by id, its parent, and the documents in
 * reading order with their positions. Built once per revision (cache.ts), so a page's breadcrumbs, previous and next
 * pages cost the depth of the page, not the size of the space.
 */
export interface NavIndex {
  tree: PageNode[];
  byId: Map<string, PageNode>;
  parentOf: Map<string, PageNode>;
  /** Documents in reading order (groups and links are not pages one reads). */
  documents: PageNode[];
  position: Map<string, number>;
  /**
   * Set when the index holds part of the tree only (a page's branch, see branch.ts): the nodes whose pages it read.
   * The pages of the others are counted from their entries.
   */
  expanded?: ReadonlySet<string>;
}

/**
 * Builds a NavIndex node by node, in reading order (each page before its subpages): from a tree (navIndex), or
 * while a revision's tree is walked (the published sites' index, see cache.ts), with no second pass.
 */
export class NavBuilder {
  readonly index: NavIndex = { tree: [], byId: new Map(), parentOf: new Map(), documents: [], position: new Map() };
  /** Pages left out of the navigation: hidden ones and the pages under them. */
  private readonly hidden = new Set<string>();

  /** Adds `node` under `parent` (at the top when none), after every node added before it. */
  add(node: PageNode, parent: PageNode | undefined): void {
    const { index } = this;
    index.byId.set(node.id, node);
    if (parent) index.parentOf.set(node.id, parent);
    // A hidden page is read at its address but is not in the reading order (previous and next pages skip it).
    if (node.version.hidden || (parent && this.hidden.has(parent.id))) {
      this.hidden.add(node.id);
      return;
    }
    if (node.version.type === 'document') {
      index.position.set(node.id, index.documents.length);
      index.documents.push(node);
    }
  }
}

export function navIndex(tree: PageNode[]): NavIndex {
  const builder = new NavBuilder();
  builder.index.tree = tree;
  // An explicit stack: a deep tree must not overflow the call stack.
  const stack: Array<{ nodes: PageNode[]; at: number; parent?: PageNode }> = [{ nodes: tree, at: 0 }];
  while (stack.length) {
    const level = stack[stack.length - 1]!;
    const n = level.nodes[level.at++];
    if (!n) {
      stack.pop();
      continue;
    }
    builder.add(n, level.parent);
    if (n.pages.length) stack.push({ nodes: n.pages, at: 0, parent: n });
  }
  return builder.index;
}

/** Whether a page is listed in the navigation (a hidden page's pages are not, being under it). */
export const shown = (n: PageNode): boolean => !n.version.hidden;

/** The nodes above `id`, from the top of the tree down. */
function ancestors(index: NavIndex, id: string): PageNode[] {
  const out: PageNode[] = [];
  for (let p = index.parentOf.get(id); p && out.length <= 100; p = index.parentOf.get(p.id)) out.unshift(p);
  return out;
}

/** Breadcrumbs of a page: its ancestors, linked when they are pages. None for a top-level page. */
export function breadcrumbs(index: NavIndex, node: PageNode, url: (n: PageNode) => string): Element[] {
  const above = ancestors(index, node.id);
  if (above.length === 0) return [];
  return [
    el('nav', { className: ['breadcrumbs'], ariaLabel: 'Breadcrumbs' }, [
      el(
        'ol',
        {},
        above.map((a) =>
          el('li', {}, [
            a.version.type === 'document' ? el('a', { href: url(a) }, [text(a.version.title)]) : text(a.version.title),
          ]),
        ),
      ),
    ]),
  ];
}

/** Links to the previous and next pages in reading order. */
export function pagination(index: NavIndex, node: PageNode, url: (n: PageNode) => string): Element[] {
  const at = index.position.get(node.id);
  if (at === undefined) return [];
  const prev = index.documents[at - 1];
  const next = index.documents[at + 1];
  if (!prev && !next) return [];
  const link = (n: PageNode, rel: 'prev' | 'next') =>
    el('a', { className: [rel], href: url(n), rel: [rel] }, [
      el('small', {}, [text(rel === 'prev' ? 'Previous' : 'Next')]),
      text(n.version.title),
    ]);
  return [
    el('nav', { className: ['pagination'], ariaLabel: 'Previous and next pages' }, [
      ...(prev ? [link(prev, 'prev')] : []),
      ...(next ? [link(next, 'next')] : []),
    ]),
  ];
}

/** "On this page": the page's headings, beside the article on wide screens. */
export function onThisPage(headings: Array<{ id: string; title: string; level: number }>): Element | undefined {
  if (headings.length < 2) return undefined;
  return el('nav', { className: ['toc'], ariaLabelledBy: ['toc-title'] }, [
    el('h2', { id: 'toc-title' }, [text('On this page')]),
    el(
      'ul',
      {},
      headings.map((h) =>
        el('li', { className: [`level-${h.level}`] }, [el('a', { href: `#${h.id}` }, [text(h.title)])]),
      ),
    ),
  ]);
}

/** The header's tabs: one per section; a group of sections is a menu of its own (<details>, closed by the script). */
export function sectionTabs(
  structure: Structure,
  visible: Visible,
  root: string,
  current?: SectionRow,
): Element | undefined {
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

/** A space with at most this many pages has its whole tree in every page (it works without a script). */
export const WHOLE_TREE_MAX = 400;
/** A larger space shows at most this many pages of one level around the way to the current page… */
export const LEVEL_WINDOW = 50;
/** …the first pages of a group that is not on that way… */
const GROUP_PREVIEW = 10;
/** …and the rest on demand, this many at a time (`~pages`, pageList). */
export const PAGES_CHUNK = 200;

/** Where the pages of `parent` (the top level: undefined) from `from` to `to` are listed (`…/~pages`). */
export type PagesUrl = (parent: string | undefined, from: number, to: number) => string;

/**
 * The navigation's page tree. Pages with pages under them, and groups, fold with <details> (no script): groups start
 * open, a page's subpages start open on the way to the current page.
 *
 * A published page must not grow with its space (a page of a 100,000-page space weighed 19.5 MB): past
 * WHOLE_TREE_MAX pages, it holds the levels on the way to the current page (each at most LEVEL_WINDOW pages around
 * that way), the first GROUP_PREVIEW pages of the other groups there, and for everything else a link to the list of
 * those pages (`pagesUrl`), which the site's script loads in place when a folder opens or the link is followed.
 */
export function pageTree(
  index: NavIndex,
  url: (n: PageNode) => string,
  currentId: string | undefined,
  pagesUrl: PagesUrl,
): Element {
  const whole = !index.expanded && index.byId.size <= WHOLE_TREE_MAX;
  const target = linkTargets(index, url);
  const { expanded } = index;
  // Pages under a folder: those shown when the whole tree is, else as its entry counts them (a partial index does not
  // read a folded folder's pages, so hidden ones among them count too, in both indexes alike).
  const count = (n: PageNode) =>
    expanded && !expanded.has(n.id) ? n.entry.c.length : whole ? n.pages.filter(shown).length : n.pages.length;
  const open = new Set(currentId ? ancestors(index, currentId).map((n) => n.id) : []);
  if (currentId) open.add(currentId);
  /** Items of a level: all of them, or a window and links to the others. */
  const level = (all: PageNode[], parent: string | undefined, limit: number): Element => {
    // Hidden pages are left out (and the pages under them); positions count the pages shown (as pageList's do).
    const nodes = all.filter(shown);
    let from = 0;
    let to = nodes.length;
    if (!whole && nodes.length > limit) {
      const on = nodes.findIndex((n) => open.has(n.id));
      from = on < 0 ? 0 : Math.max(0, Math.min(on - Math.floor(limit / 2), nodes.length - limit));
      to = from + limit;
    }
    return el('ul', {}, [
      ...(from > 0 ? [moreLink(pagesUrl(parent, 0, from), `Show ${from} more pages`)] : []),
      ...nodes.slice(from, to).map(item),
      ...(to < nodes.length
        ? [moreLink(pagesUrl(parent, to, nodes.length), `Show ${nodes.length - to} more pages`)]
        : []),
    ]);
  };
  /** What a folded folder holds: everything when the space is small, a link to its pages otherwise. */
  const inside = (n: PageNode, limit: number): Element =>
    whole || open.has(n.id)
      ? level(n.pages, n.id, LEVEL_WINDOW)
      : limit > 0
        ? level(n.pages, n.id, limit)
        : el('ul', {}, [moreLink(pagesUrl(n.id, 0, count(n)), `Show ${count(n)} pages`)]);
  const item = (n: PageNode): Element => {
    const title = n.version.title;
    if (n.version.type === 'group') {
      return el('li', {}, [
        el('details', { className: ['group'], open: true }, [
          el('summary', { className: ['group-title'] }, [text(title)]),
          ...(count(n) ? [inside(n, GROUP_PREVIEW)] : []),
        ]),
      ]);
    }
    const link =
      n.version.type === 'link'
        ? linkItem(n, target)
        : el('a', { href: url(n), ...(n.id === currentId ? { ariaCurrent: 'page' } : {}) }, [text(title)]);
    if (count(n) === 0) return el('li', {}, [link]);
    return el('li', { className: ['folder'] }, [
      link,
      el('details', { open: open.has(n.id) }, [
        el('summary', { ariaLabel: `${title}: pages inside` }, []),
        inside(n, 0),
      ]),
    ]);
  };
  return level(index.tree, undefined, LEVEL_WINDOW);
}

/**
 * The pages of one level from `from` (at most PAGES_CHUNK of them, with a link to the next ones up to `to`), as
 * the tree of a page shows them away from the current page: folders and groups folded, their pages behind a link.
 */
export function pageList(
  nodes: PageNode[],
  parent: string | undefined,
  from: number,
  to: number,
  url: (n: PageNode) => string,
  pagesUrl: PagesUrl,
  target: LinkTarget = () => undefined,
): Element {
  nodes = nodes.filter(shown);
  const end = Math.min(to, nodes.length, from + PAGES_CHUNK);
  const folded = (n: PageNode, summary: Element, link?: Element): Element =>
    el('li', { className: link ? ['folder'] : [] }, [
      ...(link ? [link] : []),
      el('details', n.version.type === 'group' ? { className: ['group'] } : {}, [
        summary,
        el('ul', {}, [moreLink(pagesUrl(n.id, 0, n.pages.length), `Show ${n.pages.length} pages`)]),
      ]),
    ]);
  const item = (n: PageNode): Element => {
    const title = n.version.title;
    if (n.version.type === 'group') {
      const summary = el('summary', { className: ['group-title'] }, [text(title)]);
      return n.pages.length
        ? folded(n, summary)
        : el('li', {}, [el('details', { className: ['group'], open: true }, [summary])]);
    }
    const link = n.version.type === 'link' ? linkItem(n, target) : el('a', { href: url(n) }, [text(title)]);
    return n.pages.length
      ? folded(n, el('summary', { ariaLabel: `${title}: pages inside` }, []), link)
      : el('li', {}, [link]);
  };
  return el('ul', {}, [
    ...nodes.slice(from, end).map(item),
    ...(end < Math.min(to, nodes.length)
      ? [
          moreLink(
            pagesUrl(parent, end, Math.min(to, nodes.length)),
            `Show ${Math.min(to, nodes.length) - end} more pages`,
          ),
        ]
      : []),
  ]);
}

/** A link page: its address when it is one a reader may follow (http(s) or a path of this origin). */
/** Where a link page pointing into the space (`/pages/<id>`, `#section` kept) leads on the site, if it is here. */
export type LinkTarget = (href: string) => string | undefined;

/** Link pages' targets among the pages of `index` (as an import writes a SUMMARY entry naming a page's section). */
export function linkTargets(index: Pick<NavIndex, 'byId'>, url: (n: PageNode) => string): LinkTarget {
  return (href) => {
    const found = /^\/pages\/([A-Za-z0-9_-]+)(#[^\s]*)?$/.exec(href);
    const node = found ? index.byId.get(found[1]!) : undefined;
    return node && node.version.type === 'document' ? url(node) + (found![2] ?? '') : undefined;
  };
}

function linkItem(n: PageNode, target: LinkTarget): Element {
  const href = n.version.href ?? '';
  const inside = target(href);
  if (inside) return el('a', { href: inside }, [text(n.version.title)]);
  const safe = /^https?:\/\//i.test(href) || (href.startsWith('/') && !href.startsWith('//'));
  return el('a', safe ? { href, rel: ['noopener', 'nofollow'] } : {}, [text(n.version.title)]);
}

/** A link to pages left out of the tree: the site's script loads them in its place (`data-pages`). */
function moreLink(href: string, label: string): Element {
  return el('li', { className: ['more'] }, [el('a', { href, dataPages: '' }, [text(label)])]);
}

/** The site spaces of the page's section (or of the site's root): versions to switch between, when several. */
export function siteSpaceVariants(
  variants: SiteSpaceRow[],
  parentUrl: string,
  current: SiteSpaceRow,
  titleOf: (ss: SiteSpaceRow) => string,
): Element[] {
  return variants.length > 1
    ? [
        el('nav', { className: ['variants'], ariaLabel: 'Versions' }, [
          el(
            'ul',
            {},
            variants.map((ss) =>
              el('li', {}, [
                el('a', { href: `${parentUrl}/${ss.path}`, ...(ss.id === current.id ? { ariaCurrent: 'page' } : {}) }, [
                  text(titleOf(ss)),
                ]),
              ]),
            ),
          ),
        ]),
      ]
    : [];
}
