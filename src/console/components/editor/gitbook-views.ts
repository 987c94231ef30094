import type { Editor, NodeViewRenderer } from '@tiptap/core';
import type { NodeView } from '@tiptap/pm/view';
import type { Node as PmNode } from '@tiptap/pm/model';
import { HINT_STYLES } from '../../../shared/editor/gitbook-nodes';
import { addItemAfter, itemLabels, removeItem } from './items';
import { createElement } from 'react';
import { createRoot } from 'react-dom/client';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { IntegrationBlock } from '../integrations/integration-block';

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

/**
 * The block's controls follow the editor: locked while it is read-only (a reader's, or a shared document's while it
 * loads), and unlocked when it becomes editable (which redraws no block). Returns what stops it.
 */
function followEditable(editor: Editor, dom: HTMLElement): () => void {
  let editable: boolean | undefined;
  const apply = () => {
    if (editable === editor.isEditable) return;
    editable = editor.isEditable;
    for (const el of dom.querySelectorAll<HTMLInputElement | HTMLSelectElement | HTMLButtonElement>(
      'input, select, button',
    )) {
      if (el instanceof HTMLInputElement && el.type !== 'checkbox') el.readOnly = !editable;
      else el.disabled = !editable;
    }
  };
  apply();
  editor.on('update', apply);
  return () => editor.off('update', apply);
}

/** Shows `value` in `input`, unless the writer is typing in it (their typing is what the node will hold). */
function showValue(input: HTMLInputElement, value: string) {
  if (input.value !== value && document.activeElement !== input) input.value = value;
}

/**
 * The view of a block of no blocks shown in `dom` by `sync` (now, and each time the node changes: `moved` is told
 * of the new one). Typing and clicking in its controls is theirs, not the editor's.
 */
function controlsView(
  editor: Editor,
  node: PmNode,
  dom: HTMLElement,
  sync: (node: PmNode) => void,
  moved: (node: PmNode) => void,
): NodeView {
  sync(node);
  return {
    dom,
    destroy: followEditable(editor, dom),
    update: (next) => {
      if (next.type !== node.type) return false;
      moved(next);
      sync(next);
      return true;
    },
    stopEvent: (event) => event.target instanceof HTMLInputElement || event.target instanceof HTMLButtonElement,
    ignoreMutation: () => true,
  };
}

/**
 * A block with a header of controls (`control`) above its editable content (a `div`, or what `content` makes: the
 * element shown and the one its text goes in).
 */
function withHeader(
  name: string,
  className: string,
  build: (ctx: {
    editor: Editor;
    current: () => PmNode;
    set: (attrs: Record<string, unknown>) => void;
    getPos: () => number | undefined;
  }) => {
    control: HTMLElement;
    sync: (node: PmNode) => void;
  },
  content: () => { shown: HTMLElement; text: HTMLElement } = () => {
    const div = document.createElement('div');
    return { shown: div, text: div };
  },
): NodeViewRenderer {
  return ({ node, getPos, editor }) => {
    let current = node;
    const dom = document.createElement('div');
    dom.className = className;
    if (name) dom.dataset.gitbook = name;
    const header = document.createElement('div');
    header.className = `${className}-header`;
    header.contentEditable = 'false';
    const { shown, text } = content();
    shown.classList.add(`${className}-content`);
    const { control, sync } = build({
      editor,
      current: () => current,
      set: (attrs) => setAttributes(editor, getPos as () => number | undefined, current, attrs),
      getPos: getPos as () => number | undefined,
    });
    header.append(control);
    dom.append(header, shown);
    sync(node);
    const stop = followEditable(editor, header);
    return {
      dom,
      contentDOM: text,
      destroy: stop,
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

export const hintView = withHeader('hint', 'editor-hint', ({ set }) => {
  const select = document.createElement('select');
  select.className = 'editor-block-control';
  select.setAttribute('aria-label', 'Hint style');
  for (const style of HINT_STYLES) select.append(new Option(HINT_LABELS[style], style));
  select.addEventListener('change', () => set({ style: select.value }));
  return {
    control: select,
    sync: (node) => {
      select.value = String(node.attrs.style || 'info');
      select.closest('.editor-hint')?.setAttribute('data-style', select.value);
    },
  };
});

/** A field of a block's header: the attribute it edits, what it is called, what it shows when empty. */
interface HeaderField {
  attr: string;
  label: string;
  placeholder: string;
}

/**
 * The inputs of `fields`, typed in place (each sets its attribute), and what shows a node's values in them (not in
 * the one being typed in).
 */
function headerInputs(className: string, fields: HeaderField[], set: (attrs: Record<string, unknown>) => void) {
  const inputs = fields.map((field) => {
    const input = document.createElement('input');
    input.className = `editor-block-control ${className}-${field.attr}`;
    input.setAttribute('aria-label', field.label);
    input.placeholder = field.placeholder;
    input.addEventListener('input', () => set({ [field.attr]: input.value }));
    return { attr: field.attr, input };
  });
  const sync = (node: PmNode) => {
    for (const { attr, input } of inputs) showValue(input, String(node.attrs[attr] ?? ''));
  };
  return { inputs: inputs.map(({ input }) => input), sync };
}

/** An expandable: its title typed in its header. */
export const expandableView = withHeader('expandable', 'editor-expandable', ({ set }) => {
  const field = { attr: 'title', label: 'Expandable title', placeholder: 'Expandable title' };
  const { inputs, sync } = headerInputs('editor-expandable', [field], set);
  return { control: inputs[0]!, sync };
});

/**
 * An item of a block of items (a tab, a step, a column, an update): its fields in its header (a tab's title, an
 * update's date and tags) or its name (a step's number, shown by CSS), and buttons to add one after it and to remove
 * it.
 */
function itemView(name: string, fields: HeaderField[] = []) {
  const className = `editor-${name}`;
  const labels = itemLabels(name);
  return withHeader(name, className, ({ editor, current, set, getPos }) => {
    const control = document.createElement('div');
    control.className = 'editor-item-header';
    const { inputs, sync } = headerInputs(className, fields, set);
    control.append(...inputs);
    if (inputs.length === 0) {
      const label = document.createElement('span');
      label.className = `${className}-label`;
      control.append(label);
    }
    const button = (text: string, label: string, run: (pos: number) => void) => {
      const el = document.createElement('button');
      el.type = 'button';
      el.className = 'editor-item-button';
      el.textContent = text;
      el.title = label;
      el.setAttribute('aria-label', label);
      el.addEventListener('click', () => {
        const pos = getPos();
        if (typeof pos === 'number') run(pos);
      });
      control.append(el);
    };
    button('+', labels.add, (pos) => addItemAfter(editor, pos, current()));
    button('×', labels.remove, (pos) => removeItem(editor, pos, current()));
    return { control, sync };
  });
}

const tabView = itemView('tab', [{ attr: 'title', label: 'Tab title', placeholder: 'Tab title' }]);
const stepView = itemView('step');
const columnView = itemView('column');
const updateView = itemView('update', [
  { attr: 'date', label: 'Update date', placeholder: 'YYYY-MM-DD' },
  { attr: 'tags', label: 'Update tags', placeholder: 'Tags' },
]);

/** The formula of a block of math (`$$` on lines of their own around it), or undefined for other markdown. */
export function formulaOf(markdown: string): string | undefined {
  return /^\s*\$\$\s*\n([\s\S]*?)\n\s*\$\$\s*$/.exec(markdown)?.[1]?.trim() || undefined;
}

/**
 * A block kept as its markdown, typed as such; a block of math shows its formula under it as readers will see it,
 * following each change (KaTeX, loaded when a page has math).
 */
const sourceView: NodeViewRenderer = ({ node }) => {
  const dom = document.createElement('div');
  dom.className = 'editor-source';
  const pre = document.createElement('pre');
  pre.className = 'markdown-source';
  pre.dataset.markdownSource = '';
  pre.spellcheck = false;
  const preview = document.createElement('div');
  preview.className = 'editor-math-preview';
  preview.contentEditable = 'false';
  preview.hidden = true;
  dom.append(pre, preview);
  let shown: string | undefined;
  const show = (next: PmNode) => {
    const formula = formulaOf(next.textContent);
    if (formula === shown) return;
    shown = formula;
    if (formula === undefined) {
      preview.hidden = true;
      preview.replaceChildren();
      return;
    }
    void import('./math-preview').then(({ formulaHtml }) => {
      if (shown !== formula) return;
      // KaTeX's own markup (it escapes the formula; `trust` is off: no links or HTML from the page).
      preview.innerHTML = formulaHtml(formula);
      preview.hidden = !preview.firstChild;
    });
  };
  show(node);
  return {
    dom,
    contentDOM: pre,
    update: (next) => {
      if (next.type !== node.type) return false;
      show(next);
      return true;
    },
    // The preview is the view's own, not the document's.
    ignoreMutation: (mutation) => preview.contains(mutation.target),
  };
};

/**
 * A code block: its language, and GitBook's title, line numbers and wrapped lines, set in its header above the code.
 * Enter in a field goes to the code.
 */
const codeView = withHeader(
  '',
  'editor-code',
  ({ editor, set, getPos }) => {
    const controls = document.createElement('div');
    controls.className = 'editor-code-controls';
    const toCode = (event: KeyboardEvent) => {
      if (event.key !== 'Enter') return;
      event.preventDefault();
      const pos = getPos();
      if (typeof pos !== 'number') return;
      editor
        .chain()
        .setTextSelection(pos + 1)
        .run();
      editor.view.focus();
    };
    const field = (name: string, label: string, placeholder: string, size: number) => {
      const input = document.createElement('input');
      input.className = `editor-block-control editor-code-${name}`;
      input.setAttribute('aria-label', label);
      input.placeholder = placeholder;
      input.size = size;
      input.spellcheck = false;
      input.addEventListener('input', () => set({ [name]: input.value.trim() || (name === 'language' ? null : '') }));
      input.addEventListener('keydown', toCode);
      controls.append(input);
      return input;
    };
    const check = (name: string, label: string, on: string) => {
      const box = document.createElement('label');
      box.className = 'editor-code-option';
      const input = document.createElement('input');
      input.type = 'checkbox';
      input.addEventListener('change', () => set({ [name]: input.checked ? on : '' }));
      box.append(input, label);
      controls.append(box);
      return input;
    };
    const language = field('language', 'Code language', 'Language', 10);
    const title = field('title', 'Code title', 'Title (optional)', 18);
    const lines = check('lineNumbers', 'Line numbers', 'true');
    const wrap = check('overflow', 'Wrap lines', 'wrap');
    return {
      control: controls,
      sync: (node) => {
        showValue(language, String(node.attrs.language ?? ''));
        showValue(title, String(node.attrs.title ?? ''));
        lines.checked = node.attrs.lineNumbers === 'true';
        wrap.checked = node.attrs.overflow === 'wrap';
        controls.parentElement?.parentElement?.classList.toggle('editor-code-wrap', wrap.checked);
      },
    };
  },
  () => {
    const pre = document.createElement('pre');
    const code = document.createElement('code');
    pre.append(code);
    return { shown: pre, text: code };
  },
);

export const gitbookViews = {
  hint: hintView,
  tab: tabView,
  step: stepView,
  column: columnView,
  update: updateView,
  expandable: expandableView,
  markdownSource: sourceView,
  codeBlock: codeView,
};

/** Asks for a page (the link dialog): `apply` gets its address and title. */
export type PickPage = (href: string | undefined, apply: (href: string, title: string) => void) => void;

interface Field {
  name: string;
  label: string;
  placeholder: string;
  /** Values to suggest as the writer types (a list under the field), read each time the field is focused. */
  suggest?: () => Suggestion[];
}

/** A value suggested for a field, and what it names. */
export interface Suggestion {
  value: string;
  label: string;
}

let suggestionLists = 0;

/**
 * A GitBook block of no blocks (an embed, a file, a page reference, an include): its name, and its fields typed in
 * place. `pick`: a button choosing a page for the `url` field (the page reference), which sets its title too.
 */
function atomView(name: string, title: string, fields: Field[], pick?: PickPage): NodeViewRenderer {
  return ({ node, getPos, editor }) => {
    let current = node;
    const set = (attrs: Record<string, unknown>) =>
      setAttributes(editor, getPos as () => number | undefined, current, attrs);
    /** The caret in the text after the block (a paragraph made there if a block that holds none follows). */
    const leave = () => {
      const pos = getPos();
      if (typeof pos !== 'number') return;
      const after = pos + current.nodeSize;
      const chain = editor.chain().focus();
      if (!editor.state.doc.resolve(after).nodeAfter?.isTextblock) chain.insertContentAt(after, { type: 'paragraph' });
      chain
        .setTextSelection(after + 1)
        .scrollIntoView()
        .run();
      // Now, not at the next frame as the focus command does: the writer's next key (typed at once after Enter) goes
      // to the text, not to the field it left.
      editor.view.focus();
    };
    const dom = document.createElement('div');
    dom.className = `editor-atom editor-${name}`;
    dom.dataset.gitbook = name;
    dom.contentEditable = 'false';
    const heading = document.createElement('span');
    heading.className = 'editor-atom-title';
    heading.textContent = title;
    dom.append(heading);
    const inputs = fields.map((field) => {
      const label = document.createElement('label');
      label.className = 'editor-atom-field';
      const text = document.createElement('span');
      text.textContent = field.label;
      const input = document.createElement('input');
      input.className = 'editor-block-control';
      input.placeholder = field.placeholder;
      input.setAttribute('aria-label', `${title}: ${field.label.toLowerCase()}`);
      input.addEventListener('input', () => set({ [field.name]: input.value }));
      // Enter and Escape take the writer back to the text, after the block.
      input.addEventListener('keydown', (event) => {
        if (event.key !== 'Enter' && event.key !== 'Escape') return;
        event.preventDefault();
        leave();
      });
      label.append(text, input);
      dom.append(label);
      if (field.suggest) {
        // The browser's own list under the field (arrows and Enter pick; typing filters), filled when it is focused.
        const list = document.createElement('datalist');
        list.id = `editor-suggestions-${++suggestionLists}`;
        input.setAttribute('list', list.id);
        const suggest = field.suggest;
        input.addEventListener('focus', () =>
          list.replaceChildren(
            ...suggest().map(({ value, label: name }) =>
              Object.assign(document.createElement('option'), { value, label: name }),
            ),
          ),
        );
        dom.append(list);
      }
      return { field, input };
    });
    const button = pick && document.createElement('button');
    if (button) {
      button.type = 'button';
      button.className = 'editor-atom-pick';
      button.textContent = 'Choose a page…';
      button.addEventListener('click', () =>
        pick(String(current.attrs.url ?? '') || undefined, (href, label) => {
          set({ url: href, title: label });
          leave();
        }),
      );
      dom.append(button);
    }
    const sync = (next: PmNode) => {
      for (const { field, input } of inputs) {
        showValue(input, String(next.attrs[field.name] ?? ''));
      }
    };
    return controlsView(editor, node, dom, sync, (next) => (current = next));
  };
}

/**
 * An image with its caption (a figure): the image, shown from `imageSrc`, with its caption and its text for those who
 * cannot see it (alt) typed in place.
 */
function figureView(imageSrc: (src: string) => string): NodeViewRenderer {
  return ({ node, getPos, editor }) => {
    let current = node;
    const set = (attrs: Record<string, unknown>) =>
      setAttributes(editor, getPos as () => number | undefined, current, attrs);
    const dom = document.createElement('figure');
    dom.className = 'editor-figure';
    dom.dataset.gitbook = 'figure';
    dom.contentEditable = 'false';
    const img = document.createElement('img');
    const fields = (['caption', 'alt'] as const).map((name) => {
      const input = document.createElement('input');
      input.className = `editor-block-control editor-figure-${name}`;
      input.setAttribute('aria-label', name === 'caption' ? 'Image caption' : 'Image description (alt text)');
      input.placeholder = name === 'caption' ? 'Caption' : 'Describe the image for those who cannot see it';
      input.addEventListener('input', () => set({ [name]: input.value }));
      return { name, input };
    });
    const caption = document.createElement('figcaption');
    caption.append(...fields.map((f) => f.input));
    dom.append(img, caption);
    const sync = (next: PmNode) => {
      const src = String(next.attrs.src ?? '');
      if (img.dataset.file !== src) {
        img.dataset.file = src;
        img.src = imageSrc(src);
      }
      img.alt = String(next.attrs.alt ?? '');
      for (const { name, input } of fields) {
        showValue(input, String(next.attrs[name] ?? ''));
      }
    };
    return controlsView(editor, node, dom, sync, (next) => (current = next));
  };
}

/**
 * The views of GitBook's blocks of no blocks and of figures: `pick` chooses the page of a page reference,
 * `imageSrc` says where an image is shown from, `includes` are the reusable contents an include may name.
 */
export function atomViews(
  pick: PickPage,
  imageSrc: (src: string) => string,
  includes: () => Suggestion[] = () => [],
): Record<string, NodeViewRenderer> {
  return {
    figure: figureView(imageSrc),
    embed: atomView('embed', 'Embed', [
      { name: 'url', label: 'Address', placeholder: 'https://…' },
      { name: 'caption', label: 'Caption', placeholder: 'Optional' },
    ]),
    file: atomView('file', 'File', [
      { name: 'src', label: 'File', placeholder: '/files/…' },
      { name: 'caption', label: 'Caption', placeholder: 'Optional' },
    ]),
    'content-ref': atomView(
      'content-ref',
      'Page reference',
      [
        { name: 'title', label: 'Title', placeholder: 'The page’s title' },
        { name: 'url', label: 'Page', placeholder: 'A page, or an address' },
      ],
      pick,
    ),
    'openapi-operation': atomView('openapi-operation', 'OpenAPI operation', [
      { name: 'spec', label: 'Specification', placeholder: 'Its name in the organization' },
      { name: 'method', label: 'Method', placeholder: 'get' },
      { name: 'path', label: 'Path', placeholder: '/pets' },
    ]),
    include: atomView('include', 'Reusable content', [
      { name: 'path', label: 'Name', placeholder: 'The reusable content’s name', suggest: includes },
    ]),
  };
}

/**
 * An integration's block in the editor: rendered by its integration where the writer may change it (its editing
 * controls, if it has any), the props it changes kept in the document. `context` gives the space of the page and
 * the console's query client (the block is a React tree of its own inside the editor).
 */
export function integrationView(context: () => { spaceId: string | undefined; client: QueryClient }): NodeViewRenderer {
  return ({ node, getPos, editor }) => {
    let current = node;
    const dom = document.createElement('div');
    dom.className = 'editor-atom editor-integration';
    dom.dataset.gitbook = 'integration';
    dom.contentEditable = 'false';
    const root = createRoot(dom);
    const show = (next: PmNode) => {
      const { spaceId, client } = context();
      let props: unknown;
      try {
        props = JSON.parse(String(next.attrs.props ?? '{}'));
      } catch {
        props = {};
      }
      const integration = String(next.attrs.integration ?? '');
      const block = String(next.attrs.block ?? '');
      root.render(
        spaceId && props && typeof props === 'object'
          ? createElement(
              QueryClientProvider,
              { client },
              createElement(IntegrationBlock, {
                integration,
                block,
                props: props as Record<string, unknown>,
                spaceId,
                editable: true,
                unfurl: String(next.attrs.unfurl ?? '') || undefined,
                onPropsChange: (changed) => {
                  if (editor.isEditable)
                    setAttributes(editor, getPos as () => number | undefined, current, {
                      props: JSON.stringify(changed),
                      unfurl: '',
                    });
                },
              }),
            )
          : createElement('p', { className: 'gb-integration-label' }, `${integration} · ${block}`),
      );
    };
    show(node);
    return {
      dom,
      update: (next) => {
        if (next.type !== node.type) return false;
        // Its own props, changed by its script, need no new render: the block shows them already.
        const same = next.attrs.integration === current.attrs.integration && next.attrs.block === current.attrs.block;
        current = next;
        if (!same) show(next);
        return true;
      },
      // What the reader does inside the block is the block's (typing in its fields, pressing its buttons).
      stopEvent: (event) =>
        event.target instanceof HTMLElement && !!event.target.closest('input, textarea, select, button, iframe'),
      ignoreMutation: () => true,
      destroy: () => setTimeout(() => root.unmount()),
    };
  };
}
