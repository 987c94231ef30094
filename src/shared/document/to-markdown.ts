import type {
  BlockContent,
  Heading,
  Html,
  List,
  ListItem,
  Paragraph,
  PhrasingContent,
  Root,
  RootContent,
  Table,
  TableCell,
} from 'mdast';
import { toMarkdown } from 'mdast-util-to-markdown';
import { gfmToMarkdown } from 'mdast-util-gfm';
import { toHast } from 'mdast-util-to-hast';
import { toHtml } from 'hast-util-to-html';
import { integrationTag } from '../gitbook-blocks.js';
import {
  MARK_ORDER,
  plainRefs,
  type ContentRef,
  type DocElement,
  type DocFragment,
  type DocLeaf,
  type DocNode,
  type DocumentRefs,
} from './model.js';

/**
 * A JSON document (./model.ts) as the GitBook-flavoured markdown this product stores: what ./from-markdown.ts reads
 * back into the same document. Blocks of GitBook's model with no markdown of their own are written as GitBook
 * writes them (`{% hint style="info" %}`, `{% tabs %}`, `<figure>`, `<details>`, …).
 *
 * A document too deep to be written (MAX_DEPTH) or naming a node this product does not know is refused with a
 * DocumentError naming where in the document it is, so an API caller learns which node to mend.
 */
export function documentToMarkdown(document: { nodes?: unknown }, refs: DocumentRefs = plainRefs): string {
  const writer = new Writer(refs);
  const nodes = Array.isArray(document.nodes) ? (document.nodes as DocNode[]) : [];
  const root: Root = { type: 'root', children: writer.blocks(nodes, 'nodes', 0) as RootContent[] };
  return toMarkdown(root, {
    extensions: [gfmToMarkdown()],
    bullet: '-',
    emphasis: '_',
    strong: '*',
    fence: '`',
    fences: true,
    rule: '-',
    listItemIndent: 'one',
    handlers: { break: () => '\\\n' },
  }).replace(/\n+$/, '\n');
}

export class DocumentError extends Error {
  constructor(
    readonly path: string,
    message: string,
  ) {
    super(`${path}: ${message}`);
  }
}

/** Nesting of blocks a document may have (lists in quotes in tabs…): far more than any page, bounded for the stack. */
export const MAX_DEPTH = 48;

const CONTAINER_TAGS: Record<string, string> = {
  tabs: 'tabs',
  'tabs-item': 'tab',
  stepper: 'stepper',
  'stepper-step': 'step',
  columns: 'columns',
  column: 'column',
  hint: 'hint',
};

function html(value: string): Html {
  return { type: 'html', value };
}

function attr(name: string, value: string): string {
  return ` ${name}="${value.replace(/"/g, '&quot;')}"`;
}

function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

function isElement(node: DocNode): node is DocElement {
  return node !== null && typeof node === 'object' && (node.object === 'block' || node.object === 'inline');
}

function lengthText(value: unknown): string | undefined {
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  if (value && typeof value === 'object') {
    const v = value as { value?: unknown; unit?: unknown };
    if (typeof v.value === 'number' && (v.unit === '%' || v.unit === 'px'))
      return v.unit === '%' ? `${v.value}%` : String(v.value);
  }
  return undefined;
}

class Writer {
  constructor(private readonly refs: DocumentRefs) {}

  private url(ref: unknown, path: string): string {
    if (!ref || typeof ref !== 'object' || typeof (ref as { kind?: unknown }).kind !== 'string') {
      throw new DocumentError(path, 'a reference needs a kind');
    }
    return this.refs.toUrl(ref as ContentRef);
  }

  blocks(nodes: DocNode[], path: string, depth: number): Array<BlockContent | Html> {
    if (depth > MAX_DEPTH) throw new DocumentError(path, `blocks may nest ${MAX_DEPTH} deep at most`);
    const out: Array<BlockContent | Html> = [];
    nodes.forEach((node, i) => out.push(...this.block(node, `${path}[${i}]`, depth)));
    return out;
  }

  private fragment(fragments: DocFragment[] | undefined, name: string): DocFragment | undefined {
    return fragments?.find((f) => f.fragment === name || f.type === name);
  }

  private block(node: DocNode, path: string, depth: number): Array<BlockContent | Html> {
    if (!isElement(node) || node.object !== 'block') throw new DocumentError(path, 'a block was expected here');
    const data = (node.data ?? {}) as Record<string, unknown>;
    const children = Array.isArray(node.nodes) ? node.nodes : [];
    const inner = () => this.blocks(children, `${path}.nodes`, depth + 1);
    switch (node.type) {
      case 'paragraph': {
        // Only images (GitBook's images where a block of them may not be, as in a list item): written as images.
        const images = children.filter((c) => !(c.object === 'text' && this.plain([c]).trim() === ''));
        if (images.length && images.every((c) => isElement(c) && c.type === 'inline-image')) {
          const asBlocks = images.map((c): DocElement => {
            const d = ((c as DocElement).data ?? {}) as Record<string, unknown>;
            const caption = typeof d.caption === 'string' && d.caption ? d.caption : '';
            return {
              object: 'block',
              type: 'image',
              data: { ref: d.ref, ...(d.refDark ? { refDark: d.refDark } : {}), ...(d.alt ? { alt: d.alt } : {}) },
              fragments: caption
                ? [
                    {
                      object: 'fragment',
                      fragment: 'caption',
                      nodes: [
                        {
                          object: 'block',
                          type: 'paragraph',
                          nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: caption, marks: [] }] }],
                        },
                      ],
                    },
                  ]
                : [],
            };
          });
          return this.block({ object: 'block', type: 'images', nodes: asBlocks }, path, depth);
        }
        return [{ type: 'paragraph', children: this.inlines(children, `${path}.nodes`) }];
      }
      case 'heading-1':
      case 'heading-2':
      case 'heading-3': {
        const level = Number(node.type.slice(-1));
        const depthOf = typeof data.depth === 'number' && data.depth > 3 && data.depth <= 6 ? data.depth : level + 1;
        const content = this.inlines(children, `${path}.nodes`);
        if (typeof data.id === 'string' && /^[A-Za-z][\w.:-]*$/.test(data.id)) {
          content.push(html(`<a href="#${data.id}" id="${data.id}"></a>`));
          const before = content[content.length - 2];
          if (before?.type === 'text') before.value += ' ';
          else content.splice(content.length - 1, 0, { type: 'text', value: ' ' });
        }
        return [{ type: 'heading', depth: depthOf as Heading['depth'], children: content }];
      }
      case 'list-ordered':
      case 'list-unordered':
      case 'list-tasks': {
        const items = children.map((item, i): ListItem => {
          const itemPath = `${path}.nodes[${i}]`;
          if (!isElement(item) || item.type !== 'list-item')
            throw new DocumentError(itemPath, 'a list holds list items');
          const blocks = this.blocks(item.nodes ?? [], `${itemPath}.nodes`, depth + 1) as BlockContent[];
          const checked =
            node.type === 'list-tasks' ? Boolean((item.data as { checked?: unknown } | undefined)?.checked) : null;
          return {
            type: 'listItem',
            spread: blocks.filter((b) => b.type === 'paragraph').length > 1,
            checked,
            children: blocks,
          };
        });
        const start = typeof data.start === 'number' ? data.start : 1;
        const list: List = {
          type: 'list',
          ordered: node.type === 'list-ordered',
          spread: items.some((i) => i.spread),
          ...(node.type === 'list-ordered' ? { start } : {}),
          children: items,
        };
        return [list];
      }
      case 'list-item':
        return inner();
      case 'divider':
        return [{ type: 'thematicBreak' }];
      case 'blockquote':
        return [{ type: 'blockquote', children: inner() as BlockContent[] }];
      case 'code': {
        const value = children
          .map((line, i) => {
            if (!isElement(line) || line.type !== 'code-line')
              throw new DocumentError(`${path}.nodes[${i}]`, 'code holds code lines');
            return this.plain(line.nodes ?? []);
          })
          .join('\n');
        const syntax = typeof data.syntax === 'string' && /^[\w#+.-]+$/.test(data.syntax) ? data.syntax : null;
        const code = { type: 'code' as const, lang: syntax, value };
        const attrs =
          (typeof data.title === 'string' && data.title ? attr('title', data.title) : '') +
          (data.overflow === 'wrap' ? attr('overflow', 'wrap') : '') +
          (data.lineNumbers === true ? attr('lineNumbers', 'true') : '');
        return attrs ? [html(`{% code${attrs} %}`), code, html('{% endcode %}')] : [code];
      }
      case 'hint':
      case 'tabs':
      case 'tabs-item':
      case 'stepper':
      case 'stepper-step':
      case 'columns':
      case 'column': {
        const tag = CONTAINER_TAGS[node.type]!;
        let attrs = '';
        if (node.type === 'hint') {
          attrs = attr('style', typeof data.style === 'string' ? data.style : 'info');
          if (typeof data.icon === 'string' && data.icon) attrs += attr('icon', data.icon);
        }
        if (node.type === 'tabs-item') attrs = attr('title', typeof data.title === 'string' ? data.title : '');
        const width = node.type === 'column' ? lengthText(data.width) : undefined;
        if (width) attrs = attr('width', width);
        return [html(`{% ${tag}${attrs} %}`), ...inner(), html(`{% end${tag} %}`)];
      }
      case 'images': {
        const images = children.map((image, i) => {
          if (!isElement(image) || image.type !== 'image')
            throw new DocumentError(`${path}.nodes[${i}]`, 'images hold images');
          return image;
        });
        const plain = images.every((image) => {
          const d = (image.data ?? {}) as Record<string, unknown>;
          return !d.refDark && d.width === undefined && d.height === undefined && !this.captionOf(image);
        });
        if (plain) {
          const content: PhrasingContent[] = [];
          images.forEach((image, i) => {
            if (i) content.push({ type: 'text', value: ' ' });
            const d = (image.data ?? {}) as Record<string, unknown>;
            content.push({
              type: 'image',
              url: this.url(d.ref, `${path}.nodes[${i}].data.ref`),
              alt: typeof d.alt === 'string' ? d.alt : '',
            });
          });
          return [{ type: 'paragraph', children: content }];
        }
        return images.map((image, i) => html(this.figure(image, `${path}.nodes[${i}]`)));
      }
      case 'image':
        return [html(this.figure(node, path))];
      case 'file': {
        const caption = typeof data.caption === 'string' ? data.caption : '';
        return [
          html(`{% file${attr('src', this.url(data.ref, `${path}.data.ref`))} %}`),
          ...(caption ? [{ type: 'paragraph' as const, children: [{ type: 'text' as const, value: caption }] }] : []),
          html('{% endfile %}'),
        ];
      }
      case 'embed': {
        if (typeof data.url !== 'string') throw new DocumentError(`${path}.data.url`, 'an embed needs a URL');
        // Its caption up to `{% endembed %}`, as GitBook writes it.
        const caption = typeof data.caption === 'string' ? data.caption : '';
        if (!caption) return [html(`{% embed${attr('url', data.url)} %}`)];
        return [
          html(`{% embed${attr('url', data.url)} %}`),
          { type: 'paragraph' as const, children: [{ type: 'text' as const, value: caption }] },
          html('{% endembed %}'),
        ];
      }
      case 'content-ref': {
        const url = this.url(data.ref, `${path}.data.ref`);
        const title = typeof data.title === 'string' && data.title ? data.title : url;
        return [
          html(`{% content-ref${attr('url', url)} %}`),
          { type: 'paragraph', children: [{ type: 'link', url, children: [{ type: 'text', value: title }] }] },
          html('{% endcontent-ref %}'),
        ];
      }
      case 'reusable-content': {
        const ref = data.ref as { reusableContent?: unknown } | undefined;
        if (typeof ref?.reusableContent !== 'string')
          throw new DocumentError(`${path}.data.ref`, 'an include names its reusable content');
        return [html(`{% include "${ref.reusableContent.replace(/"/g, '')}" %}`)];
      }
      case 'integration': {
        const { integration, block, props } = data;
        const name = /^[a-z0-9][a-z0-9_.-]*$/;
        if (typeof integration !== 'string' || !name.test(integration))
          throw new DocumentError(`${path}.data.integration`, 'an integration block names its integration');
        if (typeof block !== 'string' || !/^[A-Za-z0-9][\w.-]*$/.test(block))
          throw new DocumentError(`${path}.data.block`, 'an integration block names its block');
        if (props !== undefined && (typeof props !== 'object' || props === null || Array.isArray(props)))
          throw new DocumentError(`${path}.data.props`, "an integration block's props are an object");
        return [html(integrationTag({ integration, block, props: (props ?? {}) as Record<string, unknown> }))];
      }
      case 'openapi-operation': {
        const ref = data.ref as { spec?: unknown } | undefined;
        if (typeof ref?.spec !== 'string' || typeof data.path !== 'string' || typeof data.method !== 'string') {
          throw new DocumentError(`${path}.data`, 'an OpenAPI operation names its spec, path and method');
        }
        return [
          html(
            `{% openapi-operation${attr('spec', ref.spec)}${attr('path', data.path)}${attr('method', data.method)} %}`,
          ),
          html('{% endopenapi-operation %}'),
        ];
      }
      case 'expandable': {
        const title = this.fragment(node.fragments, 'expandable-title');
        const body = this.fragment(node.fragments, 'expandable-body');
        const summary = title ? this.inlineHtml(title.nodes) : '';
        return [
          html(`<details>\n\n<summary>${summary}</summary>`),
          ...this.blocks(body?.nodes ?? [], `${path}.fragments`, depth + 1),
          html('</details>'),
        ];
      }
      case 'table':
        return [this.table(node, path, depth)];
      case 'math': {
        if (typeof data.formula !== 'string') throw new DocumentError(`${path}.data.formula`, 'math needs a formula');
        return [html(`$$\n${data.formula}\n$$`)];
      }
      default:
        throw new DocumentError(path, `blocks of type "${String(node.type)}" are not supported`);
    }
  }

  private captionOf(image: DocElement): string {
    const caption = this.fragment(image.fragments, 'caption');
    return caption
      ? caption.nodes
          .map((n) => this.plain(isElement(n) ? (n.nodes ?? []) : [n]))
          .join(' ')
          .trim()
      : '';
  }

  /** An image as GitBook writes one with a caption: `<figure><img …><figcaption><p>…</p></figcaption></figure>`. */
  private figure(image: DocElement, path: string): string {
    const d = (image.data ?? {}) as Record<string, unknown>;
    const src = escapeHtml(this.url(d.ref, `${path}.data.ref`));
    const width = lengthText(d.width);
    const height = lengthText(d.height);
    const img = `<img src="${src}" alt="${escapeHtml(typeof d.alt === 'string' ? d.alt : '')}"${width ? ` width="${width}"` : ''}${height ? ` height="${height}"` : ''}>`;
    const media = d.refDark
      ? `<picture><source srcset="${escapeHtml(this.url(d.refDark, `${path}.data.refDark`))}" media="(prefers-color-scheme: dark)">${img}</picture>`
      : img;
    const caption = this.captionOf(image);
    return `<figure>${media}${caption ? `<figcaption><p>${escapeHtml(caption)}</p></figcaption>` : ''}</figure>`;
  }

  private table(node: DocElement, path: string, depth: number): BlockContent | Html {
    const data = (node.data ?? {}) as {
      view?: { type?: string; columns?: string[] };
      records?: Record<string, { orderIndex?: string; values?: Record<string, unknown> }>;
      definition?: Record<string, { title?: string; textAlignment?: string }>;
    };
    const columns = Array.isArray(data.view?.columns) ? data.view.columns : Object.keys(data.definition ?? {});
    const records = Object.values(data.records ?? {}).sort((a, b) =>
      String(a.orderIndex ?? '').localeCompare(String(b.orderIndex ?? '')),
    );
    const cell = (children: PhrasingContent[]): TableCell => ({ type: 'tableCell', children });
    const valueOf = (value: unknown): PhrasingContent[] => {
      if (typeof value === 'string') {
        const fragment = node.fragments?.find((f) => f.fragment === value);
        if (fragment) {
          const out: PhrasingContent[] = [];
          this.blocks(fragment.nodes, `${path}.fragments`, depth + 1).forEach((b, i) => {
            if (i) out.push({ type: 'break' });
            if (b.type === 'paragraph') out.push(...b.children);
            else if (b.type === 'html') out.push(b);
          });
          return out;
        }
        return [{ type: 'text', value }];
      }
      if (typeof value === 'number' || typeof value === 'boolean') return [{ type: 'text', value: String(value) }];
      if (value && typeof value === 'object' && 'kind' in value) {
        const url = this.url(value, `${path}.data.records`);
        return [{ type: 'link', url, children: [{ type: 'text', value: url }] }];
      }
      return [];
    };
    const table: Table = {
      type: 'table',
      align: columns.map((c) => {
        const a = data.definition?.[c]?.textAlignment;
        return a === 'center' ? 'center' : a === 'right' ? 'right' : null;
      }),
      children: [
        {
          type: 'tableRow',
          children: columns.map((c) => cell([{ type: 'text', value: data.definition?.[c]?.title ?? '' }])),
        },
        ...records.map((r) => ({
          type: 'tableRow' as const,
          children: columns.map((c) => cell(valueOf(r.values?.[c]))),
        })),
      ],
    };
    if (data.view?.type !== 'cards') return table;
    const hast = toHast(table);
    return html(toHtml(hast).replace(/^<table>/, '<table data-view="cards">'));
  }

  /** Phrasing content of inline nodes. */
  inlines(nodes: DocNode[], path: string): PhrasingContent[] {
    const out: PhrasingContent[] = [];
    let run: DocLeaf[] = [];
    const flush = () => {
      if (run.length) out.push(...leavesToPhrasing(run));
      run = [];
    };
    nodes.forEach((node, i) => {
      const at = `${path}[${i}]`;
      if (node && node.object === 'text') {
        run.push(...(Array.isArray(node.leaves) ? node.leaves : []));
        return;
      }
      flush();
      if (!isElement(node) || node.object !== 'inline')
        throw new DocumentError(at, 'text or an inline was expected here');
      const data = (node.data ?? {}) as Record<string, unknown>;
      switch (node.type) {
        case 'link':
          out.push({
            type: 'link',
            url: this.url(data.ref, `${at}.data.ref`),
            children: this.inlines(node.nodes ?? [], `${at}.nodes`),
          });
          return;
        case 'inline-image':
          out.push({
            type: 'image',
            url: this.url(data.ref, `${at}.data.ref`),
            alt: typeof data.alt === 'string' ? data.alt : '',
          });
          return;
        case 'emoji': {
          const code = typeof data.code === 'string' ? data.code : '';
          const points = code.split('-').map((p) => parseInt(p, 16));
          out.push({
            type: 'text',
            value: points.every((p) => Number.isInteger(p) && p > 0 && p <= 0x10ffff)
              ? String.fromCodePoint(...points)
              : '',
          });
          return;
        }
        case 'inline-math':
          out.push(html(`$$${typeof data.formula === 'string' ? data.formula : ''}$$`));
          return;
        case 'mention':
        case 'button': {
          const url = this.url(data.ref, `${at}.data.ref`);
          const label = typeof data.label === 'string' ? data.label : url;
          out.push({ type: 'link', url, children: [{ type: 'text', value: label }] });
          return;
        }
        case 'annotation':
          out.push(...this.inlines(node.nodes ?? [], `${at}.nodes`));
          return;
        case 'expression':
          out.push({ type: 'text', value: `{{ ${typeof data.expression === 'string' ? data.expression : ''} }}` });
          return;
        case 'icon':
          return;
        default:
          throw new DocumentError(at, `inlines of type "${String(node.type)}" are not supported`);
      }
    });
    flush();
    return out;
  }

  /** The text of inline nodes, marks left out (code lines, captions). */
  plain(nodes: DocNode[]): string {
    return nodes
      .map((n) =>
        n.object === 'text'
          ? (n.leaves ?? []).map((l) => l.text).join('')
          : isElement(n)
            ? this.plain(n.nodes ?? [])
            : '',
      )
      .join('');
  }

  /** Inline nodes as HTML (a `<summary>`, where markdown is not read). */
  private inlineHtml(nodes: DocNode[]): string {
    const first = nodes.find((n): n is DocElement => isElement(n) && n.type === 'paragraph');
    const paragraph: Paragraph = { type: 'paragraph', children: this.inlines(first?.nodes ?? [], 'fragments') };
    return toHtml(toHast(paragraph, { allowDangerousHtml: true }), { allowDangerousHtml: true }).replace(
      /^<p>|<\/p>$/g,
      '',
    );
  }
}

const HTML_MARKS: Record<string, string> = { superscript: 'sup', subscript: 'sub', keyboard: 'kbd' };

function hasMark(leaf: DocLeaf, type: string) {
  return Array.isArray(leaf.marks) && leaf.marks.some((m) => m.type === type);
}

/** Text leaves as phrasing: runs of leaves sharing a mark are wrapped once (no `**a****b**`). */
function leavesToPhrasing(leaves: DocLeaf[], order = MARK_ORDER): PhrasingContent[] {
  const [mark, ...rest] = order;
  if (!mark) {
    const out: PhrasingContent[] = [];
    for (const leaf of leaves) {
      String(leaf.text ?? '')
        .split('\n')
        .forEach((part, i) => {
          if (i) out.push({ type: 'break' });
          if (part) out.push({ type: 'text', value: part });
        });
    }
    return out;
  }
  const out: PhrasingContent[] = [];
  let i = 0;
  while (i < leaves.length) {
    const marked = hasMark(leaves[i]!, mark);
    let j = i;
    while (j < leaves.length && hasMark(leaves[j]!, mark) === marked) j++;
    const group = leaves.slice(i, j);
    i = j;
    if (!marked) {
      out.push(...leavesToPhrasing(group, rest));
      continue;
    }
    if (mark === 'code') {
      out.push({ type: 'inlineCode', value: group.map((l) => l.text).join('') });
      continue;
    }
    const inner = leavesToPhrasing(group, rest);
    if (mark === 'bold' || mark === 'italic' || mark === 'strikethrough') {
      // Spaces at the edges of emphasis go outside it (`**See** x`, not `**See&#x20;**x`), as a reader sees them.
      const first = inner[0];
      const lead = first?.type === 'text' ? /^\s+/.exec(first.value)?.[0] : undefined;
      if (lead && first?.type === 'text') first.value = first.value.slice(lead.length);
      const last = inner[inner.length - 1];
      const trail = last?.type === 'text' ? /\s+$/.exec(last.value)?.[0] : undefined;
      if (trail && last?.type === 'text') last.value = last.value.slice(0, -trail.length);
      const type = mark === 'bold' ? 'strong' : mark === 'italic' ? 'emphasis' : 'delete';
      if (lead) out.push({ type: 'text', value: lead });
      if (inner.some((n) => n.type !== 'text' || n.value !== '')) out.push({ type, children: inner });
      if (trail) out.push({ type: 'text', value: trail });
    } else if (mark === 'color') {
      const data = (group[0]!.marks.find((m) => m.type === 'color')?.data ?? {}) as {
        text?: string;
        background?: string;
      };
      const style = [
        data.text && data.text !== 'default' ? `color:${data.text.replace(/[^a-z$]/g, '')};` : '',
        data.background && data.background !== 'default'
          ? `background-color:${data.background.replace(/[^a-z$]/g, '')};`
          : '',
      ].join('');
      out.push(html(`<mark style="${style}">`), ...inner, html('</mark>'));
    } else {
      const tag = HTML_MARKS[mark]!;
      out.push(html(`<${tag}>`), ...inner, html(`</${tag}>`));
    }
  }
  return out;
}
