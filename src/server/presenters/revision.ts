import {
  DEFAULT_PAGE_LAYOUT,
  type Revision,
  type RevisionFile,
  type PageDocument,
  type RevisionPage,
  type RevisionReusableContent,
} from '../../shared/contract/content.js';
import crypto from 'node:crypto';
import {
  pageCoverOf,
  pageLayoutOf,
  type FileEntry,
  type PageNode,
  type PageVisit,
  type ReusableContent,
  type RevisionRow,
  type TreeVisitor,
} from '../domain/content/model.js';
import type { Block } from '../domain/content/blocks.js';
import { blocksToMarkdown } from '../domain/content/blocks.js';
import { fileDownloadUrl, Urls } from '../lib/urls.js';
import type { ChangeRequest } from '../../shared/contract/change-requests.js';
import type { GitFileRef } from '../../shared/contract/git-sync.js';

/** A page's, file's or reusable content's file in the synced repository (Git Sync), when it has one. */
export type GitRefs = (kind: 'page' | 'file' | 'reusable', id: string) => GitFileRef | undefined;
const withGit = (ref: GitFileRef | undefined) => (ref ? { git: { oid: ref.oid, path: ref.path } } : {});

export interface PageLocation {
  organizationId: string;
  spaceId: string;
  /** Change request number, when the page is read inside one. */
  changeRequest?: number;
}

export function pageApp(urls: Urls, at: PageLocation, pageId: string): string {
  const base = `/o/${at.organizationId}/spaces/${at.spaceId}`;
  return urls.app(
    at.changeRequest !== undefined
      ? `${base}/change-requests/${at.changeRequest}/pages/${pageId}`
      : `${base}/pages/${pageId}`,
  );
}

/**
 * A page and its nested pages; `body` adds the page's own content in the asked form. (A whole tree is written out by
 * `pagesJsonWriter` instead: what changes here changes there too.)
 */
export function presentPage(
  urls: Urls,
  at: PageLocation,
  node: PageNode,
  body?: { format: 'markdown'; blocks: Block[] } | { format: 'document'; document: PageDocument },
  git?: GitRefs,
): RevisionPage {
  const v = node.version;
  const common = {
    id: node.id,
    title: v.title,
    ...(v.emoji ? { emoji: v.emoji } : {}),
    ...(v.icon ? { icon: v.icon } : {}),
    createdAt: v.createdAt,
    updatedAt: v.updatedAt,
  };
  const pages = node.pages.map((child) => presentPage(urls, at, child, undefined, git));
  if (v.type === 'link') {
    return { ...common, kind: 'link', type: 'link', href: v.href ?? '', target: { kind: 'url', url: v.href ?? '' } };
  }
  if (v.type === 'group') return { ...common, kind: 'group', type: 'group', slug: v.slug, path: node.path, pages };
  return {
    ...common,
    kind: 'sheet',
    type: 'document',
    slug: v.slug,
    path: node.path,
    ...(v.description ? { description: v.description } : {}),
    ...(v.hidden ? { hidden: true } : {}),
    ...(v.noIndex ? { noIndex: true } : {}),
    ...(v.noRobotsIndex ? { noRobotsIndex: true } : {}),
    urls: { app: pageApp(urls, at, node.id) },
    layout: pageLayoutOf(v),
    ...(v.cover ? { cover: pageCoverOf(v) } : {}),
    ...(v.document ? { documentId: v.document } : {}),
    pages,
    ...(body?.format === 'markdown' ? { markdown: blocksToMarkdown(body.blocks) } : {}),
    ...(body?.format === 'document' ? { document: body.document } : {}),
    ...withGit(git?.('page', node.id)),
  };
}

const json = JSON.stringify;
const LAYOUT_JSON = json(DEFAULT_PAGE_LAYOUT);
/** `,"name":value`, or nothing for undefined (as JSON.stringify leaves such a key out). */
const field = (name: string, value: string | undefined) => (value === undefined ? '' : `,"${name}":${json(value)}`);

/**
 * `{"pages":[...]}` of a whole revision as JSON text, written piece by piece (`write`) as the tree is walked: the
 * very text the route used to send, `JSON.stringify` of `presentPage` of every top-level page once encoded by the
 * contract's `revisionPagesSchema` (which orders the keys as the schema lists them), without ever holding the
 * presented tree, or the text, whole. A 100,000-page tree is 50 MB of JSON: built as objects, validated and
 * stringified in one go, it held the event loop for seconds. Tests check the two stay equal.
 */
export function pagesJsonWriter(
  urls: Urls,
  at: PageLocation,
  write: (text: string) => void,
  git?: GitRefs,
): TreeVisitor & { start(): void; end(): void } {
  let first = true;
  return {
    start: () => write('{"pages":['),
    end: () => write(']}'),
    enter: (page: PageVisit) => {
      const v = page.version;
      const type = v.type === 'link' || v.type === 'group' ? v.type : 'document';
      let text = `${first ? '' : ','}{"id":${json(page.id)}${field('title', v.title)}`;
      text +=
        type === 'link'
          ? ',"kind":"link","type":"link"'
          : type === 'group'
            ? ',"kind":"group","type":"group"'
            : ',"kind":"sheet","type":"document"';
      if (type !== 'link') text += field('slug', v.slug) + field('path', page.path);
      if (v.emoji) text += field('emoji', v.emoji);
      if (v.icon) text += field('icon', v.icon);
      if (type === 'document' && v.description) text += field('description', v.description);
      if (type === 'document' && v.hidden) text += ',"hidden":true';
      if (type === 'document' && v.noIndex) text += ',"noIndex":true';
      if (type === 'document' && v.noRobotsIndex) text += ',"noRobotsIndex":true';
      text += field('createdAt', v.createdAt) + field('updatedAt', v.updatedAt);
      if (type === 'link') {
        // A link has no subpages in the answer, whatever its entry holds.
        const href = json(v.href ?? '');
        write(`${text},"href":${href},"target":{"kind":"url","url":${href}}}`);
        first = false;
        return false;
      }
      if (type === 'document') {
        const layout = v.layout ? json(pageLayoutOf(v)) : LAYOUT_JSON;
        const cover = v.cover ? `,"cover":${json(pageCoverOf(v))}` : '';
        text += `,"urls":{"app":${json(pageApp(urls, at, page.id))}},"layout":${layout}${cover}${field('documentId', v.document)}`;
        const ref = git?.('page', page.id);
        if (ref) text += `,"git":{"oid":${json(ref.oid)},"path":${json(ref.path)}}`;
      }
      write(`${text},"pages":[`);
      first = true;
      return true;
    },
    leave: () => {
      write(']}');
      first = false;
    },
  };
}

/**
 * What `pagesJsonWriter` writes, as a digest: a small tree holding every kind of page and every optional field,
 * written out. It is part of the cache keys and ETags of page trees, so that a release writing them differently
 * never answers a client's old ETag with 304.
 */
export const PAGES_JSON_FORMAT: string = (() => {
  const at = { organizationId: 'o', spaceId: 's', changeRequest: 1 };
  const version = (type: PageVisit['version']['type'], extra: Partial<PageVisit['version']> = {}) => ({
    type,
    title: `A "${type}"`,
    slug: type,
    createdAt: '2000-01-01T00:00:00.000Z',
    updatedAt: '2000-01-02T00:00:00.000Z',
    ...extra,
  });
  const visit = (id: string, v: PageVisit['version']): PageVisit => ({
    id,
    entry: { v: '', p: null, c: [] },
    version: v,
    path: id,
  });
  let text = '';
  const git: GitRefs = (kind, id) => (id === 'd' ? { oid: 'b', path: 'p.md' } : undefined);
  const writer = pagesJsonWriter(new Urls('https://x'), at, (t) => (text += t), git);
  const doc = visit(
    'd',
    version('document', {
      emoji: '📄',
      description: 'About',
      hidden: true,
      noIndex: true,
      noRobotsIndex: true,
      layout: { width: 'wide' },
      cover: { file: 'f', yPos: 10 },
      document: 'h',
    }),
  );
  const group = visit('g', version('group', { emoji: '📁', icon: 'folder' }));
  const link = visit('l', version('link', { href: 'https://example.com' }));
  writer.start();
  writer.enter(group);
  writer.enter(doc);
  writer.enter(link);
  writer.leave(doc);
  writer.leave(group);
  writer.enter(visit('e', version('document')));
  writer.leave(doc);
  writer.end();
  return crypto.createHash('sha256').update(text).digest('base64url').slice(0, 12);
})();

export function presentFile(
  urls: Urls,
  spaceId: string,
  revisionId: string,
  id: string,
  file: FileEntry,
  /** Where a visitor's browser loads the site's files (`…/~files`), for a site token's caller. */
  publicFiles?: string,
  git?: GitFileRef,
): RevisionFile {
  return {
    id,
    name: file.name,
    contentType: file.contentType,
    size: file.size,
    downloadURL: publicFiles
      ? `${publicFiles}/${encodeURIComponent(id)}`
      : fileDownloadUrl(urls, spaceId, revisionId, id),
    ...(file.width && file.height ? { dimensions: { width: file.width, height: file.height } } : {}),
    ...withGit(git),
  };
}

export function presentReusableContent(r: ReusableContent, git?: GitFileRef): RevisionReusableContent {
  return {
    id: r.id,
    title: r.version.title,
    slug: r.version.slug,
    ...(r.version.document ? { document: r.version.document } : {}),
    ...withGit(git),
  };
}

export function presentRevision(
  urls: Urls,
  at: PageLocation,
  revision: RevisionRow,
  pages: PageNode[],
  files: Array<[string, FileEntry]>,
  mergedFrom?: ChangeRequest,
  reusable: ReusableContent[] = [],
  publicFiles?: string,
  git?: GitRefs,
): Revision {
  return {
    object: 'revision',
    id: revision.id,
    type: revision.type,
    parents: JSON.parse(revision.parents) as string[],
    pages: pages.map((p) => presentPage(urls, at, p, undefined, git)),
    files: files.map(([id, f]) => presentFile(urls, at.spaceId, revision.id, id, f, publicFiles, git?.('file', id))),
    reusableContents: reusable.map((r) => presentReusableContent(r, git?.('reusable', r.id))),
    tags: [],
    variables: JSON.parse(revision.variables) as Record<string, string>,
    createdAt: revision.created_at,
    urls: { app: urls.app(`/o/${at.organizationId}/spaces/${at.spaceId}/revisions/${revision.id}`) },
    ...(mergedFrom ? { mergedFrom } : {}),
  };
}
