import rehypeRaw from 'rehype-raw';
import MarkdownRenderer, { type MarkdownProps } from './markdown-renderer';

/**
 * The renderer of markdown with HTML written in it (see markdown.tsx): the HTML is parsed (rehype-raw, with parse5,
 * about 50 kB) and cleaned as on the published site. A separate chunk, so that screens whose markdown has none (the
 * sign-in page's message, most pages) do not download the parser.
 */
export default function MarkdownHtmlRenderer(props: MarkdownProps) {
  return <MarkdownRenderer {...props} rawHtml={rehypeRaw} />;
}
