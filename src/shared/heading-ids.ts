import GithubSlugger from 'github-slugger';
import type { Element, ElementContent } from 'hast';

/**
 * The ids of a page's headings, one page at a time, as GitHub gives them (github-slugger): lower case, punctuation
 * removed, each space a `-` (runs kept: `Request/Reply Hooks` is `requestreply-hooks`), letters of every script
 * kept, repeats numbered from `-1`. Documentation written on GitHub links to its sections by these ids, so they must
 * be the same here. A heading that names its id gets it as written: GitBook's empty anchor
 * (`## Title <a href="#x" id="x"></a>`) or `{#x}` at its end (see explicitHeadingId). A heading with no letter or
 * digit is `section` (GitHub leaves its id empty, which no link can name).
 *
 * Every place that names sections uses this one class: the published page, "On this page", the links report and
 * search results.
 */
export class HeadingIds {
  private readonly slugger = new GithubSlugger();

  /** The id of the next heading, from its text, or the id it names. */
  next(text: string, named?: string): string {
    if (named) {
      // Counted, so that a later heading of that text gets the next number.
      this.slugger.slug(named, true);
      return named;
    }
    const id = this.slugger.slug(text);
    return id.replace(/-/g, '') === '' ? this.slugger.slug('section') : id;
  }
}

/**
 * The anchor of a page's title: the id its first heading had where it was written (`# Class: Client` is
 * `class-client`), before an import made that heading the page's title. Links to it land on the page's top.
 */
export function titleAnchor(title: string): string {
  return new HeadingIds().next(title);
}

/** An id a heading names at its end (`## Title {#custom-id}`), and its text without it. */
export function explicitHeadingId(text: string): { id: string; text: string } | undefined {
  const found = /\s*\{#([A-Za-z][\w.:-]*)\}\s*$/.exec(text);
  return found ? { id: found[1]!, text: text.slice(0, found.index) } : undefined;
}

function textOf(node: ElementContent): string {
  if (node.type === 'text') return node.value;
  return 'children' in node ? node.children.map(textOf).join('') : '';
}

/**
 * The id a rendered heading names, taken out of it: an empty anchor with an id (as GitBook writes a heading's
 * anchor: `## Title <a href="#x" id="x"></a>`, the space before it going too), or `{#x}` at its end.
 */
export function takeNamedId(heading: Element): string | undefined {
  const at = heading.children.findIndex(
    (c) => c.type === 'element' && c.tagName === 'a' && typeof c.properties.id === 'string' && textOf(c) === '',
  );
  if (at >= 0) {
    const anchor = heading.children[at] as Element;
    heading.children.splice(at, 1);
    const before = heading.children[at - 1];
    if (at === heading.children.length && before?.type === 'text') before.value = before.value.trimEnd();
    return anchor.properties.id as string;
  }
  const last = heading.children[heading.children.length - 1];
  if (last?.type !== 'text') return undefined;
  const explicit = explicitHeadingId(last.value);
  if (!explicit) return undefined;
  last.value = explicit.text;
  return explicit.id;
}

/** The heading of a body's footnotes (`id="footnote-label"`, from mdast-util-to-hast): not a section of the page. */
export const isFootnotesHeading = (heading: Element) => heading.properties.id === 'footnote-label';

/** Gives every heading of a rendered body (h1–h6, in document order) its id (see HeadingIds); answers them. */
export function nameHeadingsIn(
  tree: { children: Array<ElementContent | { type: string }> },
  ids = new HeadingIds(),
  skip = isFootnotesHeading,
): Array<{ heading: Element; id: string; title: string }> {
  const out: Array<{ heading: Element; id: string; title: string }> = [];
  const visit = (node: { children: Array<ElementContent | { type: string }> }) => {
    for (const child of node.children) {
      if (child.type !== 'element') continue;
      const e = child as Element;
      if (/^h[1-6]$/.test(e.tagName) && !skip(e)) {
        const named = takeNamedId(e);
        const title = e.children.map(textOf).join('').trim();
        const id = ids.next(title, named);
        e.properties.id = id;
        out.push({ heading: e, id, title });
      }
      visit(e);
    }
  };
  visit(tree);
  return out;
}
