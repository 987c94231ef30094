import type { Editor } from '@tiptap/core';
import type { Node as PmNode } from '@tiptap/pm/model';
import { TextSelection, type EditorState, type Transaction } from '@tiptap/pm/state';
import { ITEMS } from '../../../shared/editor/gitbook-nodes';

/**
 * The items of GitBook's blocks of items (a tab of tabs, a step of a stepper, a column of columns, an update of
 * updates): added after one and removed, from the buttons in the item's header or from the `/` menu typed in it,
 * and moved up or down from the `/` menu.
 */

/** What adds an item of `type` after one, removes one, and moves one up or down, say. */
export function itemLabels(type: string): { add: string; remove: string; up: string; down: string } {
  const article = /^[aeiou]/.test(type) ? 'an' : 'a';
  return {
    add: `Add ${article} ${type} after this one`,
    remove: `Remove this ${type}`,
    up: `Move this ${type} up`,
    down: `Move this ${type} down`,
  };
}

/** Today as an update's date (`YYYY-MM-DD`, as GitBook writes it). */
export const today = () => new Date().toISOString().slice(0, 10);

/** The attributes of a new item of `type`: a tab's title to type over, today's date for an update. */
export function newItemAttrs(type: string): Record<string, string> {
  if (type === 'tab') return { title: 'New tab' };
  if (type === 'update') return { date: today() };
  return {};
}

/** The innermost item holding the selection, and where it starts. */
export function itemAtSelection(state: EditorState): { pos: number; node: PmNode } | undefined {
  const { $from } = state.selection;
  for (let depth = $from.depth; depth > 0; depth--) {
    const node = $from.node(depth);
    if (node.type.name in ITEMS) return { pos: $from.before(depth), node };
  }
  return undefined;
}

/** The change that adds an item of the same kind after the `node` at `pos`, the cursor in its first line. */
export function addItemAfterTr(state: EditorState, pos: number, node: PmNode): Transaction {
  const item = node.type.create(newItemAttrs(node.type.name), state.schema.nodes.paragraph!.create());
  const at = pos + node.nodeSize;
  const tr = state.tr.insert(at, item);
  return tr.setSelection(TextSelection.create(tr.doc, at + 2)).scrollIntoView();
}

/**
 * The change that removes the `node` at `pos`; the last item of its block removes the block (a stepper of no step
 * is not one). The cursor goes where it was, or to the nearest text before.
 */
export function removeItemTr(state: EditorState, pos: number, node: PmNode): Transaction {
  const $pos = state.doc.resolve(pos);
  const last = $pos.parent.childCount === 1;
  const from = last ? $pos.before() : pos;
  const to = last ? $pos.after() : pos + node.nodeSize;
  const tr = state.tr.delete(from, to);
  return tr.setSelection(TextSelection.near(tr.doc.resolve(Math.min(from, tr.doc.content.size)), -1)).scrollIntoView();
}

/**
 * The change that moves the item `node` at `pos` before the item above it (`by` -1) or after the one below it (1),
 * the cursor where it was in the item; undefined for the first item moved up or the last moved down.
 */
export function moveItemTr(state: EditorState, pos: number, node: PmNode, by: -1 | 1): Transaction | undefined {
  const $pos = state.doc.resolve(pos);
  const sibling = $pos.parent.maybeChild($pos.index() + by);
  if (!sibling) return undefined;
  const { from } = state.selection;
  const inside = from > pos && from < pos + node.nodeSize ? from - pos : 1;
  const tr = state.tr.delete(pos, pos + node.nodeSize);
  const at = by === -1 ? pos - sibling.nodeSize : pos + sibling.nodeSize;
  tr.insert(at, node);
  return tr.setSelection(TextSelection.near(tr.doc.resolve(at + inside))).scrollIntoView();
}

/** Applies an item's change (if there is one), and goes back to the text. */
function apply(editor: Editor, tr: Transaction | undefined) {
  if (tr) editor.view.dispatch(tr);
  editor.view.focus();
}

/** Adds an item after the `node` at `pos` (addItemAfterTr). */
export const addItemAfter = (editor: Editor, pos: number, node: PmNode) =>
  apply(editor, addItemAfterTr(editor.state, pos, node));

/** Removes the item `node` at `pos` (removeItemTr). */
export const removeItem = (editor: Editor, pos: number, node: PmNode) =>
  apply(editor, removeItemTr(editor.state, pos, node));

/** Moves the item `node` at `pos` up or down (moveItemTr), if it can be. */
export const moveItem = (editor: Editor, pos: number, node: PmNode, by: -1 | 1) =>
  apply(editor, moveItemTr(editor.state, pos, node, by));
