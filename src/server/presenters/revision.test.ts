import { describe, expect, it } from 'vitest';
import { safeEncode } from 'zod/v4/core';
import { revisionPagesSchema } from '../../shared/contract/content.js';
import type { PageNode, PageVersion } from '../domain/content/model.js';
import { PAGES_JSON_FORMAT, pagesJsonWriter, presentPage, type GitRefs, type PageLocation } from './revision.js';
import { Urls } from '../lib/urls.js';

const urls = new Urls('https://docs.example');

function node(id: string, version: Partial<PageVersion> & Pick<PageVersion, 'type'>, pages: PageNode[] = []): PageNode {
  return {
    id,
    entry: { v: `v-${id}`, p: null, c: pages.map((p) => p.id) },
    version: {
      title: `Title of ${id}`,
      slug: id,
      createdAt: '2024-05-01T10:00:00.000Z',
      updatedAt: '2024-05-02T10:00:00.000Z',
      ...version,
    },
    path: `path/${id}`,
    pages,
  };
}

/** The writer driven as RevisionReader.walkTree drives it: a page, then (unless skipped) its subpages. */
function written(at: PageLocation, tree: PageNode[], git?: GitRefs): string {
  let text = '';
  const writer = pagesJsonWriter(urls, at, (t) => (text += t), git);
  const walk = (nodes: PageNode[]) => {
    for (const n of nodes) {
      if (!writer.enter(n)) continue;
      walk(n.pages);
      writer.leave(n);
    }
  };
  writer.start();
  walk(tree);
  writer.end();
  return text;
}

/** What the route answered before: presentPage, encoded by the contract (its key order), stringified. */
function presented(at: PageLocation, tree: PageNode[], git?: GitRefs): string {
  const encoded = safeEncode(revisionPagesSchema, { pages: tree.map((n) => presentPage(urls, at, n, undefined, git)) });
  if (encoded.error) throw encoded.error;
  return JSON.stringify(encoded.data);
}

describe('pagesJsonWriter', () => {
  const tree = [
    node(
      'doc',
      {
        type: 'document',
        emoji: '📘',
        description: 'About "this" \u2028 <b>',
        layout: { outline: false, width: 'wide' },
        cover: { file: 'file-1', yPos: 40 },
      },
      [
        node('child', {
          type: 'document',
          title: 'Ünïcode \ud83d\ude00 and a lone \ud800',
          hidden: true,
          noIndex: true,
          noRobotsIndex: true,
        }),
        node('deep-group', { type: 'group', emoji: '' }, [node('grandchild', { type: 'document' })]),
      ],
    ),
    node('group', { type: 'group', emoji: '📁', icon: 'book', description: 'groups show no description' }, []),
    // A link's subpages are not in the answer, nor its slug, path or description.
    node('link', { type: 'link', href: 'https://example.com/?a="b"', emoji: '🔗', description: 'hidden' }, [
      node('under-link', { type: 'document' }),
    ]),
    node('bare-link', { type: 'link' }),
    node('no-dates', { type: 'document', createdAt: undefined, updatedAt: undefined, slug: '' }),
  ];

  it('writes what presentPage and the contract answer, in the space and in a change request', () => {
    for (const at of [
      { organizationId: 'org', spaceId: 'space' },
      { organizationId: 'org', spaceId: 'space', changeRequest: 7 },
    ]) {
      const text = written(at, tree);
      expect(text).toBe(presented(at, tree));
      expect(revisionPagesSchema.safeParse(JSON.parse(text)).success).toBe(true);
    }
  });

  it('writes the pages’ files in a synced repository as presentPage does', () => {
    // Every page is in the path map; only document pages have a file.
    const git: GitRefs = (kind, id) => (kind === 'page' ? { oid: `oid-${id}`, path: `docs/${id} "x".md` } : undefined);
    const at = { organizationId: 'org', spaceId: 'space' };
    const text = written(at, tree, git);
    expect(text).toBe(presented(at, tree, git));
    expect(text).toContain('"git":{"oid":"oid-grandchild","path":"docs/grandchild \\"x\\".md"}');
    expect(text).not.toContain('oid-group');
    expect(text).not.toContain('oid-link');
  });

  it('writes an empty tree', () => {
    expect(written({ organizationId: 'o', spaceId: 's' }, [])).toBe('{"pages":[]}');
  });

  it('has a format digest, part of the ETags', () => {
    expect(PAGES_JSON_FORMAT).toMatch(/^[A-Za-z0-9_-]{12}$/);
  });
});
