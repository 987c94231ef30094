import { describe, expect, it } from 'vitest';
import { getSchema } from '@tiptap/core';
import { EditorState, TextSelection } from '@tiptap/pm/state';
import { editorExtensions } from '../../../shared/editor/markdown-blocks';
import { addItemAfterTr, itemAtSelection, itemLabels, moveItemTr, removeItemTr, today } from './items';

const schema = getSchema(editorExtensions());
const paragraph = (text: string) => ({ type: 'paragraph', content: [{ type: 'text', text }] });
const step = (text: string) => ({ type: 'step', content: [paragraph(text)] });

/** A page of a paragraph, then a stepper of `steps`, the cursor in the text `at`. */
function page(steps: string[], at: string) {
  const doc = schema.nodeFromJSON({
    type: 'doc',
    content: [paragraph('Before'), { type: 'stepper', content: steps.map(step) }],
  });
  let pos = 0;
  doc.descendants((node, p) => {
    if (node.isText && node.text === at) pos = p + 1;
  });
  return EditorState.create({ doc, selection: TextSelection.create(doc, pos) });
}

const texts = (state: EditorState) => state.doc.lastChild!.content.content.map((item) => item.textContent);

describe('items of GitBook blocks in the visual editor', () => {
  it('adds an item after the one the cursor is in, the cursor in its first line', () => {
    const state = page(['One', 'Two'], 'One');
    const item = itemAtSelection(state)!;
    expect(item.node.type.name).toBe('step');
    const next = state.apply(addItemAfterTr(state, item.pos, item.node));
    expect(texts(next)).toEqual(['One', '', 'Two']);
    expect(next.selection.$from.node(-1).type.name).toBe('step');
    expect(next.selection.$from.index(-2)).toBe(1);
  });

  it('removes an item, and with the last one its block', () => {
    const state = page(['One', 'Two'], 'Two');
    const item = itemAtSelection(state)!;
    const next = state.apply(removeItemTr(state, item.pos, item.node));
    expect(texts(next)).toEqual(['One']);
    const only = itemAtSelection(next)!;
    const none = next.apply(removeItemTr(next, only.pos, only.node));
    expect(none.doc.childCount).toBe(1);
    expect(none.doc.firstChild!.textContent).toBe('Before');
    expect(itemAtSelection(none)).toBeUndefined();
  });

  it('moves an item up or down, the cursor with it; not the first up nor the last down', () => {
    const state = page(['One', 'Two', 'Three'], 'Two');
    const item = itemAtSelection(state)!;
    const up = state.apply(moveItemTr(state, item.pos, item.node, -1)!);
    expect(texts(up)).toEqual(['Two', 'One', 'Three']);
    expect(up.selection.$from.parent.textContent).toBe('Two');
    expect(up.selection.$from.index(-2)).toBe(0);
    const down = state.apply(moveItemTr(state, item.pos, item.node, 1)!);
    expect(texts(down)).toEqual(['One', 'Three', 'Two']);
    expect(down.selection.$from.parent.textContent).toBe('Two');
    const first = itemAtSelection(up)!;
    expect(moveItemTr(up, first.pos, first.node, -1)).toBeUndefined();
    const last = itemAtSelection(down)!;
    expect(moveItemTr(down, last.pos, last.node, 1)).toBeUndefined();
    expect(itemLabels('step')).toMatchObject({ up: 'Move this step up', down: 'Move this step down' });
  });

  it('dates a new update today, and says what adds and removes an item with the right article', () => {
    const doc = schema.nodeFromJSON({
      type: 'doc',
      content: [
        { type: 'updates', content: [{ type: 'update', attrs: { date: '2020-01-01' }, content: [paragraph('Old')] }] },
      ],
    });
    const state = EditorState.create({ doc, selection: TextSelection.create(doc, 3) });
    const item = itemAtSelection(state)!;
    const next = state.apply(addItemAfterTr(state, item.pos, item.node));
    expect(next.doc.firstChild!.lastChild!.attrs.date).toBe(today());
    expect(today()).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(itemLabels('update')).toMatchObject({ add: 'Add an update after this one', remove: 'Remove this update' });
    expect(itemLabels('tab').add).toBe('Add a tab after this one');
  });
});
