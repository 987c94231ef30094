import type { Element, ElementContent, Root } from 'hast';
import { HeadingIds, takeNamedId } from '../heading-ids.js';
import { extractOperationBlocks } from '../openapi-blocks.js';
import { bodyTree } from './parse.js';
import {
  MARK_ORDER,
  plainRefs,
  type DocElement,
  type DocFragment,
  type DocLeaf,
  type DocLeafMark,
  type DocNode,
  type DocText,
  type DocumentRefs,
  type JSONDocument,
} from './model.js';

/**
 * A page body's markdown as GitBook's document model (JSONDocument), read off the same parsed tree the published
 * page is rendered from (./parse.ts), so the API's documents say what readers see:
 * - CommonMark and GFM: paragraphs, headings (the body's first level is heading 1, as on the published page, where
 *   it is shown under the page title), lists and task lists, quotes, code, rules, tables, images, links, emphasis,
 *   strong, strikethrough, inline code, hard breaks;
 * - math: `$$…$$` blocks and inline (`math`, `inline-math`);
 * - GitHub alerts and GitBook's hints, tabs, code titles, steppers, columns, content-refs, files, embeds, includes
 *   (reusable content) and OpenAPI operations;
 * - the HTML docs use: `<sub>`, `<sup>`, `<kbd>`, `<br>`, `<mark>` colours, `<details>` (expandable), `<figure>`
 *   with caption, `<picture>` with a dark source, `<img>` with width and height, `align` on paragraphs. Other HTML
 *   elements give their text, as the published page shows them (script and style give nothing);
 * - a GitBook block this product does not know stays as its tag's text, in a paragraph of its own, with what it
 *   holds after it: writing the document back gives the same markdown.
 *
 * `keyAt` names top-level blocks by the offset in `markdown` of the line they start on (the page's block ids), so a
 * block keeps its key across edits.
 */
export function markdownToDocument(
  markdown: string,
  options: { refs?: DocumentRefs; keyAt?: (offset: number) => string | undefined } = {},
): JSONDocument {
  const reader = new Reader(options.refs ?? plainRefs);
  const nonce = 'OPENAPIDOC' + Math.random().toString(36).slice(2, 10).toUpperCase() + 'N';
  // Lines of the parsed text → lines of `markdown` (both readers of blocks may add lines).
  const extractedFrom: number[] = [];
  const spacedFrom: number[] = [];
  const extracted = extractOperationBlocks(markdown, (i) => `${nonce}${i}`, extractedFrom);
  reader.operations = { prefix: nonce, blocks: extracted.blocks };
  const tree: Root = bodyTree(extracted.markdown, spacedFrom);
  const lineStarts = [0];
  for (let i = markdown.indexOf('\n'); i >= 0; i = markdown.indexOf('\n', i + 1)) lineStarts.push(i + 1);
  const offsetOf = (line: number): number => {
    const extractedLine = spacedFrom.length ? (spacedFrom[line] ?? line) : line;
    return lineStarts[extractedFrom[extractedLine] ?? extractedLine] ?? 0;
  };
  reader.top = headingTop(tree);
  const nodes: DocNode[] = [];
  const used = new Map<string, number>();
  for (const child of tree.children) {
    if (child.type === 'doctype' || child.type === 'comment') continue;
    const made = topLevel(reader.blocks([child as ElementContent]));
    const line = child.position?.start.line;
    made.forEach((node) => {
      const base = line !== undefined ? options.keyAt?.(offsetOf(line - 1)) : undefined;
      const key = base ?? `b${nodes.length}`;
      const seen = used.get(key) ?? 0;
      used.set(key, seen + 1);
      (node as DocElement).key = seen ? `${key}-${seen}` : key;
      keyDescendants(node as DocElement);
      nodes.push(node);
    });
  }
  return { object: 'document', data: { schemaVersion: 1 }, nodes } as unknown as JSONDocument;
}

/**
 * Keys for the blocks and inlines inside a top-level block, made from its key and their place in it (`k.0.1`):
 * stable while the block is, and what renderers tell siblings apart by (GitBook's numbers an ordered list's items by
 * finding each item's key among its siblings).
 */
function keyDescendants(node: DocElement): void {
  (node.nodes ?? []).forEach((child, i) => {
    if (child.object !== 'block' && child.object !== 'inline') return;
    const element = child as DocElement;
    element.key ??= `${node.key}.${i}`;
    keyDescendants(element);
  });
}

/** Blocks the document may hold at its top: containers it may not hold there give their content. */
function topLevel(nodes: DocNode[]): DocNode[] {
  return nodes.flatMap((node) =>
    ALLOWED.document!.has(typeOf(node))
      ? [node]
      : node.object === 'text'
        ? [paragraph([node])]
        : topLevel(node.nodes ?? []),
  );
}

const HEADINGS = ['h1', 'h2', 'h3', 'h4', 'h5', 'h6'];

/** The body's first heading level (0 for h1): it is heading 1 of the document. */
function headingTop(tree: Root): number {
  let top = 5;
  const visit = (node: Root | Element) => {
    for (const child of node.children) {
      if (child.type !== 'element') continue;
      const level = HEADINGS.indexOf(child.tagName);
      if (level >= 0 && child.properties.id !== 'footnote-label') top = Math.min(top, level);
      visit(child);
    }
  };
  visit(tree);
  return top;
}

/** Elements whose content is phrasing: they belong in a paragraph. */
const PHRASING = new Set([
  'a',
  'abbr',
  'b',
  'bdi',
  'bdo',
  'br',
  'cite',
  'code',
  'data',
  'del',
  'dfn',
  'em',
  'i',
  'img',
  'input',
  'ins',
  'kbd',
  'mark',
  'picture',
  'q',
  's',
  'samp',
  'small',
  'span',
  'strike',
  'strong',
  'sub',
  'sup',
  'time',
  'tt',
  'u',
  'var',
  'wbr',
]);
/** Elements of which nothing is shown. */
const HIDDEN = new Set([
  'script',
  'style',
  'template',
  'noscript',
  'iframe',
  'object',
  'embed',
  'head',
  'title',
  'meta',
  'link',
]);
/** Paragraphs the blocks add for show (titles, labels): not content. */
const CHROME = new Set([
  'callout-title',
  'gb-tab-title',
  'gb-file-link',
  'gb-embed-link',
  'gb-embed-url',
  'gb-update-date',
  'gb-unknown-label',
  'gb-integration-label',
]);
const MARKS: Record<string, string> = {
  strong: 'bold',
  b: 'bold',
  em: 'italic',
  i: 'italic',
  code: 'code',
  tt: 'code',
  del: 'strikethrough',
  s: 'strikethrough',
  strike: 'strikethrough',
  kbd: 'keyboard',
  sup: 'superscript',
  sub: 'subscript',
};
const ALERTS: Record<string, string> = {
  NOTE: 'info',
  TIP: 'success',
  IMPORTANT: 'info',
  WARNING: 'warning',
  CAUTION: 'danger',
};
/** What each container of GitBook's model may hold (0.143.2's schema). */
const ESSENTIALS = [
  'paragraph',
  'heading-1',
  'heading-2',
  'heading-3',
  'list-ordered',
  'list-unordered',
  'list-tasks',
  'divider',
];
const ALLOWED: Record<string, Set<string>> = {
  document: new Set([
    ...ESSENTIALS,
    ...['blockquote', 'hint', 'images', 'file', 'drawing', 'embed', 'code', 'math', 'expandable', 'tabs', 'table'],
    ...['swagger', 'openapi-operation', 'openapi-schemas', 'openapi-webhook', 'content-ref', 'integration'],
    ...['reusable-content', 'stepper'],
  ]),
  hint: new Set(ESSENTIALS),
  blockquote: new Set([...ESSENTIALS, 'blockquote']),
  'list-item': new Set([...ESSENTIALS, 'code', 'hint', 'blockquote', 'math', 'table']),
  'tabs-item': new Set([
    ...ESSENTIALS,
    ...['content-ref', 'code', 'embed', 'file', 'images', 'drawing', 'hint', 'blockquote', 'math', 'integration'],
  ]),
  'expandable-body': new Set([...ESSENTIALS, 'images', 'code', 'table', 'hint', 'blockquote', 'reusable-content']),
};
ALLOWED['stepper-step'] = ALLOWED['tabs-item']!;

const typeOf = (node: DocNode) => (node.object === 'text' ? 'text' : node.type);

/**
 * `children` placed in containers made by `make`, as GitBook's model allows them there: images where only
 * paragraphs may be become a paragraph of inline images (their captions kept); any other block the container may
 * not hold closes it and is placed after it, a new container of the same kind taking what follows (a code sample
 * in a quote is shown between two quotes).
 */
function fit(children: DocNode[], allowed: Set<string>, make: (nodes: DocNode[]) => DocElement): DocNode[] {
  const out: DocNode[] = [];
  let run: DocNode[] = [];
  for (const child of children) {
    const type = typeOf(child);
    if (allowed.has(type)) run.push(child);
    else if (type === 'images' && allowed.has('paragraph')) run.push(inlineImages(child as DocElement));
    else {
      if (run.length) out.push(make(run));
      run = [];
      out.push(child);
    }
  }
  if (run.length || !out.length) out.push(make(run.length ? run : [plainParagraph('')]));
  return out;
}

/** An images block as a paragraph of inline images. */
function inlineImages(images: DocElement): DocElement {
  return paragraph(
    (images.nodes ?? []).map((image) => {
      const data = (image as DocElement).data ?? {};
      const caption = (image as DocElement).fragments?.[0]?.nodes
        .map((n) => (n.object === 'text' ? '' : plainOf(n)))
        .join(' ')
        .trim();
      return {
        object: 'inline',
        type: 'inline-image',
        isVoid: true,
        data: {
          ref: data.ref,
          ...(data.refDark ? { refDark: data.refDark } : {}),
          ...(data.alt ? { alt: data.alt } : {}),
          ...(caption ? { caption } : {}),
        },
      } satisfies DocElement;
    }),
  );
}

function plainOf(node: DocNode): string {
  return node.object === 'text' ? node.leaves.map((l) => l.text).join('') : (node.nodes ?? []).map(plainOf).join('');
}

const HINT_STYLES = new Set(['info', 'warning', 'danger', 'success']);
const COLORS = new Set(['default', 'green', 'blue', 'red', 'orange', 'yellow', 'purple']);

function classes(e: Element): string[] {
  const value = e.properties.className;
  return Array.isArray(value) ? value.map(String) : [];
}

function prop(e: Element, name: string): string | undefined {
  const value = e.properties[name];
  if (value === undefined || value === null || value === false) return undefined;
  return Array.isArray(value) ? value.join(' ') : String(value);
}

function textOf(node: ElementContent): string {
  if (node.type === 'text') return node.value;
  if (node.type !== 'element' || HIDDEN.has(node.tagName)) return '';
  if (node.tagName === 'br') return '\n';
  return node.children.map(textOf).join('');
}

function isBlank(node: ElementContent): boolean {
  return (node.type === 'text' && node.value.trim() === '') || node.type === 'comment';
}

function isInline(node: ElementContent): boolean {
  return node.type === 'text' || (node.type === 'element' && PHRASING.has(node.tagName));
}

function text(leaves: DocLeaf[]): DocText {
  return { object: 'text', leaves };
}

function paragraph(nodes: DocNode[], data?: Record<string, unknown>): DocElement {
  return {
    object: 'block',
    type: 'paragraph',
    nodes: nodes.length ? nodes : [text([{ object: 'leaf', text: '', marks: [] }])],
    ...(data ? { data } : {}),
  };
}

function plainParagraph(value: string): DocElement {
  return paragraph([text([{ object: 'leaf', text: value, marks: [] }])]);
}

/** `300` or `50%` as the model's Length. */
function length(value: string | undefined): number | { value: number; unit: string } | undefined {
  if (!value) return undefined;
  const found = /^\s*(\d+(?:\.\d+)?)\s*(%|px)?\s*$/.exec(value);
  if (!found) return undefined;
  const n = Number(found[1]);
  return found[2] === '%' ? { value: n, unit: '%' } : n;
}

class Reader {
  top = 0;
  operations: { prefix: string; blocks: Array<{ spec: string; path: string; method: string }> } = {
    prefix: '\u0000',
    blocks: [],
  };
  private readonly ids = new HeadingIds();
  private fragments = 0;

  constructor(private readonly refs: DocumentRefs) {}

  /** Block nodes of a run of hast content; runs of phrasing content make paragraphs. */
  blocks(children: ElementContent[]): DocNode[] {
    const out: DocNode[] = [];
    let run: ElementContent[] = [];
    const flush = () => {
      if (run.some((n) => !isBlank(n) && !(n.type === 'element' && n.tagName === 'br')))
        out.push(...this.paragraphOf(run));
      run = [];
    };
    for (const child of children) {
      if (child.type === 'comment' || (child.type === 'element' && HIDDEN.has(child.tagName))) continue;
      if (isInline(child) && !(child.type === 'element' && child.tagName === 'a' && this.emptyAnchor(child))) {
        run.push(child);
        continue;
      }
      if (child.type !== 'element') continue;
      if (child.tagName === 'a') continue; // an empty anchor: its id is a heading's or nothing shown
      flush();
      out.push(...this.block(child));
    }
    flush();
    return out;
  }

  private emptyAnchor(e: Element): boolean {
    return (
      e.tagName === 'a' &&
      e.properties.href === undefined &&
      textOf(e).trim() === '' &&
      !e.children.some((c) => c.type === 'element')
    );
  }

  /** A paragraph of phrasing content, or images when it holds only images. */
  private paragraphOf(run: ElementContent[], data?: Record<string, unknown>): DocNode[] {
    const meaningful = run.filter((n) => !isBlank(n) && !(n.type === 'element' && n.tagName === 'br'));
    if (
      meaningful.length &&
      meaningful.every((n) => n.type === 'element' && (n.tagName === 'img' || n.tagName === 'picture'))
    ) {
      return [this.images(meaningful.map((n) => this.image(n as Element)))];
    }
    const only = meaningful.length === 1 ? meaningful[0] : undefined;
    if (only?.type === 'text' && only.value.trim().startsWith(this.operations.prefix)) {
      const block = this.operations.blocks[Number(only.value.trim().slice(this.operations.prefix.length))];
      if (block) {
        return [
          {
            object: 'block',
            type: 'openapi-operation',
            isVoid: true,
            data: { ref: { kind: 'openapi', spec: block.spec }, method: block.method, path: block.path },
          },
        ];
      }
    }
    const nodes = this.inlines(run, []);
    trimEdges(nodes);
    if (!nodes.length) return [];
    return [paragraph(nodes, data)];
  }

  private block(e: Element): DocNode[] {
    const cls = classes(e);
    const gb = prop(e, 'dataGb');
    if (gb) return this.gitbook(e, gb);
    switch (e.tagName) {
      case 'p': {
        if (cls.some((c) => CHROME.has(c))) return [];
        const align = prop(e, 'align');
        const data = align === 'center' ? { align: 'center' } : align === 'right' ? { align: 'end' } : undefined;
        return this.paragraphOf(e.children, data);
      }
      case 'h1':
      case 'h2':
      case 'h3':
      case 'h4':
      case 'h5':
      case 'h6':
        return [this.heading(e)];
      case 'blockquote':
        return this.quote(e);
      case 'ul':
      case 'ol':
        return this.list(e);
      case 'pre': {
        const code = findElement(e, 'code');
        if (code && classes(code).includes('math-display')) {
          return [{ object: 'block', type: 'math', isVoid: true, data: { formula: textOf(code) } }];
        }
        return [this.code(e, {})];
      }
      case 'hr':
        return [{ object: 'block', type: 'divider', isVoid: true, data: {} }];
      case 'table':
        return [this.table(e)];
      case 'details':
        return this.expandable(e);
      case 'figure':
        return this.figure(e);
      case 'li':
        return this.blocks(e.children);
      default:
        // Containers written in HTML (`<div align="center">`, `<section>`, `<center>`): what they hold.
        return this.blocks(e.children);
    }
  }

  private heading(e: Element): DocElement {
    const named = takeNamedId(e);
    const title = e.children.map(textOf).join('').trim();
    const id = this.ids.next(title, named);
    const level = Math.max(HEADINGS.indexOf(e.tagName) - this.top, 0);
    const nodes = this.inlines(e.children, []);
    trimEdges(nodes);
    return {
      object: 'block',
      type: `heading-${Math.min(level + 1, 3)}`,
      data: { ...(named ? { id: named } : {}), ...(level > 2 ? { depth: Math.min(level + 2, 6) } : {}) },
      meta: { id },
      nodes: nodes.length ? nodes : [text([{ object: 'leaf', text: '', marks: [] }])],
    };
  }

  private quote(e: Element): DocNode[] {
    // A GitHub alert: `> [!NOTE]` on its first line.
    const first = e.children.find((c): c is Element => c.type === 'element');
    const lead = first?.tagName === 'p' ? first.children[0] : undefined;
    const marker =
      lead?.type === 'text' ? /^\[!(NOTE|TIP|IMPORTANT|WARNING|CAUTION)\][ \t]*\n?/.exec(lead.value) : null;
    if (marker && lead?.type === 'text') {
      lead.value = lead.value.slice(marker[0].length);
      const data = { style: ALERTS[marker[1]!] };
      return fit(this.blocks(e.children), ALLOWED.hint!, (nodes) => ({ object: 'block', type: 'hint', data, nodes }));
    }
    return fit(this.blocks(e.children), ALLOWED.blockquote!, (nodes) => ({
      object: 'block',
      type: 'blockquote',
      nodes,
    }));
  }

  private list(e: Element): DocNode[] {
    const items = e.children.filter((c): c is Element => c.type === 'element' && c.tagName === 'li');
    const tasks = items.length > 0 && items.every((li) => classes(li).includes('task-list-item'));
    const nodes = items.flatMap((li): DocNode[] => {
      const box = tasks ? findBox(li) : undefined;
      if (box) {
        // The box is the item's first child, or the first of its first paragraph (a loose list).
        li.children = li.children.filter((c) => c !== box);
        for (const c of li.children)
          if (c.type === 'element' && c.tagName === 'p') c.children = c.children.filter((x) => x !== box);
      }
      const data = box ? { data: { checked: Boolean(box.properties.checked) } } : {};
      return fit(this.blocks(li.children), ALLOWED['list-item']!, (blocks) => ({
        object: 'block',
        type: 'list-item',
        nodes: blocks,
        ...data,
      }));
    });
    let next = Number(prop(e, 'start') ?? 1);
    if (!Number.isFinite(next)) next = 1;
    return fit(nodes, new Set(['list-item']), (run): DocElement => {
      if (tasks) return { object: 'block', type: 'list-tasks', nodes: run };
      if (e.tagName !== 'ol') return { object: 'block', type: 'list-unordered', nodes: run };
      // A list split by a block it may not hold goes on counting after it.
      const start = next;
      next += run.length;
      return { object: 'block', type: 'list-ordered', data: start !== 1 ? { start } : {}, nodes: run };
    });
  }

  private code(pre: Element, data: Record<string, unknown>): DocElement {
    const code = pre.children.find((c): c is Element => c.type === 'element' && c.tagName === 'code');
    const language = code
      ? classes(code)
          .find((c) => c.startsWith('language-'))
          ?.slice('language-'.length)
      : undefined;
    const value = (code ? textOf(code) : textOf(pre)).replace(/\n$/, '');
    return {
      object: 'block',
      type: 'code',
      data: { ...(language ? { syntax: language } : {}), ...data },
      nodes: value.split('\n').map((line) => ({
        object: 'block',
        type: 'code-line',
        data: {},
        nodes: [text([{ object: 'leaf', text: line, marks: [] }])],
      })),
    };
  }

  private table(e: Element): DocElement {
    const rows: Element[] = [];
    const collect = (node: Element) => {
      for (const c of node.children) {
        if (c.type !== 'element') continue;
        if (c.tagName === 'tr') rows.push(c);
        else if (['thead', 'tbody', 'tfoot'].includes(c.tagName)) collect(c);
      }
    };
    collect(e);
    const cellsOf = (tr: Element) =>
      tr.children.filter((c): c is Element => c.type === 'element' && (c.tagName === 'td' || c.tagName === 'th'));
    const head = rows[0] && cellsOf(rows[0]).every((c) => c.tagName === 'th') ? rows[0] : undefined;
    const body = head ? rows.slice(1) : rows;
    const width = Math.max(head ? cellsOf(head).length : 0, ...body.map((r) => cellsOf(r).length), 1);
    const cards = prop(e, 'dataView') === 'cards';
    const definition: Record<string, unknown> = {};
    const columns: string[] = [];
    for (let i = 0; i < width; i++) {
      const id = `c${i}`;
      const cell = head ? cellsOf(head)[i] : undefined;
      const align = cell ? prop(cell, 'align') : undefined;
      columns.push(id);
      definition[id] = {
        id,
        title: cell ? textOf(cell).trim() : '',
        type: 'text',
        textAlignment: align === 'center' ? 'center' : align === 'right' ? 'right' : 'left',
      };
    }
    const fragments: DocFragment[] = [];
    const records: Record<string, unknown> = {};
    body.forEach((tr, r) => {
      const values: Record<string, string> = {};
      cellsOf(tr).forEach((cell, i) => {
        if (i >= width) return;
        const fragment = `f${++this.fragments}`;
        const nodes = this.blocks(cell.children);
        fragments.push({ object: 'fragment', fragment, nodes: nodes.length ? nodes : [plainParagraph('')] });
        values[`c${i}`] = fragment;
      });
      records[`r${r}`] = { orderIndex: `a${String(r).padStart(6, '0')}`, values };
    });
    return {
      object: 'block',
      type: 'table',
      isVoid: true,
      data: {
        view: cards ? { type: 'cards', cardSize: 'medium', columns } : { type: 'grid', columns, hideHeader: !head },
        records,
        definition,
      },
      fragments,
    };
  }

  private expandable(e: Element): DocNode[] {
    const summary = e.children.find((c): c is Element => c.type === 'element' && c.tagName === 'summary');
    const title = summary ? this.inlines(summary.children, []) : [];
    trimEdges(title);
    const body = this.blocks(e.children.filter((c) => c !== summary));
    // What the body may not hold follows the expandable.
    const after: DocNode[] = [];
    const allowedBody = ALLOWED['expandable-body']!;
    const kept = body.filter((n) => {
      if (allowedBody.has(typeOf(n))) return true;
      after.push(n);
      return false;
    });
    const expandable: DocElement = {
      object: 'block',
      type: 'expandable',
      isVoid: true,
      data: {},
      fragments: [
        { object: 'fragment', fragment: 'expandable-title', type: 'expandable-title', nodes: [paragraph(title)] },
        {
          object: 'fragment',
          fragment: 'expandable-body',
          type: 'expandable-body',
          nodes: kept.length ? kept : [plainParagraph('')],
        },
      ],
    };
    return [expandable, ...after];
  }

  /** `<figure>` with an image (or picture) and a caption: an image block; any other figure: what it holds. */
  private figure(e: Element): DocNode[] {
    const media: Element[] = [];
    const find = (node: Element) => {
      for (const c of node.children) {
        if (c.type !== 'element' || c.tagName === 'figcaption') continue;
        if (c.tagName === 'img' || c.tagName === 'picture') media.push(c);
        else find(c);
      }
    };
    find(e);
    const caption = e.children.find((c): c is Element => c.type === 'element' && c.tagName === 'figcaption');
    if (media.length !== 1) return this.blocks(e.children);
    const image = this.image(media[0]!);
    const captionText = caption ? textOf(caption).trim() : '';
    if (captionText) {
      image.fragments = [
        { object: 'fragment', fragment: 'caption', type: 'caption', nodes: [plainParagraph(captionText)] },
      ];
    }
    return [this.images([image])];
  }

  private images(images: DocElement[]): DocElement {
    return { object: 'block', type: 'images', isVoid: false, data: {}, nodes: images };
  }

  /** An image block of `<img>` or `<picture>` (its dark source as `refDark`). */
  private image(e: Element): DocElement {
    let img = e;
    let dark: string | undefined;
    if (e.tagName === 'picture') {
      img = e.children.find((c): c is Element => c.type === 'element' && c.tagName === 'img') ?? e;
      for (const source of e.children) {
        if (source.type !== 'element' || source.tagName !== 'source') continue;
        const media = prop(source, 'media') ?? '';
        const url = (prop(source, 'srcSet') ?? '').trim().split(/\s+/)[0];
        if (url && /prefers-color-scheme:\s*dark/.test(media)) dark = url;
      }
    }
    const src = prop(img, 'src') ?? '';
    const alt = prop(img, 'alt');
    const width = length(prop(img, 'width'));
    const height = length(prop(img, 'height'));
    return {
      object: 'block',
      type: 'image',
      isVoid: true,
      data: {
        ref: this.imageRef(src),
        ...(dark ? { refDark: this.imageRef(dark) } : {}),
        ...(alt ? { alt } : {}),
        ...(width !== undefined ? { width } : {}),
        ...(height !== undefined ? { height } : {}),
      },
      fragments: [],
    };
  }

  private imageRef(url: string) {
    const ref = this.refs.toRef(url, 'image');
    return ref.kind === 'file' || ref.kind === 'url' ? ref : { kind: 'url', url };
  }

  /** A GitBook block (`data-gb` on its element: see shared/gitbook-blocks.ts). */
  private gitbook(e: Element, name: string): DocNode[] {
    const attrs = tagAttributes(prop(e, 'dataGbAttrs'));
    const closed = prop(e, 'dataGbEnd') === 'true';
    const inner = () => this.blocks(e.children);
    const container = (type: string, data: Record<string, unknown>, nodes = inner()): DocElement => ({
      object: 'block',
      type,
      data,
      nodes,
    });
    const fitted = (type: string, data: Record<string, unknown>) =>
      fit(inner(), ALLOWED[type]!, (nodes) => container(type, data, nodes));
    if (closed) {
      switch (name) {
        case 'hint':
          return fitted('hint', {
            style: HINT_STYLES.has(attrs.style ?? '') ? attrs.style : 'info',
            ...(attrs.icon ? { icon: attrs.icon } : {}),
          });
        case 'tabs':
          return fit(inner(), new Set(['tabs-item']), (nodes) => container('tabs', {}, nodes));
        case 'tab':
          return fitted('tabs-item', { title: attrs.title ?? '' });
        case 'stepper':
          return fit(inner(), new Set(['stepper-step']), (nodes) => container('stepper', {}, nodes));
        case 'step':
          return fitted('stepper-step', {});
        // 0.143.2's model has columns only inside other blocks, never at a page's top: their content is shown.
        case 'columns':
        case 'column':
          return inner();
        case 'code': {
          const pre = findElement(e, 'pre');
          const data = {
            ...(attrs.title ? { title: attrs.title } : {}),
            ...(attrs.lineNumbers === 'true' ? { lineNumbers: true } : {}),
            ...(attrs.overflow === 'wrap' ? { overflow: 'wrap' } : {}),
          };
          if (pre) return [this.code(pre, data)];
          break;
        }
        case 'content-ref': {
          const url = attrs.url ?? '';
          const link = findElement(e, 'a');
          const title = link ? textOf(link).trim() : '';
          return [
            {
              object: 'block',
              type: 'content-ref',
              isVoid: true,
              data: { ref: this.refs.toRef(url, 'link'), ...(title && title !== url ? { title } : {}) },
            },
          ];
        }
        case 'embed': {
          // Its caption written up to `{% endembed %}`.
          const caption = e.children
            .filter((c) => !(c.type === 'element' && classes(c).some((x) => CHROME.has(x))))
            .map(textOf)
            .join('')
            .trim();
          return [
            {
              object: 'block',
              type: 'embed',
              isVoid: true,
              data: {
                url: attrs.url ?? '',
                ...(caption ? { caption } : attrs.caption ? { caption: attrs.caption } : {}),
              },
            },
          ];
        }
        case 'file': {
          const ref = this.refs.toRef(attrs.src ?? '', 'link');
          const caption = e.children
            .filter((c) => !(c.type === 'element' && classes(c).some((x) => CHROME.has(x))))
            .map(textOf)
            .join('')
            .trim();
          if (ref.kind === 'file') {
            return [{ object: 'block', type: 'file', isVoid: true, data: { ref, ...(caption ? { caption } : {}) } }];
          }
          break;
        }
      }
    } else if (name === 'embed' && attrs.url) {
      return [
        {
          object: 'block',
          type: 'embed',
          isVoid: true,
          data: { url: attrs.url, ...(attrs.caption ? { caption: attrs.caption } : {}) },
        },
      ];
    } else if (name.startsWith('@')) {
      const [integration = '', block = ''] = (prop(e, 'dataIntegrationBlock') ?? '').split('/');
      let props: unknown;
      try {
        props = JSON.parse(prop(e, 'dataIntegrationProps') ?? '{}');
      } catch {
        props = {};
      }
      return [
        {
          object: 'block',
          type: 'integration',
          isVoid: true,
          data: {
            integration,
            block,
            props: props && typeof props === 'object' && !Array.isArray(props) ? props : {},
          },
        },
      ];
    } else if (name === 'include') {
      const path = attrs[''] ?? attrs.path ?? '';
      return [
        {
          object: 'block',
          type: 'reusable-content',
          isVoid: true,
          data: { ref: { kind: 'reusable-content', reusableContent: path } },
        },
      ];
    }
    // Not a block of the model: its tag as written, then what it holds, then its end tag.
    const source = prop(e, 'dataGbSource') ?? `{% ${name} %}`;
    return [plainParagraph(source), ...(closed ? [...inner(), plainParagraph(`{% end${name} %}`)] : [])];
  }

  /** Inline nodes of phrasing content, with the marks in force. */
  inlines(children: ElementContent[], marks: DocLeafMark[]): DocNode[] {
    const out: DocNode[] = [];
    const push = (leaf: DocLeaf) => {
      const last = out[out.length - 1];
      if (last && last.object === 'text') {
        const prev = last.leaves[last.leaves.length - 1]!;
        if (sameMarks(prev.marks, leaf.marks)) prev.text += leaf.text;
        else last.leaves.push(leaf);
      } else out.push(text([leaf]));
    };
    for (const child of children) {
      if (child.type === 'text') {
        // A line end in a paragraph's source is a space (a `<br>` is the line break).
        if (child.value) push({ object: 'leaf', text: child.value.replace(/[ \t]*\n[ \t]*/g, ' '), marks });
        continue;
      }
      if (child.type !== 'element' || HIDDEN.has(child.tagName)) continue;
      const tag = child.tagName;
      if (tag === 'br') {
        push({ object: 'leaf', text: '\n', marks });
        continue;
      }
      if (tag === 'input') continue;
      if (tag === 'img' || tag === 'picture') {
        const image = this.image(child);
        out.push({
          object: 'inline',
          type: 'inline-image',
          isVoid: true,
          data: {
            ref: (image.data as { ref: unknown }).ref,
            ...(image.data?.refDark ? { refDark: image.data.refDark } : {}),
            ...(image.data?.alt ? { alt: image.data.alt } : {}),
          },
        });
        continue;
      }
      if (tag === 'a') {
        const href = prop(child, 'href');
        if (href === undefined) {
          for (const node of this.inlines(child.children, marks)) {
            if (node.object === 'text') node.leaves.forEach(push);
            else out.push(node);
          }
          continue;
        }
        const nodes = this.inlines(child.children, marks).filter(
          (n) => n.object === 'text' || (n as DocElement).type === 'inline-image',
        );
        out.push({
          object: 'inline',
          type: 'link',
          data: { ref: this.refs.toRef(href, 'link') },
          nodes: nodes.length ? nodes : [text([{ object: 'leaf', text: href, marks }])],
        });
        continue;
      }
      if (tag === 'code' && classes(child).includes('math-inline')) {
        out.push({ object: 'inline', type: 'inline-math', isVoid: true, data: { formula: textOf(child) } });
        continue;
      }
      const mark = MARKS[tag] ?? (tag === 'mark' ? colorMark(child) : undefined);
      const next =
        typeof mark === 'string' ? addMark(marks, { object: 'mark', type: mark }) : mark ? addMark(marks, mark) : marks;
      // One text node for a run of text, whatever its marks.
      for (const node of this.inlines(child.children, next)) {
        if (node.object === 'text') node.leaves.forEach(push);
        else out.push(node);
      }
    }
    for (const node of out) if (node.object === 'text') node.leaves = edgeSpacesOutside(node.leaves);
    return out;
  }
}

/**
 * A GitBook tag's attributes, as gitbook-blocks.ts keeps them on its element. A page's own HTML may write the same
 * attribute (`<div data-gb-attrs="…">`): whatever it holds, it is read as no more than strings.
 */
function tagAttributes(json: string | undefined): Record<string, string> {
  try {
    const value: unknown = JSON.parse(json ?? '{}');
    if (!value || typeof value !== 'object' || Array.isArray(value)) return {};
    return Object.fromEntries(Object.entries(value).filter((e): e is [string, string] => typeof e[1] === 'string'));
  } catch {
    return {};
  }
}

const EMPHASIS = new Set(['bold', 'italic', 'strikethrough']);

/**
 * Leaves with the spaces at the edges of bold, italic and struck text taken out of those marks: markdown cannot
 * write them inside (`**See **` is not bold), so documents keep them outside, as they are written back.
 */
function edgeSpacesOutside(leaves: DocLeaf[]): DocLeaf[] {
  if (!leaves.some((l) => l.marks.some((m) => EMPHASIS.has(m.type)) && /^\s|\s$/.test(l.text))) return leaves;
  const out: DocLeaf[] = [];
  const push = (leaf: DocLeaf) => {
    if (!leaf.text) return;
    const prev = out[out.length - 1];
    if (prev && sameMarks(prev.marks, leaf.marks)) prev.text += leaf.text;
    else out.push(leaf);
  };
  for (const leaf of leaves) {
    if (!leaf.marks.some((m) => EMPHASIS.has(m.type)) || leaf.text.trim() === '') {
      push({ ...leaf, marks: leaf.text.trim() === '' ? leaf.marks.filter((m) => !EMPHASIS.has(m.type)) : leaf.marks });
      continue;
    }
    const plain = leaf.marks.filter((m) => !EMPHASIS.has(m.type));
    const lead = /^\s+/.exec(leaf.text)?.[0] ?? '';
    const trail = /\s+$/.exec(leaf.text)?.[0] ?? '';
    push({ object: 'leaf', text: lead, marks: plain });
    push({ object: 'leaf', text: leaf.text.slice(lead.length, leaf.text.length - trail.length), marks: leaf.marks });
    push({ object: 'leaf', text: trail, marks: plain });
  }
  return out;
}

function colorMark(e: Element): DocLeafMark | undefined {
  const style = prop(e, 'style') ?? '';
  const color = /(?:^|;)\s*color\s*:\s*([a-z]+)/i.exec(style)?.[1]?.toLowerCase();
  const background = /background(?:-color)?\s*:\s*([a-z]+)/i.exec(style)?.[1]?.toLowerCase();
  if (!color && !background) return undefined;
  return {
    object: 'mark',
    type: 'color',
    data: {
      text: color && COLORS.has(color) ? color : 'default',
      background: background && COLORS.has(background) ? background : 'default',
    },
  };
}

/** The marks with `mark` added, in one order whatever the nesting they were written in. */
function addMark(marks: DocLeafMark[], mark: DocLeafMark): DocLeafMark[] {
  if (marks.some((m) => m.type === mark.type)) return marks;
  return [...marks, mark].sort((a, b) => MARK_ORDER.indexOf(a.type) - MARK_ORDER.indexOf(b.type));
}

function sameMarks(a: DocLeafMark[], b: DocLeafMark[]): boolean {
  return (
    a.length === b.length &&
    a.every((m) => b.some((n) => n.type === m.type && JSON.stringify(n.data) === JSON.stringify(m.data)))
  );
}

/** Leading and trailing white space of a paragraph's text (hast keeps the line ends around phrasing). */
function trimEdges(nodes: DocNode[]): void {
  for (const node of nodes) {
    if (node.object === 'text') for (const leaf of node.leaves) leaf.text = leaf.text.replace(/ *\n */g, '\n');
  }
  const first = nodes[0];
  if (first?.object === 'text') {
    first.leaves[0]!.text = first.leaves[0]!.text.replace(/^[ \t\n]+/, '');
  }
  const last = nodes[nodes.length - 1];
  if (last?.object === 'text') {
    const leaf = last.leaves[last.leaves.length - 1]!;
    leaf.text = leaf.text.replace(/[ \t\n]+$/, '');
  }
  for (let i = nodes.length - 1; i >= 0; i--) {
    const node = nodes[i]!;
    if (node.object !== 'text') continue;
    node.leaves = node.leaves.filter((l) => l.text !== '');
    if (!node.leaves.length) nodes.splice(i, 1);
  }
}

function findElement(e: Element, tagName: string): Element | undefined {
  for (const c of e.children) {
    if (c.type !== 'element') continue;
    if (c.tagName === tagName) return c;
    const inner = findElement(c, tagName);
    if (inner) return inner;
  }
  return undefined;
}

function findBox(li: Element): Element | undefined {
  for (const c of li.children) {
    if (c.type !== 'element') continue;
    if (c.tagName === 'input' && c.properties.type === 'checkbox') return c;
    if (c.tagName === 'p') {
      const inner = c.children.find((x): x is Element => x.type === 'element' && x.tagName === 'input');
      if (inner) return inner;
    }
  }
  return undefined;
}
