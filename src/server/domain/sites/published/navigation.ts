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

/** The documents of a page tree in reading order (groups and links are not pages one reads). */
function documents(nodes: PageNode[], out: PageNode[] = []): PageNode[] {
  for (const n of nodes) {
    if (n.version.type === 'document') out.push(n);
    documents(n.pages, out);
  }
  return out;
}

/** The nodes from the top of the tree down to `id` (itself last); empty when it is not in the tree. */
function trail(nodes: PageNode[], id: string): PageNode[] {
  for (const n of nodes) {
    if (n.id === id) return [n];
    const below = trail(n.pages, id);
    if (below.length) return [n, ...below];
  }
  return [];
}

/** The ids of the nodes above `id` in the tree, from the top down. */
export function ancestorIds(nodes: PageNode[], id: string): string[] {
  return trail(nodes, id)
    .slice(0, -1)
    .map((n) => n.id);
}

/** Breadcrumbs of a page: its ancestors, linked when they are pages. None for a top-level page. */
export function breadcrumbs(tree: PageNode[], node: PageNode, url: (n: PageNode) => string): Element[] {
  const ancestors = trail(tree, node.id).slice(0, -1);
  if (ancestors.length === 0) return [];
  return [
    el('nav', { className: ['breadcrumbs'], ariaLabel: 'Breadcrumbs' }, [
      el(
        'ol',
        {},
        ancestors.map((a) =>
          el('li', {}, [
            a.version.type === 'document' ? el('a', { href: url(a) }, [text(a.version.title)]) : text(a.version.title),
          ]),
        ),
      ),
    ]),
  ];
}

/** Links to the previous and next pages in reading order. */
export function pagination(tree: PageNode[], node: PageNode, url: (n: PageNode) => string): Element[] {
  const docs = documents(tree);
  const at = docs.findIndex((d) => d.id === node.id);
  if (at < 0) return [];
  const prev = docs[at - 1];
  const next = docs[at + 1];
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

/**
 * The navigation's page tree. Pages with pages under them, and groups, fold with <details> (no script): groups start
 * open, a page's subpages start open on the way to the current page.
 */
export function pageTree(nodes: PageNode[], url: (n: PageNode) => string, currentId?: string): Element {
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
