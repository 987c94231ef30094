import type { Element, Root } from 'hast';
import type { Root as MarkdownRoot } from 'mdast';
import { sanitize } from 'hast-util-sanitize';
import { toHtml } from 'hast-util-to-html';
import { isFootnotesHeading, nameHeadingsIn } from '../../../shared/heading-ids.js';
import { bodySchema } from '../../../shared/body-schema.js';
import { bodyTree, hastOf, parseMarkdown } from '../../../shared/document/parse.js';
import { renderMath } from '../../../shared/math.js';
import { extractOperationBlocks } from '../../../shared/openapi-blocks.js';
import { includedNames, UNFURL_PROP } from '../../../shared/gitbook-blocks.js';
import { contentKitToHast, type ContentKitOutput } from '../../../shared/contentkit.js';
import type { OperationView } from '../../../shared/contract/openapi.js';
import { operationElement } from './api-operation.js';
import { el, text, textOf } from './hast.js';

/**
 * Page bodies of published sites: markdown (GFM) → mdast → hast → links resolved → sanitized → HTML.
 *
 * Safety does not rest on escaping by hand: HTML written in the markdown is parsed into elements (hast-util-raw),
 * and the whole tree is then cleaned by hast-util-sanitize with GitHub's schema, which keeps only known elements
 * and attributes and only http(s)/mailto link targets (javascript:, data:, vbscript: are removed; no script, style
 * or event handler survives). The page frame is built as hast too and serialized by hast-util-to-html.
 */

/** How links of a page body are resolved; every method answers undefined when there is no such target. */
export interface LinkResolver {
  /** URL of a page given by id, or by its path in the space ("guides/setup"). */
  page(idOrPath: string): string | undefined;
  /** URL of a file given by id. */
  file(id: string): string | undefined;
  /** URL of a file given by name. */
  fileNamed(name: string): string | undefined;
  /** The path of the page being rendered, for relative links. */
  currentPath: string;
  /** Root URL of the published site: links elsewhere get rel="noopener nofollow". */
  siteRoot: string;
  /** Width and height of the image a resolved URL serves, when known (so the page does not jump as it loads). */
  imageSize?(url: string): ImageSize | undefined;
  /** The operations the page's OpenAPI blocks show, by block key (see shared/openapi-blocks.ts). */
  operations?: Record<string, OperationView | null>;
  /** What the page's integration blocks rendered, by block key (shared/gitbook-blocks.ts; null: could not). */
  integrations?: Record<string, ContentKitOutput | null>;
}

export interface ImageSize {
  width: number;
  height: number;
}

const schema = bodySchema;

const SCHEME = /^[a-z][a-z0-9+.-]*:/i;

/** Resolves a path relative to the directory of `from` ("a/b" + "../c" → "c"). */
function resolvePath(from: string, target: string): string {
  const parts = target.startsWith('/') ? [] : from.split('/').slice(0, -1);
  for (const segment of target.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') parts.pop();
    else parts.push(segment);
  }
  return parts.join('/');
}

/** What an internal link of a page body may name, in the order resolveHref tries them. */
export type HrefTarget =
  { kind: 'page'; ref: string } | { kind: 'file'; id: string } | { kind: 'fileNamed'; name: string };

/**
 * What a link of a page body at `currentPath` may point to inside the space: page ids or paths, file ids or names,
 * in the order they are tried, and the `#hash` a page target keeps. Undefined for a link that is not internal
 * (a scheme, `//host`, `#anchor`, empty, or not decodable): it stays as written. The published site resolves with
 * it (resolveHref), and so do the space's links and backlinks (`domain/links`).
 */
export function hrefTargets(href: string, currentPath: string): { targets: HrefTarget[]; hash: string } | undefined {
  if (SCHEME.test(href) || href.startsWith('//') || href.startsWith('#') || href === '') return undefined;
  const hashAt = href.search(/[?#]/);
  const path = hashAt < 0 ? href : href.slice(0, hashAt);
  const hash = hashAt < 0 ? '' : href.slice(hashAt).replace(/^\?[^#]*/, '');
  let decoded: string;
  try {
    decoded = decodeURIComponent(path);
  } catch {
    return undefined;
  }
  const targets: HrefTarget[] = [];
  const pages = /^\/?pages\/(.+)$/.exec(decoded);
  if (pages) targets.push({ kind: 'page', ref: pages[1]!.replace(/\.md$/, '').replace(/\/$/, '') });
  const files = /^\/?files\/([^/]+)$/.exec(decoded);
  if (files) targets.push({ kind: 'file', id: files[1]! });
  if (/\.md$/i.test(decoded)) {
    const resolved = resolvePath(currentPath, decoded.replace(/\.md$/i, ''));
    targets.push({ kind: 'page', ref: resolved.replace(/(^|\/)(README|index)$/i, '') });
  }
  const name = decoded.replace(/^\.\//, '');
  if (!name.includes('/')) targets.push({ kind: 'fileNamed', name });
  return { targets, hash };
}

/** The URL a link of a page body points to on the published site (unchanged when it is not internal). */
export function resolveHref(href: string, links: LinkResolver): string {
  const internal = hrefTargets(href, links.currentPath);
  if (!internal) return href;
  for (const target of internal.targets) {
    if (target.kind === 'page') {
      const url = links.page(target.ref);
      if (url) return url + internal.hash;
    } else {
      const url = target.kind === 'file' ? links.file(target.id) : links.fileNamed(target.name);
      if (url) return url;
    }
  }
  return href;
}

function walk(node: Root | Element, fn: (e: Element) => void): void {
  for (const child of node.children) {
    if (child.type === 'element') {
      fn(child);
      walk(child, fn);
    }
  }
}

const HEADINGS = ['h1', 'h2', 'h3', 'h4', 'h5', 'h6'];

/**
 * The body of a page as sanitized HTML. Headings move one level down (the page title is the h1) and get ids from
 * their text (unique in the page), so `#anchor` links work.
 */
export function renderMarkdown(markdown: string, links: LinkResolver): RenderedBody {
  return renderBody(
    markdown,
    (href) => resolveHref(href, links),
    links.siteRoot,
    undefined,
    (url) => links.imageSize?.(url),
    links.operations,
    links.integrations,
  );
}

export interface RenderedBody {
  html: string;
  headings: Array<{ id: string; title: string; level: number }>;
}

const ALERTS: Record<string, string> = {
  NOTE: 'Note',
  TIP: 'Tip',
  IMPORTANT: 'Important',
  WARNING: 'Warning',
  CAUTION: 'Caution',
};

/**
 * GitHub alerts (`> [!NOTE]` on the first line of a quote) as callouts: `<div class="callout callout-note"
 * role="note">` with a title. Run on the sanitized tree: the classes and role are added here, after sanitizing.
 */
function callouts(clean: Root): void {
  walk(clean, (e) => {
    if (e.tagName !== 'blockquote') return;
    const first = e.children.find((c): c is Element => c.type === 'element');
    const lead = first?.tagName === 'p' ? first.children[0] : undefined;
    if (!first || lead?.type !== 'text') return;
    const marker = /^\[!(NOTE|TIP|IMPORTANT|WARNING|CAUTION)\][ \t]*\n?/.exec(lead.value);
    if (!marker) return;
    const kind = marker[1]!;
    lead.value = lead.value.slice(marker[0].length);
    if (lead.value === '' && first.children.length === 1) e.children.splice(e.children.indexOf(first), 1);
    e.tagName = 'div';
    e.properties = { className: ['callout', `callout-${kind.toLowerCase()}`], role: 'note' };
    e.children.unshift(el('p', { className: ['callout-title'] }, [text(ALERTS[kind]!)]));
  });
}

/** A `#` link at the end of each named heading, to link to that section. */
function headingAnchors(clean: Root, headings: RenderedBody['headings']): void {
  const ids = new Set(headings.map((h) => h.id));
  walk(clean, (e) => {
    const id = e.properties.id;
    if (!/^h[2-6]$/.test(e.tagName) || typeof id !== 'string' || !ids.has(id)) return;
    e.children.push(
      el('a', { className: ['anchor'], href: `#${id}`, ariaLabel: `Link to the section ${textOf(e)}` }, [text('#')]),
    );
  });
}

/**
 * Every link and image target of `markdown`, as renderBody will ask `resolve` about them (after mdast-util-to-hast
 * normalized them). Run before rendering in a worker, which cannot call back into the site's page index: the
 * caller resolves these and passes the answers.
 */
export function markdownUrls(markdown: string): string[] {
  const urls = new Set<string>();
  walk(bodyTree(markdown), (e) => {
    if (e.tagName === 'a' && typeof e.properties.href === 'string') urls.add(e.properties.href);
    if (e.tagName === 'img' && typeof e.properties.src === 'string') urls.add(e.properties.src);
    if (e.tagName === 'source') for (const [url] of srcsetUrls(e)) urls.add(url);
  });
  return [...urls];
}

/** The candidates of a `<source>`'s srcset (a `<picture>`'s light and dark images): each URL, and what follows it. */
function srcsetUrls(source: Element): Array<[string, string]> {
  const value = source.properties.srcSet;
  const candidates = Array.isArray(value) ? value.map(String) : typeof value === 'string' ? value.split(',') : [];
  return candidates.flatMap((c): Array<[string, string]> => {
    const found = /^\s*(\S+)(.*)$/.exec(c);
    return found ? [[found[1]!, found[2]!.trimEnd()]] : [];
  });
}

/**
 * Moves the headings of a sanitized body below the page title (the h1), the body's first level becoming h2 (a body
 * whose sections start at `##` keeps them at h2: no level is skipped after the title), and gives them ids as GitHub
 * does (shared/heading-ids.ts), or the id they name, so `#anchor` links work; returns them in order. A footnotes
 * section's heading keeps its own id and is not one of the page's sections.
 */
function nameHeadings(clean: Root): RenderedBody['headings'] {
  let top = HEADINGS.length;
  walk(clean, (e) => {
    const level = HEADINGS.indexOf(e.tagName);
    if (level >= 0 && !isFootnotesHeading(e)) top = Math.min(top, level);
  });
  return nameHeadingsIn(clean).map(({ heading, id, title }) => {
    // The index of its new tag: the body's top level at h2.
    const level = Math.min(HEADINGS.indexOf(heading.tagName) - top + 1, 5);
    heading.tagName = HEADINGS[level]!;
    return { id, title, level };
  });
}

/** Anchors written as `<a name="x">` answer to `#x` by their id too (browsers look for ids first). */
function anchorIds(clean: Root): void {
  walk(clean, (e) => {
    if (e.tagName === 'a' && typeof e.properties.name === 'string' && e.properties.id === undefined) {
      e.properties.id = e.properties.name;
    }
  });
}

/** A link of a page body: its target as written (normalized as for rendering), and whether it is an image. */
export interface BodyLink {
  href: string;
  image: boolean;
}

/** The links, images and anchors of a page body (markdownLinks). */
export interface BodyLinks {
  links: BodyLink[];
  anchors: string[];
  includes?: string[];
}

/**
 * The links and images of `markdown` (each distinct target once, in order of appearance; footnote references,
 * which point inside the page, left out) and the anchors its headings get when published: what the space's links
 * report checks, read exactly as renderBody reads the body.
 */
export function markdownLinks(markdown: string): BodyLinks {
  return linksOf(parseMarkdown(markdown), markdown);
}

/** What markdownLinks answers, for a body parsed already (`parsed`: parseMarkdown of `markdown`, left unchanged). */
export function linksOf(parsed: MarkdownRoot, markdown: string): BodyLinks {
  // Read after sanitizing, as published: a `javascript:` link is no link there.
  const clean = sanitize(hastOf(parsed), schema) as Root;
  const seen = new Set<string>();
  const links: BodyLink[] = [];
  walk(clean, (e) => {
    const image = e.tagName === 'img';
    const href = image ? e.properties.src : e.tagName === 'a' ? e.properties.href : undefined;
    if (typeof href !== 'string' || href === '') return;
    if (!image && (e.properties.dataFootnoteRef !== undefined || e.properties.dataFootnoteBackref !== undefined)) {
      return;
    }
    const key = `${image ? 'i' : 'a'}${href}`;
    if (seen.has(key)) return;
    seen.add(key);
    links.push({ href, image });
  });
  anchorIds(clean);
  nameHeadings(clean);
  // Every id of the page is an anchor a link may name: headings', and anchors written in it.
  const anchors: string[] = [];
  walk(clean, (e) => {
    if (typeof e.properties.id === 'string') anchors.push(e.properties.id);
  });
  // The reusable contents it includes: their links are links of this page (domain/links/maintain.ts).
  const includes = includedNames(markdown);
  return includes.length ? { links, anchors, includes } : { links, anchors };
}

/** The link of a block made of an embed (UNFURL_PROP), when it is one and an http(s) address. */
function unfurlOf(props: string): string | undefined {
  try {
    const url = (JSON.parse(props) as Record<string, unknown>)[UNFURL_PROP];
    return typeof url === 'string' && /^https?:\/\//i.test(url) ? url : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Each integration block of the page (shared/gitbook-blocks.ts) as its integration rendered it (shared/contentkit.ts),
 * or, when it could not, its label and why. What named the block is taken off its element.
 */
function integrationBlocks(clean: Root, rendered: Record<string, ContentKitOutput | null>): void {
  walk(clean, (e) => {
    const { dataIntegrationBlock: block, dataIntegrationProps: props } = e.properties;
    if (e.tagName !== 'div' || typeof block !== 'string') return;
    delete e.properties.dataIntegrationBlock;
    delete e.properties.dataIntegrationProps;
    const output = rendered[`${block}\n${String(props ?? '{}')}`];
    const unfurl = unfurlOf(String(props ?? '{}'));
    const shown = output ? contentKitToHast(output) : undefined;
    if (shown) {
      e.properties.className = ['gb-integration', 'gb-integration-rendered'];
      e.properties.dataIntegration = block.split('/')[0];
      // What the site's script sends back with a reader's action (site-script.js): the block, its props and state.
      e.properties.dataCkBlock = block;
      e.properties.dataCkProps = output!.props ? JSON.stringify(output!.props) : String(props ?? '{}');
      e.properties.dataCkRootState = JSON.stringify(output!.state ?? {});
      e.children = [shown];
    } else if (unfurl) {
      // An embed shown as a block that could not render: the embed it is (its link).
      e.properties = { className: ['gb-embed'] };
      e.children = [
        el('p', { className: ['gb-embed-link'] }, [
          el('a', { href: unfurl, rel: ['noopener', 'nofollow'] }, [text(unfurl)]),
        ]),
      ];
    } else {
      e.children.push({
        type: 'element',
        tagName: 'p',
        properties: { className: ['gb-integration-failed'] },
        children: [
          {
            type: 'text',
            value:
              output === null
                ? 'This block could not be shown: its integration is not installed here or did not answer.'
                : 'This block shows nothing.',
          },
        ],
      });
    }
  });
}

/** renderMarkdown with link targets resolved by `resolve` (see markdownUrls); `siteRoot` as in LinkResolver. */
export function renderBody(
  markdown: string,
  resolve: (href: string) => string,
  siteRoot: string,
  /** Highlights the code blocks of the sanitized tree (highlight.ts; loaded in workers only, as it is costly). */
  highlight?: (clean: Root) => void,
  /** Width and height of images by their resolved URL (see LinkResolver.imageSize). */
  imageSize?: (url: string) => ImageSize | undefined,
  /** The operations the body's OpenAPI blocks show, by block key (null: not available). */
  operations?: Record<string, OperationView | null>,
  /** What the body's integration blocks rendered, by block key (null: could not). */
  integrations?: Record<string, ContentKitOutput | null>,
): RenderedBody {
  // OpenAPI blocks become placeholder paragraphs, replaced by their sections once the body is sanitized.
  const nonce = Math.random().toString(36).slice(2, 10).toUpperCase();
  const extracted = extractOperationBlocks(markdown, (i) => `OPENAPIBLOCK${nonce}N${i}`);
  const tree = bodyTree(extracted.markdown);
  walk(tree, (e) => {
    if (e.tagName === 'a' && typeof e.properties.href === 'string') {
      e.properties.href = resolve(e.properties.href);
    }
    if (e.tagName === 'img' && typeof e.properties.src === 'string') {
      e.properties.src = resolve(e.properties.src);
    }
    const sources = e.tagName === 'source' ? srcsetUrls(e) : [];
    if (sources.length) e.properties.srcSet = sources.map(([url, rest]) => resolve(url) + rest).join(', ');
  });
  const clean = sanitize(tree, schema) as Root;
  walk(clean, (e) => {
    if (e.tagName === 'a' && typeof e.properties.href === 'string' && /^https?:/i.test(e.properties.href)) {
      if (!e.properties.href.startsWith(siteRoot)) e.properties.rel = ['noopener', 'nofollow'];
    }
    // Code and tables scroll sideways when wider than the page: reachable from the keyboard to be scrolled.
    if (e.tagName === 'pre' || e.tagName === 'table') e.properties.tabIndex = 0;
    if (e.tagName === 'img' && typeof e.properties.src === 'string') {
      const size = imageSize?.(e.properties.src);
      if (size) Object.assign(e.properties, { width: size.width, height: size.height });
    }
    // A task list's boxes say what they show (they are read-only).
    if (e.tagName === 'input' && e.properties.type === 'checkbox') {
      e.properties.ariaLabel = e.properties.checked ? 'Done' : 'Not done';
    }
  });
  anchorIds(clean);
  const headings = nameHeadings(clean);
  callouts(clean);
  headingAnchors(clean, headings);
  renderMath(clean);
  // After the headings are named: an integration's markdown is the block's, not the page's outline.
  if (markdown.includes('{%') || markdown.includes('data-integration')) integrationBlocks(clean, integrations ?? {});
  if (extracted.blocks.length) {
    const prefix = `OPENAPIBLOCK${nonce}N`;
    clean.children = clean.children.map((node) => {
      if (node.type !== 'element' || node.tagName !== 'p' || node.children.length !== 1) return node;
      const only = node.children[0]!;
      if (only.type !== 'text' || !only.value.startsWith(prefix)) return node;
      const block = extracted.blocks[Number(only.value.slice(prefix.length))];
      return block ? operationElement(block, operations?.[block.key]) : node;
    });
  }
  highlight?.(clean);
  return { html: toHtml(clean), headings };
}
