import { describe, expect, it } from 'vitest';
import { toHtml } from 'hast-util-to-html';
import type { PageNode } from '../../content/model.js';
import { breadcrumbs, onThisPage, pagination } from './navigation.js';

/** A page node with what the theme reads of it. */
function node(id: string, type: 'document' | 'group' | 'link', pages: PageNode[] = []): PageNode {
  return { id, path: id, pages, entry: {} as never, version: { type, title: id.toUpperCase() } as never };
}

const url = (n: PageNode) => `/s/${n.path}`;
const tree = [
  node('intro', 'document'),
  node('guides', 'group', [node('install', 'document', [node('linux', 'document')]), node('external', 'link')]),
  node('faq', 'document'),
];
const find = (id: string, nodes = tree): PageNode | undefined => {
  for (const n of nodes) {
    if (n.id === id) return n;
    const inner = find(id, n.pages);
    if (inner) return inner;
  }
  return undefined;
};
const html = (els: ReturnType<typeof pagination>) => els.map((e) => toHtml(e)).join('');

describe('the published theme', () => {
  it('links previous and next pages in reading order, over groups and links', () => {
    expect(html(pagination(tree, find('intro')!, url))).toMatch(/^(?!.*rel="prev").*href="\/s\/install" rel="next"/);
    const install = html(pagination(tree, find('install')!, url));
    expect(install).toContain('href="/s/intro" rel="prev"');
    expect(install).toContain('href="/s/linux" rel="next"');
    expect(html(pagination(tree, find('faq')!, url))).not.toContain('rel="next"');
    expect(pagination([node('alone', 'document')], node('alone', 'document'), url)).toEqual([]);
  });

  it('shows the ancestors of a page as breadcrumbs, linking those that are pages', () => {
    expect(breadcrumbs(tree, find('intro')!, url)).toEqual([]);
    const crumbs = html(breadcrumbs(tree, find('linux')!, url));
    expect(crumbs).toContain('<li>GUIDES</li>');
    expect(crumbs).toContain('<a href="/s/install">INSTALL</a>');
    expect(crumbs).not.toContain('LINUX');
  });

  it('lists the headings under "On this page" when there are two or more, text escaped', () => {
    expect(onThisPage([{ id: 'a', title: 'A', level: 2 }])).toBeUndefined();
    const toc = toHtml(
      onThisPage([
        { id: 'a', title: 'A <b>', level: 2 },
        { id: 'b', title: 'B', level: 3 },
      ])!,
    );
    expect(toc).toContain('href="#a">A &#x3C;b></a>');
    expect(toc).toContain('class="level-3"');
  });
});
