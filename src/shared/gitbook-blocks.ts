import type { Properties } from 'hast';
import type { Nodes, Paragraph, Parent, Root, RootContent } from 'mdast';

/**
 * GitBook's blocks in markdown (as its exports and Git Sync write them: `{% tabs %}`, `{% hint style="info" %}`, …),
 * read into the parsed document itself, so that the published page and the console, which both turn that document
 * into HTML (mdast-util-to-hast), show them alike. Each block becomes an element with the classes the site's and
 * the console's styles know (`gb-…`, and `callout` for hints, as GitHub alerts are shown); what is inside a block is
 * markdown like any other, blocks included.
 *
 * A tag counts on a line of its own (`spaceGitbookTags` puts it in a paragraph of its own), never inside code: a
 * `{% hint %}` in a fenced block is code, shown as written. A block this product does not know is kept and shown as
 * a labelled fallback with its tag, never dropped; an end tag with no block open stays as text. OpenAPI blocks
 * (`{% openapi-operation %}`) are taken out before (shared/openapi-blocks.ts) and left alone here.
 */

/** `{% name attr="value" … %}` or `{% endname %}` (GitBook also writes `{% include "path" %}`). */
const TAG =
  /^\{%-?\s*(end)?([a-z][a-z0-9-]*)((?:\s+(?:[A-Za-z][\w-]*\s*=\s*)?(?:"[^"]*"|'[^']*'|[^\s"'%]+))*)\s*-?%\}$/;
const ATTRIBUTE = /([A-Za-z][\w-]*)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'%]+))|"([^"]*)"|'([^']*)'/g;

/** Blocks that hold markdown up to their end tag. */
const CONTAINERS = new Set([
  'hint',
  'tabs',
  'tab',
  'code',
  'stepper',
  'step',
  'columns',
  'column',
  'content-ref',
  'file',
  'updates',
  'update',
]);
/** Blocks of one tag. */
const SINGLE = new Set(['embed', 'include']);
/** Left to their own reader. */
const LEFT_ALONE = new Set(['openapi-operation', 'openapi', 'swagger']);

export interface GitbookTag {
  end: boolean;
  name: string;
  attributes: Record<string, string>;
  /** A value written without a name (`{% include "path" %}`). */
  value?: string;
  /** An integration's block (`{% @mermaid/diagram content="…" %}`): name `@mermaid/diagram`, its props typed. */
  integration?: IntegrationBlockRef;
  source: string;
}

/** An integration's block as the document names it (`DocumentBlockIntegration.data`). */
export interface IntegrationBlockRef {
  integration: string;
  block: string;
  props: Record<string, unknown>;
}

export function parseGitbookTag(line: string): GitbookTag | undefined {
  const source = line.trim();
  if (/^\{%-?\s*@/.test(source)) return parseIntegrationTag(source);
  const found = TAG.exec(source);
  if (!found) return undefined;
  const attributes: Record<string, string> = {};
  let value: string | undefined;
  for (const m of found[3]!.matchAll(ATTRIBUTE)) {
    if (m[1]) attributes[m[1]] = m[2] ?? m[3] ?? m[4] ?? '';
    else value ??= m[5] ?? m[6];
  }
  return { end: found[1] === 'end', name: found[2]!, attributes, ...(value !== undefined ? { value } : {}), source };
}

/** Longest an integration tag may be, lines and characters (a diagram's source is its prop). */
const INTEGRATION_TAG_LINES_MAX = 2000;
const INTEGRATION_TAG_CHARS_MAX = 256 * 1024;

/**
 * `{% @integration/block prop="text" count=3 flag=true data={"a":1} %}`: an integration's block, as GitBook writes
 * it. A string is in double quotes with JSON's escapes (`\"`, `\\`, `\n`: the single-line form GitBook's CLI
 * writes), or as GitBook's export writes it: over lines, its quotes unescaped (a quote closes the value when another
 * prop or the tag's end follows it); in single quotes as written; any other value is JSON (a number, `true`, an
 * object…), or a word read as text. GitBook writes other values quoted (`visible="false"`): they are read as text.
 */
export function parseIntegrationTag(text: string): GitbookTag | undefined {
  const source = text.trim();
  const head = /^\{%-?\s*@([a-z0-9][a-z0-9_.-]*)\/([A-Za-z0-9][\w.-]*)/.exec(source);
  if (!head) return undefined;
  const props: Record<string, unknown> = {};
  let at = head[0].length;
  for (;;) {
    const space = /^\s*/.exec(source.slice(at))![0].length;
    at += space;
    if (/^-?%\}$/.test(source.slice(at))) break;
    if (!space) return undefined;
    const key = /^([A-Za-z_$][\w$-]*)\s*=\s*/.exec(source.slice(at));
    if (!key) return undefined;
    at += key[0].length;
    const value = readValue(source, at);
    if (!value) return undefined;
    if (key[1] !== '__proto__') props[key[1]!] = value.value;
    at = value.end;
  }
  return {
    end: false,
    name: `@${head[1]}/${head[2]}`,
    attributes: {},
    integration: { integration: head[1]!, block: head[2]!, props },
    source,
  };
}

/** The value of a prop starting at `at` (see parseIntegrationTag), and where it ends. */
function readValue(source: string, at: number): { value: unknown; end: number } | undefined {
  const first = source[at];
  if (first === '"') {
    // Its closing quote is one that another prop or the tag's end follows: GitBook writes the quotes inside a
    // diagram's source as they are (`A["HR"] --> B`).
    let i = at + 1;
    for (;;) {
      while (i < source.length && source[i] !== '"') i += source[i] === '\\' ? 2 : 1;
      if (i >= source.length) return undefined;
      if (/^(?:\s+[A-Za-z_$][\w$-]*\s*=|\s*-?%\}$)/.test(source.slice(i + 1))) break;
      i++;
    }
    return { value: unescapeValue(source.slice(at + 1, i)), end: i + 1 };
  }
  if (first === "'") {
    const close = source.indexOf("'", at + 1);
    return close < 0 ? undefined : { value: source.slice(at + 1, close), end: close + 1 };
  }
  if (first === '{' || first === '[') {
    let depth = 0;
    for (let i = at; i < source.length; i++) {
      const c = source[i];
      if (c === '"') {
        i++;
        while (i < source.length && source[i] !== '"') i += source[i] === '\\' ? 2 : 1;
      } else if (c === '{' || c === '[') depth++;
      else if (c === '}' || c === ']') {
        if (--depth === 0) {
          try {
            return { value: JSON.parse(source.slice(at, i + 1)) as unknown, end: i + 1 };
          } catch {
            return undefined;
          }
        }
      }
    }
    return undefined;
  }
  const word = /^[^\s"'%]+/.exec(source.slice(at));
  if (!word) return undefined;
  let value: unknown = word[0];
  if (/^(?:true|false|null|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)$/.test(word[0])) value = JSON.parse(word[0]);
  return { value, end: at + word[0].length };
}

/**
 * A double-quoted value's text: JSON's escapes read (`\"`, `\\`, `\n`, `\u00e9`), any other backslash, quote,
 * line break or tab as written.
 */
function unescapeValue(raw: string): string {
  let json = '';
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i]!;
    if (c === '\\') {
      const next = raw[i + 1] ?? '';
      const unicode = next === 'u' && /^[0-9a-fA-F]{4}$/.test(raw.slice(i + 2, i + 6));
      if (unicode || ('"\\/bfnrt'.includes(next) && next !== '')) {
        json += c + next;
        i++;
      } else json += '\\\\';
    } else if (c === '"') json += '\\"';
    else if (c < ' ') json += `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;
    else json += c;
  }
  return JSON.parse(`"${json}"`) as string;
}

/** An integration's block written as GitBook writes it (parseIntegrationTag reads it back): on one line. */
export function integrationTag(ref: IntegrationBlockRef): string {
  const props = Object.entries(ref.props)
    .filter(([key, value]) => value !== undefined && /^[A-Za-z_$][\w$-]*$/.test(key))
    .map(([key, value]) => ` ${key}=${JSON.stringify(value)}`)
    .join('');
  return `{% @${ref.integration}/${ref.block}${props} %}`;
}

/**
 * The key of an integration block among a page's: what its element says (`data-integration-block`, then
 * `data-integration-props`), for its render to be found by.
 */
export const integrationBlockKey = (ref: IntegrationBlockRef) =>
  `${ref.integration}/${ref.block}\n${JSON.stringify(ref.props)}`;

/**
 * Whether `url` is one an integration's block unfurls (`urlUnfurl` of its manifest, as GitBook reads them: `*` any
 * characters but `/`, `**` any at all, the rest as written; GitHub files' is `https://github.com/` then two `*`
 * segments, then `/blob/` and `**`).
 */
export function unfurls(pattern: string, url: string): boolean {
  if (pattern.length > 500 || url.length > 2000) return false;
  const source = pattern
    .split(/(\*\*|\*)/)
    .map((part) => (part === '**' ? '.*' : part === '*' ? '[^/]*' : part.replace(/[.+?^${}()|[\]\\]/g, '\\$&')))
    .join('');
  return new RegExp(`^${source}$`).test(url);
}

/** The block a fenced code block of a language stands for (`blocks[].markdown` of an integration's manifest). */
export interface CodeblockBlock {
  integration: string;
  block: string;
  /** The prop the code is. */
  body: string;
}

/**
 * Which languages of fenced code blocks are integrations' blocks, from the integrations installed where the page is
 * (a block whose manifest says `markdown: {codeblock: mermaid, body: content}`: GitBook writes Mermaid's diagrams as
 * ```` ```mermaid ```` fences). The first integration (by name) to claim a language has it.
 */
export function codeblockBlocks(
  integrations: Array<{
    name: string;
    blocks?: Array<{ id: string; markdown?: { codeblock: string; body: string } | undefined }> | null | undefined;
  }>,
): Map<string, CodeblockBlock> {
  const found = new Map<string, CodeblockBlock>();
  for (const integration of [...integrations].sort((a, b) => a.name.localeCompare(b.name))) {
    for (const block of integration.blocks ?? []) {
      const spec = block.markdown;
      if (spec?.codeblock && spec.body && !found.has(spec.codeblock)) {
        found.set(spec.codeblock, { integration: integration.name, block: block.id, body: spec.body });
      }
    }
  }
  return found;
}

/**
 * The markdown with each fenced code block (at the start of its line, outside other code) whose language is an
 * integration's block (codeblockBlocks) written as that block, its code the block's body prop: how a page shows such
 * code where the integration is installed. Other code, and the markdown kept, are unchanged.
 */
export function fencesAsBlocks(markdown: string, blocks: Map<string, CodeblockBlock>): string {
  if (!blocks.size || !/^(`{3,}|~{3,})/m.test(markdown)) return markdown;
  const lines = markdown.split('\n');
  const out: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^(`{3,}|~{3,})\s*([^\s`]*)\s*$/.exec(lines[i]!);
    if (!open) {
      out.push(lines[i]!);
      continue;
    }
    const fence = open[1]!;
    let close = i + 1;
    while (
      close < lines.length &&
      !(lines[close]!.trim().startsWith(fence[0]!.repeat(fence.length)) && /^(`+|~+)\s*$/.test(lines[close]!.trim()))
    )
      close++;
    const found = blocks.get(open[2]!.toLowerCase());
    if (found && close < lines.length) {
      const code = lines.slice(i + 1, close).join('\n');
      out.push(integrationTag({ integration: found.integration, block: found.block, props: { [found.body]: code } }));
    } else out.push(...lines.slice(i, Math.min(close + 1, lines.length)));
    i = close;
  }
  return out.join('\n');
}

/** A block that links of some addresses become (`blocks[].urlUnfurl` of an integration's manifest). */
export interface UnfurlBlock {
  integration: string;
  block: string;
  patterns: string[];
}

/**
 * The prop an integration block shown for an embed carries its link in (never written to a page: fencesAsBlocks'
 * and embedsAsBlocks' output is only shown). The block is rendered with `@link.unfurl` of that link instead.
 */
export const UNFURL_PROP = '$unfurl';

/** The blocks installed integrations make of links (first integration by name first). */
export function unfurlBlocks(
  integrations: Array<{
    name: string;
    blocks?: Array<{ id: string; urlUnfurl?: string[] | undefined }> | null | undefined;
  }>,
): UnfurlBlock[] {
  return [...integrations]
    .sort((a, b) => a.name.localeCompare(b.name))
    .flatMap((i) =>
      (i.blocks ?? [])
        .filter((b) => b.urlUnfurl?.length)
        .map((b) => ({ integration: i.name, block: b.id, patterns: b.urlUnfurl! })),
    );
}

/**
 * The markdown with each `{% embed url="…" %}` (a tag alone, without a caption) whose link an installed block
 * unfurls shown as that block (as GitBook's site shows them): an integration tag whose UNFURL_PROP is the link.
 */
export function embedsAsBlocks(markdown: string, blocks: UnfurlBlock[]): string {
  if (!blocks.length || !/\{%-?\s*embed\b/.test(markdown)) return markdown;
  const tags: Array<{ at: number; tag: GitbookTag }> = [];
  forTagLines(markdown, (tag, at) => {
    if (tag.name === 'embed') tags.push({ at, tag });
  });
  const lines = markdown.split('\n');
  tags.forEach(({ at, tag }, i) => {
    const url = tag.attributes.url;
    // With a caption, its end tag is the next embed tag: left as an embed.
    if (tag.end || !url || Object.keys(tag.attributes).length > 1 || tags[i + 1]?.tag.end) return;
    const found = blocks.find((b) => b.patterns.some((p) => unfurls(p, url)));
    if (found) {
      lines[at] = integrationTag({ integration: found.integration, block: found.block, props: { [UNFURL_PROP]: url } });
    }
  });
  return lines.join('\n');
}

/** The integration blocks of `markdown` (outside code), in order. */
export function integrationBlocksIn(markdown: string): IntegrationBlockRef[] {
  const found: IntegrationBlockRef[] = [];
  if (markdown.includes('{% @') || markdown.includes('{%- @')) {
    forTagLines(markdown, (tag) => {
      if (tag.integration) found.push(tag.integration);
    });
  }
  return found;
}

const FENCE = /^( {0,3}(?:[-*+]\s+|\d+[.)]\s+|>\s?)*)\s*(`{3,}|~{3,})/;

/**
 * The markdown with each GitBook tag line outside code made a paragraph of its own (a blank line before and after),
 * as GitBook itself reads them: its exports write `{% hint %}` and the text under it with
 * no blank line between.
 */
export function spaceGitbookTags(markdown: string, origins?: number[]): string {
  if (!markdown.includes('{%')) return markdown;
  const out: string[] = [];
  // The line of `markdown` each line out comes from, when asked (`origins`).
  const push = origins
    ? (at: number, ...added: string[]) => {
        for (const line of added) {
          out.push(line);
          origins.push(at);
        }
      }
    : (_at: number, ...added: string[]) => void out.push(...added);
  forLines(markdown, (line, at, tag) => {
    if (!tag || LEFT_ALONE.has(tag.name)) return push(at, line);
    if (out.length && out[out.length - 1]!.trim() !== '') push(at, '');
    push(at, line, '');
  });
  return out.join('\n');
}

/**
 * The markdown with GitBook's blocks laid out as GitBook's Git Sync writes them: no blank line after a block's
 * opening tag nor before its end tag (`{% tab title="A" %}` right above the code it holds, `{% endtab %}` right under
 * it). What the blocks hold reads the same (see spaceGitbookTags); code is left as it is.
 */
export function tightGitbookTags(markdown: string): string {
  if (!markdown.includes('{%')) return markdown;
  const out: string[] = [];
  let afterOpening = false;
  forLines(markdown, (line, _at, tag) => {
    const blank = line.trim() === '';
    if (blank && afterOpening) return;
    if (tag?.end && CONTAINERS.has(tag.name)) {
      while (out.length && out[out.length - 1]!.trim() === '') out.pop();
    }
    out.push(line);
    if (!blank) afterOpening = !!tag && !tag.end && CONTAINERS.has(tag.name);
  });
  return out.join('\n');
}

/** A GitBook block in the document: an element of `data.hName` with `data.hProperties` (mdast-util-to-hast). */
export interface GitbookBlockNode extends Parent {
  type: 'gitbookBlock';
  children: RootContent[];
}

declare module 'mdast' {
  interface RootContentMap {
    gitbookBlock: GitbookBlockNode;
  }
  interface BlockContentMap {
    gitbookBlock: GitbookBlockNode;
  }
}

type Block = GitbookBlockNode;

function element(tagName: string, properties: Properties, children: RootContent[] = []): Block {
  return { type: 'gitbookBlock', data: { hName: tagName, hProperties: properties }, children };
}

function paragraph(className: string, text: string, link?: string): Paragraph {
  const value = { type: 'text' as const, value: text };
  return {
    type: 'paragraph',
    data: { hProperties: { className: [className] } },
    children: [link ? { type: 'link', url: link, children: [value] } : value],
  };
}

const HINTS: Record<string, [string, string]> = {
  info: ['note', 'Note'],
  success: ['tip', 'Tip'],
  tip: ['tip', 'Tip'],
  warning: ['warning', 'Warning'],
  danger: ['caution', 'Caution'],
};

/** The element a block opens: its children are added as they are read. */
function open(tag: GitbookTag): Block {
  const a = tag.attributes;
  switch (tag.name) {
    case 'hint': {
      const [kind, title] = HINTS[a.style ?? 'info'] ?? HINTS.info!;
      return element('div', { className: ['callout', `callout-${kind}`], role: 'note' }, [
        paragraph('callout-title', title),
      ]);
    }
    case 'tabs':
      return element('div', { className: ['gb-tabs'] });
    case 'tab':
      return element('div', { className: ['gb-tab'] }, [paragraph('gb-tab-title', a.title ?? 'Tab')]);
    case 'code':
      return element(
        'figure',
        {
          className: [
            'gb-code',
            ...(a.lineNumbers === 'true' ? ['gb-code-lines'] : []),
            ...(a.overflow === 'wrap' ? ['gb-code-wrap'] : []),
          ],
        },
        a.title ? [element('figcaption', {}, [{ type: 'text', value: a.title }])] : [],
      );
    case 'stepper':
      return element('ol', { className: ['gb-stepper'] });
    case 'step':
      return element('li', { className: ['gb-step'] });
    case 'columns':
      return element('div', { className: ['gb-columns'] });
    case 'column':
      return element('div', { className: ['gb-column'] });
    case 'content-ref':
      return element('div', { className: ['gb-content-ref'] });
    case 'file': {
      const src = a.src ?? '';
      const name = decodeURIComponent(src.split('/').pop() ?? src) || 'File';
      return element('div', { className: ['gb-file'] }, src ? [paragraph('gb-file-link', name, src)] : []);
    }
    case 'embed':
      return element('div', { className: ['gb-embed'] }, [paragraph('gb-embed-link', a.url ?? '', a.url)]);
    case 'updates':
      return element('div', { className: ['gb-updates'] });
    case 'update':
      return element('section', { className: ['gb-update'] }, a.date ? [paragraph('gb-update-date', a.date)] : []);
    default:
      return unknown(tag);
  }
}

/** A block of one tag. */
function single(tag: GitbookTag): Block {
  const a = tag.attributes;
  if (tag.name === 'embed' && a.url) {
    return element('div', { className: ['gb-embed'] }, [
      paragraph('gb-embed-link', a.caption || a.url, a.url),
      ...(a.caption ? [paragraph('gb-embed-url', a.url)] : []),
    ]);
  }
  if (tag.name === 'include') {
    const path = tag.value ?? a.path ?? '';
    return element('div', { className: ['gb-unknown'], role: 'note' }, [
      paragraph('gb-unknown-label', `Included content: ${path.split('/').pop() || path}`),
    ]);
  }
  return unknown(tag);
}

/**
 * An integration's block: what its integration renders replaces it where it is shown (the site, the console), read
 * off `data-integration-block` and `data-integration-props`; until then, or when it cannot, it names itself.
 */
function integrationBlock(ref: IntegrationBlockRef): Block {
  return element(
    'div',
    {
      className: ['gb-integration'],
      dataIntegrationBlock: `${ref.integration}/${ref.block}`,
      dataIntegrationProps: JSON.stringify(ref.props),
    },
    [paragraph('gb-integration-label', `${ref.integration} · ${ref.block}`)],
  );
}

/** A block this product does not show as such: labelled, with its tag as written. */
function unknown(tag: GitbookTag): Block {
  return element('div', { className: ['gb-unknown'], role: 'note' }, [paragraph('gb-unknown-label', tag.source)]);
}

/**
 * The tag a block was read from, kept on its element (`data-gb`, `data-gb-attrs`, `data-gb-source`, and
 * `data-gb-end` when an end tag closes it) for readers of the document model (shared/document): the styles and the
 * sanitizer never see them.
 */
function tagged(block: Block, tag: GitbookTag, closed: boolean, from: RootContent): Block {
  // Where it starts: its tag's line (positions tell readers which of a page's blocks a node comes from).
  if (from.position) block.position = { start: from.position.start, end: from.position.end };
  const properties = block.data!.hProperties!;
  properties.dataGb = tag.name;
  properties.dataGbAttrs = JSON.stringify(
    tag.value !== undefined ? { ...tag.attributes, '': tag.value } : tag.attributes,
  );
  properties.dataGbSource = tag.source;
  if (closed) properties.dataGbEnd = 'true';
  return block;
}

/**
 * The tag a node is, when it is a paragraph of only a tag's text. An integration's tag is read from `source` (the
 * text parsed) where the paragraph is, as written: its props are JSON, whose escapes markdown would have read.
 */
function tagOfIn(node: Nodes, source: string | undefined): GitbookTag | undefined {
  if (node.type !== 'paragraph') return undefined;
  const start = node.position?.start.offset;
  const end = node.position?.end.offset;
  if (source !== undefined && start !== undefined && end !== undefined && /^\{%-?\s*@/.test(source.slice(start))) {
    return parseIntegrationTag(source.slice(start, end));
  }
  // Its text as written: GFM makes a link of a URL in it (`{% embed url="https://…" %}`).
  let text = '';
  for (const child of node.children) {
    if (child.type === 'text') text += child.value;
    else if (child.type === 'link' && child.children.length === 1 && child.children[0]!.type === 'text') {
      text += child.children[0]!.value;
    } else return undefined;
  }
  if (!text.startsWith('{%')) return undefined;
  const tag = parseGitbookTag(text);
  return tag && !LEFT_ALONE.has(tag.name) && !tag.integration ? tag : undefined;
}

/**
 * Reads GitBook's blocks into `tree` (see the top of this file), at every level (lists, quotes, blocks). `source` is
 * the text `tree` was parsed from (its integrations' blocks are read off it).
 */
export function gitbookBlocks(tree: Root, source?: string): void {
  group(tree, source);
}

function group(parent: Parent, source: string | undefined): void {
  for (const child of parent.children) if ('children' in child) group(child as Parent, source);
  const tagOf = (node: Nodes) => tagOfIn(node, source);
  if (!parent.children.some((c) => tagOf(c as Nodes))) return;
  const out: RootContent[] = [];
  const stack: Array<{ name: string; block: Block }> = [];
  const add = (node: RootContent) => (stack.length ? stack[stack.length - 1]!.block.children : out).push(node);
  const children = parent.children as RootContent[];
  children.forEach((child, at) => {
    const tag = tagOf(child);
    if (!tag) return add(child);
    if (tag.end) {
      const open = stack.map((s) => s.name).lastIndexOf(tag.name);
      // An end tag with no block open stays as written.
      if (open < 0) return add(child);
      stack.length = open;
      return;
    }
    const ends = children.slice(at + 1).some((c) => {
      const later = tagOf(c);
      return later?.end && later.name === tag.name;
    });
    // An embed may hold its caption up to `{% endembed %}`, as GitBook writes it: the next embed tag is its end.
    const nextEmbed =
      tag.name === 'embed'
        ? children
            .slice(at + 1)
            .map(tagOf)
            .find((t) => t?.name === 'embed')
        : undefined;
    if (tag.integration) return add(tagged(integrationBlock(tag.integration), tag, false, child));
    if (SINGLE.has(tag.name) && !(nextEmbed?.end && tag.attributes.url)) {
      return add(tagged(single(tag), tag, false, child));
    }
    // A container with no end tag (or an unknown tag that is not one) is shown as a tag alone.
    if (!ends) return add(tagged(CONTAINERS.has(tag.name) ? unknown(tag) : single(tag), tag, false, child));
    const block = tagged(open(tag), tag, true, child);
    add(block);
    stack.push({ name: tag.name, block });
  });
  parent.children = out as typeof parent.children;
}

/** The remark plugin of the console's renderer (react-markdown); the site calls gitbookBlocks itself. */
export function remarkGitbookBlocks() {
  return (tree: Root, file: { value?: unknown }) =>
    gitbookBlocks(tree, typeof file.value === 'string' ? file.value : undefined);
}

/** Levels of includes within included content that are expanded (an include loop stops here, and at a repeat). */
export const INCLUDE_DEPTH_MAX = 3;

/**
 * The name a `{% include %}` gives its reusable content: GitBook writes a path to its export
 * (`../.gitbook/includes/setup-steps.md`), whose file name, without `.md`, is the content's slug; an id works too.
 */
export function includeName(tag: GitbookTag): string {
  const path = tag.value ?? tag.attributes.path ?? '';
  return (path.split('/').pop() ?? path).replace(/\.md$/i, '');
}

/** The names of the reusable contents `markdown` includes (outside code), in order, each once. */
export function includedNames(markdown: string): string[] {
  const names = new Set<string>();
  if (markdown.includes('{% include') || markdown.includes('{%- include')) {
    forTagLines(markdown, (tag) => {
      if (tag.name === 'include') names.add(includeName(tag));
    });
  }
  return [...names];
}

/**
 * The markdown with each `{% include %}` (a line of its own, outside code) replaced by the reusable content it names
 * (`find`: its markdown, or undefined when there is none, which leaves the tag, shown as a labelled block). Included
 * content's own includes are expanded too, INCLUDE_DEPTH_MAX levels deep, a content never inside itself.
 */
export function expandIncludes(
  markdown: string,
  find: (name: string) => string | undefined,
  seen: string[] = [],
): string {
  if (seen.length >= INCLUDE_DEPTH_MAX || !includedNames(markdown).length) return markdown;
  const lines = markdown.split('\n');
  const replaced = new Map<number, string>();
  forTagLines(markdown, (tag, at) => {
    if (tag.name !== 'include') return;
    const name = includeName(tag);
    const body = seen.includes(name) ? undefined : find(name);
    if (body !== undefined) replaced.set(at, `\n${expandIncludes(body.trim(), find, [...seen, name])}\n`);
  });
  return lines.map((line, at) => replaced.get(at) ?? line).join('\n');
}

/** Calls `fn` with each GitBook tag that is a line of its own outside fenced code, and its line's index. */
function forTagLines(markdown: string, fn: (tag: GitbookTag, at: number) => void): void {
  forLines(markdown, (_line, at, tag) => {
    if (tag) fn(tag, at);
  });
}

/** Calls `fn` with each line of `markdown` and its index, and the GitBook tag it is, when it is one outside code. */
function forLines(markdown: string, fn: (line: string, at: number, tag: GitbookTag | undefined) => void): void {
  let fence: string | undefined;
  const lines = markdown.split('\n');
  // The lines after `at` that an integration tag running over lines took (they are given as its one line).
  let skipTo = -1;
  // Characters all such tags may read (a body of unclosed tags would read each to its limit otherwise).
  const budget = { chars: INTEGRATION_TAG_CHARS_MAX * 4 };
  lines.forEach((line, at) => {
    if (at <= skipTo) return;
    if (fence) {
      // The fence closes on a line of its characters alone (after the list's or quote's indentation).
      const bare = line
        .trim()
        .replace(/^(?:>\s?)+/, '')
        .trim();
      if (bare[0] === fence[0] && bare.length >= fence.length && /^(`+|~+)$/.test(bare)) fence = undefined;
      return fn(line, at, undefined);
    }
    const opens = FENCE.exec(line);
    if (opens) {
      fence = opens[2];
      return fn(line, at, undefined);
    }
    const tag = line.includes('{%') ? parseGitbookTag(line) : undefined;
    if (!tag && /^\s*\{%-?\s*@/.test(line)) {
      const long = integrationTagOver(lines, at, budget);
      if (long) {
        skipTo = long.last;
        return fn(integrationTag(long.tag.integration!), at, long.tag);
      }
    }
    fn(line, at, tag);
  });
}

/**
 * The integration tag at the start of `src` (`{% @name/block … %}`, on one line or over several), and how many
 * characters of `src` it takes (its last line's break not included).
 */
export function integrationTagAt(src: string): { tag: GitbookTag; length: number } | undefined {
  if (!/^\{%-?\s*@/.test(src)) return undefined;
  const end = src.indexOf('\n');
  const first = end < 0 ? src : src.slice(0, end);
  const tag = parseIntegrationTag(first);
  if (tag) return { tag, length: first.length };
  const lines = src.split('\n', INTEGRATION_TAG_LINES_MAX + 1);
  const long = integrationTagOver(lines, 0, { chars: INTEGRATION_TAG_CHARS_MAX });
  return long && { tag: long.tag, length: lines.slice(0, long.last + 1).join('\n').length };
}

/** An integration tag starting on line `at` that ends on a later line (its strings hold line breaks), if one does. */
function integrationTagOver(
  lines: string[],
  at: number,
  budget: { chars: number },
): { tag: GitbookTag; last: number } | undefined {
  let text = lines[at]!;
  const last = Math.min(lines.length - 1, at + INTEGRATION_TAG_LINES_MAX);
  for (let i = at + 1; i <= last; i++) {
    text += `\n${lines[i]}`;
    budget.chars -= lines[i]!.length + 1;
    if (text.length > INTEGRATION_TAG_CHARS_MAX || budget.chars < 0) return undefined;
    if (!lines[i]!.trimEnd().endsWith('%}')) continue;
    budget.chars -= text.length;
    const tag = parseIntegrationTag(text);
    if (tag) return { tag, last: i };
  }
  return undefined;
}
