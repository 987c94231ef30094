import { diffArrays, diffWordsWithSpace } from 'diff';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { gfmFromMarkdown } from 'mdast-util-gfm';
import { gfm } from 'micromark-extension-gfm';
import type { Root } from 'mdast';

/**
 * One top-level block of a page body: the exact markdown source of one top-level mdast node. Ids are stable across
 * edits (see parseBlocks), so diffs, three-way merges and comment anchors can work per block.
 */
export interface Block {
  id: string;
  /** The mdast type of the top-level node: 'paragraph', 'heading', 'list', 'code', 'blockquote', 'table', ... */
  type: string;
  markdown: string;
}

/** A block before it has an id: what splitBlocks reads off a body (the costly part, run in a worker for big bodies). */
export type SplitBlock = Omit<Block, 'id'>;

/** Similarity from which an edited block keeps the id of the old block it replaces. */
const SIMILAR = 0.5;
/**
 * Characters of text that one parse may compare when looking for edited blocks (about a tenth of a second of word
 * diffs). Pairing compares every old block with every new one in the worst case, which a wholesale rewrite of a long
 * page reaches; past this budget, blocks count as dissimilar and get new ids, which is what a rewrite deserves.
 */
const SIMILARITY_BUDGET = 100_000;

/**
 * Line endings normalised to "\n", so CRLF and LF bodies give the same blocks, and a leading byte-order mark dropped
 * (the parser skips it, so positions would be off by one).
 */
export function normalizeMarkdown(markdown: string): string {
  return markdown.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n');
}

/** Where each top-level block of a parsed body starts and ends in its (normalized) source, and its type. */
export interface BlockRange {
  type: string;
  from: number;
  end: number;
}

/** Characters of markdown given to one task of the worker pool when many bodies are read at once. */
const BATCH_CHARS = 64 * 1024;

/** `items` in batches of about BATCH_CHARS characters of markdown (`markdownOf` each), for the worker pool. */
export function markdownBatches<T>(items: Iterable<T>, markdownOf: (item: T) => string): T[][] {
  const batches: T[][] = [];
  let size = BATCH_CHARS;
  for (const item of items) {
    if (size >= BATCH_CHARS) {
      batches.push([]);
      size = 0;
    }
    batches[batches.length - 1]!.push(item);
    size += markdownOf(item).length;
  }
  return batches;
}

/**
 * What parsing `markdown` costs, in characters of plain prose: where a body goes to be parsed (inline or in a worker)
 * is decided by this, not by its length alone. micromark checks again every container (block quote, list item)
 * still open on each line, so a line of nested containers costs far more than its characters: a 16 kB body of
 * lines quoted 32 deep held the event loop for 0.2–0.9 s. A line counts its length plus 16 × the square of its
 * nesting (markers `>`, `-`, `*`, `+` at its start, and the indentation before them, two spaces a level).
 */
export function markdownCost(markdown: string): number {
  let cost = markdown.length;
  let i = 0;
  const n = markdown.length;
  while (i < n) {
    let depth = 0;
    let spaces = 0;
    // The line's leading markers and indentation.
    for (;;) {
      const c = markdown.charCodeAt(i);
      // Indentation before the first marker nests; the space after a marker does not.
      if (c === 32) {
        if (depth === 0) spaces++;
        i++;
      } else if (c === 9) {
        if (depth === 0) spaces += 4;
        i++;
      } else if (c === 62) {
        depth++;
        i++;
      } else if ((c === 45 || c === 42 || c === 43) && markdown.charCodeAt(i + 1) === 32) {
        depth++;
        i += 2;
      } else break;
    }
    depth += spaces >> 1;
    cost += 16 * depth * depth;
    const end = markdown.indexOf('\n', i);
    if (end < 0) break;
    i = end + 1;
  }
  return cost;
}

/**
 * The top-level blocks of `markdown` (GFM: tables, task lists, strikethrough), without ids. Link reference
 * definitions open a paragraph for the parser: what follows one without a blank line is read in that paragraph's
 * context (a "-" there is text, not a list), so such a definition and the node after it make one block, whose type
 * is the later node's; joining blocks with blank lines then never changes how they parse.
 */
export function splitBlocks(markdown: string): SplitBlock[] {
  const source = normalizeMarkdown(markdown);
  if (source.trim() === '') return [];
  const root = fromMarkdown(source, { extensions: [gfm()], mdastExtensions: [gfmFromMarkdown()] });
  return blockRanges(source, root)
    .map((g) => ({ type: g.type, markdown: source.slice(g.from, g.end).trimEnd() }))
    .filter((b) => b.markdown.trim() !== '');
}

/**
 * The blocks of an already parsed body (see splitBlocks), as ranges of its source: a caller that parsed the body
 * for its own reasons (an import rewriting links) gets its blocks without a second parse.
 */
export function blockRanges(source: string, root: Root): BlockRange[] {
  const groups: BlockRange[] = [];
  for (const node of root.children) {
    const start = node.position?.start.offset;
    const end = node.position?.end.offset;
    if (start === undefined || end === undefined) continue;
    const last = groups.at(-1);
    // A node's position starts after its indentation, which is part of its meaning (a list indented by two spaces
    // has items at that indentation): take the line from its start when only spaces or tabs precede the node.
    const lineStart = source.lastIndexOf('\n', start - 1) + 1;
    let from = /^[ \t]*$/.test(source.slice(lineStart, start)) ? lineStart : start;
    from = Math.max(from, last?.end ?? 0);
    if (last && last.type === 'definition' && !/\n[ \t]*\n/.test(source.slice(last.end, from))) {
      last.type = node.type;
      last.end = Math.max(last.end, end);
    } else groups.push({ type: node.type, from, end: Math.max(from, end) });
  }
  return groups;
}

/**
 * Word-diff edits (inserted plus deleted tokens) past which two texts are not compared word by word: the diff's cost
 * grows with text length times edits, and texts that far apart are rewrites rather than edits.
 */
export const MAX_WORD_EDITS = 1000;

/**
 * Shared characters of a word diff over the length of the longer text: 1 for equal texts, 0 for nothing shared (and
 * for texts more than MAX_WORD_EDITS tokens apart).
 */
export function similarity(a: string, b: string): number {
  const longest = Math.max(a.length, b.length);
  if (longest === 0) return 1;
  const changes = diffWordsWithSpace(a, b, { maxEditLength: MAX_WORD_EDITS });
  if (!changes) return 0;
  let shared = 0;
  for (const change of changes) if (!change.added && !change.removed) shared += change.value.length;
  return shared / longest;
}

/**
 * Insertions plus deletions past which two block lists are not aligned by diff: its cost grows with their length
 * times the edits, so a rewrite of a 10,000-block page would take about a minute. Past it, blocks are matched by
 * their text alone (step 2 of parseBlocks), which is what a rewrite deserves.
 */
const MAX_BLOCK_EDITS = 2000;
/** Old plus new blocks of one gap between unchanged blocks past which parseBlocks looks for no edited block. */
const FUZZY_GAP_MAX = 400;

/**
 * Index pairs [old, new] of the items that diffArrays reports as common, in order; none when the lists are more
 * than MAX_BLOCK_EDITS edits apart.
 */
function commonPairs<T>(before: T[], after: T[], comparator?: (a: T, b: T) => boolean): Array<[number, number]> {
  const pairs: Array<[number, number]> = [];
  let i = 0;
  let j = 0;
  const changes = diffArrays(before, after, { maxEditLength: MAX_BLOCK_EDITS, ...(comparator ? { comparator } : {}) });
  for (const change of changes ?? []) {
    if (change.added) j += change.count;
    else if (change.removed) i += change.count;
    else for (let k = 0; k < change.count; k++) pairs.push([i++, j++]);
  }
  return pairs;
}

/**
 * The top-level blocks of `markdown`, each with its exact source text (trailing whitespace trimmed, line endings
 * normalised to "\n"). Ids come from `previous` (the page's blocks before this edit) so they stay stable:
 *
 * 1. blocks whose markdown is unchanged keep their ids, matched in order (an LCS over the texts);
 * 2. a block with unchanged text that moved (so the LCS could not match it) keeps the id of an unused old block with
 *    that text, taken in order: reordering blocks keeps every id;
 * 3. between two blocks matched by 1, unmatched new blocks take, in order, the ids of the unmatched old blocks:
 *    one for one when the gap holds as many new blocks as old ones, of the same types (a rewritten block is
 *    still that block); otherwise only old blocks of the same type whose text is at least half shared;
 * 4. any other block gets `newId()`.
 *
 * An old id is never given to two blocks. Frontmatter is not supported: it is read as ordinary markdown.
 */
export function parseBlocks(markdown: string, previous: Block[] = [], newId: () => string): Block[] {
  return identifyBlocks(splitBlocks(markdown), previous, newId);
}

/** The ids of parseBlocks for blocks already split (see splitBlocks). */
export function identifyBlocks(parsed: SplitBlock[], previous: Block[], newId: () => string): Block[] {
  const ids: Array<string | undefined> = parsed.map(() => undefined);
  const used = new Set<string>();
  const claim = (newIndex: number, old: Block) => {
    if (used.has(old.id)) return false;
    used.add(old.id);
    ids[newIndex] = old.id;
    return true;
  };

  // 1. Unchanged blocks, in order.
  const anchors = commonPairs(
    previous.map((b) => b.markdown),
    parsed.map((b) => b.markdown),
  );
  for (const [i, j] of anchors) claim(j, previous[i]!);
  const oldMatched = new Set(anchors.map(([i]) => i));

  // 2. Unchanged blocks that moved: old blocks left unmatched, by text, taken in order.
  const unmatchedByText = new Map<string, number[]>();
  for (const [i, old] of previous.entries()) {
    if (oldMatched.has(i) || used.has(old.id)) continue;
    const list = unmatchedByText.get(old.markdown) ?? [];
    list.push(i);
    unmatchedByText.set(old.markdown, list);
  }
  for (const [j, block] of parsed.entries()) {
    if (ids[j] !== undefined) continue;
    const candidates = unmatchedByText.get(block.markdown) ?? [];
    let i = candidates.shift();
    while (i !== undefined && !claim(j, previous[i]!)) i = candidates.shift();
    if (i !== undefined) oldMatched.add(i);
  }

  // 3. Edited blocks, within each gap between two anchors of step 1: an order-preserving match of old and new
  // indices where "equal" means same type and similar text.
  const bounds: Array<[number, number]> = [[-1, -1], ...anchors, [previous.length, parsed.length]];
  const scores = new Map<string, boolean>();
  let budget = SIMILARITY_BUDGET;
  const similar = (i: number, j: number) => {
    const key = `${i}:${j}`;
    let result = scores.get(key);
    if (result === undefined) {
      const a = previous[i]!;
      const b = parsed[j]!;
      // The shared part is at most the shorter text: when that alone rules the pair out, skip the diff.
      const short = Math.min(a.markdown.length, b.markdown.length);
      const long = Math.max(a.markdown.length, b.markdown.length);
      const cost = short + long;
      result = a.type === b.type && short >= SIMILAR * long && cost <= budget;
      if (result) {
        budget -= cost;
        result = similarity(a.markdown, b.markdown) >= SIMILAR;
      }
      scores.set(key, result);
    }
    return result;
  };
  for (let g = 0; g + 1 < bounds.length; g++) {
    const [oldFrom, newFrom] = bounds[g]!;
    const [oldTo, newTo] = bounds[g + 1]!;
    const olds: number[] = [];
    for (let i = oldFrom + 1; i < oldTo; i++) if (!oldMatched.has(i) && !used.has(previous[i]!.id)) olds.push(i);
    const news: number[] = [];
    for (let j = newFrom + 1; j < newTo; j++) if (ids[j] === undefined) news.push(j);
    if (olds.length === 0 || news.length === 0) continue;
    // As many blocks replaced as there were, of the same types, at the same place: each is an edit of the one
    // it replaces, however much its text changed (a rewritten paragraph is still that paragraph).
    if (olds.length === news.length && olds.every((i, k) => previous[i]!.type === parsed[news[k]!]!.type)) {
      olds.forEach((i, k) => claim(news[k]!, previous[i]!));
      continue;
    }
    // Aligning by similarity costs up to the product of the two counts: large gaps are rewrites, with new ids.
    if (olds.length + news.length > FUZZY_GAP_MAX) continue;
    for (const [a, b] of commonPairs(olds, news, similar)) claim(news[b]!, previous[olds[a]!]!);
  }

  // 4. New blocks.
  return parsed.map((block, j) => ({ id: ids[j] ?? newId(), type: block.type, markdown: block.markdown }));
}

/** The page body: blocks joined by a blank line, ending with a newline when there is any block. */
export function blocksToMarkdown(blocks: Array<Pick<Block, 'markdown'>>): string {
  return blocks.length === 0 ? '' : `${blocks.map((b) => b.markdown).join('\n\n')}\n`;
}
