import { Extension, type Editor, type JSONContent, type Range } from '@tiptap/core';
import Suggestion, { type SuggestionKeyDownProps, type SuggestionProps } from '@tiptap/suggestion';
import { PluginKey } from '@tiptap/pm/state';
import { HINT_STYLES } from '../../../shared/editor/gitbook-nodes';
import { source } from '../../../shared/editor/markdown-blocks';
import { addItemAfter, itemAtSelection, itemLabels, moveItem, newItemAttrs, removeItem } from './items';

/**
 * The `/` menu: typed at the start of a line or after a space, it lists the blocks a page can hold, filtered by what
 * is typed after it; ↑/↓ choose, Enter inserts, Escape closes. Blocks the editor shows as what they are (lists,
 * tables, hints, tabs, steppers, columns, updates, embeds, page references, OpenAPI operations, includes…) are
 * inserted as such; math as a block of source to fill in, written as GitBook writes it.
 */

export interface SlashItem {
  title: string;
  /** Other words it is found by. */
  keywords: string;
  run(editor: Editor, range: Range): void;
}

const paragraph = (): JSONContent => ({ type: 'paragraph' });
/** Inserts `content` for the `/` typed at `range`, the cursor in its first line (a block's title, its first tab). */
const insert = (content: JSONContent) => (editor: Editor, range: Range) => {
  editor.chain().focus().deleteRange(range).insertContent(content).run();
  const { doc } = editor.state;
  let first: number | undefined;
  doc.nodesBetween(Math.max(0, range.from - 1), doc.content.size, (node, pos) => {
    if (first !== undefined) return false;
    if (node.isTextblock) {
      first = pos + 1;
      return false;
    }
    return true;
  });
  if (first !== undefined) editor.commands.setTextSelection(first);
};

/**
 * Inserts a GitBook block of fields (an embed, a page reference…) for the `/` at `range`, and takes the writer to
 * its first field, or opens its page picker.
 */
const insertAtom = (type: string, attrs: Record<string, string>) => (editor: Editor, range: Range) => {
  editor.chain().focus().deleteRange(range).insertContent({ type, attrs }).run();
  let at: number | undefined;
  editor.state.doc.nodesBetween(Math.max(0, range.from - 1), editor.state.doc.content.size, (node, pos) => {
    if (at === undefined && node.type.name === type) at = pos;
    return at === undefined;
  });
  const dom = at === undefined ? null : editor.view.nodeDOM(at);
  if (!(dom instanceof HTMLElement)) return;
  const pick = dom.querySelector('button');
  if (pick) pick.click();
  else dom.querySelector('input')?.focus();
};

const HINT_TITLES: Record<(typeof HINT_STYLES)[number], string> = {
  info: 'Hint: info',
  success: 'Hint: success',
  warning: 'Hint: warning',
  danger: 'Hint: danger',
};

export function slashItems(options: { upload?: () => void }): SlashItem[] {
  const items: SlashItem[] = [
    {
      title: 'Text',
      keywords: 'paragraph plain',
      run: (e, r) => e.chain().focus().deleteRange(r).setParagraph().run(),
    },
    ...([1, 2, 3] as const).map((level) => ({
      title: `Heading ${level}`,
      keywords: `h${level} title section`,
      run: (e: Editor, r: Range) => e.chain().focus().deleteRange(r).setHeading({ level }).run(),
    })),
    {
      title: 'Bulleted list',
      keywords: 'ul unordered bullet',
      run: (e, r) => e.chain().focus().deleteRange(r).toggleBulletList().run(),
    },
    {
      title: 'Numbered list',
      keywords: 'ol ordered number',
      run: (e, r) => e.chain().focus().deleteRange(r).toggleOrderedList().run(),
    },
    {
      title: 'Task list',
      keywords: 'todo checkbox check',
      run: (e, r) => e.chain().focus().deleteRange(r).toggleTaskList().run(),
    },
    { title: 'Quote', keywords: 'blockquote', run: (e, r) => e.chain().focus().deleteRange(r).setBlockquote().run() },
    {
      title: 'Code block',
      keywords: 'code snippet pre',
      run: (e, r) => e.chain().focus().deleteRange(r).setCodeBlock().run(),
    },
    {
      title: 'Table',
      keywords: 'grid rows columns',
      run: (e, r) => e.chain().focus().deleteRange(r).insertTable({ rows: 3, cols: 3, withHeaderRow: true }).run(),
    },
    {
      title: 'Divider',
      keywords: 'horizontal rule hr line',
      run: (e, r) => e.chain().focus().deleteRange(r).setHorizontalRule().run(),
    },
    ...HINT_STYLES.map((style) => ({
      title: HINT_TITLES[style],
      keywords: `hint callout note ${style}`,
      run: insert({ type: 'hint', attrs: { style }, content: [paragraph()] }),
    })),
    {
      title: 'Tabs',
      keywords: 'tab tabs alternatives',
      run: insert({
        type: 'tabs',
        content: [
          { type: 'tab', attrs: { title: 'First tab' }, content: [paragraph()] },
          { type: 'tab', attrs: { title: 'Second tab' }, content: [paragraph()] },
        ],
      }),
    },
    {
      title: 'Stepper',
      keywords: 'steps stepper procedure',
      run: insert({
        type: 'stepper',
        content: [
          { type: 'step', content: [paragraph()] },
          { type: 'step', content: [paragraph()] },
        ],
      }),
    },
    {
      title: 'Columns',
      keywords: 'columns side by side layout two',
      run: insert({
        type: 'columns',
        content: [
          { type: 'column', content: [paragraph()] },
          { type: 'column', content: [paragraph()] },
        ],
      }),
    },
    {
      title: 'Updates',
      keywords: 'changelog release notes whats new updates',
      // Its first update dated the day it is inserted.
      run: (e, r) =>
        insert({
          type: 'updates',
          attrs: { format: 'full' },
          content: [{ type: 'update', attrs: newItemAttrs('update'), content: [paragraph()] }],
        })(e, r),
    },
    {
      title: 'Expandable',
      keywords: 'details collapse accordion toggle',
      run: insert({ type: 'expandable', attrs: { title: 'More' }, content: [paragraph()] }),
    },
    {
      title: 'Embed a URL',
      keywords: 'embed video youtube iframe link',
      run: insertAtom('embed', { url: '', caption: '' }),
    },
    {
      title: 'Page reference',
      keywords: 'content-ref link card page',
      run: insertAtom('content-ref', { url: '', title: '' }),
    },
    {
      title: 'Reusable content',
      keywords: 'include snippet reuse',
      run: insertAtom('include', { path: '' }),
    },
    { title: 'Math', keywords: 'latex tex formula equation', run: insert(source('$$\nE = mc^2\n$$')) },
    {
      title: 'OpenAPI operation',
      keywords: 'api endpoint swagger openapi',
      run: insertAtom('openapi-operation', { spec: '', path: '', method: 'get', link: '' }),
    },
  ];
  if (options.upload) {
    const upload = options.upload;
    items.push({
      title: 'Image or file',
      keywords: 'upload picture photo attachment file image',
      run: (e, r) => {
        e.chain().focus().deleteRange(r).run();
        upload();
      },
    });
  }
  return items;
}

/**
 * Typed in an item of a block of items (a tab, a step, a column, an update), the `/` menu first offers to add one
 * after it and to remove it (what the buttons in its header do, from the keyboard), and to move it up or down.
 */
export function itemActions(editor: Editor): SlashItem[] {
  const item = itemAtSelection(editor.state);
  if (!item) return [];
  const type = item.node.type.name;
  const labels = itemLabels(type);
  /**
   * Runs `action` on the item once the `/` and what follows it are gone (the item has moved by as much), and the
   * line they were typed on with them when it was a line of its own (not the item's only one).
   */
  const after =
    (action: typeof addItemAfter) =>
    (e: Editor, r: Range): void => {
      e.chain().focus().deleteRange(r).run();
      const at = itemAtSelection(e.state);
      if (!at) return;
      const { $from } = e.state.selection;
      if ($from.parent.isTextblock && $from.parent.content.size === 0 && $from.node($from.depth - 1).childCount > 1) {
        // (The item starts before the line: it stays where it is, one line shorter.)
        e.view.dispatch(e.state.tr.delete($from.before(), $from.after()));
      }
      const node = e.state.doc.nodeAt(at.pos);
      if (node) action(e, at.pos, node);
    };
  // Where it stands among its block's items: the first is not moved up, nor the last down.
  const $item = editor.state.doc.resolve(item.pos);
  const index = $item.index();
  return [
    { title: labels.add, keywords: `new insert ${type}`, run: after(addItemAfter) },
    { title: labels.remove, keywords: `delete ${type}`, run: after(removeItem) },
    ...(index > 0
      ? [
          {
            title: labels.up,
            keywords: `reorder before ${type}`,
            run: after((e, pos, node) => moveItem(e, pos, node, -1)),
          },
        ]
      : []),
    ...(index < $item.parent.childCount - 1
      ? [
          {
            title: labels.down,
            keywords: `reorder after ${type}`,
            run: after((e, pos, node) => moveItem(e, pos, node, 1)),
          },
        ]
      : []),
  ];
}

/** The items whose title or keywords hold every word of `query`. */
export function filterSlashItems(items: SlashItem[], query: string): SlashItem[] {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  return items.filter((item) => {
    const text = `${item.title} ${item.keywords}`.toLowerCase();
    return words.every((w) => text.includes(w));
  });
}

/** The menu on screen: a listbox under the `/`, kept in step with the query. */
class SlashMenuView {
  private readonly root = document.createElement('div');
  private items: SlashItem[] = [];
  private active = 0;
  private props: SuggestionProps<SlashItem> | undefined;
  private static count = 0;
  private readonly id = `slash-menu-${SlashMenuView.count++}`;

  constructor() {
    this.root.className = 'slash-menu';
    this.root.setAttribute('role', 'listbox');
    this.root.id = this.id;
    this.root.setAttribute('aria-label', 'Insert a block');
    document.body.append(this.root);
  }

  update(props: SuggestionProps<SlashItem>) {
    this.props = props;
    this.items = props.items;
    if (this.active >= this.items.length) this.active = 0;
    this.render();
    const rect = props.clientRect?.();
    if (rect) {
      const below = rect.bottom + 4;
      const top = below + 320 > window.innerHeight ? Math.max(8, rect.top - 324) : below;
      this.root.style.top = `${top + window.scrollY}px`;
      this.root.style.left = `${Math.min(rect.left, window.innerWidth - 268) + window.scrollX}px`;
    }
    // The editor says which option is chosen, for screen readers.
    const dom = props.editor.view.dom;
    dom.setAttribute('aria-controls', this.id);
    dom.setAttribute('aria-activedescendant', `${this.id}-${this.active}`);
  }

  private render() {
    this.root.replaceChildren();
    if (!this.items.length) {
      const empty = document.createElement('div');
      empty.className = 'slash-menu-empty';
      empty.textContent = 'No block matches';
      this.root.append(empty);
      return;
    }
    this.items.forEach((item, index) => {
      const option = document.createElement('div');
      option.id = `${this.id}-${index}`;
      option.className = 'slash-menu-item';
      option.setAttribute('role', 'option');
      option.setAttribute('aria-selected', String(index === this.active));
      option.textContent = item.title;
      option.addEventListener('mousedown', (event) => {
        event.preventDefault();
        this.choose(index);
      });
      this.root.append(option);
    });
    this.root.querySelector('[aria-selected="true"]')?.scrollIntoView({ block: 'nearest' });
  }

  private choose(index: number) {
    const item = this.items[index];
    if (item && this.props) this.props.command(item);
  }

  keyDown({ event }: SuggestionKeyDownProps): boolean {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      if (!this.items.length) return true;
      const step = event.key === 'ArrowDown' ? 1 : -1;
      this.active = (this.active + step + this.items.length) % this.items.length;
      if (this.props) this.update(this.props);
      return true;
    }
    if (event.key === 'Enter' || event.key === 'Tab') {
      if (!this.items.length) return false;
      this.choose(this.active);
      return true;
    }
    return false;
  }

  destroy() {
    const dom = this.props?.editor.view.dom;
    dom?.removeAttribute('aria-controls');
    dom?.removeAttribute('aria-activedescendant');
    this.root.remove();
  }
}

/** A block an integration installed in the space offers (`blocks` of its manifest). */
export interface OfferedBlock {
  integration: string;
  /** The integration's title. */
  title: string;
  block: string;
  blockTitle: string;
  /** The links it is made from when pasted (`urlUnfurl` patterns). */
  urlUnfurl: string[];
}

/** The `/` menu's items for the blocks the space's integrations offer: each inserts one, its props empty. */
export function integrationBlockItems(blocks: OfferedBlock[]): SlashItem[] {
  return blocks.map((b) => ({
    title: `${b.blockTitle} (${b.title})`,
    keywords: `integration ${b.integration} ${b.block}`,
    run: (e: Editor, r: Range) =>
      e
        .chain()
        .focus()
        .deleteRange(r)
        .insertContent({ type: 'integration', attrs: { integration: b.integration, block: b.block, props: '{}' } })
        .run(),
  }));
}

export const SlashMenu = Extension.create<{ upload?: () => void; integrationBlocks?: () => OfferedBlock[] }>({
  name: 'slashMenu',
  addOptions: () => ({}),
  addProseMirrorPlugins() {
    const all = slashItems({ ...(this.options.upload ? { upload: this.options.upload } : {}) });
    return [
      Suggestion<SlashItem, SlashItem>({
        editor: this.editor,
        pluginKey: new PluginKey('slashMenu'),
        char: '/',
        allowSpaces: true,
        // Not inside code, where a slash is text.
        allow: ({ state, range }) => !state.doc.resolve(range.from).parent.type.spec.code,
        items: ({ query, editor }) =>
          filterSlashItems(
            [...itemActions(editor), ...all, ...integrationBlockItems(this.options.integrationBlocks?.() ?? [])],
            query,
          ),
        command: ({ editor, range, props }) => props.run(editor, range),
        render: () => {
          let view: SlashMenuView | undefined;
          return {
            onStart: (props) => {
              view = new SlashMenuView();
              view.update(props);
            },
            onUpdate: (props) => view?.update(props),
            onKeyDown: (props) => {
              if (props.event.key === 'Escape') {
                view?.destroy();
                view = undefined;
                return true;
              }
              return view?.keyDown(props) ?? false;
            },
            onExit: () => {
              view?.destroy();
              view = undefined;
            },
          };
        },
      }),
    ];
  },
});
