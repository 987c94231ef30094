import type { Nodes, Root } from 'mdast';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { gfmFromMarkdown } from 'mdast-util-gfm';
import { gfm } from 'micromark-extension-gfm';
import { parseMarkdown } from '../../../shared/document/parse.js';
import { HeadingIds, explicitHeadingId } from '../../../shared/heading-ids.js';
import { includedNames } from '../../../shared/gitbook-blocks.js';

/**
 * The searchable text of a page body: its sections, each a top-level heading (with the anchor the published page
 * gives it) and the plain text up to the next one. The first section holds what comes before the first heading
 * and has no heading. Markdown syntax is gone (text of links, code, tables and lists stays; raw HTML and image
 * addresses do not); whitespace and control characters become single spaces.
 *
 * A pure function of the markdown, run in the worker pool for big bodies (see workers/tasks.ts) and cached by the
 * hash of the document it came from (see indexer.ts).
 */
export interface Section {
  /** `id` of the heading on the published page (empty for the first section). */
  anchor: string;
  heading: string;
  text: string;
  /**
   * The first section only: the names of the reusable contents the body includes (`{% include %}`). Their text is
   * searched as part of the page (indexer.ts reads it from the revision, where it may change on its own).
   */
  includes?: string[];
}

/** Separates the sections inside one column of the index; never part of extracted text. */
export const SECTION_SEPARATOR = '\u001e';

/** Plain text: control characters (the separator and highlight marks among them) and runs of spaces become one space. */
export function cleanText(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/[\u0000-\u001f\u007f-\u009f\s]+/g, ' ').trim();
}

/** Node types whose children are blocks: their texts are separated by a space. */
const BLOCK_PARENTS = new Set([
  'root',
  'blockquote',
  'list',
  'listItem',
  'table',
  'tableRow',
  'footnoteDefinition',
  'gitbookBlock',
]);

function plainText(node: Nodes, out: string[]): void {
  switch (node.type) {
    case 'html':
    case 'definition':
    case 'footnoteReference':
      return;
    case 'image':
    case 'imageReference':
      if (node.alt) out.push(node.alt);
      return;
    case 'text':
    case 'inlineCode':
    case 'code':
    case 'math':
    case 'inlineMath':
      out.push(node.value);
      return;
    case 'break':
    case 'thematicBreak':
      out.push(' ');
      return;
  }
  if (!('children' in node)) return;
  const block = BLOCK_PARENTS.has(node.type) || node.type === 'tableCell';
  for (const child of node.children as Nodes[]) {
    plainText(child, out);
    if (block) out.push(' ');
  }
}

/** A heading's text as the published page reads it for its anchor: no image alt text, no raw HTML. */
function headingText(node: Nodes): string {
  if (node.type === 'text' || node.type === 'inlineCode') return node.value;
  if (node.type === 'html' || node.type === 'image' || node.type === 'imageReference') return '';
  if (!('children' in node)) return '';
  return (node.children as Nodes[]).map(headingText).join('');
}

/** The id of an empty anchor in a heading (`<a href="#x" id="x"></a>`, as GitBook writes a heading's anchor). */
function namedAnchor(children: Nodes[]): string | undefined {
  for (let i = 0; i + 1 < children.length; i++) {
    const open = children[i]!;
    const close = children[i + 1]!;
    if (open.type !== 'html' || close.type !== 'html' || !/^<\/a\s*>$/i.test(close.value)) continue;
    if (!/^<a\s/i.test(open.value)) continue;
    // Its id, or else its name (render.ts gives an anchor its name as id when it has none).
    for (const attribute of ['id', 'name']) {
      const found = new RegExp(`\\s${attribute}\\s*=\\s*(?:"([^"]*)"|'([^']*)'|([^\\s"'>]+))`, 'i').exec(open.value);
      const id = found && (found[1] ?? found[2] ?? found[3]);
      if (id) return id;
    }
  }
  return undefined;
}

/** Every heading in document order, as the published page's renderer meets them (nested ones included). */
function allHeadings(node: Nodes, out: Nodes[]): void {
  if (node.type === 'heading') out.push(node);
  if ('children' in node) for (const child of node.children as Nodes[]) allHeadings(child, out);
}

/** The id the published page gives a heading, the next of `ids` (shared/heading-ids.ts). */
function headingAnchor(heading: Nodes, ids: HeadingIds): string {
  const text = headingText(heading).trim();
  const children = 'children' in heading ? (heading.children as Nodes[]) : [];
  const explicit = children.at(-1)?.type === 'text' ? explicitHeadingId(text) : undefined;
  return ids.next(explicit ? explicit.text.trim() : text, namedAnchor(children) ?? explicit?.id);
}

/**
 * The ids the published page gives a body's top-level headings, by block id, read off the heading blocks alone
 * (a line each, not the whole body): what an edit compares to keep a reworded heading's old id (content/anchors.ts).
 * Headings nested in other blocks (a hint's, a tab's) are not read, so the number of a repeated heading that comes
 * after a nested one of the same text can differ from the page's.
 */
export function headingAnchorsOfBlocks(
  blocks: ReadonlyArray<{ id: string; type: string; markdown: string }>,
): Map<string, string> {
  const ids = new HeadingIds();
  const out = new Map<string, string>();
  for (const block of blocks) {
    if (block.type !== 'heading') continue;
    const heading = fromMarkdown(block.markdown, { extensions: [gfm()], mdastExtensions: [gfmFromMarkdown()] })
      .children[0];
    if (heading?.type === 'heading') out.set(block.id, headingAnchor(heading, ids));
  }
  return out;
}

export function extractSections(markdown: string): Section[] {
  return sectionsOf(parseMarkdown(markdown.replace(/^\uFEFF/, '')), markdown);
}

/**
 * extractSections of a body parsed already (`parsed`: parseMarkdown of `markdown`, left unchanged), as every
 * renderer parses it: GitBook's blocks read as the page shows them (their tags are not text to find), `$$` math as
 * its formula.
 */
export function sectionsOf(root: Root, markdown: string): Section[] {
  // Anchors as render.ts gives them (shared/heading-ids.ts): GitHub's, or the id a heading names.
  const anchors = new Map<Nodes, string>();
  const ids = new HeadingIds();
  const headings: Nodes[] = [];
  allHeadings(root, headings);
  for (const heading of headings) anchors.set(heading, headingAnchor(heading, ids));

  const sections: Array<{ anchor: string; heading: string; parts: string[] }> = [
    { anchor: '', heading: '', parts: [] },
  ];
  for (const node of root.children) {
    if (node.type === 'heading') {
      const parts: string[] = [];
      plainText(node, parts);
      sections.push({ anchor: anchors.get(node) ?? '', heading: cleanText(parts.join('')), parts: [] });
      continue;
    }
    const current = sections.at(-1)!;
    plainText(node, current.parts);
    current.parts.push(' ');
  }
  const out: Section[] = sections.map((s) => ({
    anchor: s.anchor,
    heading: s.heading,
    text: cleanText(s.parts.join('')),
  }));
  const includes = includedNames(markdown);
  if (includes.length) out[0]!.includes = includes;
  return out;
}
