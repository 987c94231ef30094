import type { Element, ElementContent, Properties } from 'hast';
import { toHast } from 'mdast-util-to-hast';
import { sanitize } from 'hast-util-sanitize';
import { parseMarkdown } from './document/parse.js';
import { bodySchema } from './body-schema.js';

/**
 * GitBook's ContentKit (what an integration's `ui_render` answers, issue 31) as hast: the one renderer of
 * integration blocks, for the published site (on the server, sites/render.ts) and the console (the same tree as
 * React elements, components/integrations/contentkit-view.tsx), so that a block looks the same in both. Every text
 * of the output is a text node (escaped when written), every URL checked (`http:`/`https:` only), markdown parsed
 * without HTML and cleaned with the page body's schema; nothing the script writes becomes markup of its own.
 *
 * What a reader can press or fill carries what to do in data attributes, read by whoever shows it (the console
 * posts actions back to `render`; the site's script answers webframes): `data-ck-action` (the action, JSON),
 * `data-ck-confirm` (a confirmation, JSON), `data-ck-state` (the state key an input writes), `data-ck-change` (the
 * action a value change sends), `data-ck-webframe` (the data a webframe is sent, JSON, its bindings resolved).
 * Output deeper than DEPTH_MAX or bigger than NODES_MAX is cut there.
 */

/** What `ui_render` answers: an element with its state and props, or `complete`. */
export interface ContentKitOutput {
  type?: 'element' | 'complete';
  element?: unknown;
  state?: Record<string, unknown>;
  props?: Record<string, unknown>;
  returnValue?: unknown;
}

const DEPTH_MAX = 32;
const NODES_MAX = 5000;
const TEXT_MAX = 100_000;

type Node = Record<string, unknown>;

const isNode = (value: unknown): value is Node => typeof value === 'object' && value !== null && !Array.isArray(value);

/** `url` when it is an `http:` or `https:` URL, else undefined. */
export function safeUrl(url: unknown): string | undefined {
  if (typeof url !== 'string') return undefined;
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'https:' || parsed.protocol === 'http:' ? parsed.href : undefined;
  } catch {
    return undefined;
  }
}

/** A ContentKit URL (`string` or `{host, pathname, query}`), its bindings resolved. */
function urlOf(target: unknown, state: Record<string, unknown>): string | undefined {
  if (typeof target === 'string') return safeUrl(target);
  if (!isNode(target) || typeof target.host !== 'string' || typeof target.pathname !== 'string') return undefined;
  const url = safeUrl(`https://${target.host}${target.pathname.startsWith('/') ? '' : '/'}${target.pathname}`);
  if (!url || !isNode(target.query)) return url;
  const withQuery = new URL(url);
  for (const [key, value] of Object.entries(target.query)) {
    const resolved = bound(value, state);
    if (resolved !== undefined && resolved !== null) withQuery.searchParams.set(key, String(resolved));
  }
  return withQuery.href;
}

/** A value, or the state's value when it is a binding (`{$state: 'key'}`). */
export function bound(value: unknown, state: Record<string, unknown>): unknown {
  return isNode(value) && typeof value.$state === 'string' ? state[value.$state] : value;
}

/** The data a webframe is sent: its `data` with bindings resolved. */
export function webframeData(data: unknown, state: Record<string, unknown>): Record<string, unknown> {
  if (!isNode(data)) return {};
  return Object.fromEntries(Object.entries(data).map(([key, value]) => [key, bound(value, state)]));
}

const h = (tagName: string, properties: Properties, children: ElementContent[] = []): Element => ({
  type: 'element',
  tagName,
  properties,
  children,
});
const text = (value: unknown): ElementContent => ({ type: 'text', value: String(value ?? '').slice(0, TEXT_MAX) });

class Renderer {
  private nodes = 0;
  constructor(
    private readonly state: Record<string, unknown>,
    private readonly editable: boolean,
  ) {}

  children(list: unknown, depth: number): ElementContent[] {
    const items = Array.isArray(list) ? list : list === undefined || list === null ? [] : [list];
    return items.flatMap((item) => this.element(item, depth));
  }

  element(node: unknown, depth: number): ElementContent[] {
    if (typeof node === 'string' || typeof node === 'number') return [text(node)];
    if (!isNode(node) || depth > DEPTH_MAX || ++this.nodes > NODES_MAX) return [];
    const next = depth + 1;
    const kids = () => this.children(node.children, next);
    switch (node.type) {
      case 'block':
      case 'configuration':
      case 'modal':
        return [
          h('div', { className: [`ck-${node.type}`] }, [
            ...(typeof node.title === 'string' ? [h('p', { className: ['ck-title'] }, [text(node.title)])] : []),
            ...kids(),
            ...(node.type === 'modal' && isNode(node.submit) ? this.element(node.submit, next) : []),
          ]),
        ];
      case 'vstack':
      case 'hstack':
        return [h('div', { className: [`ck-${node.type}`, `ck-align-${alignOf(node.align)}`] }, kids())];
      case 'box':
        return [h('div', { className: ['ck-box', ...(Number(node.grow) > 0 ? ['ck-grow'] : [])] }, kids())];
      case 'stepper':
        return [h('div', { className: ['ck-stepper'] }, kids())];
      case 'step':
        return [
          h('section', { className: ['ck-step'] }, [
            ...(typeof node.title === 'string' ? [h('p', { className: ['ck-title'] }, [text(node.title)])] : []),
            ...kids(),
          ]),
        ];
      case 'divider':
        return [h('hr', { className: ['ck-divider'] })];
      case 'text':
        return [this.text(node, next)];
      case 'link': {
        const href = isNode(node.target) ? urlOf(node.target.url, this.state) : undefined;
        const label = this.children(node.children, next);
        return href
          ? [h('a', { href, rel: ['noopener', 'nofollow'], target: '_blank', className: ['ck-link'] }, label)]
          : label;
      }
      case 'image': {
        const src = isNode(node.source) ? safeUrl(node.source.url) : undefined;
        if (!src) return [];
        const ratio = Number(node.aspectRatio) > 0 ? Number(node.aspectRatio) : 1;
        return [
          h('img', {
            src,
            alt: '',
            loading: 'lazy',
            className: ['ck-image'],
            width: 1000,
            height: Math.max(1, Math.round(1000 / ratio)),
          }),
        ];
      }
      case 'markdown':
        return [markdownElement(bound(node.content, this.state))];
      case 'hint':
        return [h('p', { className: ['ck-hint'] }, kids())];
      case 'codeblock':
        return [this.codeblock(node, next)];
      case 'card':
        return [this.card(node, next)];
      case 'button':
        return [this.button(node)];
      case 'webframe':
        return [this.webframe(node, next)];
      case 'input': {
        const hint = node.hint === undefined ? [] : this.children(node.hint, next);
        const label = typeof node.label === 'string' ? node.label.trim() : '';
        const control = isNode(node.element) ? node.element.type : undefined;
        // A field's label names its control (a <label> around both); a button, or a control with no label, is
        // named by its own text, never by an empty label around it.
        const labels =
          label !== '' && ['textinput', 'select', 'switch', 'checkbox', 'radio', 'codeblock'].includes(String(control));
        const toggle = control === 'switch' || control === 'checkbox';
        return [
          h(labels ? 'label' : 'div', { className: ['ck-input', ...(toggle ? ['ck-input-toggle'] : [])] }, [
            ...(label ? [h('span', { className: ['ck-input-label'] }, [text(label)])] : []),
            ...this.element(node.element, next),
            ...(hint.length ? [h('span', { className: ['ck-input-hint'] }, hint)] : []),
          ]),
        ];
      }
      case 'textinput':
        return [this.textinput(node)];
      case 'select':
        return [this.select(node)];
      case 'switch':
      case 'checkbox':
      case 'radio':
        return [this.toggle(node)];
      default:
        return [];
    }
  }

  private text(node: Node, depth: number): Element {
    const tag = { bold: 'strong', italic: 'em', code: 'code', strikethrough: 'del' }[String(node.style)] ?? 'span';
    return h(tag, { className: ['ck-text'] }, this.children(node.children, depth));
  }

  private buttons(list: unknown): ElementContent[] {
    return Array.isArray(list) ? list.filter(isNode).map((b) => this.button(b)) : [];
  }

  private button(node: Node): Element {
    const style = ['primary', 'secondary', 'danger'].includes(String(node.style)) ? String(node.style) : 'secondary';
    return h(
      'button',
      {
        type: 'button',
        className: ['ck-button', `ck-button-${style}`],
        ...(node.disabled === true ? { disabled: true } : {}),
        ...(typeof node.tooltip === 'string' ? { title: node.tooltip } : {}),
        ...(!node.label && typeof node.tooltip === 'string' ? { ariaLabel: node.tooltip } : {}),
        ...actionData('dataCkAction', node.onPress),
        ...(isNode(node.confirm) ? { dataCkConfirm: JSON.stringify(node.confirm) } : {}),
      },
      [text(node.label ?? (typeof node.tooltip === 'string' ? '' : 'Button'))],
    );
  }

  private card(node: Node, depth: number): Element {
    const hint = node.hint === undefined ? [] : this.children(node.hint, depth);
    const title = typeof node.title === 'string' ? node.title : '';
    const pressable = isNode(node.onPress);
    return h(
      'div',
      {
        className: ['ck-card', ...(pressable ? ['ck-pressable'] : [])],
        ...(pressable ? { role: 'button', tabIndex: 0, ...actionData('dataCkAction', node.onPress) } : {}),
      },
      [
        ...(title || hint.length || Array.isArray(node.buttons)
          ? [
              h('div', { className: ['ck-card-header'] }, [
                h('div', {}, [
                  ...(title ? [h('p', { className: ['ck-title'] }, [text(title)])] : []),
                  ...(hint.length ? [h('p', { className: ['ck-card-hint'] }, hint)] : []),
                ]),
                ...(Array.isArray(node.buttons)
                  ? [h('div', { className: ['ck-buttons'] }, this.buttons(node.buttons))]
                  : []),
              ]),
            ]
          : []),
        ...this.children(node.children, depth),
      ],
    );
  }

  private codeblock(node: Node, depth: number): Element {
    const content = String(bound(node.content, this.state) ?? '');
    const syntax = typeof node.syntax === 'string' && /^[\w+#.-]{1,40}$/.test(node.syntax) ? node.syntax : '';
    const header = this.children(node.header, depth);
    const footer = this.children(node.footer, depth);
    // Editable where the reader may change it (the editor) and the script bound it to its state.
    const key = typeof node.state === 'string' ? node.state : isNode(node.content) ? node.content.$state : undefined;
    const body =
      this.editable && typeof key === 'string'
        ? h(
            'textarea',
            {
              className: ['ck-code-input'],
              spellCheck: 'false',
              ariaLabel: syntax ? `${syntax} source` : 'Source',
              dataCkState: key,
              ...actionData('dataCkChange', node.onContentChange),
              rows: Math.min(30, Math.max(3, content.split('\n').length + 1)),
            },
            [text(content)],
          )
        : h('pre', { className: ['ck-code'], tabIndex: 0 }, [
            h('code', syntax ? { className: [`language-${syntax}`] } : {}, [text(content)]),
          ]);
    return h('div', { className: ['ck-codeblock'] }, [
      ...header,
      ...(Array.isArray(node.buttons) ? [h('div', { className: ['ck-buttons'] }, this.buttons(node.buttons))] : []),
      body,
      ...footer,
    ]);
  }

  private webframe(node: Node, depth: number): Element {
    const src = isNode(node.source) ? safeUrl(node.source.url) : undefined;
    const ratio = Number(node.aspectRatio) > 0 ? Math.min(10, Math.max(0.1, Number(node.aspectRatio))) : 16 / 9;
    if (!src) return h('p', { className: ['ck-hint'] }, [text('This block’s frame has no valid address.')]);
    return h('div', { className: ['ck-webframe'] }, [
      h('iframe', {
        src,
        title: 'Integration content',
        loading: 'lazy',
        // Scripts, never the frame's own origin's storage nor this page's: it may be any address.
        sandbox: ['allow-scripts', 'allow-popups', 'allow-forms'],
        referrerPolicy: 'no-referrer',
        width: 1000,
        height: Math.round(1000 / ratio),
        style: `aspect-ratio: ${ratio.toFixed(4)}`,
        dataCkWebframe: JSON.stringify(webframeData(node.data, this.state)),
      }),
      ...(Array.isArray(node.buttons) ? [h('div', { className: ['ck-buttons'] }, this.buttons(node.buttons))] : []),
      ...this.children(node.children, depth),
    ]);
  }

  private value(node: Node): unknown {
    const key = typeof node.state === 'string' ? node.state : undefined;
    return key !== undefined && key in this.state ? this.state[key] : node.initialValue;
  }

  private textinput(node: Node): Element {
    const value = this.value(node);
    const common: Properties = {
      className: ['ck-textinput'],
      ...(typeof node.state === 'string' ? { dataCkState: node.state } : {}),
      ...(typeof node.placeholder === 'string' ? { placeholder: node.placeholder } : {}),
      ...(node.disabled === true ? { disabled: true } : {}),
    };
    if (node.multiline === true) return h('textarea', common, [text(value ?? '')]);
    const type = ['password', 'email'].includes(String(node.inputType)) ? String(node.inputType) : 'text';
    return h('input', { ...common, type, value: String(value ?? '') });
  }

  private select(node: Node): Element {
    const value = this.value(node);
    const chosen = new Set((Array.isArray(value) ? value : [value]).map(String));
    const options = Array.isArray(node.options) ? node.options.filter(isNode) : [];
    return h(
      'select',
      {
        className: ['ck-select'],
        ...(typeof node.state === 'string' ? { dataCkState: node.state } : {}),
        ...(node.multiple === true ? { multiple: true } : {}),
        ...(node.disabled === true ? { disabled: true } : {}),
        ...actionData('dataCkChange', node.onValueChange),
      },
      [
        ...(typeof node.placeholder === 'string' && node.multiple !== true
          ? [
              h('option', { value: '', disabled: true, selected: !chosen.size || chosen.has('') }, [
                text(node.placeholder),
              ]),
            ]
          : []),
        ...options.map((o) =>
          h('option', { value: String(o.id), ...(chosen.has(String(o.id)) ? { selected: true } : {}) }, [
            text(o.label ?? o.id),
          ]),
        ),
      ],
    );
  }

  private toggle(node: Node): Element {
    const key = typeof node.state === 'string' ? node.state : undefined;
    const current = this.value(node);
    const type = node.type === 'radio' ? 'radio' : 'checkbox';
    const checked =
      node.type === 'switch'
        ? current === true
        : Array.isArray(current)
          ? current.map(String).includes(String(node.value))
          : current !== undefined && String(current) === String(node.value);
    return h('input', {
      type,
      className: [`ck-${String(node.type)}`],
      ...(node.type === 'switch' ? { role: 'switch' } : { value: String(node.value ?? '') }),
      ...(key !== undefined ? { dataCkState: key, ...(type === 'radio' ? { name: key } : {}) } : {}),
      ...(checked ? { checked: true } : {}),
      ...(node.disabled === true ? { disabled: true } : {}),
      ...actionData('dataCkChange', node.onValueChange),
      ...(isNode(node.confirm) ? { dataCkConfirm: JSON.stringify(node.confirm) } : {}),
    });
  }
}

const alignOf = (align: unknown) => (align === 'center' || align === 'end' ? align : 'start');

function actionData(name: string, action: unknown): Properties {
  return isNode(action) && typeof action.action === 'string' ? { [name]: JSON.stringify(action) } : {};
}

/** ContentKit markdown: parsed without HTML, cleaned as a page body is. */
function markdownElement(content: unknown): Element {
  const markdown = String(content ?? '').slice(0, TEXT_MAX);
  const tree = sanitize(toHast(parseMarkdown(markdown)), bodySchema);
  const children = 'children' in tree ? (tree.children as ElementContent[]) : [];
  return h('div', { className: ['ck-markdown'] }, children);
}

/**
 * What an integration rendered, as hast: the output's root element and its children, the state given (`state`:
 * the output's own, or what the reader has changed since) resolving its bindings. `editable`: shown where the reader
 * may change the block (the editor), so an editable code block is a text area. Undefined for `complete` or an output
 * with no element.
 */
export function contentKitToHast(
  output: ContentKitOutput,
  options: { state?: Record<string, unknown>; editable?: boolean } = {},
): Element | undefined {
  if (output.type === 'complete' || !isNode(output.element)) return undefined;
  const state = options.state ?? (isNode(output.state) ? output.state : {});
  const renderer = new Renderer(state, options.editable === true);
  const [root] = renderer.element(output.element, 0);
  return root && root.type === 'element' ? root : undefined;
}
