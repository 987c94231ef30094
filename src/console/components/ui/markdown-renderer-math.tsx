import rehypeRaw from 'rehype-raw';
import { rehypeMath } from '../../../shared/math';
import MarkdownRenderer, { type MarkdownProps } from './markdown-renderer';

/**
 * The renderer of markdown with `$$` math in it (see markdown.tsx): KaTeX (about 270 kB) shows it as MathML, as the
 * published page does; HTML written in it is parsed too. A separate chunk, loaded only for such markdown.
 */
export default function MarkdownMathRenderer(props: MarkdownProps) {
  return <MarkdownRenderer {...props} rawHtml={rehypeRaw} math={rehypeMath} />;
}
