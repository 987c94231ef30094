import { titleAnchor } from '../../../../shared/heading-ids.js';
import type { Element, ElementContent, Properties, Root } from 'hast';
import { toHtml } from 'hast-util-to-html';
import { pageLayoutOf, type PageNode } from '../../content/model.js';
import { FEEDBACK_SEGMENT, SEARCH_SEGMENT } from '../../../lib/urls.js';
import type { Customization } from '../../../../shared/contract/customization.js';
import { el, text } from '../hast.js';
import type { ServeResult } from './answer.js';
import { SITE_SCRIPT, SITE_STYLES, THEME_BOOT } from './assets.js';
import type { SiteLook } from './look.js';

/**
 * The HTML of published pages, written here only: the document and its head (themedDocument; a page's own metadata
 * in pageMeta), the header, the layout of a content page around its article, the article, and the page saying why
 * there is nothing to show. What fills them comes from elsewhere: the navigation from navigation.ts, the page body
 * from render.ts, what the site's customization adds (title, icon, styles, header links, footer) from look.ts, the
 * styles from theme-css.ts. Pages work without JavaScript: on a phone, the navigation opens with a CSS-only menu
 * button and groups fold with <details>; the one script (site-script.js) adds the theme toggle, copy buttons and
 * search as you type.
 */

/**
 * The HTML document every published page is: its head (charset, viewport, robots when `noindex`, title, `head`
 * extras, the theme's stylesheet and script) and `body`.
 */
export function themedDocument(parts: {
  title: string;
  noindex: boolean;
  head?: Element[];
  /** The site's own styles (look.ts), after the theme's (theme-css.ts). */
  styles?: string;
  /** Attributes of <html> (a fixed theme). */
  htmlProps?: Properties;
  /** False for a page shown inside the console (its preview runs no script). */
  scripts?: boolean;
  /** Scripts of the site's integrations (published-scripts.ts), loaded after the page's own. */
  integrationScripts?: string[];
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
            : [
                el('script', {}, [text(THEME_BOOT)]),
                el('script', { src: SITE_SCRIPT.path, defer: true }),
                ...(parts.integrationScripts ?? []).map((src) => el('script', { src, async: true })),
              ]),
        ]),
        el('body', {}, parts.body),
      ]),
    ],
  };
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

/** The search box of a published site: a plain GET form (pages run no script). */
export function searchForm(root: string, q: string, inSiteSpace: string | undefined): Element {
  return el('form', { className: ['search'], role: 'search', method: 'get', action: `${root}/${SEARCH_SEGMENT}` }, [
    el('input', { type: 'search', name: 'q', value: q, placeholder: 'Search', ariaLabel: 'Search this site' }),
    ...(inSiteSpace ? [el('input', { type: 'hidden', name: 'in', value: inSiteSpace })] : []),
    el('button', { type: 'submit' }, [text('Search')]),
  ]);
}

/** The canonical URL of a page, its markdown twin, and what link previews show (OpenGraph). */
export function pageMeta(siteTitle: string, node: PageNode, url: string, image?: string): Element[] {
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

/**
 * The HTML of a content page: its head (title, the page's metadata, the look's), the header (section tabs, search
 * box, menu button and the look's parts), the site space's navigation beside the article with what goes before and
 * after it, "On this page" when there is one, and the footer.
 */
export function contentPageHtml(p: {
  look: SiteLook;
  root: string;
  /** The page shown, its URL and the image link previews show; none for a site space without pages. */
  page?: { node: PageNode; url: string; image?: string };
  /** The document's title when no page is shown ("Page not found"). */
  title?: string;
  noindex: boolean;
  /** False for the console's preview: no script. */
  scripts: boolean;
  /** Scripts of the site's integrations. */
  integrationScripts?: string[];
  tabs?: Element;
  /** The site space the search box searches first. */
  siteSpaceId: string;
  /** The site space's variants (navigation.ts), above its page tree. */
  variants: Element[];
  pageTree: Element;
  article: ElementContent[];
  /** `classes` of the layout: `wide` (the article as wide as there is room), `no-nav` (no page tree beside it). */
  around: { before: Element[]; after: Element[]; toc?: Element; classes?: string[] };
}): string {
  const { look, around } = p;
  const doc = themedDocument({
    title: p.page
      ? `${p.page.node.version.title} · ${look.title}`
      : p.title
        ? `${p.title} · ${look.title}`
        : look.title,
    noindex: p.noindex,
    head: [...(p.page ? pageMeta(look.title, p.page.node, p.page.url, p.page.image) : []), ...look.head],
    styles: look.styles,
    htmlProps: look.htmlProps,
    scripts: p.scripts,
    ...(p.integrationScripts ? { integrationScripts: p.integrationScripts } : {}),
    body: [
      ...siteHeader(p.root, look.title, {
        ...(p.tabs ? { tabs: p.tabs } : {}),
        search: searchForm(p.root, '', p.siteSpaceId),
        menu: true,
        ...look.header,
      }),
      el('div', { className: ['layout', ...(around.toc ? [] : ['no-toc']), ...(around.classes ?? [])] }, [
        el('aside', { className: ['sidebar'], id: 'site-nav' }, [
          ...p.variants,
          el('nav', { className: ['pages'], ariaLabel: 'Pages' }, [p.pageTree]),
        ]),
        el('main', { id: 'content' }, [...around.before, el('article', {}, p.article), ...around.after]),
        ...(around.toc ? [around.toc] : []),
      ]),
      look.footer,
    ],
  });
  return toHtml(doc, { allowDangerousHtml: true });
}

/** Ids the page's layout gives its own elements (a page title never takes them). */
const LAYOUT_IDS = new Set(['content', 'site-nav', 'menu-toggle', 'toc-title']);

/**
 * The article of a page: its title, description, "View as Markdown" (when the site offers it), body (already
 * sanitized HTML, render.ts) and when it last changed.
 */
/**
 * "Was this page helpful?" under a page, when an integration of the site reads feedback (`page:feedback:read`):
 * a form that works without a script (the site's script sends it in place and says thanks).
 */
export function feedbackForm(root: string, pageUrl: string): Element {
  const action = `${root}/${FEEDBACK_SEGMENT}${pageUrl.slice(root.length)}`;
  const choice = (rating: string, label: string) =>
    el('button', { type: 'submit', name: 'rating', value: rating, className: ['feedback-choice'] }, [text(label)]);
  return el('form', { className: ['page-feedback'], method: 'post', action, ariaLabelledBy: ['page-feedback-title'] }, [
    el('p', { id: 'page-feedback-title', className: ['page-feedback-title'] }, [text('Was this page helpful?')]),
    el('label', { className: ['page-feedback-comment'] }, [
      el('span', {}, [text('Comment (optional)')]),
      el('textarea', { name: 'comment', maxLength: 512, rows: 2 }, []),
    ]),
    el('div', { className: ['page-feedback-choices'] }, [
      choice('good', 'Yes'),
      choice('ok', 'Somewhat'),
      choice('bad', 'No'),
    ]),
  ]);
}

export function pageArticle(
  node: PageNode,
  bodyHtml: string,
  settings: Customization,
  url: string,
  /** "Edit on GitHub": the page's file in the space's Git repository (Git Sync, `git.showEditLink`). */
  editLink?: { url: string; label: string },
  /** Where the page's cover image is, when it has one. */
  coverUrl?: string,
): ElementContent[] {
  // The title keeps the anchor its heading had in the source, unless a heading of the body or the layout has it.
  const id = titleAnchor(node.version.title);
  const taken = LAYOUT_IDS.has(id) || bodyHtml.includes(`id="${id}"`);
  // A layout without the title keeps it for screen readers (the page's one h1); without description or metadata
  // leaves them out.
  const layout = pageLayoutOf(node.version);
  return [
    // The cover is decoration: the page's title says what it is about.
    ...(coverUrl && layout.cover
      ? [
          el('div', { className: ['page-cover', layout.coverSize === 'full' ? 'cover-full' : 'cover-hero'] }, [
            el('img', { src: coverUrl, alt: '' }, []),
          ]),
        ]
      : []),
    el('h1', { ...(taken ? {} : { id }), ...(layout.title ? {} : { className: ['sr-only'] }) }, [
      text(node.version.title),
    ]),
    ...(node.version.description && layout.description
      ? [el('p', { className: ['description'] }, [text(node.version.description)])]
      : []),
    ...(settings.pageActions.markdown || editLink
      ? [
          el('p', { className: ['page-actions'] }, [
            ...(settings.pageActions.markdown
              ? [el('a', { href: `${url}.md`, type: 'text/markdown' }, [text('View as Markdown')])]
              : []),
            ...(settings.pageActions.markdown && editLink ? [text(' · ')] : []),
            ...(editLink
              ? [
                  el('a', { href: editLink.url, rel: ['noopener', 'nofollow'], className: ['edit-link'] }, [
                    text(editLink.label),
                  ]),
                ]
              : []),
          ]),
        ]
      : []),
    { type: 'raw', value: bodyHtml } as unknown as ElementContent,
    ...(layout.metadata ? [lastUpdated(node.version.updatedAt)] : []),
  ];
}

/** The article of a site space without pages. */
/** What a site space shows at an address where it has no page, in its own layout (header, sections, pages). */
export function notFoundArticle(home: { url: string; title: string }): ElementContent[] {
  return [
    el('h1', {}, [text('Page not found')]),
    el('p', {}, [text('There is no page at this address.')]),
    el('a', { className: ['button'], href: home.url }, [text(`Go to ${home.title}`)]),
  ];
}

export function emptySpaceArticle(spaceTitle: string): ElementContent[] {
  return [el('h1', {}, [text(spaceTitle)]), el('p', {}, [text('This space has no pages yet.')])];
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

/** A page that says why there is nothing to show: styled like the site, with a way back to it when there is one. */
export function messagePage(
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

/**
 * The pages a page's navigation left out (`…/~pages`), as a page of their own: the site's script takes its list into
 * the navigation in place; without the script, a reader follows the link to this page.
 */
export function pageListHtml(p: { title: string; siteTitle: string; back: string; list: Element }): string {
  const doc = themedDocument({
    title: `${p.title} · ${p.siteTitle}`,
    noindex: true,
    scripts: false,
    body: [
      el('main', { className: ['message', 'page-list'], id: 'content' }, [
        el('h1', {}, [text(p.title)]),
        el('nav', { className: ['pages'], ariaLabel: 'Pages' }, [p.list]),
        el('a', { className: ['button'], href: p.back }, [text(`Go to ${p.siteTitle}`)]),
      ]),
    ],
  });
  return toHtml(doc);
}

/** The answer when there is no site to show: unknown or unpublished, or a share key that is not an active one. */
export function notFound(noindex: boolean): ServeResult {
  return messagePage(404, 'Not found', 'There is no published site at this address.', noindex);
}
