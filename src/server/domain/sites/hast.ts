import type { Element, ElementContent, Properties, Root, RootContent } from 'hast';

/**
 * The small hast builders and readers every HTML of the published sites is written with: page bodies (render.ts),
 * their API operations (api-operation.ts) and highlighted code (highlight.ts), and the page frame (published/).
 * Nothing here is parsed as HTML: text nodes are escaped when the tree is serialized.
 */

export function el(tagName: string, properties: Properties = {}, children: ElementContent[] = []): Element {
  return { type: 'element', tagName, properties, children };
}

export function text(value: string): ElementContent {
  return { type: 'text', value };
}

export function textOf(node: RootContent | ElementContent | Root): string {
  if (node.type === 'text') return node.value;
  if ('children' in node) return (node.children as ElementContent[]).map(textOf).join('');
  return '';
}
