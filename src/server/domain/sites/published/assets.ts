import crypto from 'node:crypto';
import fs from 'node:fs';
import { SITES_PREFIX } from '../../../lib/urls.js';
import { THEME_CSS } from './theme-css.js';

/** A static file of every published site: the same bytes at a path named by their hash, so cached for a year. */
export interface SiteAsset {
  path: string;
  contentType: string;
  body: string;
}

const sha256 = (value: string, encoding: 'base64' | 'base64url') =>
  crypto.createHash('sha256').update(value).digest(encoding);

function asset(name: string, extension: string, contentType: string, body: string): SiteAsset {
  return {
    path: `${SITES_PREFIX}/~assets/${name}.${sha256(body, 'base64url').slice(0, 16)}.${extension}`,
    contentType,
    body,
  };
}

/** The stylesheet (theme-css.ts). */
export const SITE_STYLES = asset('site', 'css', 'text/css; charset=utf-8', THEME_CSS);

/** The one script (site-script.js): theme toggle, copy and wrap buttons, search as you type. */
export const SITE_SCRIPT = asset(
  'site',
  'js',
  'text/javascript; charset=utf-8',
  fs.readFileSync(new URL('./site-script.js', import.meta.url), 'utf8'),
);

/** The assets by path, for the route that serves them. */
export const SITE_ASSETS: ReadonlyMap<string, SiteAsset> = new Map([SITE_STYLES, SITE_SCRIPT].map((a) => [a.path, a]));

/**
 * Applies the theme the visitor chose (site-script.js remembers it) before the page paints, so a dark page never
 * flashes light; a site that fixes its theme (no toggle) keeps it: inline in the head, allowed by its hash in the pages' Content-Security-Policy.
 */
export const THEME_BOOT =
  "try{var d=document.documentElement,t=localStorage.getItem('ds-theme');if(!d.hasAttribute('data-theme-fixed')&&(t==='light'||t==='dark'))d.dataset.theme=t}catch(e){}";

/**
 * What published pages may load: their own script and stylesheet and the theme boot above, the search answers the
 * script fetches, images from this site or https; inline style attributes (highlighted code carries its colours in
 * them); the one form (the search box) submits to this site. Scripts come only from the sites' assets path of the
 * origin the page is read from (`origin`, as `https://docs.example.com`), not from 'self': every path of the origin
 * would include what users put there (uploaded files, integration scripts), a script gadget for anyone who got
 * markup into a page.
 */
export function pageCsp(origin: string, integrationScripts: string[] = []): string {
  // An integration's script is named exactly (without its query: CSP matches paths), never its origin.
  const scripts = integrationScripts.map((url) => url.split('?')[0]!.replace(/[;,\s]/g, encodeURIComponent));
  return [
    "default-src 'none'",
    [`script-src ${origin}${SITES_PREFIX}/~assets/ ${THEME_BOOT_SOURCE}`, ...scripts].join(' '),
    "connect-src 'self'",
    "img-src 'self' https: data:",
    "style-src 'self' 'unsafe-inline'",
    // Integration blocks' webframes (shared/contentkit.ts: sandboxed, from the integrations' origin or any address).
    'frame-src http: https:',
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** The theme boot, allowed by its hash (computed once: every page answer names it). */
const THEME_BOOT_SOURCE = `'sha256-${sha256(THEME_BOOT, 'base64')}'`;
