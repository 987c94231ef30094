import type { Element, Nodes as HastNodes, Root as HastRoot, RootContent as HastContent } from 'hast';
import type { Nodes as MdastNodes, Root as MdastRoot } from 'mdast';
import { fromHtml } from 'hast-util-from-html';
import { sanitize, defaultSchema } from 'hast-util-sanitize';
import { toMdast } from 'hast-util-to-mdast';
import { toMarkdown } from 'mdast-util-to-markdown';
import { gfmToMarkdown } from 'mdast-util-gfm';

/**
 * HTML to markdown, for the `html`, `website` and `docx` sources and for HTML written inside imported markdown:
 * parsed by parse5 (hast-util-from-html, the HTML standard's parsing), cleaned with hast-util-sanitize and GitHub's
 * schema (the very rules published pages are rendered with: no script, style, event handler or javascript: URL
 * survives), turned into mdast (hast-util-to-mdast) and written as GFM (mdast-util-to-markdown with its GFM
 * extension: tables, strikethrough, task lists). One syntax-tree ecosystem from end to end, the one the server
 * already parses and renders markdown with, rather than a DOM emulation.
 */
export interface HtmlConversion {
  /** The document's `<title>` (a leading heading of the body, if any, is the page's title rather). */
  title?: string;
  markdown: string;
  /** Absolute http(s) targets of the page's links (without fragments), in document order: what a crawl follows. */
  links: string[];
}

/** Elements dropped with everything inside them. Outside a page's main content, its chrome goes too. */
const DROPPED = new Set([
  'script',
  'style',
  'noscript',
  'template',
  'iframe',
  'object',
  'embed',
  'form',
  'button',
  'select',
  'textarea',
  'svg',
  'canvas',
  'head',
]);
const CHROME = new Set(['nav', 'header', 'footer', 'aside']);

function textOf(node: HastNodes): string {
  if (node.type === 'text') return node.value;
  if ('children' in node) return (node.children as HastNodes[]).map(textOf).join('');
  return '';
}

function elements(node: HastNodes, visit: (e: Element) => boolean | void): void {
  const stack: HastNodes[] = [node];
  while (stack.length) {
    const current = stack.pop()!;
    if (current.type === 'element' && visit(current) === false) continue;
    if ('children' in current) for (let i = current.children.length - 1; i >= 0; i--) stack.push(current.children[i]!);
  }
}

function find(node: HastNodes, test: (e: Element) => boolean): Element | undefined {
  let found: Element | undefined;
  elements(node, (e) => {
    if (found) return false;
    if (test(e)) {
      found = e;
      return false;
    }
  });
  return found;
}

function prune(node: HastRoot | Element, drop: (e: Element) => boolean): void {
  node.children = node.children.filter((c) => !(c.type === 'element' && drop(c))) as typeof node.children;
  for (const child of node.children) if (child.type === 'element') prune(child, drop);
}

const normalizeSpace = (s: string) => s.replace(/\s+/g, ' ').trim();

/** The base URL links resolve against: the page's `<base href>` if it has one, else its own URL. */
function baseOf(tree: HastRoot, pageUrl: string | undefined): string | undefined {
  const base = find(tree, (e) => e.tagName === 'base' && typeof e.properties.href === 'string');
  if (!pageUrl) return undefined;
  try {
    return base ? new URL(String(base.properties.href), pageUrl).href : pageUrl;
  } catch {
    return pageUrl;
  }
}

function absolute(url: string, base: string | undefined): string {
  if (!base || url.startsWith('#')) return url;
  try {
    return new URL(url, base).href;
  } catch {
    return url;
  }
}

function visitUrls(tree: MdastNodes, fn: (node: { url: string; type: string }) => void): void {
  const stack: MdastNodes[] = [tree];
  while (stack.length) {
    const node = stack.pop()!;
    if (node.type === 'link' || node.type === 'image' || node.type === 'definition') fn(node);
    if ('children' in node)
      for (let i = node.children.length - 1; i >= 0; i--) stack.push(node.children[i] as MdastNodes);
  }
}

/** Links left without a target (a javascript: URL the sanitizer removed, an `<a>` without href) become their text. */
function unwrapEmptyLinks(node: MdastNodes): void {
  if (!('children' in node)) return;
  const children = node.children as MdastNodes[];
  const kept = children.flatMap((c) => (c.type === 'link' && !c.url ? (c.children as MdastNodes[]) : [c]));
  (node as { children: MdastNodes[] }).children = kept;
  for (const child of kept) unwrapEmptyLinks(child);
}

/** Markdown of an mdast tree, as GFM. */
export function mdastToMarkdown(tree: MdastRoot): string {
  return toMarkdown(tree, {
    extensions: [gfmToMarkdown()],
    bullet: '-',
    rule: '-',
    fences: true,
    listItemIndent: 'one',
  }).trim();
}

/**
 * Converts an HTML page or fragment. `pageUrl` (where it came from) makes relative links and images absolute.
 * `mainContent` keeps only the page's main content when it marks one (`<main>`, `<article>`, `role="main"`) and
 * drops navigation, headers, footers and asides: what a crawled site page needs.
 */
export function htmlToMarkdown(
  html: string,
  options: { pageUrl?: string; mainContent?: boolean } = {},
): HtmlConversion {
  const tree = fromHtml(html);
  const base = baseOf(tree, options.pageUrl);
  const titleElement = find(tree, (e) => e.tagName === 'title');
  let root: HastRoot | Element = tree;
  if (options.mainContent) {
    root =
      find(tree, (e) => e.tagName === 'main' || e.properties.role === 'main') ??
      find(tree, (e) => e.tagName === 'article') ??
      find(tree, (e) => e.tagName === 'body') ??
      tree;
  }
  prune(root, (e) => DROPPED.has(e.tagName) || Boolean(options.mainContent && CHROME.has(e.tagName)));
  // A table without header cells (as Word writes them) takes its first row as its header: a markdown table has one.
  elements(root, (table) => {
    if (table.tagName !== 'table' || find(table, (e) => e.tagName === 'th')) return;
    const first = find(table, (e) => e.tagName === 'tr');
    for (const cell of first?.children ?? []) if (cell.type === 'element' && cell.tagName === 'td') cell.tagName = 'th';
  });
  const title = titleElement ? normalizeSpace(textOf(titleElement)) : undefined;
  const content: HastRoot = { type: 'root', children: root.type === 'root' ? root.children : [root as HastContent] };
  const clean = sanitize(content, { ...defaultSchema, clobberPrefix: '' });
  const mdast = toMdast(clean) as MdastRoot;
  unwrapEmptyLinks(mdast);
  const links: string[] = [];
  visitUrls(mdast, (node) => {
    node.url = absolute(node.url, base);
    if (node.type === 'link' && /^https?:/i.test(node.url)) links.push(node.url.replace(/#.*$/, ''));
  });
  return { ...(title ? { title: title.slice(0, 1000) } : {}), markdown: mdastToMarkdown(mdast), links };
}
