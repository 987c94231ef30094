import type { Nodes, Root } from 'mdast';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { gfmFromMarkdown } from 'mdast-util-gfm';
import { gfm } from 'micromark-extension-gfm';
import { toString } from 'mdast-util-to-string';
import { isAlias, isMap, isScalar, parseDocument, type Document, type YAMLMap } from 'yaml';
import { blockRanges, normalizeMarkdown, type SplitBlock } from '../content/blocks.js';
import { htmlToMarkdown } from './html.js';
import {
  DEFAULT_PAGE_LAYOUT,
  PAGE_DESCRIPTION_MAX,
  PAGE_MARKDOWN_MAX,
  layoutOverrides,
  type PageLayout,
} from '../../../shared/contract/content.js';
import { MARKDOWN_DEPTH_MAX, PAGE_BLOCKS_MAX, tooDeeplyNested } from '../../../shared/markdown-limits.js';

/**
 * Imported markdown made into page bodies: front matter read (title, description), the leading heading taken as
 * the title, HTML blocks written as markdown (GitBook exports write images as `<figure><img>`; published pages drop
 * raw HTML), and links between imported files rewritten to page and file links of this server (`/pages/<id>`,
 * `/files/<id>`), which published sites and the console resolve. Links are rewritten in place, from the parser's
 * source positions: the rest of the text stays exactly as written. Pure functions of their input, run in the worker
 * pool for large imports (see tasks.ts).
 */
export interface PageInput {
  markdown: string;
  /** Where its relative links start from: its path in the archive, or its URL. */
  base: string;
  /** The title given by a table of contents; a leading heading saying the same is dropped from the body. */
  title?: string;
  /** Convert HTML blocks written in the markdown (not for markdown made from HTML already). */
  convertHtml?: boolean;
}

/** What a page's front matter says of how it is published (GitBook's keys). */
interface PublishingOptions {
  /** `hidden: true`: left out of the site's navigation. */
  hidden?: true;
  /** `noIndex: true` / `noRobotsIndex: true`: left out of the site's search, of search engines. */
  noIndex?: true;
  noRobotsIndex?: true;
  /** `icon` (a Font Awesome name, as GitBook writes it). */
  icon?: string;
  /** `layout` (GitBook's `{visible}` options), where it differs from the defaults. */
  layout?: Partial<PageLayout>;
}

export interface PreparedPage extends PublishingOptions {
  /** From the front matter or the leading heading, when no title was given. */
  title?: string;
  description?: string;
  /** Its front matter's `cover` (an image of the import, `/files/<id>`) and `coverY`. */
  cover?: { target: string; yPos?: number };
  markdown: string;
  blocks: SplitBlock[];
  /** The link targets the page used (values of `targets`): the files an archive import must bring along. */
  used: string[];
  /** Why this page cannot be imported (too long, nested too deep...). */
  error?: string;
}

export interface PrepareInput {
  pages: PageInput[];
  /** Where links go: an archive path or a URL (see linkKey) → `/pages/<id>` or `/files/<id>`. */
  targets: Record<string, string>;
  /** Archive paths, or web URLs. */
  mode: 'archive' | 'web';
}

const parse = (markdown: string): Root =>
  fromMarkdown(markdown, { extensions: [gfm()], mdastExtensions: [gfmFromMarkdown()] });

const SCHEME = /^[a-z][a-z0-9+.-]*:/i;

/** Resolves `target` against the folder of `from` (both archive paths); undefined when it climbs out. */
export function resolveArchivePath(from: string, target: string): string | undefined {
  const parts = target.startsWith('/') ? [] : from.split('/').slice(0, -1);
  for (const segment of target.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') {
      if (!parts.length) return undefined;
      parts.pop();
    } else parts.push(segment);
  }
  return parts.join('/');
}

/** The key of a web page among the targets: origin and path, without query, fragment, `index.html` or final `/`. */
export function webKey(url: string): string | undefined {
  try {
    const u = new URL(url);
    if (u.protocol !== 'http:' && u.protocol !== 'https:') return undefined;
    const path = u.pathname.replace(/\/index\.html?$/i, '/').replace(/\/+$/, '');
    return `${u.origin}${path}`;
  } catch {
    return undefined;
  }
}

/** The target of a link, as the targets map knows it; undefined when it goes elsewhere. */
function resolveLink(
  href: string,
  base: string,
  input: PrepareInput,
): { target: string; fragment: string } | undefined {
  const at = href.search(/[?#]/);
  const hashAt = href.indexOf('#');
  const fragment = hashAt >= 0 ? href.slice(hashAt) : '';
  // A link within the page stays as it is.
  if (href.startsWith('#')) return undefined;
  if (input.mode === 'web') {
    let absolute: string;
    try {
      absolute = new URL(href, base).href;
    } catch {
      return undefined;
    }
    const key = webKey(absolute);
    const target = key === undefined ? undefined : input.targets[key];
    return target ? { target, fragment } : undefined;
  }
  if (SCHEME.test(href) || href.startsWith('//')) return undefined;
  let path = at >= 0 ? href.slice(0, at) : href;
  try {
    path = decodeURIComponent(path);
  } catch {
    return undefined;
  }
  // A root-absolute path, as written for GitHub (`/docs/api.md`), names a file of the repository: it is looked for
  // within the imported folder, from its root, then without its leading folders (the folder imported may be the
  // repository's `docs/`).
  const roots: Array<string | undefined> = [];
  if (path.startsWith('/')) {
    const segments = path.split('/').filter((s) => s !== '' && s !== '.');
    for (let drop = 0; drop < segments.length; drop++)
      roots.push(resolveArchivePath('', segments.slice(drop).join('/')));
  } else roots.push(resolveArchivePath(base, path));
  for (const resolved of roots) {
    if (resolved === undefined) continue;
    const folder = resolved === '' ? '' : `${resolved}/`;
    for (const candidate of [
      resolved,
      `${folder}README.md`,
      `${folder}readme.md`,
      `${folder}index.md`,
      `${resolved}.md`,
    ]) {
      const target = input.targets[candidate];
      if (target) return { target, fragment };
    }
  }
  return undefined;
}

/** Where a resolved link points: the page (with the link's `#anchor`) or the file. */
function targetUrl(found: { target: string; fragment: string }): string {
  return found.target + (found.target.startsWith('/pages/') ? found.fragment : '');
}

/**
 * A title's text: plain, without the HTML written in it (GitBook writes headings with an empty anchor:
 * `## Get Started <a href="#get-started" id="get-started"></a>`), its spaces collapsed.
 */
export function titleText(node: Nodes): string {
  return toString(node, { includeHtml: false }).replace(/\s+/g, ' ').trim();
}

/** A link destination as markdown writes it (angle brackets when it holds spaces or parentheses). */
function destination(url: string): string {
  return /[\s()<>]/.test(url) ? `<${url.replace(/[<>]/g, encodeURIComponent)}>` : url;
}

function titlePart(title: string | null | undefined): string {
  return title ? ` "${title.replace(/["\\]/g, '\\$&')}"` : '';
}

function escapeText(text: string): string {
  return text.replace(/[\\[\]*_`<>!]/g, '\\$&');
}

interface Edit {
  start: number;
  end: number;
  /** The replacement, given the text of the node's children with their own edits applied. */
  write: (inner: (from: number, to: number) => string) => string;
}

/**
 * Renders ranges of `source` with the edits inside them applied; an edit inside another one (an image inside a
 * link) is applied within its parent's children.
 */
function editor(source: string, edits: Edit[]): (from: number, to: number) => string {
  edits.sort((a, b) => a.start - b.start || b.end - a.end);
  const render = (from: number, to: number, list: Edit[]): string => {
    let out = '';
    let at = from;
    for (let i = 0; i < list.length; i++) {
      const edit = list[i]!;
      if (edit.start < at || edit.end > to) continue;
      const nested: Edit[] = [];
      while (i + 1 < list.length && list[i + 1]!.start < edit.end) nested.push(list[++i]!);
      out += source.slice(at, edit.start);
      out += edit.write((a, b) => render(a, b, nested));
      at = edit.end;
    }
    return out + source.slice(at, to);
  };
  return (from, to) => render(from, to, edits);
}

/**
 * `markdown` with its HTML blocks (and lone `<img>` tags) written as markdown; with its parse (`root`) when nothing was converted, so that it
 * is not parsed twice (a page that only mentions `<` in text, or keeps its `<details>`, is most of them).
 */
function convertHtml(markdown: string): { markdown: string; root?: Root } {
  const root = parse(markdown);
  const edits: Edit[] = [];
  const visit = (node: Nodes, topLevel: boolean) => {
    if (node.type === 'html' && node.position) {
      const start = node.position.start.offset!;
      const end = node.position.end.offset!;
      const lone = /^<img\b[^>]*>$/i.test(node.value.trim());
      // `<details>` and its `<summary>` stay HTML: every renderer reads them as an expandable block (GitBook
      // writes them with blank lines between, so each is an HTML block of its own). So does `<figure>`: an image
      // with its caption, as GitBook writes every image (written as markdown, the caption was a paragraph of its
      // own, and a file synced with Git came back changed).
      const kept = /^<\/?(details|summary|figure)\b/i.test(node.value.trim());
      if ((topLevel || lone) && !kept) {
        const converted = htmlToMarkdown(node.value).markdown;
        edits.push({ start, end, write: () => (lone ? converted.replace(/\n+/g, ' ') : converted) });
      }
      return;
    }
    if ('children' in node) for (const child of node.children) visit(child as Nodes, false);
  };
  for (const child of root.children) visit(child, true);
  return edits.length
    ? { markdown: normalizeMarkdown(editor(markdown, edits)(0, markdown.length)) }
    : { markdown, root };
}

/** The edits that rewrite links, images and link definitions pointing at imported pages and files to them. */
function linkEdits(markdown: string, root: Root, base: string, input: PrepareInput, used: Set<string>): Edit[] {
  const edits: Edit[] = [];
  const visit = (node: Nodes) => {
    if ((node.type === 'link' || node.type === 'image' || node.type === 'definition') && node.position) {
      const found = resolveLink(node.url, base, input);
      if (found) {
        used.add(found.target);
        const url = destination(targetUrl(found));
        const start = node.position.start.offset!;
        const end = node.position.end.offset!;
        if (node.type === 'definition') {
          const label = node.label ?? node.identifier;
          edits.push({ start, end, write: () => `[${label}]: ${url}${titlePart(node.title)}` });
        } else if (node.type === 'image') {
          edits.push({ start, end, write: () => `![${escapeText(node.alt ?? '')}](${url}${titlePart(node.title)})` });
        } else {
          const first = node.children[0]?.position?.start.offset;
          const last = node.children.at(-1)?.position?.end.offset;
          const inline = markdown[start] === '[';
          edits.push({
            start,
            end,
            write: (inner) =>
              `[${inline && first !== undefined && last !== undefined ? inner(first, last) : escapeText(toString(node))}](${url}${titlePart(node.title)})`,
          });
        }
      }
    }
    // GitBook's tags naming a page or a file: `{% file src="…" %}`, `{% content-ref url="…" %}`.
    if (node.type === 'paragraph' && node.position && markdown.startsWith('{%', node.position.start.offset!)) {
      const start = node.position.start.offset!;
      const source = markdown.slice(start, node.position.end.offset!);
      const tag = /^\{%\s*(file|content-ref)\s[^\n]*?%\}/.exec(source);
      const attribute = tag && /\s(src|url)\s*=\s*"([^"]*)"/.exec(tag[0]);
      if (attribute) {
        const found = resolveLink(attribute[2]!, base, input);
        if (found) {
          used.add(found.target);
          const from = start + attribute.index + attribute[0].length - attribute[2]!.length - 1;
          edits.push({ start: from, end: from + attribute[2]!.length, write: () => targetUrl(found) });
        }
      }
    }
    // HTML written in the page (a `<figure>` in a list item, a `<picture>` with a dark variant): the addresses of
    // its attributes, as its source writes them.
    if (node.type === 'html' && node.position) {
      const start = node.position.start.offset!;
      const source = markdown.slice(start, node.position.end.offset!);
      for (const m of source.matchAll(/\s(src|href|srcset|poster)\s*=\s*(?:"([^"]*)"|'([^']*)')/gi)) {
        const value = m[2] ?? m[3]!;
        const from = start + m.index + m[0].length - value.length - 1;
        const one = (url: string) => {
          const found = resolveLink(url.replace(/&amp;/g, '&'), base, input);
          if (!found) return url;
          used.add(found.target);
          return targetUrl(found);
        };
        const rewritten =
          m[1]!.toLowerCase() === 'srcset'
            ? value
                .split(',')
                .map((candidate) => candidate.trim().replace(/^\S+/, one))
                .join(', ')
            : one(value);
        if (rewritten !== value) edits.push({ start: from, end: from + value.length, write: () => rewritten });
      }
    }
    if ('children' in node) for (const child of node.children) visit(child as Nodes);
  };
  visit(root);
  return edits;
}

/**
 * Reads a YAML front matter block's `title`, `description` and `hidden` (keys in any case; the last one written wins). The
 * block is read by the `yaml` package, so any YAML works: quoted, folded `>` and literal `|` scalars, and keys the
 * import does not use, whatever their shape (Docusaurus's `sidebar_position` and `tags: [a, b]`, GitBook's nested
 * `layout:`). A block that is not valid YAML, or not a mapping, is still taken out of the body and gives neither.
 */
function frontMatter(markdown: string): PublishingOptions & {
  body: string;
  title?: string;
  description?: string;
  cover?: { path: string; yPos?: number };
} {
  const m = /^---[ \t]*\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/.exec(markdown);
  if (!m) return { body: markdown };
  const mapping = frontMatterMap(m[1]!);
  const fields = mapping ? frontMatterFields(mapping) : {};
  const layout = mapping && frontMatterLayout(mapping);
  return {
    body: markdown.slice(m[0].length),
    ...(fields.title ? { title: fields.title } : {}),
    ...(fields.description ? { description: fields.description } : {}),
    ...(fields.hidden === 'true' ? { hidden: true as const } : {}),
    ...(fields.noindex === 'true' ? { noIndex: true as const } : {}),
    ...(fields.norobotsindex === 'true' ? { noRobotsIndex: true as const } : {}),
    ...(fields.icon && ICON.test(fields.icon) ? { icon: fields.icon } : {}),
    ...(layout ? { layout } : {}),
    ...(fields.cover
      ? { cover: { path: fields.cover, ...(Number(fields.covery) > 0 ? { yPos: Number(fields.covery) } : {}) } }
      : {}),
  };
}

/**
 * GitBook's `layout:` front matter (`width: wide`, `title: { visible: false }`, `cover: { visible, size }`, …) as
 * the page's layout options that differ from the defaults; keys it does not know (`tags`, `actions`) are left out.
 */
function frontMatterLayout({ doc }: FrontMatterMap): Partial<PageLayout> | undefined {
  const map = doc.contents.get('layout', true);
  if (!isMap(map)) return undefined;
  const scalar = (node: unknown) => (isScalar(node) ? node.value : undefined);
  const visible = (key: string) => {
    const option = map.get(key, true);
    const value = isMap(option) ? scalar(option.get('visible', true)) : scalar(option);
    return typeof value === 'boolean' ? value : undefined;
  };
  const width = scalar(map.get('width', true));
  const cover = map.get('cover', true);
  const size = isMap(cover) ? scalar(cover.get('size', true)) : undefined;
  return layoutOverrides({
    ...(width === 'wide' || width === 'default' ? { width } : {}),
    ...(size === 'hero' || size === 'full' ? { coverSize: size } : {}),
    ...Object.fromEntries(
      (['cover', 'title', 'description', 'tableOfContents', 'outline', 'pagination', 'metadata'] as const).flatMap(
        (key) => (visible(key) === undefined ? [] : [[key, visible(key)]]),
      ),
    ),
  });
}

/** A front matter block parsed once, when it is valid YAML and a mapping. */
interface FrontMatterMap {
  doc: Document.Parsed & { contents: YAMLMap };
}

function frontMatterMap(text: string): FrontMatterMap | undefined {
  let doc;
  try {
    doc = parseDocument(text, { uniqueKeys: false });
  } catch {
    return undefined;
  }
  if (doc.errors.length > 0 || !isMap(doc.contents)) return undefined;
  return { doc: doc as FrontMatterMap['doc'] };
}

/** The scalar fields of a front matter mapping, keys lowercased, values as written (`1.0` stays "1.0"), trimmed. */
function frontMatterFields({ doc }: FrontMatterMap): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const pair of doc.contents.items) {
    if (!isScalar(pair.key) || pair.key.value === null) continue;
    const value = isAlias(pair.value) ? pair.value.resolve(doc) : pair.value;
    // Lists, mappings and empty values (`~`, nothing) are not text.
    if (!isScalar(value) || value.value === null) continue;
    fields[String(pair.key.value).toLowerCase()] = (value.source ?? String(value.value)).trim();
  }
  return fields;
}

const sameTitle = (a: string, b: string) =>
  a.replace(/\s+/g, ' ').trim().toLowerCase() === b.replace(/\s+/g, ' ').trim().toLowerCase();

/**
 * The body's leading heading, of any level, as plain text (without HTML written in it), and the body without it.
 * Pages written on GitHub often start at `##`: their first heading names them better than their file name.
 */
function leadingHeading(body: string): { title: string; level: number; rest: string } | undefined {
  const trimmed = body.replace(/^(?:[ \t]*\r?\n)+/, '');
  const atx = /^(#{1,6}) +(.+?)(?:[ \t]+#+)?[ \t]*(?:\r?\n|$)/.exec(trimmed);
  const setext = atx ? null : /^(\S[^\n]*)\r?\n(=+|-+)[ \t]*(?:\r?\n|$)/.exec(trimmed);
  if (!atx && !setext) return undefined;
  const text = atx ? atx[2]! : setext![1]!;
  const level = atx ? atx[1]!.length : setext![2]![0] === '=' ? 1 : 2;
  const title = titleText(parse(text));
  return title ? { title, level, rest: trimmed.slice((atx ?? setext)![0].length) } : undefined;
}

/** A prepared page's cover as a content edit gives it (its file's id). */
function coverOf(cover: PreparedPage['cover']): { file: string; yPos?: number } | undefined {
  return cover
    ? { file: cover.target.slice('/files/'.length), ...(cover.yPos ? { yPos: cover.yPos } : {}) }
    : undefined;
}

/**
 * The fields of an `insert_page` or `update_page` a prepared page's front matter gives: those it sets, or (`every`,
 * a file that replaces a page's version, as Git Sync writes one) each of them, unset ones back to none.
 */
export function pageFieldsOf(body: PreparedPage | undefined, { every = false } = {}) {
  const cover = coverOf(body?.cover);
  if (every) {
    return {
      description: body?.description ?? '',
      hidden: body?.hidden ?? false,
      noIndex: body?.noIndex ?? false,
      noRobotsIndex: body?.noRobotsIndex ?? false,
      icon: body?.icon ?? '',
      // Options the file does not set are the defaults.
      layout: { ...DEFAULT_PAGE_LAYOUT, ...body?.layout },
      cover: cover ?? null,
    };
  }
  return {
    ...(body?.description ? { description: body.description } : {}),
    ...(body?.hidden ? { hidden: true } : {}),
    ...(body?.noIndex ? { noIndex: true } : {}),
    ...(body?.noRobotsIndex ? { noRobotsIndex: true } : {}),
    ...(body?.icon ? { icon: body.icon } : {}),
    ...(body?.layout ? { layout: body.layout } : {}),
    ...(cover ? { cover } : {}),
  };
}

/** An icon's name as pages take one (GitBook's Font Awesome names). */
const ICON = /^[a-z0-9]+(-[a-z0-9]+)*$/;

/** One page made ready to insert, or the reason it cannot be. */
export function preparePage(page: PageInput, input: PrepareInput): PreparedPage {
  const used = new Set<string>();
  const front = frontMatter(page.markdown.replace(/^\uFEFF/, ''));
  let body = front.body;
  let title = page.title ? undefined : front.title;
  const heading = leadingHeading(body);
  if (heading && (page.title ? sameTitle(heading.title, page.title) : !title || sameTitle(heading.title, title))) {
    title ??= heading.title;
    // The page's title is its h1: a leading `#` saying it goes; a deeper heading stays, a section links may name.
    if (heading.level === 1) body = heading.rest;
  }
  const description = front.description?.slice(0, PAGE_DESCRIPTION_MAX);
  const meta = {
    ...(title ? { title } : {}),
    ...(description ? { description } : {}),
    ...(front.hidden ? { hidden: front.hidden } : {}),
    ...(front.noIndex ? { noIndex: front.noIndex } : {}),
    ...(front.noRobotsIndex ? { noRobotsIndex: front.noRobotsIndex } : {}),
    ...(front.layout ? { layout: front.layout } : {}),
    ...(front.icon ? { icon: front.icon } : {}),
  };
  // The cover, an image file of the import (brought along with the files the body uses).
  const cover = front.cover && resolveLink(front.cover.path, page.base, input);
  if (cover && cover.target.startsWith('/files/')) {
    used.add(cover.target);
    Object.assign(meta, {
      cover: { target: cover.target, ...(front.cover!.yPos ? { yPos: front.cover!.yPos } : {}) },
    });
  }
  const fail = (error: string): PreparedPage => ({ ...meta, markdown: '', blocks: [], used: [], error });
  const tooLong = `is longer than ${PAGE_MARKDOWN_MAX} characters of markdown`;
  // The limits every page body has, checked before anything parses it (parsing deep nesting costs its square).
  if (body.length > PAGE_MARKDOWN_MAX) return fail(tooLong);
  if (tooDeeplyNested(body)) return fail(`nests blockquotes and lists deeper than ${MARKDOWN_DEPTH_MAX} levels`);
  body = normalizeMarkdown(body);
  let parsed: Root | undefined;
  if (page.convertHtml && /<[a-z!]/i.test(body)) ({ markdown: body, root: parsed } = convertHtml(body));
  // One parse gives both the links to rewrite and the blocks: each block is its source range, links rewritten.
  const root = parsed ?? parse(body);
  const render = editor(body, linkEdits(body, root, page.base, input, used));
  const blocks = blockRanges(body, root)
    .map((range) => ({ type: range.type, markdown: render(range.from, range.end).trimEnd() }))
    .filter((block) => block.markdown.trim() !== '');
  const markdown = blocks.map((block) => block.markdown).join('\n\n');
  if (markdown.length > PAGE_MARKDOWN_MAX) return fail(tooLong);
  if (blocks.length > PAGE_BLOCKS_MAX) return fail(`has more than ${PAGE_BLOCKS_MAX} top-level blocks`);
  return { ...meta, markdown, blocks, used: [...used] };
}

/** The worker task: a batch of pages. */
export function preparePages(input: PrepareInput): PreparedPage[] {
  return input.pages.map((page) => preparePage(page, input));
}
