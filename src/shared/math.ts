import katex from 'katex';
import { fromHtml } from 'hast-util-from-html';
import type { Element, ElementContent, Root } from 'hast';

/**
 * Math written in a page (`$$…$$` on lines of their own for a block, `$$…$$` inside a line for inline math, as
 * GitBook writes both; a single `$` is not math, as prices in prose would be), shown as MathML made by KaTeX: no
 * font or style sheet to load, read by screen readers, the TeX kept as its annotation. The published page and the
 * console both call `renderMath` on their sanitized tree, so KaTeX's markup is never cleaned away and nothing the
 * page writes reaches the page but through KaTeX (no `\href`, `\url` or HTML: `trust` is off).
 */

/** TeX longer than this is shown as written (a formula is rarely over a few hundred characters). */
export const FORMULA_MAX = 10_000;

export { MATH_SYNTAX } from './math-syntax.js';

function classes(e: Element): string[] {
  const value = e.properties.className;
  return Array.isArray(value) ? value.map(String) : [];
}

function textOf(node: ElementContent): string {
  if (node.type === 'text') return node.value;
  return 'children' in node ? node.children.map(textOf).join('') : '';
}

/** The MathML of a formula, or undefined when it is too long to render. */
export function mathElement(formula: string, display: boolean): Element | undefined {
  if (formula.length > FORMULA_MAX) return undefined;
  const html = katex.renderToString(formula, {
    displayMode: display,
    output: 'mathml',
    throwOnError: false,
    trust: false,
    strict: 'ignore',
    maxExpand: 500,
    maxSize: 50,
  });
  const span = fromHtml(html, { fragment: true }).children.find((c): c is Element => c.type === 'element');
  if (!span) return undefined;
  span.properties.className = ['math', display ? 'math-display' : 'math-inline'];
  return span;
}

/**
 * Replaces the math of a sanitized tree (mdast-util-math's `<code class="language-math math-inline">` and
 * `<pre><code class="language-math math-display">`) with its MathML.
 */
export function renderMath(tree: Root | Element): void {
  const visit = (parent: Root | Element) => {
    parent.children.forEach((child, i) => {
      if (child.type !== 'element') return;
      const code =
        child.tagName === 'pre'
          ? child.children.find((c): c is Element => c.type === 'element' && c.tagName === 'code')
          : child.tagName === 'code'
            ? child
            : undefined;
      const cls = code ? classes(code) : [];
      const display = child.tagName === 'pre' && cls.includes('math-display');
      if (code && (display || (child.tagName === 'code' && cls.includes('math-inline')))) {
        const math = mathElement(textOf(code), display);
        if (math)
          parent.children[i] = display
            ? { type: 'element', tagName: 'div', properties: { className: ['math-block'] }, children: [math] }
            : math;
        return;
      }
      visit(child);
    });
  };
  visit(tree);
}

/** renderMath as a rehype plugin (the console's renderer). */
export function rehypeMath() {
  return (tree: Root) => renderMath(tree);
}
