import { Node, type JSONContent, type MarkdownToken } from '@tiptap/core';
import { integrationTag, integrationTagAt, parseGitbookTag } from '../gitbook-blocks.js';

/**
 * GitBook's blocks as blocks of the visual editor, read from and written to the markdown GitBook writes (and the
 * document model reads, shared/gitbook-blocks.ts): hints, tabs, steppers and expandables hold blocks edited in
 * place. A block written differently, or holding what these do not (a tab outside tabs), stays a block of source.
 */

/** A GitBook block at the start of `src`: its name, where its first line ends, where its end tag starts and ends. */
export function gitbookBlockAt(
  src: string,
): { name: string; attributes: Record<string, string>; bodyStart: number; bodyEnd?: number; end: number } | undefined {
  const open = /^\{%\s*([a-z][\w-]*)[^\n]*?%\}/.exec(src);
  if (!open) return undefined;
  const name = open[1]!;
  const tag = parseGitbookTag(open[0]);
  const attributes = tag?.attributes ?? {};
  const tags = new RegExp(`\\{%\\s*(end)?${name.replace(/-/g, '\\-')}(?![\\w-])[^%]*%\\}`, 'g');
  tags.lastIndex = open[0].length;
  let depth = 1;
  for (let m = tags.exec(src); m; m = tags.exec(src)) {
    depth += m[1] ? -1 : 1;
    if (depth === 0) {
      const after = m.index + m[0].length;
      const lineEnd = src.indexOf('\n', after);
      return {
        name,
        attributes,
        bodyStart: open[0].length,
        bodyEnd: m.index,
        end: lineEnd < 0 ? src.length : lineEnd + 1,
      };
    }
  }
  // No end tag: a single tag (`{% include %}`, `{% embed %}`), its line.
  const lineEnd = src.indexOf('\n');
  return { name, attributes, bodyStart: open[0].length, end: lineEnd < 0 ? src.length : lineEnd + 1 };
}

export const HINT_STYLES = ['info', 'success', 'warning', 'danger'] as const;
export type HintStyle = (typeof HINT_STYLES)[number];

/** What each block the editor shows holds: its attributes, and the one kind of block it holds, if only one. */
const CONTAINERS: Record<string, { attributes: string[]; only?: string }> = {
  hint: { attributes: ['style'] },
  tabs: { attributes: [], only: 'tab' },
  tab: { attributes: ['title'] },
  stepper: { attributes: [], only: 'step' },
  step: { attributes: [] },
  columns: { attributes: [], only: 'column' },
  column: { attributes: ['width'] },
  updates: { attributes: ['format'], only: 'update' },
  update: { attributes: ['date', 'tags'] },
};

/** The blocks that are items of another (a tab of tabs…), by the block they sit in, which holds one or more. */
export const ITEMS: Record<string, string> = Object.fromEntries(
  Object.entries(CONTAINERS).flatMap(([list, spec]) => (spec.only ? [[spec.only, list]] : [])),
);

/**
 * The token of a block the editor shows as what it is, at the start of `src`; undefined when there is none or it is
 * written in a way the editor would not write back the same (then it stays a block of source).
 */
export function containerToken(
  src: string,
  lexer: { blockTokens: (src: string) => MarkdownToken[] },
): MarkdownToken | undefined {
  const block = gitbookBlockAt(src);
  const spec = block && CONTAINERS[block.name];
  if (!block || !spec || block.bodyEnd === undefined) return undefined;
  // Each tag on a line of its own.
  if (src[block.bodyStart] !== '\n' || src[block.bodyEnd - 1] !== '\n') return undefined;
  if (!Object.keys(block.attributes).every((a) => spec.attributes.includes(a))) return undefined;
  if (block.name === 'hint' && !HINT_STYLES.includes((block.attributes.style ?? 'info') as HintStyle)) return undefined;
  const body = src.slice(block.bodyStart + 1, block.bodyEnd - 1);
  const tokens = lexer.blockTokens(body);
  const meaningful = tokens.filter((t) => t.type !== 'space');
  // Tabs and steppers hold at least one; a hint, tab or step may be empty (a paragraph to write in).
  if (meaningful.length === 0 && spec.only !== undefined) return undefined;
  if (spec.only !== undefined && !meaningful.every((t) => t.type === spec.only)) return undefined;
  return { type: block.name, raw: src.slice(0, block.end), attrs: block.attributes, tokens };
}

/** An attribute's value as a GitBook tag writes it: in double quotes, its own quotes escaped. */
export const quote = (value: string) => `"${value.replace(/"/g, '&quot;')}"`;

/** A block `name` holding blocks: `{% name attr="…" %}`, its content, `{% endname %}`, each on a line of its own. */
function gitbookContainer(name: string) {
  const tag = name;
  const { attributes, only } = CONTAINERS[name]!;
  return Node.create({
    name,
    // Tabs, steps, columns and updates only inside tabs, steppers, columns and updates.
    ...(name in ITEMS ? {} : { group: 'block' }),
    // Tabs hold tabs, steppers steps…; the others any blocks.
    content: only ? `${only}+` : 'block+',
    defining: true,
    addAttributes: () =>
      Object.fromEntries(
        attributes.map((attr) => [
          attr,
          {
            default: attr === 'style' ? 'info' : '',
            parseHTML: (el: HTMLElement) => el.getAttribute(`data-${attr}`) ?? '',
            renderHTML: (attrs: Record<string, string>) => ({ [`data-${attr}`]: attrs[attr] }),
          },
        ]),
      ),
    parseHTML: () => [{ tag: `div[data-gitbook="${name}"]` }],
    renderHTML: ({ HTMLAttributes }) => [
      'div',
      { ...HTMLAttributes, 'data-gitbook': name, class: `editor-${name}` },
      0,
    ],
    markdownTokenName: name,
    markdownTokenizer: {
      name,
      level: 'block',
      start: (src: string) => {
        const at = src.search(new RegExp(`\\{%\\s*${tag}(?![\\w-])`));
        return at;
      },
      tokenize(src: string, _tokens: MarkdownToken[], lexer) {
        const token = containerToken(src, lexer);
        return token?.type === name ? token : undefined;
      },
    },
    parseMarkdown: (token, helpers) => {
      const attrs = Object.fromEntries(attributes.map((a) => [a, (token.attrs as Record<string, string>)[a] ?? '']));
      if (name === 'hint') attrs.style ||= 'info';
      const content = helpers.parseChildren(token.tokens ?? []);
      return { type: name, attrs, content: content.length ? content : [{ type: 'paragraph' }] };
    },
    renderMarkdown: (node: JSONContent, helpers) => {
      const attrs = attributes
        // A tab's title and an update's date are written even when empty, as GitBook writes them.
        .filter((a) => (node.attrs?.[a] ?? '') !== '' || a === 'title' || a === 'date')
        .map((a) => ` ${a}=${quote(String(node.attrs?.[a] ?? ''))}`)
        .join('');
      const body = helpers.renderChildren(node.content ?? [], '\n\n');
      return `{% ${tag}${attrs} %}\n${body.replace(/\n+$/, '')}\n{% end${tag} %}`;
    },
  });
}

/**
 * An expandable block as GitBook writes one: `<details>`, a blank line, `<summary>Title</summary>`, a blank line,
 * its blocks, a blank line, `</details>` (each on a line of its own). The title is plain text; one with markup, or
 * an expandable written otherwise, stays a block of source.
 */
export function expandableToken(
  src: string,
  lexer: { blockTokens: (src: string) => MarkdownToken[] },
): MarkdownToken | undefined {
  const open = /^<details>\n\n<summary>([^<>\n]*)<\/summary>\n\n/.exec(src);
  if (!open) return undefined;
  // The matching end, nested expandables counted.
  const tags = /^<(\/?)details>[ \t]*$/gm;
  tags.lastIndex = '<details>'.length;
  let depth = 1;
  for (let m = tags.exec(src); m; m = tags.exec(src)) {
    depth += m[1] ? -1 : 1;
    if (depth > 0) continue;
    if (src.slice(m.index - 2, m.index) !== '\n\n') return undefined;
    const body = src.slice(open[0].length, m.index - 2);
    const tokens = lexer.blockTokens(body);
    if (!tokens.some((t) => t.type !== 'space')) return undefined;
    const lineEnd = src.indexOf('\n', m.index);
    const end = lineEnd < 0 ? src.length : lineEnd + 1;
    return { type: 'expandable', raw: src.slice(0, end), attrs: { title: decodeTitle(open[1]!) }, tokens };
  }
  return undefined;
}

const ENTITIES: Record<string, string> = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"' };
const decodeTitle = (title: string) => title.replace(/&(amp|lt|gt|quot);/g, (e) => ENTITIES[e]!);
const encodeTitle = (title: string) =>
  title.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);

export const Expandable = Node.create({
  name: 'expandable',
  group: 'block',
  content: 'block+',
  defining: true,
  addAttributes: () => ({
    title: {
      default: '',
      parseHTML: (el: HTMLElement) => el.getAttribute('data-title') ?? '',
      renderHTML: (attrs: Record<string, string>) => ({ 'data-title': attrs.title }),
    },
  }),
  parseHTML: () => [{ tag: 'div[data-gitbook="expandable"]' }],
  renderHTML: ({ HTMLAttributes }) => [
    'div',
    { ...HTMLAttributes, 'data-gitbook': 'expandable', class: 'editor-expandable' },
    0,
  ],
  markdownTokenName: 'expandable',
  markdownTokenizer: {
    name: 'expandable',
    level: 'block',
    start: (src: string) => src.indexOf('<details>'),
    tokenize: (src: string, _tokens: MarkdownToken[], lexer) => expandableToken(src, lexer),
  },
  parseMarkdown: (token, helpers) => {
    const content = helpers.parseChildren(token.tokens ?? []);
    return {
      type: 'expandable',
      attrs: { title: (token.attrs as { title?: string }).title ?? '' },
      content: content.length ? content : [{ type: 'paragraph' }],
    };
  },
  renderMarkdown: (node: JSONContent, helpers) => {
    const title = encodeTitle(String(node.attrs?.title ?? '').replace(/\n/g, ' '));
    const body = helpers.renderChildren(node.content ?? [], '\n\n').replace(/\n+$/, '');
    return `<details>\n\n<summary>${title}</summary>\n\n${body}\n\n</details>`;
  },
});

const FIGURE =
  /^<figure><img src="([^"<>]*)" alt="([^"<>]*)"(?: width="([^"<>]*)")?(?: height="([^"<>]*)")?>(?:<figcaption><p>([^<>\n]*)<\/p><\/figcaption>)?<\/figure>[ \t]*(?:\n|$)/;

/**
 * An image with its caption as GitBook writes one, on a line of its own:
 * `<figure><img src="…" alt="…" width="…"><figcaption><p>Caption</p></figcaption></figure>` (width, height and the
 * caption optional). One written otherwise (a dark-mode `<picture>`, markup in the caption) stays a block of source.
 */
export function figureToken(src: string): MarkdownToken | undefined {
  const m = FIGURE.exec(src);
  if (!m) return undefined;
  const [raw, image, alt, width, height, caption] = m;
  return {
    type: 'figure',
    raw: raw!,
    text: '',
    attrs: {
      src: decodeTitle(image!),
      alt: decodeTitle(alt!),
      width: width ? decodeTitle(width) : '',
      height: height ? decodeTitle(height) : '',
      caption: caption ? decodeTitle(caption) : '',
    },
  };
}

const FIGURE_FIELDS = ['src', 'alt', 'width', 'height', 'caption'] as const;

/** A block of no blocks whose attributes are `fields` (text, empty by default), chosen and moved as one. */
function blockOfFields(fields: readonly string[]) {
  return {
    group: 'block',
    atom: true,
    selectable: true,
    draggable: true,
    addAttributes: () =>
      Object.fromEntries(
        fields.map((field) => [
          field,
          {
            default: '',
            parseHTML: (el: HTMLElement) => el.getAttribute(`data-${field}`) ?? '',
            renderHTML: (attrs: Record<string, string>) => ({ [`data-${field}`]: attrs[field] }),
          },
        ]),
      ),
  };
}

/**
 * An image with a caption (figureToken). How it shows is the console's (a view, with its caption typed in place);
 * `imageSrc` says where its image is shown from, as for images (markdown-blocks.ts).
 */
export function figureNode(imageSrc: (src: string) => string) {
  return Node.create({
    name: 'figure',
    ...blockOfFields(FIGURE_FIELDS),
    parseHTML: () => [{ tag: 'figure[data-gitbook="figure"]' }],
    renderHTML: ({ node, HTMLAttributes }) => {
      const attrs = node.attrs as Record<string, string>;
      return [
        'figure',
        { ...HTMLAttributes, 'data-gitbook': 'figure', class: 'editor-figure' },
        ['img', { src: imageSrc(attrs.src ?? ''), alt: attrs.alt ?? '', 'data-file': attrs.src ?? '' }],
        ['figcaption', {}, attrs.caption ?? ''],
      ];
    },
    markdownTokenName: 'figure',
    markdownTokenizer: {
      name: 'figure',
      level: 'block',
      start: (src: string) => src.indexOf('<figure>'),
      tokenize: (src: string) => figureToken(src),
    },
    parseMarkdown: (token) => ({ type: 'figure', attrs: { ...(token.attrs as Record<string, string>) } }),
    renderMarkdown: (node: JSONContent) => {
      const a = Object.fromEntries(FIGURE_FIELDS.map((f) => [f, String(node.attrs?.[f] ?? '')]));
      const size = `${a.width ? ` width="${encodeTitle(a.width)}"` : ''}${a.height ? ` height="${encodeTitle(a.height)}"` : ''}`;
      const caption = a.caption ? `<figcaption><p>${encodeTitle(a.caption.replace(/\n/g, ' '))}</p></figcaption>` : '';
      return `<figure><img src="${encodeTitle(a.src!)}" alt="${encodeTitle(a.alt!)}"${size}>${caption}</figure>`;
    },
  });
}

type Block = NonNullable<ReturnType<typeof gitbookBlockAt>>;

/** GitBook blocks that hold no blocks: their fields, read from and written to the markdown GitBook writes. */
interface AtomSpec {
  name: string;
  /** Its fields (attributes of the node), in the order they are shown. */
  fields: readonly string[];
  /** The fields of `block` (at the start of `src`), or undefined when it is written otherwise (a block of source). */
  read: (block: Block, src: string) => Record<string, string> | undefined;
  write: (fields: Record<string, string>) => string;
}

/** Only the attributes named. */
const only = (block: Block, ...names: string[]) => Object.keys(block.attributes).every((a) => names.includes(a));

/**
 * The text between a block's tags, when it is one line of plain text (an embed's or file's caption) or nothing:
 * `{% tag %}` alone, `{% tag %}\n{% endtag %}`, `{% tag %}\ncaption\n{% endtag %}` (blank lines around it too).
 */
function caption(block: Block, src: string): string | undefined {
  if (block.bodyEnd === undefined) return '';
  const body = src.slice(block.bodyStart, block.bodyEnd);
  if (!/^\n/.test(body) || !/\n$/.test(body)) return undefined;
  const text = body.trim();
  // One line of text: nothing a reader would see as markup of its own (a block, a tag).
  return text.includes('\n') || /^(#|>|[-*+] |\d+\.|`{3}|~{3}|\{%|<)/.test(text) ? undefined : text;
}

/** A link's text, written so it reads back as itself. */
const linkText = (text: string) => text.replace(/[\\[\]]/g, (c) => `\\${c}`).replace(/\n/g, ' ');

const ATOMS: AtomSpec[] = [
  {
    name: 'embed',
    fields: ['url', 'caption'],
    read: (block, src) => {
      const text = only(block, 'url') ? caption(block, src) : undefined;
      return text === undefined ? undefined : { url: block.attributes.url ?? '', caption: text };
    },
    write: ({ url = '', caption = '' }) =>
      caption ? `{% embed url=${quote(url)} %}\n${caption}\n{% endembed %}` : `{% embed url=${quote(url)} %}`,
  },
  {
    name: 'file',
    fields: ['src', 'caption'],
    read: (block, src) => {
      const text = only(block, 'src') ? caption(block, src) : undefined;
      return text === undefined ? undefined : { src: block.attributes.src ?? '', caption: text };
    },
    write: ({ src = '', caption = '' }) =>
      caption
        ? `{% file src=${quote(src)} %}\n${caption}\n{% endfile %}`
        : `{% file src=${quote(src)} %}\n{% endfile %}`,
  },
  {
    name: 'content-ref',
    fields: ['url', 'title'],
    read: (block, src) => {
      if (!only(block, 'url') || block.bodyEnd === undefined) return undefined;
      // `[title](url)` alone, linking where the block does.
      const link = /^\n+\[((?:[^\\[\]\n]|\\.)*)\]\(([^()\s]*)\)\n+$/.exec(src.slice(block.bodyStart, block.bodyEnd));
      const url = block.attributes.url ?? '';
      if (!link || link[2] !== url) return undefined;
      return { url, title: link[1]!.replace(/\\(.)/g, '$1') };
    },
    write: ({ url = '', title = '' }) =>
      `{% content-ref url=${quote(url)} %}\n[${linkText(title || url)}](${url.replace(/[\s()]/g, encodeURIComponent)})\n{% endcontent-ref %}`,
  },
  {
    // `{% openapi-operation spec="…" path="…" method="…" %}`, the link to the spec GitBook writes under it (kept,
    // not shown), `{% endopenapi-operation %}`.
    name: 'openapi-operation',
    fields: ['spec', 'path', 'method', 'link'],
    read: (block, src) => {
      if (!only(block, 'spec', 'path', 'method') || block.bodyEnd === undefined) return undefined;
      const body = /^\n+(\[[^\n]*\]\([^\n]*\))?\n*$/.exec(src.slice(block.bodyStart, block.bodyEnd));
      if (!body) return undefined;
      const { spec = '', path = '', method = '' } = block.attributes;
      return { spec, path, method, link: body[1] ?? '' };
    },
    write: ({ spec = '', path = '', method = '', link = '' }) =>
      `{% openapi-operation spec=${quote(spec)} path=${quote(path)} method=${quote(method)} %}\n${link ? `${link}\n` : ''}{% endopenapi-operation %}`,
  },
  {
    name: 'include',
    fields: ['path'],
    read: (block, src) => {
      const tag = parseGitbookTag(src.slice(0, block.bodyStart));
      if (block.bodyEnd !== undefined || !tag?.value || Object.keys(tag.attributes).length) return undefined;
      return { path: tag.value };
    },
    write: ({ path = '' }) => `{% include "${path.replace(/"/g, '')}" %}`,
  },
];

/** The GitBook block of no blocks at the start of `src`, as a token, if the editor shows it as one. */
export function atomToken(src: string): MarkdownToken | undefined {
  const block = gitbookBlockAt(src);
  const spec = block && ATOMS.find((a) => a.name === block.name);
  const fields = spec && block ? spec.read(block, src) : undefined;
  if (!block || !fields) return undefined;
  return { type: block.name, raw: src.slice(0, block.end), text: '', attrs: fields };
}

function gitbookAtom(spec: AtomSpec) {
  const { name, fields } = spec;
  return Node.create({
    name,
    ...blockOfFields(fields),
    parseHTML: () => [{ tag: `div[data-gitbook="${name}"]` }],
    renderHTML: ({ HTMLAttributes }) => [
      'div',
      { ...HTMLAttributes, 'data-gitbook': name, class: `editor-atom editor-${name}` },
    ],
    markdownTokenName: name,
    markdownTokenizer: {
      name,
      level: 'block',
      start: (src: string) => src.search(new RegExp(`\\{%\\s*${name}(?![\\w-])`)),
      tokenize(src: string) {
        const token = atomToken(src);
        return token?.type === name ? token : undefined;
      },
    },
    parseMarkdown: (token) => ({
      type: name,
      attrs: Object.fromEntries(fields.map((f) => [f, String((token.attrs as Record<string, string>)[f] ?? '')])),
    }),
    renderMarkdown: (node: JSONContent) =>
      spec.write(Object.fromEntries(fields.map((f) => [f, String(node.attrs?.[f] ?? '')]))),
  });
}

/**
 * An integration's block (`{% @name/block props %}`, shared/gitbook-blocks.ts): its integration, block and props
 * (JSON), shown rendered by its integration (the console's view). Written back as it was read until its props
 * change, then on one line as GitBook's CLI writes it.
 */
export const IntegrationBlockNode = Node.create({
  name: 'integration',
  // `unfurl`: the link it was made from (pasted), until its integration gives it its props (written meanwhile as
  // an embed of the link, so the link is never lost).
  ...blockOfFields(['integration', 'block', 'props', 'unfurl']),
  parseHTML: () => [{ tag: 'div[data-gitbook="integration"]' }],
  renderHTML: ({ HTMLAttributes }) => [
    'div',
    { ...HTMLAttributes, 'data-gitbook': 'integration', class: 'editor-atom editor-integration' },
  ],
  markdownTokenName: 'integration',
  markdownTokenizer: {
    name: 'integration',
    level: 'block',
    start: (src: string) => src.search(/\{%-?\s*@/),
    tokenize(src: string) {
      const found = integrationTagAt(src);
      if (!found?.tag.integration) return undefined;
      const lineEnd = src.indexOf('\n', found.length);
      const { integration, block, props } = found.tag.integration;
      return {
        type: 'integration',
        raw: src.slice(0, lineEnd < 0 ? src.length : lineEnd + 1),
        text: '',
        attrs: { integration, block, props: JSON.stringify(props) },
      };
    },
  },
  parseMarkdown: (token) => {
    const attrs = token.attrs as Record<string, string>;
    return { type: 'integration', attrs: { integration: attrs.integration, block: attrs.block, props: attrs.props } };
  },
  renderMarkdown: (node: JSONContent) => {
    let props: unknown;
    try {
      props = JSON.parse(String(node.attrs?.props ?? '{}'));
    } catch {
      props = {};
    }
    const unfurl = String(node.attrs?.unfurl ?? '');
    if (unfurl && (!props || typeof props !== 'object' || !Object.keys(props).length)) {
      return `{% embed url=${quote(unfurl)} %}`;
    }
    return integrationTag({
      integration: String(node.attrs?.integration ?? ''),
      block: String(node.attrs?.block ?? ''),
      props: props && typeof props === 'object' && !Array.isArray(props) ? (props as Record<string, unknown>) : {},
    });
  },
});

/** The fields of each GitBook block of no blocks the editor shows (embed, file, content-ref, OpenAPI operation, include). */
export const ATOM_FIELDS: Record<string, readonly string[]> = Object.fromEntries(ATOMS.map((a) => [a.name, a.fields]));

/**
 * GitBook's blocks in the editor: those holding blocks (hints, tabs, steppers, columns, updates and their items),
 * expandables, and those of fields.
 */
export const gitbookNodes = [
  ...Object.keys(CONTAINERS).map(gitbookContainer),
  Expandable,
  ...ATOMS.map(gitbookAtom),
  IntegrationBlockNode,
];
