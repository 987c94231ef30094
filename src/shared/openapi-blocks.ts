/**
 * GitBook's OpenAPI operation blocks in page markdown, as its exports and Git Sync write them:
 *
 *     {% openapi-operation spec="petstore" path="/pets" method="get" %}
 *     [OpenAPI petstore](https://…)
 *     {% endopenapi-operation %}
 *
 * or the opening tag alone on its line. Shared by the renderers of the server (published pages) and the console
 * (page preview): both find the blocks the same way. The markdown keeps them as they are (import, editing, export).
 */

export interface OperationBlock {
  spec: string;
  path: string;
  method: string;
  /** `spec method path`: one operation, however often the page shows it. */
  key: string;
}

const OPEN = /^[ \t]*\{%[ \t]*openapi-operation[ \t]+([^%\n]*?)[ \t]*%\}[ \t]*$/;
const END = /^[ \t]*\{%[ \t]*endopenapi-operation[ \t]*%\}[ \t]*$/;
const ATTR = /([a-zA-Z]+)="([^"]*)"/g;
/** Lines between an opening and its closing tag at most (the link GitBook writes there is one line). */
const INSIDE_MAX = 20;

function attributes(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const m of text.matchAll(ATTR)) out[m[1]!] = m[2]!;
  return out;
}

export function blockKey(spec: string, method: string, path: string): string {
  return `${spec} ${method.toLowerCase()} ${path}`;
}

/**
 * The markdown with each block replaced by `placeholder(i)` on a line of its own, and the blocks in order. A tag
 * without spec, path or method is not a block (left as it is); so is anything inside a fenced code block.
 */
export function extractOperationBlocks(
  markdown: string,
  placeholder: (index: number) => string,
  /** Filled with the line of `markdown` each line of the result comes from, when given. */
  origins?: number[],
): { markdown: string; blocks: OperationBlock[] } {
  if (!markdown.includes('openapi-operation')) {
    if (origins) for (let i = 0, n = markdown.split('\n').length; i < n; i++) origins.push(i);
    return { markdown, blocks: [] };
  }
  const lines = markdown.split('\n');
  const out: string[] = [];
  const blocks: OperationBlock[] = [];
  let fence: string | undefined;
  const push = (at: number, ...added: string[]) => {
    out.push(...added);
    if (origins) for (let k = 0; k < added.length; k++) origins.push(at);
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const fenceMark = /^ {0,3}(`{3,}|~{3,})/.exec(line)?.[1];
    if (fenceMark && (!fence || (fenceMark[0] === fence[0] && fenceMark.length >= fence.length))) {
      fence = fence ? undefined : fenceMark;
      push(i, line);
      continue;
    }
    const open = fence ? null : OPEN.exec(line);
    const attrs = open ? attributes(open[1]!) : {};
    if (!open || !attrs.spec || !attrs.path || !attrs.method) {
      push(i, line);
      continue;
    }
    // Its closing tag, if it has one: before any other block opens.
    let end = -1;
    for (let j = i + 1; j < lines.length && j <= i + INSIDE_MAX && !OPEN.test(lines[j]!); j++) {
      if (END.test(lines[j]!)) {
        end = j;
        break;
      }
    }
    const block = { spec: attrs.spec, path: attrs.path, method: attrs.method.toLowerCase() };
    blocks.push({ ...block, key: blockKey(block.spec, block.method, block.path) });
    push(i, '', placeholder(blocks.length - 1), '');
    if (end > 0) i = end;
  }
  return { markdown: out.join('\n'), blocks };
}

/** The blocks of a page, without rewriting it. */
export function operationBlocks(markdown: string): OperationBlock[] {
  return extractOperationBlocks(markdown, () => '').blocks;
}
