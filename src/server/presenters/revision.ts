import {
  DEFAULT_PAGE_LAYOUT,
  type Revision,
  type RevisionFile,
  type RevisionPage,
} from '../../shared/contract/content.js';
import type { FileEntry, PageNode, RevisionRow } from '../domain/content/model.js';
import type { Block } from '../domain/content/blocks.js';
import { blocksToMarkdown } from '../domain/content/blocks.js';
import type { Urls } from './urls.js';
import type { ChangeRequest } from '../../shared/contract/change-requests.js';

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

/** A page and its nested pages; `body` adds the page's own content in the asked form. */
export function presentPage(
  urls: Urls,
  at: PageLocation,
  node: PageNode,
  body?: { format: 'markdown' | 'document'; blocks: Block[] },
): RevisionPage {
  const v = node.version;
  const common = {
    id: node.id,
    title: v.title,
    ...(v.emoji ? { emoji: v.emoji } : {}),
    createdAt: v.createdAt,
    updatedAt: v.updatedAt,
  };
  const pages = node.pages.map((child) => presentPage(urls, at, child));
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
    urls: { app: pageApp(urls, at, node.id) },
    layout: DEFAULT_PAGE_LAYOUT,
    pages,
    ...(body?.format === 'markdown' ? { markdown: blocksToMarkdown(body.blocks) } : {}),
    ...(body?.format === 'document'
      ? {
          document: {
            object: 'document' as const,
            nodes: body.blocks.map((b) => ({
              object: 'block' as const,
              key: b.id,
              type: b.type,
              markdown: b.markdown,
            })),
          },
        }
      : {}),
  };
}

export function presentFile(
  urls: Urls,
  spaceId: string,
  revisionId: string,
  id: string,
  file: FileEntry,
): RevisionFile {
  return {
    id,
    name: file.name,
    contentType: file.contentType,
    size: file.size,
    downloadURL: urls.api(`/spaces/${spaceId}/revisions/${revisionId}/files/${id}/download`),
    ...(file.width && file.height ? { dimensions: { width: file.width, height: file.height } } : {}),
  };
}

export function presentRevision(
  urls: Urls,
  at: PageLocation,
  revision: RevisionRow,
  pages: PageNode[],
  files: Array<[string, FileEntry]>,
  mergedFrom?: ChangeRequest,
): Revision {
  return {
    object: 'revision',
    id: revision.id,
    type: revision.type,
    parents: JSON.parse(revision.parents) as string[],
    pages: pages.map((p) => presentPage(urls, at, p)),
    files: files.map(([id, f]) => presentFile(urls, at.spaceId, revision.id, id, f)),
    reusableContents: [],
    tags: [],
    variables: JSON.parse(revision.variables) as Record<string, string>,
    createdAt: revision.created_at,
    urls: { app: urls.app(`/o/${at.organizationId}/spaces/${at.spaceId}/revisions/${revision.id}`) },
    ...(mergedFrom ? { mergedFrom } : {}),
  };
}
