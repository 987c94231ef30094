import type { Element, ElementContent, Properties, Root } from 'hast';
import type { PageNode } from '../content/model.js';
import { el, text } from './hast.js';
import { SITE_SCRIPT, SITE_STYLES, THEME_BOOT } from './published/assets.js';

/**
 * The published sites' theme: the page frame around what serve.ts renders (header, navigation, breadcrumbs, "On this
 * page", previous/next, footer), styled by theme-css.ts. Pages work without JavaScript: on a phone, the navigation
 * opens with a CSS-only menu button and groups fold with <details>; the one script (site-script.js) adds the theme
 * toggle, copy buttons and search as you type.
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

/** The elements every page starts its body with: the skip link and the header. */
export function siteHeader(
  root: string,
  siteTitle: string,
  parts: { tabs?: Element; search: Element; menu: boolean; logo?: Element[]; links?: Element; before?: Element[] },
): ElementContent[] {
  return [
    el('a', { className: ['skip-link'], href: '#content' }, [text('Skip to content')]),
    ...(parts.before ?? []),
    // The menu's checkbox comes before the layout, which it shows on a phone when checked (CSS only: no script).
    ...(parts.menu
      ? [
          el('input', {
            type: 'checkbox',
            id: 'menu-toggle',
            className: ['menu-toggle'],
            ariaControls: ['site-nav'],
            ariaLabel: 'Menu',
          }),
        ]
      : []),
    el('header', { className: ['site-header'] }, [
      el('div', { className: ['header-inner'] }, [
        ...(parts.menu ? [el('label', { htmlFor: ['menu-toggle'], className: ['menu-button'] }, [text('Menu')])] : []),
        // A logo names the site itself (its alt text is the title).
        el('a', { className: ['site-title'], href: root }, parts.logo?.length ? parts.logo : [text(siteTitle)]),
        ...(parts.tabs ? [parts.tabs] : []),
        parts.search,
        ...(parts.links ? [parts.links] : []),
        // Shown by the script, which it needs.
        el('button', { type: 'button', className: ['theme-toggle'], hidden: true }, [text('Theme: System')]),
      ]),
    ]),
  ];
}

/**
 * The HTML document every published page is: its head (charset, viewport, robots when `noindex`, title, `head`
 * extras, the theme's stylesheet and script) and `body`.
 */
export function themedDocument(parts: {
  title: string;
  noindex: boolean;
  head?: Element[];
  /** The site's own styles (look.ts), after the theme's. */
  styles?: string;
  /** Attributes of <html> (a fixed theme). */
  htmlProps?: Properties;
  /** False for a page shown inside the console (its preview runs no script). */
  scripts?: boolean;
  body: ElementContent[];
}): Root {
  return {
    type: 'root',
    children: [
      { type: 'doctype' },
      el('html', { lang: 'en', ...parts.htmlProps }, [
        el('head', {}, [
          el('meta', { charSet: 'utf-8' }),
          el('meta', { name: 'viewport', content: 'width=device-width, initial-scale=1' }),
          ...(parts.noindex ? [el('meta', { name: 'robots', content: 'noindex' })] : []),
          el('title', {}, [text(parts.title)]),
          ...(parts.head ?? []),
          el('link', { rel: ['stylesheet'], href: SITE_STYLES.path }),
          ...(parts.styles ? [el('style', {}, [text(parts.styles)])] : []),
          ...(parts.scripts === false
            ? []
            : [el('script', {}, [text(THEME_BOOT)]), el('script', { src: SITE_SCRIPT.path, defer: true })]),
        ]),
        el('body', {}, parts.body),
      ]),
    ],
  };
}
