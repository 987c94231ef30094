import { lazy, Suspense } from 'react';
import type { MarkdownProps } from './markdown-renderer';
import { ContentBoundary } from './content-boundary';

const load = () => import('./markdown-renderer');
const MarkdownRenderer = lazy(load);
const MarkdownHtmlRenderer = lazy(() => import('./markdown-renderer-html'));
const MarkdownMathRenderer = lazy(() => import('./markdown-renderer-math'));
/** Markdown that may have `$$` math in it: rendered by the renderer that loads KaTeX. */
const HAS_MATH = /\$\$/;
/** Markdown that may have HTML written in it (a tag, a comment): rendered by the renderer that parses it. */
const HAS_HTML = /<[A-Za-z!/?]/;

/** Starts loading the renderer early, e.g. from a route loader, so that it is there when the page renders. */
export function preloadMarkdown(): void {
  void load();
}

/**
 * Page markdown rendered safely (see markdown-renderer.tsx): the HTML written in it cleaned as on the published
 * site, no script, no unsafe link targets.
 * The renderer loads on first use, keeping it out of the bundle every console page needs.
 */
export function Markdown(props: MarkdownProps) {
  return (
    <ContentBoundary source={typeof props.children === 'string' ? props.children : ''}>
      <Suspense
        fallback={
          <div className={['markdown', 'markdown-pending', props.className].filter(Boolean).join(' ')} aria-busy="true">
            {props.children}
          </div>
        }
      >
        {HAS_MATH.test(props.children) ? (
          <MarkdownMathRenderer {...props} />
        ) : HAS_HTML.test(props.children) ? (
          <MarkdownHtmlRenderer {...props} />
        ) : (
          <MarkdownRenderer {...props} />
        )}
      </Suspense>
    </ContentBoundary>
  );
}

const SAFE_PROTOCOL = /^(https?|ircs?|mailto|xmpp)$/i;

/**
 * An href of content (a link page) fit for an anchor: a relative URL, or http(s), mailto, irc or xmpp; else
 * nothing. The same rule as the markdown renderer's links (react-markdown's `defaultUrlTransform`).
 */
export function safeHref(href: string | undefined): string | undefined {
  const value = href?.trim();
  if (!value) return undefined;
  const colon = value.indexOf(':');
  const questionMark = value.indexOf('?');
  const numberSign = value.indexOf('#');
  const slash = value.indexOf('/');
  if (
    colon === -1 ||
    (slash !== -1 && colon > slash) ||
    (questionMark !== -1 && colon > questionMark) ||
    (numberSign !== -1 && colon > numberSign) ||
    SAFE_PROTOCOL.test(value.slice(0, colon))
  ) {
    return value;
  }
  return undefined;
}
