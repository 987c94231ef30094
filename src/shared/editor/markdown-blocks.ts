import {
  getSchema,
  Node,
  type AnyExtension,
  type JSONContent,
  type MarkdownToken,
  type NodeViewRenderer,
} from '@tiptap/core';
import { atomToken, containerToken, figureNode, gitbookBlockAt, gitbookNodes } from './gitbook-nodes.js';
import { MarkdownManager } from '@tiptap/markdown';
import { GitbookCodeBlock, gitbookCodeToken } from './code-block.js';
import StarterKit from '@tiptap/starter-kit';
import { TableKit } from '@tiptap/extension-table';
import { TaskItem, TaskList } from '@tiptap/extension-list';
import Image from '@tiptap/extension-image';

/**
 * The visual editor's document ↔ a page's markdown. A page is read block by block (marked's top-level tokens): each
 * block becomes the editor's nodes, and keeps the markdown it was read from. Saving writes every block the writer
 * did not change exactly as it was (its text, and the blank lines after it), and writes only the changed ones anew:
 * opening a page and saving it changes nothing, and an edit changes only what it touched.
 *
 * A block the editor cannot show faithfully stays as its markdown, shown and edited as a block of source: GitBook
 * blocks other than hints, tabs, steppers, columns, expandables, embeds, files, page references, OpenAPI operations
 * and includes (gitbook-nodes.ts), HTML, math, footnotes, and anything that would not read back the same after being written
 * (checked when the page is read).
 */

/**
 * The version of the editor's schema (its nodes, marks and their attributes). A shared document (live
 * collaboration) is made of the schema's nodes: one made with another version is started anew from its page.
 * Raise it with every change of the schema.
 */
export const EDITOR_SCHEMA_VERSION = 9;

/** How much block text (and the JSON of its nodes) a PageMarkdown keeps read. */
const BLOCK_CACHE_CHARS = 4_000_000;

/** A block of source holding `text`. */
export function source(text: string): JSONContent {
  return { type: 'markdownSource', ...(text ? { content: [{ type: 'text', text }] } : {}) };
}

/**
 * A block kept as its markdown: shown as source, edited in place as text, written back as it is. A GitBook block
 * the editor shows as what it is (gitbook-nodes.ts) is not one of these.
 */
export const MarkdownSource = Node.create({
  name: 'markdownSource',
  group: 'block',
  content: 'text*',
  marks: '',
  code: true,
  defining: true,
  parseHTML: () => [{ tag: 'pre[data-markdown-source]', preserveWhitespace: 'full' }],
  renderHTML: () => ['pre', { 'data-markdown-source': '', class: 'markdown-source', spellcheck: 'false' }, 0],
  markdownTokenName: 'markdownSource',
  markdownTokenizer: {
    name: 'markdownSource',
    level: 'block',
    start: (src: string) => src.indexOf('{%'),
    tokenize(src: string, _tokens: MarkdownToken[], lexer) {
      const block = gitbookBlockAt(src);
      if (!block || containerToken(src, lexer) || atomToken(src) || gitbookCodeToken(src, lexer)) return undefined;
      const raw = src.slice(0, block.end);
      return { type: 'markdownSource', raw, text: raw.replace(/\n+$/, '') };
    },
  },
  parseMarkdown: (token: { text?: string }) => source(token.text ?? ''),
  renderMarkdown: (node: JSONContent) => (node.content ?? []).map((c) => c.text ?? '').join(''),
});

/**
 * The editor's extensions, which make its schema: the console's editor and the server (live collaboration,
 * domain/collab) read and write pages with the same. `imageSrc` says where an image is shown from (a page names its
 * files `/files/<id>`); what is written back is always the page's own `src`.
 */
export function editorExtensions(
  imageSrc: (src: string) => string = (src) => src,
  { history = true, views = {} }: { history?: boolean; views?: Record<string, NodeViewRenderer> } = {},
): AnyExtension[] {
  return [
    // A shared document keeps its own history (each writer undoes their own changes): then the editor's is off.
    // No underline: GitBook's markdown has none, and links pasted from Google Docs come underlined.
    StarterKit.configure({
      link: { openOnClick: false, autolink: true },
      underline: false,
      // Code blocks with GitBook's title, line numbers and wrapping (code-block.ts).
      codeBlock: false,
      ...(history ? {} : { undoRedo: false }),
    }),
    views.codeBlock ? GitbookCodeBlock.extend({ addNodeView: () => views.codeBlock! }) : GitbookCodeBlock,
    TableKit,
    TaskList,
    TaskItem.configure({ nested: true }),
    // How a block looks is the console's (`views`); what it is, is shared.
    ...gitbookNodes.map((node) => {
      const view = views[node.name];
      return view ? node.extend({ addNodeView: () => view }) : node;
    }),
    Image.extend({
      // The page's own `src` is kept beside the one shown (`data-file`): an image copied in the editor pastes as
      // the page named it, and the console shows it again from newer files when the first address fails.
      addAttributes() {
        return {
          ...this.parent?.(),
          src: {
            default: null,
            parseHTML: (el: HTMLElement) => el.getAttribute('data-file') ?? el.getAttribute('src'),
          },
        };
      },
      renderHTML({ HTMLAttributes }) {
        const own: unknown = HTMLAttributes.src;
        const src = typeof own === 'string' ? imageSrc(own) : own;
        return ['img', { ...HTMLAttributes, src, ...(src !== own ? { 'data-file': own } : {}) }];
      },
    }),
    views.figure ? figureNode(imageSrc).extend({ addNodeView: () => views.figure! }) : figureNode(imageSrc),
    views.markdownSource ? MarkdownSource.extend({ addNodeView: () => views.markdownSource! }) : MarkdownSource,
  ];
}

/** Blocks shown as source whatever they read as: HTML, math, footnotes and link definitions. */
function keptAsSource(token: { type: string; raw: string }): boolean {
  // An expandable or a figure the editor reads as one (gitbook-nodes.ts), though it is HTML.
  if (token.type === 'expandable' || token.type === 'figure') return false;
  return (
    token.type === 'html' ||
    token.type === 'def' ||
    /^\s*\$\$/.test(token.raw) ||
    /\[\^[^\]\s]+\]/.test(token.raw) ||
    /^\s*<[a-zA-Z!]/.test(token.raw)
  );
}

/** One block of the page as read: its markdown, what follows it (blank lines), and the nodes it became. */
export interface SourceBlock {
  text: string;
  tail: string;
  nodes: string[];
}

export interface LoadedPage {
  markdown: string;
  /** Text before the first block (blank lines). */
  head: string;
  blocks: SourceBlock[];
  doc: JSONContent;
}

export class PageMarkdown {
  readonly manager = new MarkdownManager({ extensions: editorExtensions() });

  private readonly schema = getSchema(editorExtensions());
  /**
   * The nodes of blocks read before, by their text (a page is read again after each save, and a shared document's
   * page after each write: most of its blocks are the same), as JSON, the least recently used dropped past
   * BLOCK_CACHE_CHARS.
   */
  private readonly blocks = new Map<string, string>();
  private cached = 0;

  /**
   * The nodes a block of markdown reads as, or the block as source when it would not read back the same, or would
   * not make a valid document (a tab outside tabs).
   */
  private nodesOf(token: { type: string; raw: string }, text: string): JSONContent[] {
    const key = `${token.type}\u0000${text}`;
    const cached = this.blocks.get(key);
    if (cached) {
      // Most recently used last.
      this.blocks.delete(key);
      this.blocks.set(key, cached);
      return JSON.parse(cached) as JSONContent[];
    }
    const nodes = this.readBlock(token, text).map((n) => this.canonical(n));
    const json = JSON.stringify(nodes);
    this.blocks.set(key, json);
    this.cached += key.length + json.length;
    for (const [old, value] of this.blocks) {
      if (this.cached <= BLOCK_CACHE_CHARS) break;
      this.blocks.delete(old);
      this.cached -= old.length + value.length;
    }
    return nodes;
  }

  /** A node as the schema writes it (attributes in its order, defaults filled): what an editor's document holds. */
  private canonical(node: JSONContent): JSONContent {
    return this.schema.nodeFromJSON(node).toJSON() as JSONContent;
  }

  private readBlock(token: { type: string; raw: string }, text: string): JSONContent[] {
    if (keptAsSource(token)) return [source(text)];
    const nodes = this.manager.parse(text).content ?? [];
    if (nodes.length === 0) return [source(text)];
    const again = this.manager.parse(this.manager.serialize({ type: 'doc', content: nodes })).content ?? [];
    if (JSON.stringify(again) !== JSON.stringify(nodes)) return [source(text)];
    try {
      this.schema.nodeFromJSON({ type: 'doc', content: nodes }).check();
    } catch {
      return [source(text)];
    }
    return nodes;
  }

  load(markdown: string): LoadedPage {
    const tokens = this.manager.instance.lexer(markdown) as Array<{ type: string; raw: string }>;
    const blocks: SourceBlock[] = [];
    let head = '';
    const add = (token: { type: string; raw: string }) => {
      if (!token.raw) return;
      if (token.type === 'space' || !token.raw.trim()) {
        if (blocks.length) blocks[blocks.length - 1]!.tail += token.raw;
        else head += token.raw;
        return;
      }
      const text = token.raw.replace(/\n+$/, '');
      const tail = token.raw.slice(text.length);
      blocks.push({ text, tail, nodes: this.nodesOf(token, text).map((n) => JSON.stringify(n)) });
    };
    // Every character of the page belongs to a block: text the lexer keeps to itself (link definitions) becomes a
    // block of source where it stands, and from a token it does not give back as written on, the rest of the page.
    let at = 0;
    for (const token of tokens) {
      const found = markdown.indexOf(token.raw, at);
      if (found < 0) break;
      if (found > at) add({ type: 'html', raw: markdown.slice(at, found) });
      add(token);
      at = found + token.raw.length;
    }
    if (at < markdown.length) add({ type: 'html', raw: markdown.slice(at) });
    const content = blocks.flatMap((b) => b.nodes.map((n) => JSON.parse(n) as JSONContent));
    return {
      markdown,
      head,
      blocks,
      doc: { type: 'doc', content: content.length ? content : [{ type: 'paragraph' }] },
    };
  }

  /**
   * The page's markdown for the editor's document: blocks whose nodes are unchanged, in order, are written as they
   * were read; the other nodes are written anew, each a block of its own.
   */
  save(page: LoadedPage, doc: JSONContent): string {
    const nodes = (doc.content ?? []).map((n) => JSON.stringify(this.canonical(n)));
    const empty = nodes.length === 1 && nodes[0] === JSON.stringify({ type: 'paragraph' });
    if (page.blocks.length === 0 && (nodes.length === 0 || empty)) return page.markdown;
    const parts: Array<{ text: string; block?: number }> = [];
    let next = 0;
    for (let i = 0; i < nodes.length;) {
      const found = this.matchAt(page.blocks, next, nodes, i);
      if (found !== undefined) {
        parts.push({ text: page.blocks[found]!.text, block: found });
        i += page.blocks[found]!.nodes.length;
        next = found + 1;
        continue;
      }
      const node = JSON.parse(nodes[i]!) as JSONContent;
      if (!(node.type === 'paragraph' && !node.content?.length)) {
        parts.push({ text: this.manager.serialize({ type: 'doc', content: [node] }).replace(/\n+$/, '') });
      }
      i++;
    }
    let out = page.head;
    parts.forEach((part, k) => {
      out += part.text;
      const following = parts[k + 1];
      if (part.block !== undefined && (following === undefined || following.block === part.block + 1)) {
        out += page.blocks[part.block]!.tail || (following ? '\n\n' : '');
      } else if (following) out += '\n\n';
      else if (page.markdown.endsWith('\n')) out += '\n';
    });
    return out;
  }

  /** The first block from `from` on whose nodes are those at `at`. */
  private matchAt(blocks: SourceBlock[], from: number, nodes: string[], at: number): number | undefined {
    for (let b = from; b < blocks.length; b++) {
      const want = blocks[b]!.nodes;
      if (want.every((n, k) => nodes[at + k] === n)) return b;
    }
    return undefined;
  }
}
