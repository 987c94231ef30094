import CodeBlock from '@tiptap/extension-code-block';
import type { JSONContent, MarkdownToken } from '@tiptap/core';
import { gitbookBlockAt, quote } from './gitbook-nodes.js';

/**
 * Code blocks: a fence with its language, and GitBook's `{% code %}` around one, which gives it a title, line numbers
 * or wrapped lines (`{% code title="app.js" lineNumbers="true" overflow="wrap" %}`, the fence, `{% endcode %}`, each
 * on a line of its own, blank lines between them or not), read as one block with those as its attributes.
 */

/** GitBook's attributes of a code block, as `{% code %}` writes them. */
export const CODE_ATTRIBUTES = ['title', 'lineNumbers', 'overflow'] as const;

/** `{% code %}` around one fenced block at the start of `src`, as a `code` token with its attributes. */
export function gitbookCodeToken(
  src: string,
  lexer: { blockTokens: (src: string) => MarkdownToken[] },
): MarkdownToken | undefined {
  const block = gitbookBlockAt(src);
  if (!block || block.name !== 'code' || block.bodyEnd === undefined) return undefined;
  if (src[block.bodyStart] !== '\n' || src[block.bodyEnd - 1] !== '\n') return undefined;
  const { attributes } = block;
  // `{% code %}` with no attribute says nothing a fence does not: it stays as written (a block of source).
  if (Object.keys(attributes).length === 0) return undefined;
  if (!Object.keys(attributes).every((a) => (CODE_ATTRIBUTES as readonly string[]).includes(a))) return undefined;
  // Only what the editor writes back the same: line numbers on, lines wrapped.
  if ((attributes.lineNumbers ?? 'true') !== 'true' || (attributes.overflow ?? 'wrap') !== 'wrap') return undefined;
  const body = src.slice(block.bodyStart + 1, block.bodyEnd - 1);
  const tokens = lexer.blockTokens(body).filter((t) => t.type !== 'space');
  const fence = tokens[0];
  if (tokens.length !== 1 || fence?.type !== 'code' || !/^(`{3,}|~{3,})/.test(fence.raw ?? '')) return undefined;
  return {
    type: 'code',
    raw: src.slice(0, block.end),
    text: fence.text ?? '',
    lang: (fence as { lang?: string }).lang ?? '',
    codeBlockStyle: 'gitbook',
    attrs: {
      title: attributes.title ?? '',
      lineNumbers: attributes.lineNumbers ?? '',
      overflow: attributes.overflow ?? '',
    },
  };
}

/** The fence of `code` in `language`: longer than any run of backticks in it. */
function fence(code: string, language: string): string {
  const longest = Math.max(2, ...(code.match(/`{3,}/g) ?? []).map((run) => run.length));
  const marks = '`'.repeat(longest + 1);
  return `${marks}${language}\n${code}\n${marks}`;
}

export const GitbookCodeBlock = CodeBlock.extend({
  addAttributes() {
    return {
      ...this.parent?.(),
      ...Object.fromEntries(
        CODE_ATTRIBUTES.map((name) => [
          name,
          {
            default: '',
            parseHTML: (el: HTMLElement) => el.getAttribute(`data-${name}`) ?? '',
            renderHTML: (attrs: Record<string, string>) => (attrs[name] ? { [`data-${name}`]: attrs[name] } : {}),
          },
        ]),
      ),
    };
  },
  markdownTokenizer: {
    name: 'code',
    level: 'block',
    start: (src: string) => src.search(/\{%\s*code(?![\w-])/),
    tokenize: (src: string, _tokens: MarkdownToken[], lexer) => gitbookCodeToken(src, lexer),
  },
  parseMarkdown: (token, helpers) => {
    const raw = token.raw ?? '';
    if (!/^(`{3}|~{3}|\{%)/.test(raw) && token.codeBlockStyle !== 'indented') return [];
    const attrs = (token.attrs ?? {}) as Record<string, string>;
    return helpers.createNode(
      'codeBlock',
      { language: token.lang || null, ...Object.fromEntries(CODE_ATTRIBUTES.map((a) => [a, attrs[a] ?? ''])) },
      token.text ? [helpers.createTextNode(token.text)] : [],
    );
  },
  renderMarkdown: (node: JSONContent, helpers) => {
    const attrs = node.attrs ?? {};
    const code = fence(node.content ? helpers.renderChildren(node.content) : '', String(attrs.language ?? ''));
    const gitbook = CODE_ATTRIBUTES.filter((a) => String(attrs[a] ?? '') !== '')
      .map((a) => ` ${a}=${quote(String(attrs[a]))}`)
      .join('');
    // A blank line around the fence, as the page is stored (each of the three a block of its own) and GitBook reads.
    return gitbook ? `{% code${gitbook} %}\n\n${code}\n\n{% endcode %}` : code;
  },
});
