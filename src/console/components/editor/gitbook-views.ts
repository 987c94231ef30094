import type { Editor, NodeViewRenderer } from '@tiptap/core';
import type { Node as PmNode } from '@tiptap/pm/model';
import { HINT_STYLES } from '../../../shared/editor/gitbook-nodes';

/**
 * How GitBook's blocks look in the visual editor: a hint with its style to choose, a tab with its title to type,
 * the content of each edited in place below.
 */

/** Sets attributes of the node at `getPos()`. */
function setAttributes(editor: Editor, getPos: () => number | undefined, node: PmNode, attrs: Record<string, unknown>) {
  const pos = getPos();
  if (typeof pos !== 'number') return;
  editor.view.dispatch(editor.view.state.tr.setNodeMarkup(pos, undefined, { ...node.attrs, ...attrs }));
}

/** A block with a header of controls (`control`) above its editable content. */
function withHeader(
  name: string,
  className: string,
  build: (ctx: { editor: Editor; current: () => PmNode; set: (attrs: Record<string, unknown>) => void }) => {
    control: HTMLElement;
    sync: (node: PmNode) => void;
  },
): NodeViewRenderer {
  return ({ node, getPos, editor }) => {
    let current = node;
    const dom = document.createElement('div');
    dom.className = className;
    dom.dataset.gitbook = name;
    const header = document.createElement('div');
    header.className = `${className}-header`;
    header.contentEditable = 'false';
    const content = document.createElement('div');
    content.className = `${className}-content`;
    const { control, sync } = build({
      editor,
      current: () => current,
      set: (attrs) => setAttributes(editor, getPos as () => number | undefined, current, attrs),
    });
    header.append(control);
    dom.append(header, content);
    sync(node);
    return {
      dom,
      contentDOM: content,
      update: (next) => {
        if (next.type !== current.type) return false;
        current = next;
        sync(next);
        return true;
      },
      stopEvent: (event) => header.contains(event.target as Node),
      ignoreMutation: (mutation) => header.contains(mutation.target),
    };
  };
}

const HINT_LABELS: Record<string, string> = { info: 'Info', success: 'Success', warning: 'Warning', danger: 'Danger' };

export const hintView = withHeader('hint', 'editor-hint', ({ editor, set }) => {
  const select = document.createElement('select');
  select.className = 'editor-block-control';
  select.setAttribute('aria-label', 'Hint style');
  for (const style of HINT_STYLES) select.append(new Option(HINT_LABELS[style], style));
  select.addEventListener('change', () => set({ style: select.value }));
  return {
    control: select,
    sync: (node) => {
      select.value = String(node.attrs.style || 'info');
      select.disabled = !editor.isEditable;
      select.closest('.editor-hint')?.setAttribute('data-style', select.value);
    },
  };
});

/** A title typed in a block's header (a tab's, an expandable's). */
function titleView(name: string, className: string, label: string) {
  return withHeader(name, className, ({ editor, set }) => {
    const input = document.createElement('input');
    input.className = `editor-block-control ${className}-title`;
    input.setAttribute('aria-label', label);
    input.placeholder = label;
    input.addEventListener('input', () => set({ title: input.value }));
    return {
      control: input,
      sync: (node) => {
        const title = String(node.attrs.title ?? '');
        if (input.value !== title && document.activeElement !== input) input.value = title;
        input.readOnly = !editor.isEditable;
      },
    };
  });
}

export const tabView = titleView('tab', 'editor-tab', 'Tab title');
export const expandableView = titleView('expandable', 'editor-expandable', 'Expandable title');

export const gitbookViews = { hint: hintView, tab: tabView, expandable: expandableView };
