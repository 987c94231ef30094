import { toHtml } from 'hast-util-to-html';
import { mathElement } from '../../../shared/math';

/**
 * A formula as readers will see it (KaTeX's MathML, as the published page and the preview show math): a separate
 * chunk, loaded when a page being edited has math. Empty when the formula is too long to render.
 */
export function formulaHtml(tex: string): string {
  const math = mathElement(tex, true);
  return math ? toHtml(math) : '';
}
