import type { Element, ElementContent } from 'hast';
import type {
  CustomizationLink,
  ContentRef,
  Customization,
  HeaderItem,
  ThemedColor,
} from '../../../../shared/contract/customization.js';
import type { SiteRow } from '../../../storage/repos/sites.js';
import { el, text } from '../hast.js';

/**
 * A site's customization as published pages show it: the CSS variables its styling sets (on top of theme-css.ts),
 * and the header, footer, announcement and favicon it describes. What is applied, and how, is listed in the
 * README ("Customization").
 */

/** Where a header or footer link leads on this page's site, or undefined when it leads nowhere a visitor can go. */
export type RefResolver = (to: ContentRef) => string | undefined;

/** Only addresses a visitor can follow safely: http(s), mailto, or a path of this server. */
export function safeHref(url: string): string | undefined {
  return /^(https?:|mailto:)/i.test(url) || (url.startsWith('/') && !url.startsWith('//')) ? url : undefined;
}

const FONT_STACKS: Record<string, string> = {
  RobotoSlab: '"Roboto Slab",Georgia,serif',
  Merriweather: 'Merriweather,Georgia,serif',
  IBMPlexSerif: '"IBM Plex Serif",Georgia,serif',
};
const SANS = 'system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif';
const MONO = 'ui-monospace,SFMono-Regular,Menlo,Consolas,monospace';

/** A font name fit for a CSS string: letters, digits, spaces, dashes and underscores only. */
const cssName = (name: string) => `"${name.replace(/[^\w -]/g, '')}"`;
/** "SourceSansPro" → "Source Sans Pro", the name fonts are installed under. */
const spaced = (name: string) =>
  name
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .replace(/([A-Za-z])(\d)/, '$1 $2');

function fontStack(
  font: Customization['styling']['font'] | Customization['styling']['monospaceFont'],
  fallback: string,
  serif = false,
): string {
  const name = typeof font === 'string' ? font : font.fontFamily;
  if (serif && typeof font === 'string' && FONT_STACKS[font]) return FONT_STACKS[font]!;
  return `${cssName(typeof font === 'string' ? spaced(name) : name)},${fallback}`;
}

const RADIUS = { straight: '0px', rounded: '8px', circular: '16px' } as const;

/**
 * The CSS a site's styling adds: colours (light, and dark under the same selectors theme-css.ts uses), corners,
 * fonts, link and sidebar styles, the header of the bold and gradient themes. Every value comes from the contract's
 * enums or is a checked `#rgb` colour, so nothing here can escape its declaration.
 */
export function lookStyles(c: Customization): string {
  const s = c.styling;
  const mode = (pick: (t: ThemedColor) => string) =>
    [
      `--accent:${pick(s.primaryColor)}`,
      `--c-note:${pick(s.infoColor)}`,
      `--c-important:${pick(s.primaryColor)}`,
      `--c-tip:${pick(s.successColor)}`,
      `--c-warning:${pick(s.warningColor)}`,
      `--c-caution:${pick(s.dangerColor)}`,
      `--tint:${pick(s.tint?.color ?? s.primaryColor)}`,
    ].join(';');
  const light = mode((t) => t.light);
  const dark = mode((t) => t.dark);
  const rules = [
    `:root{${light};--radius:${RADIUS[s.corners]};--sans:${fontStack(s.font, SANS, true)};--mono:${fontStack(s.monospaceFont, MONO)}}`,
    `@media (prefers-color-scheme:dark){:root:not([data-theme=light]){${dark}}}`,
    `:root[data-theme=dark]{${dark}}`,
    ':root{--accent-soft:color-mix(in srgb,var(--accent) 12%,var(--bg))}',
  ];
  if (s.links === 'accent') rules.push('article a{text-decoration:underline;text-underline-offset:2px}');
  if (s.sidebar.background === 'filled')
    rules.push('.sidebar{background:var(--bg-2);padding-left:8px;border-radius:var(--radius)}');
  if (s.sidebar.list === 'line') {
    rules.push('.sidebar a[aria-current=page]{background:none;border-radius:0;box-shadow:inset 2px 0 0 var(--accent)}');
  } else if (s.sidebar.list === 'default') rules.push('.sidebar a[aria-current=page]{background:none}');
  if (s.depth === 'flat') rules.push('.suggestions,nav.sections details>ul{box-shadow:none}');
  if (s.search === 'prominent') rules.push('form.search input{width:320px}');
  if (s.theme === 'muted') rules.push(':root{--bg-2:color-mix(in srgb,var(--tint) 8%,var(--bg))}');
  if (s.theme === 'bold' || s.theme === 'gradient') {
    const paint = s.theme === 'bold' ? 'var(--accent)' : 'linear-gradient(90deg,var(--accent),var(--tint))';
    rules.push(
      `.site-header{background:${paint};border-bottom-color:transparent}`,
      '.site-header .site-title,.site-header nav.sections a,.site-header nav.sections summary,.header-links>li>a{color:#fff}',
      '.site-header nav.sections a[aria-current=page]{background:rgba(255,255,255,.2);color:#fff}',
    );
  }
  if (!c.themes.toggeable) rules.push('.theme-toggle{display:none!important}');
  return rules.join('\n');
}

/** The `<html>` attributes for a site whose readers cannot switch theme: fixed to its default. */
export function fixedTheme(c: Customization): Record<string, string> {
  return c.themes.toggeable ? {} : { dataTheme: c.themes.default, dataThemeFixed: '' };
}

/** A logo in light and dark (the one the page's mode calls for is shown, by theme-css.ts). */
export function logo(urls: { light: string; dark: string } | undefined, alt: string, className: string): Element[] {
  if (!urls) return [];
  const light = safeHref(urls.light);
  const dark = safeHref(urls.dark);
  if (!light || !dark) return [];
  return [
    el('img', { className: [className, 'only-light'], src: light, alt }),
    el('img', { className: [className, 'only-dark'], src: dark, alt }),
  ];
}

function link(l: CustomizationLink, resolve: RefResolver, external: boolean, className: string[] = []): Element {
  const href = resolve(l.to);
  const classes = className.length ? { className } : {};
  if (!href) return el('span', classes, [text(l.title)]);
  const outside = /^https?:/i.test(href) && external;
  return el('a', { href, ...classes, ...(outside ? { target: '_blank', rel: ['noopener'] } : {}) }, [text(l.title)]);
}

/** The header's own links (customization `header.links`), those whose condition the visitor matches. */
export function headerLinks(items: HeaderItem[], resolve: RefResolver, external: boolean): Element | undefined {
  if (items.length === 0) return undefined;
  return el('nav', { className: ['header-nav'], ariaLabel: 'Site links' }, [
    el(
      'ul',
      { className: ['header-links'] },
      items.map((item) => {
        const style = item.style && item.style !== 'link' ? [item.style] : [];
        if (item.links.length > 0) {
          return el('li', {}, [
            el('details', {}, [
              el('summary', { className: style }, [text(item.title)]),
              el(
                'ul',
                {},
                item.links.map((l) => el('li', {}, [link(l, resolve, external)])),
              ),
            ]),
          ]);
        }
        return el('li', {}, [
          item.to
            ? link({ title: item.title, to: item.to }, resolve, external, style)
            : el('span', {}, [text(item.title)]),
        ]);
      }),
    ),
  ]);
}

const ANNOUNCEMENT_LABEL = { info: 'Note', warning: 'Warning', danger: 'Important', success: 'News' } as const;

/** The announcement bar above the header, when enabled. */
export function announcement(c: Customization, resolve: RefResolver, external: boolean): Element[] {
  const a = c.announcement;
  if (!a?.enabled) return [];
  return [
    el('div', { className: ['announcement', `announcement-${a.style}`], role: 'region', ariaLabel: 'Announcement' }, [
      el('p', {}, [
        el('span', { className: ['sr-only'] }, [text(`${ANNOUNCEMENT_LABEL[a.style]}: `)]),
        text(a.message),
        ...(a.link ? [text(' '), link(a.link, resolve, external)] : []),
      ]),
    ]),
  ];
}

/** The footer: logo, link groups, copyright, privacy policy, and the trademark line when enabled. */
export function footer(c: Customization, siteTitle: string, resolve: RefResolver, external: boolean): Element {
  const f = c.footer;
  const privacy = c.privacyPolicy.url ? safeHref(c.privacyPolicy.url) : undefined;
  const line: ElementContent[] = [];
  if (f.copyright) line.push(text(f.copyright));
  if (privacy) {
    if (line.length) line.push(text(' · '));
    line.push(el('a', { href: privacy }, [text('Privacy policy')]));
  }
  if (c.trademark.enabled) {
    if (line.length) line.push(text(' · '));
    line.push(text(`${siteTitle} · Published with Docspace`));
  }
  return el('footer', { className: ['site-footer'] }, [
    el('div', { className: ['footer-inner'] }, [
      ...(f.logo ? [el('div', { className: ['footer-logo'] }, logo(f.logo, siteTitle, 'footer-logo-img'))] : []),
      ...(f.groups.length
        ? [
            el(
              'div',
              { className: ['footer-groups'] },
              f.groups.map((g) =>
                el('nav', { ariaLabel: g.title || 'Footer links' }, [
                  el('h2', {}, [text(g.title)]),
                  el(
                    'ul',
                    {},
                    g.links.map((l) => el('li', {}, [link(l, resolve, external)])),
                  ),
                ]),
              ),
            ),
          ]
        : []),
      ...(line.length ? [el('p', {}, line)] : []),
    ]),
  ]);
}

/** The favicon: the site's icon (light and dark), an emoji drawn as SVG, or `fallback`. */
export function favicon(c: Customization, fallback: string): Element[] {
  const f = c.favicon;
  if ('icon' in f && f.icon) {
    const light = safeHref(f.icon.light);
    const dark = safeHref(f.icon.dark);
    if (light && dark) {
      return [
        el('link', { rel: ['icon'], href: light, media: '(prefers-color-scheme: light)' }),
        el('link', { rel: ['icon'], href: dark, media: '(prefers-color-scheme: dark)' }),
      ];
    }
  }
  if ('emoji' in f && f.emoji) {
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100"><text y=".9em" font-size="90">${f.emoji.replace(/[<>&"']/g, '')}</text></svg>`;
    return [el('link', { rel: ['icon'], href: `data:image/svg+xml,${encodeURIComponent(svg)}` })];
  }
  return [el('link', { rel: ['icon'], href: fallback })];
}

/** The icon of a site without one of its own: a page, drawn inline (no request). */
const DEFAULT_ICON =
  "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 32 32'%3E%3Crect width='32' height='32' rx='7' fill='%233a5bd9'/%3E%3Cpath d='M10 8h9l5 5v11H10z' fill='white'/%3E%3C/svg%3E";

/** What a site's customization puts around its pages: title, head, styles, header parts and footer. */
export function siteLook(site: SiteRow, settings: Customization, headerItems: HeaderItem[], refs: RefResolver) {
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

export type SiteLook = ReturnType<typeof siteLook>;
