import type { Root as HastRoot, RootContent as HastContent } from 'hast';
import type { Root } from 'mdast';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { gfmFromMarkdown } from 'mdast-util-gfm';
import { toHast } from 'mdast-util-to-hast';
import { raw } from 'hast-util-raw';
import { gfm } from 'micromark-extension-gfm';
import { math } from 'micromark-extension-math';
import { mathFromMarkdown } from 'mdast-util-math';
import { MATH_SYNTAX } from '../math-syntax.js';
import { gitbookBlocks, spaceGitbookTags } from '../gitbook-blocks.js';

/**
 * The one parse of a page body that every place showing it starts from: markdown (CommonMark, GFM, GitHub alerts,
 * GitBook's blocks, `$$` math) → mdast with GitBook's blocks read in (shared/gitbook-blocks.ts) → hast, the HTML written in
 * the body parsed into elements. The published page and the links report sanitize this tree and render it
 * (server `sites/render.ts`); the API's JSON documents are read off it (`./from-markdown.ts`).
 */
export function parseMarkdown(markdown: string, origins?: number[]): Root {
  const text = spaceGitbookTags(markdown, origins);
  const tree = fromMarkdown(text, {
    extensions: [gfm(), math(MATH_SYNTAX)],
    mdastExtensions: [gfmFromMarkdown(), mathFromMarkdown()],
  });
  gitbookBlocks(tree, text);
  return tree;
}

/**
 * A page body as hast, with the HTML written in it parsed into elements (hast-util-raw), not yet sanitized. A body
 * without HTML is not reparsed (it would cost a second parse of the whole body). `origins`, when given, is filled
 * with the line of `markdown` each line of the parsed text comes from (GitBook's tags are given lines of their own),
 * for nodes' positions to be read as lines of `markdown`; left empty when the text parsed is `markdown` itself.
 */
export function bodyTree(markdown: string, origins?: number[]): HastRoot {
  return hastOf(parseMarkdown(markdown, origins));
}

/** bodyTree of a body parsed already (parseMarkdown), which is left unchanged: one parse read twice. */
export function hastOf(parsed: Root): HastRoot {
  const tree = toHast(parsed, { allowDangerousHtml: true }) as HastRoot;
  let hasRaw = false;
  const find = (node: HastRoot | HastContent): void => {
    if (hasRaw) return;
    if (node.type === 'raw') hasRaw = true;
    else if ('children' in node) for (const child of node.children) find(child);
  };
  find(tree);
  return hasRaw ? (raw(tree) as HastRoot) : tree;
}
