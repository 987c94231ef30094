import type { List, ListItem, Nodes } from 'mdast';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { gfmFromMarkdown } from 'mdast-util-gfm';
import { gfm } from 'micromark-extension-gfm';
import { titleText } from './markdown.js';

/**
 * A `SUMMARY.md` as GitBook writes it in its exports and reads it in Git Sync: nested lists of links give the pages,
 * their order and nesting; `##` headings (or `---` rules) divide the table of contents into groups; a first `#`
 * heading is its own title. Items without a link are pages without a body; links to URLs are link pages.
 */
export interface SummaryItem {
  title: string;
  href?: string;
  children: SummaryItem[];
}

export interface SummaryGroup {
  /** Untitled for the items before the first heading (and after a rule). */
  title?: string;
  items: SummaryItem[];
}

function firstLink(node: Nodes): { title: string; url: string } | undefined {
  if (node.type === 'link') return { title: titleText(node), url: node.url };
  if ('children' in node) {
    for (const child of node.children) {
      const found = firstLink(child as Nodes);
      if (found) return found;
    }
  }
  return undefined;
}

function items(list: List): SummaryItem[] {
  return list.children.map((item: ListItem) => {
    const lead = item.children.find((c) => c.type === 'paragraph' || c.type === 'heading');
    const link = lead ? firstLink(lead) : undefined;
    const title = (link?.title || (lead ? titleText(lead) : '')).slice(0, 1000);
    const children = item.children.filter((c): c is List => c.type === 'list').flatMap(items);
    return { title: title || 'Untitled', ...(link?.url ? { href: link.url } : {}), children };
  });
}

export function parseSummary(markdown: string): SummaryGroup[] {
  const root = fromMarkdown(markdown.replace(/^\uFEFF/, ''), {
    extensions: [gfm()],
    mdastExtensions: [gfmFromMarkdown()],
  });
  const groups: SummaryGroup[] = [{ items: [] }];
  for (const node of root.children) {
    if (node.type === 'heading' && node.depth > 1) {
      groups.push({ title: titleText(node) || 'Untitled', items: [] });
    } else if (node.type === 'thematicBreak') {
      groups.push({ items: [] });
    } else if (node.type === 'list') {
      groups.at(-1)!.items.push(...items(node));
    }
  }
  return groups.filter((g) => g.items.length || g.title);
}
