import { describe, expect, it } from 'vitest';
import { toHtml } from 'hast-util-to-html';
import type { PageNode } from '../../content/model.js';
import {
  LEVEL_WINDOW,
  PAGES_CHUNK,
  WHOLE_TREE_MAX,
  breadcrumbs,
  navIndex,
  onThisPage,
  pageList,
  pageTree,
  pagination,
} from './navigation.js';

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
const index = navIndex(tree);
const html = (els: ReturnType<typeof pagination>) => els.map((e) => toHtml(e)).join('');

describe('the published theme', () => {
  it('links previous and next pages in reading order, over groups and links', () => {
    expect(html(pagination(index, find('intro')!, url))).toMatch(/^(?!.*rel="prev").*href="\/s\/install" rel="next"/);
    const install = html(pagination(index, find('install')!, url));
    expect(install).toContain('href="/s/intro" rel="prev"');
    expect(install).toContain('href="/s/linux" rel="next"');
    expect(html(pagination(index, find('faq')!, url))).not.toContain('rel="next"');
    expect(pagination(navIndex([node('alone', 'document')]), node('alone', 'document'), url)).toEqual([]);
  });

  it('shows the ancestors of a page as breadcrumbs, linking those that are pages', () => {
    expect(breadcrumbs(index, find('intro')!, url)).toEqual([]);
    const crumbs = html(breadcrumbs(index, find('linux')!, url));
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

  const pagesUrl = (parent: string | undefined, from: number, to: number) => `/s/~pages/${parent ?? ''}?${from}-${to}`;

  it('holds the whole tree of a small space, folders folded away from the current page', () => {
    const nav = toHtml(pageTree(index, url, 'intro', pagesUrl));
    for (const id of ['intro', 'install', 'linux', 'faq']) expect(nav).toContain(`href="/s/${id}"`);
    expect(nav).not.toContain('~pages');
    expect(nav).toContain('<details><summary aria-label="INSTALL: pages inside"></summary>');
  });

  /** A space of `chapters` top-level pages of `each` pages, each of those with 3 pages under it. */
  function big(chapters: number, each: number): PageNode[] {
    return Array.from({ length: chapters }, (_, c) =>
      node(
        `c${c}`,
        'document',
        Array.from({ length: each }, (_, p) =>
          node(
            `c${c}-p${p}`,
            'document',
            [0, 1, 2].map((k) => node(`c${c}-p${p}-${k}`, 'document')),
          ),
        ),
      ),
    );
  }

  it('holds only the way to the current page of a large space, each level a window, and links to the rest', () => {
    const large = navIndex(big(120, 100));
    expect(large.byId.size).toBeGreaterThan(WHOLE_TREE_MAX);
    const nav = toHtml(pageTree(large, url, 'c70-p90-1', pagesUrl));
    const links = nav.match(/<a /g)!.length;
    // Top level: a window around chapter 70; its pages: a window around page 90; page 90's pages; a link to the pages
    // of each folded folder, and to the pages before and after each window.
    expect(links).toBe(LEVEL_WINDOW + (LEVEL_WINDOW - 1) + 2 + LEVEL_WINDOW + (LEVEL_WINDOW - 1) + 1 + 3);
    expect(nav).toContain('href="/s/c70-p90-1" aria-current="page"');
    expect(nav).toContain('href="/s/c70-p90-0"');
    // The levels on the way are windows around it, with the pages before and after behind links.
    expect(nav).toContain(
      `<a href="/s/~pages/?0-${70 - LEVEL_WINDOW / 2}" data-pages="">Show ${70 - LEVEL_WINDOW / 2} more pages</a>`,
    );
    expect(nav).toContain(`href="/s/~pages/?${70 + LEVEL_WINDOW / 2}-120" data-pages="">Show 25 more pages</a>`);
    expect(nav).toContain(`href="/s/~pages/c70?0-${100 - LEVEL_WINDOW}"`);
    expect(nav).not.toContain('href="/s/c71-p0"');
    // Other folders hold a link to their pages, loaded when they open.
    expect(nav).toContain(
      '<details><summary aria-label="C71: pages inside"></summary><ul><li class="more"><a href="/s/~pages/c71?0-100" data-pages="">Show 100 pages</a>',
    );
    // A page at the top shows the first pages of every level.
    const first = toHtml(pageTree(large, url, 'c0', pagesUrl));
    expect(first).toContain('href="/s/c0"');
    expect(first).toContain(`href="/s/~pages/?${LEVEL_WINDOW}-120"`);
  });

  it('lists the pages left out a chunk at a time, folders folded behind links', () => {
    const large = navIndex(big(1, PAGES_CHUNK + 50));
    const list = toHtml(pageList(large.tree[0]!.pages, 'c0', 10, PAGES_CHUNK + 50, url, pagesUrl));
    expect(list.match(/<li class="folder">/g)).toHaveLength(PAGES_CHUNK);
    expect(list).toContain('href="/s/c0-p10"');
    expect(list).not.toContain('href="/s/c0-p9"');
    expect(list).toContain(`<a href="/s/~pages/c0-p10?0-3" data-pages="">Show 3 pages</a>`);
    expect(list).toContain(
      `<a href="/s/~pages/c0?${PAGES_CHUNK + 10}-${PAGES_CHUNK + 50}" data-pages="">Show 40 more pages</a>`,
    );
    // Groups fold too; titles are text, never markup.
    const grouped = toHtml(pageList([node('g<b>', 'group', [node('x', 'document')])], undefined, 0, 1, url, pagesUrl));
    expect(grouped).toContain('<summary class="group-title">G&#x3C;B></summary>');
  });
});
