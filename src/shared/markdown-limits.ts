/**
 * Limits on markdown that every writer of page bodies and comments shares (server and console). Parsing cost
 * grows with the square of nesting depth, and renderers recurse once per level: bodies nested deeper than
 * MARKDOWN_DEPTH_MAX are refused before anything parses them.
 */
export const MARKDOWN_DEPTH_MAX = 32;
/** Top-level blocks of one page. */
export const PAGE_BLOCKS_MAX = 10_000;

const FENCE = /^(`{3,}|~{3,})/;
const CONTAINER = /^(?:>[ \t]?|(?:[-*+]|\d{1,9}[.)])(?:[ \t]+|$))/;

/**
 * The deepest nesting of blockquotes and lists in `markdown`, read line by line without parsing: the container
 * markers (`>`, list bullets and numbers) opening each line, plus one level per two columns of indentation
 * before each marker (how nested list items are written). Lines inside fenced code are not counted; indentation
 * not followed by a marker (continuation text, indented code) adds nothing.
 */
export function markdownNestingDepth(markdown: string, stopAbove = Infinity): number {
  let deepest = 0;
  let fence: string | null = null;
  let start = 0;
  while (start <= markdown.length) {
    let end = markdown.indexOf('\n', start);
    if (end < 0) end = markdown.length;
    let line = markdown.slice(start, end);
    start = end + 1;
    let depth = 0;
    for (;;) {
      const indent = /^[ \t]*/.exec(line)![0];
      const rest = line.slice(indent.length);
      const marker = CONTAINER.exec(rest);
      if (!marker) {
        line = rest;
        break;
      }
      depth += 1 + Math.floor(indent.replace(/\t/g, '  ').length / 2);
      // A caller asking only whether a limit is passed gets the answer as soon as it is.
      if (depth > stopAbove) return depth;
      line = rest.slice(marker[0].length);
    }
    const opened = FENCE.exec(line);
    if (fence) {
      if (opened && opened[1]![0] === fence[0] && opened[1]!.length >= fence.length) fence = null;
      continue;
    }
    if (opened) fence = opened[1]!;
    if (depth > deepest) deepest = depth;
  }
  return deepest;
}

/** The message for a body nested too deeply. */
export const MARKDOWN_DEPTH_MESSAGE = `Nested deeper than ${MARKDOWN_DEPTH_MAX} levels of blockquotes and lists`;

/** True when `markdown` nests deeper than MARKDOWN_DEPTH_MAX (stops reading as soon as it does). */
export function tooDeeplyNested(markdown: string): boolean {
  return markdownNestingDepth(markdown, MARKDOWN_DEPTH_MAX) > MARKDOWN_DEPTH_MAX;
}
