import { diffWordsWithSpace } from 'diff';
import { InvalidError } from '../errors.js';
import { MAX_WORD_EDITS, identifyBlocks, splitBlocks, type Block, type SplitBlock } from './blocks.js';

/**
 * Block-level diff and three-way merge of page bodies. Blocks are matched by id (parseBlocks keeps ids stable), and
 * every block list is assumed to hold each id once.
 */

export type WordChange = { op: 'equal' | 'insert' | 'delete'; text: string };

export type BlockChange =
  | { kind: 'unchanged'; id: string; markdown: string }
  | { kind: 'added'; id: string; markdown: string }
  | { kind: 'removed'; id: string; markdown: string }
  | { kind: 'modified'; id: string; before: string; after: string; words: WordChange[] };

/**
 * Word-level changes from `before` to `after`: equal + delete texts rebuild `before`, equal + insert rebuild `after`.
 * Texts more than MAX_WORD_EDITS tokens apart are shown as replaced whole.
 */
export function diffWords(before: string, after: string): WordChange[] {
  const changes = diffWordsWithSpace(before, after, { maxEditLength: MAX_WORD_EDITS });
  const words: WordChange[] = changes
    ? changes.map((change) => ({
        op: change.added ? 'insert' : change.removed ? 'delete' : 'equal',
        text: change.value,
      }))
    : [
        { op: 'delete', text: before },
        { op: 'insert', text: after },
      ];
  return words.filter((word) => word.text !== '');
}

/** Ids placed right after an anchor id (null: the start), in the order they were hung there. */
type Hanging = Map<string | null, string[]>;

function hang(hanging: Hanging, anchor: string | null, id: string): void {
  const list = hanging.get(anchor);
  if (list) list.push(id);
  else hanging.set(anchor, [id]);
}

/** The ids hanging after `anchor`, each followed at once by those hanging after it (depth first, no recursion). */
function hangingAfter(hanging: Hanging, anchor: string | null): string[] {
  const ids: string[] = [];
  const stack = [...(hanging.get(anchor) ?? [])].reverse();
  for (let id = stack.pop(); id !== undefined; id = stack.pop()) {
    ids.push(id);
    const next = hanging.get(id) ?? [];
    for (let i = next.length - 1; i >= 0; i--) stack.push(next[i]!);
  }
  return ids;
}

/**
 * The changes from `before` to `after`, by block id, in display order: `after`'s order, each removed block placed
 * right after the block that preceded it in `before` (so consecutive removed blocks keep their order), or first when
 * nothing preceded it.
 */
export function diffBlocks(before: Block[], after: Block[]): BlockChange[] {
  const afterIds = new Set(after.map((b) => b.id));
  const beforeById = new Map(before.map((b) => [b.id, b]));
  const removed: Hanging = new Map();
  let previous: string | null = null;
  for (const block of before) {
    if (!afterIds.has(block.id)) hang(removed, previous, block.id);
    previous = block.id;
  }

  const changes: BlockChange[] = [];
  const pushRemoved = (anchor: string | null) => {
    for (const id of hangingAfter(removed, anchor))
      changes.push({ kind: 'removed', id, markdown: beforeById.get(id)!.markdown });
  };
  pushRemoved(null);
  for (const block of after) {
    const old = beforeById.get(block.id);
    if (!old) changes.push({ kind: 'added', id: block.id, markdown: block.markdown });
    else if (old.markdown === block.markdown)
      changes.push({ kind: 'unchanged', id: block.id, markdown: block.markdown });
    else
      changes.push({
        kind: 'modified',
        id: block.id,
        before: old.markdown,
        after: block.markdown,
        words: diffWords(old.markdown, block.markdown),
      });
    pushRemoved(block.id);
  }
  return changes;
}

/** A block both sides changed incompatibly. Texts are null where the block is absent (deleted, or not in base). */
export interface BlockConflict {
  blockId: string;
  base: string | null;
  ours: string | null;
  theirs: string | null;
}

export interface BlockMergeResult {
  blocks: Block[];
  conflicts: BlockConflict[];
}

/** Whether `side` lists the blocks of `base` it kept in base's order. */
function keepsBaseOrder(base: Block[], side: Block[], sideIds: Set<string>): boolean {
  const baseIds = new Set(base.map((b) => b.id));
  const kept = base.filter((b) => sideIds.has(b.id));
  const inSide = side.filter((b) => baseIds.has(b.id));
  return kept.length === inSide.length && kept.every((b, i) => b.id === inSide[i]!.id);
}

/**
 * Three-way merge by block id of `ours` (the space's current content) and `theirs` (the change request's), both
 * derived from `base`.
 *
 * - A block changed on one side only takes that side's version (edited, or deleted); the same edit on both sides
 *   merges; deleted on both, it is gone. Edited differently on each side, or deleted on one side and edited on the
 *   other, it is a conflict: the result holds ours' version, or theirs' when ours deleted it, so the page stays
 *   readable, and `conflicts` lists the three texts (in result order).
 * - A block added on one side (id not in base) is placed right after the nearest block preceding it in that side's
 *   order that is in the result, or first. Added after the same block on both sides: ours, then theirs. The same new
 *   id on both sides is kept once: with equal texts it merges, with different texts it is a conflict (base null).
 * - Order of the blocks from base: ours', unless ours kept base's order and theirs changed it, then theirs'. A
 *   block of the result missing from that side (a conflict kept from the other side) is placed like an added block.
 */
export function mergeBlocks(base: Block[], ours: Block[], theirs: Block[]): BlockMergeResult {
  const baseById = new Map(base.map((b) => [b.id, b]));
  const oursById = new Map(ours.map((b) => [b.id, b]));
  const theirsById = new Map(theirs.map((b) => [b.id, b]));

  // The merged version of every block that survives, and the conflicts.
  const merged = new Map<string, Block>();
  const conflicting = new Map<string, BlockConflict>();
  const conflict = (id: string, b?: Block, o?: Block, t?: Block) =>
    conflicting.set(id, {
      blockId: id,
      base: b?.markdown ?? null,
      ours: o?.markdown ?? null,
      theirs: t?.markdown ?? null,
    });
  for (const id of new Set([...baseById.keys(), ...oursById.keys(), ...theirsById.keys()])) {
    const b = baseById.get(id);
    const o = oursById.get(id);
    const t = theirsById.get(id);
    if (o && t) {
      if (o.markdown === t.markdown || t.markdown === b?.markdown) merged.set(id, o);
      else if (o.markdown === b?.markdown) merged.set(id, t);
      else {
        merged.set(id, o);
        conflict(id, b, o, t);
      }
    } else if (o || t) {
      const present = (o ?? t)!;
      // Not in base: added on one side. In base and unchanged where present: the other side's deletion wins.
      if (!b) merged.set(id, present);
      else if (present.markdown !== b.markdown) {
        merged.set(id, present);
        conflict(id, b, o, t);
      }
    }
  }

  // Skeleton: the blocks from base in the chosen side's order; every other block of the result hangs after the
  // nearest block preceding it in its side's order (ours first, so ours' insertions come before theirs').
  const oursIds = new Set(oursById.keys());
  const theirsIds = new Set(theirsById.keys());
  const theirsOrder = keepsBaseOrder(base, ours, oursIds) && !keepsBaseOrder(base, theirs, theirsIds);
  const primary = theirsOrder ? theirs : ours;
  const skeleton = primary.filter((block) => baseById.has(block.id) && merged.has(block.id)).map((block) => block.id);
  const placed = new Set(skeleton);
  const hanging: Hanging = new Map();
  for (const side of [ours, theirs]) {
    let anchor: string | null = null;
    for (const block of side) {
      if (!merged.has(block.id)) continue;
      if (!placed.has(block.id)) {
        hang(hanging, anchor, block.id);
        placed.add(block.id);
      }
      anchor = block.id;
    }
  }
  const order = [...hangingAfter(hanging, null), ...skeleton.flatMap((id) => [id, ...hangingAfter(hanging, id)])];

  return {
    blocks: order.map((id) => merged.get(id)!),
    conflicts: order.filter((id) => conflicting.has(id)).map((id) => conflicting.get(id)!),
  };
}

/**
 * `blocks` (a merge result) with one conflict resolved: the conflicting block takes ours' or theirs' text, or the
 * given markdown; an absent or blank text removes it. The text is parsed again (by `split`: parsed ahead for big texts), so its type is right and markdown
 * of several blocks gives several blocks; the first keeps the conflict's block id unless a later one kept it as the
 * closest match. Throws InvalidError when the block is not in `blocks`.
 */
export function resolveBlock(
  blocks: Block[],
  conflict: BlockConflict,
  choice: { keep: 'ours' | 'theirs' } | { markdown: string },
  newId: () => string,
  split: (markdown: string) => SplitBlock[] = splitBlocks,
): Block[] {
  const index = blocks.findIndex((b) => b.id === conflict.blockId);
  if (index < 0) throw new InvalidError('blockId', `no block ${conflict.blockId} in the merged content`);
  const text = 'keep' in choice ? conflict[choice.keep] : choice.markdown;
  let replacement = text === null ? [] : identifyBlocks(split(text), [blocks[index]!], newId);
  if (replacement.length > 0 && !replacement.some((b) => b.id === conflict.blockId))
    replacement = [{ ...replacement[0]!, id: conflict.blockId }, ...replacement.slice(1)];
  return [...blocks.slice(0, index), ...replacement, ...blocks.slice(index + 1)];
}
