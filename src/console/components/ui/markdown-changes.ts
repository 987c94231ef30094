import { diffWordsWithSpace } from 'diff';
import type { Element, ElementContent, Root, RootContent, Text } from 'hast';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { gfmFromMarkdown } from 'mdast-util-gfm';
import { toHast } from 'mdast-util-to-hast';
import { gfm } from 'micromark-extension-gfm';

/**
 * Word-level changes marked in rendered markdown: the words of one side of a modified block that the other side
 * does not have are wrapped in `<ins>` (the side after) or `<del>` (the side before). The words are compared as
 * they read once rendered, so a change never cuts through markdown syntax (a link, a table cell, a fence): the
 * text of each rendered side is diffed, and the changed ranges are wrapped inside the text nodes they fall in.
 */
export interface ChangeMarks {
  /** The other side's markdown. */
  against: string;
  tag: 'ins' | 'del';
}

/** Beyond this many characters (both sides) a block is shown as changed without its words: diffing costs too much. */
export const MAX_MARKED_CHARS = 20_000;

type Parent = Root | Element;

function textNodes(tree: Parent, out: Array<{ node: Text; parent: Parent }> = []) {
  for (const child of tree.children) {
    if (child.type === 'text') out.push({ node: child, parent: tree });
    else if (child.type === 'element') textNodes(child, out);
  }
  return out;
}

/** The text of markdown as rendered: the text nodes of its tree, in document order, as the renderer makes it. */
export function renderedText(markdown: string): string {
  const mdast = fromMarkdown(markdown, { extensions: [gfm()], mdastExtensions: [gfmFromMarkdown()] });
  return textNodes(toHast(mdast) as Root)
    .map(({ node }) => node.value)
    .join('');
}

/** Offsets, in this side's text, of the words the other side does not have. */
export function changedRanges(mine: string, theirs: string, tag: ChangeMarks['tag']): Array<[number, number]> {
  const parts = tag === 'ins' ? diffWordsWithSpace(theirs, mine) : diffWordsWithSpace(mine, theirs);
  const ranges: Array<[number, number]> = [];
  let at = 0;
  for (const part of parts) {
    const changed = tag === 'ins' ? part.added : part.removed;
    const other = tag === 'ins' ? part.removed : part.added;
    if (other) continue;
    // Each changed word is marked; the spaces between them are not.
    if (changed)
      for (const word of part.value.matchAll(/\S+/g)) ranges.push([at + word.index, at + word.index + word[0].length]);
    at += part.value.length;
  }
  return ranges;
}

/** A rehype plugin for react-markdown: marks this side's changed words (see ChangeMarks). */
export function rehypeChangeMarks(options: ChangeMarks) {
  return (tree: Root) => {
    const nodes = textNodes(tree);
    const mine = nodes.map(({ node }) => node.value).join('');
    if (mine.length + options.against.length > MAX_MARKED_CHARS) return;
    const ranges = changedRanges(mine, renderedText(options.against), options.tag);
    if (ranges.length === 0) return;
    const replaced = new Map<Text, ElementContent[]>();
    let start = 0;
    let r = 0;
    for (const { node } of nodes) {
      const end = start + node.value.length;
      const pieces: ElementContent[] = [];
      let at = start;
      while (r < ranges.length && ranges[r]![0] < end) {
        const [from, to] = ranges[r]!;
        const a = Math.max(from, at);
        const b = Math.min(to, end);
        if (a > at) pieces.push({ type: 'text', value: node.value.slice(at - start, a - start) });
        if (b > a) {
          const mark: Element = {
            type: 'element',
            tagName: options.tag,
            properties: {},
            children: [{ type: 'text', value: node.value.slice(a - start, b - start) }],
          };
          pieces.push(mark);
        }
        at = Math.max(at, b);
        if (to <= end) r++;
        else break;
      }
      if (pieces.length > 0) {
        if (at < end) pieces.push({ type: 'text', value: node.value.slice(at - start) });
        replaced.set(node, pieces);
      }
      start = end;
    }
    const rewrite = (parent: Parent) => {
      parent.children = parent.children.flatMap((child): RootContent[] =>
        child.type === 'text' ? (replaced.get(child) ?? [child]) : [child],
      ) as typeof parent.children;
      for (const child of parent.children) if (child.type === 'element') rewrite(child);
    };
    rewrite(tree);
  };
}
