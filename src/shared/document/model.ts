import type { ContentRef, JSONDocument } from '@gitbook/api';

/**
 * GitBook's document model (`JSONDocument` of `@gitbook/api` 0.143.2), as this product reads it off a page's
 * markdown (./from-markdown.ts) and writes it back (./to-markdown.ts).
 *
 * Nodes are built here as plain objects of this loose shape; what they must be is the contract's (the tests hold
 * the output to its JSON schema). A few data fields the contract leaves open carry what GitBook's model has no
 * place for, so that markdown → document → markdown loses nothing a writer wrote:
 * - `heading-3` `data.depth`: a heading deeper than the model's three levels (`#####`, 5), shown as heading 3 by
 *   renderers that do not know it;
 * - `embed` `data.caption`, `content-ref` `data.title`, `file` `data.caption`: the text GitBook writes with them.
 */
export type { ContentRef, JSONDocument };

export interface DocLeafMark {
  object: 'mark';
  type: string;
  data?: Record<string, unknown>;
}

export interface DocLeaf {
  object: 'leaf';
  text: string;
  marks: DocLeafMark[];
}

export interface DocText {
  object: 'text';
  key?: string;
  leaves: DocLeaf[];
}

export interface DocFragment {
  object: 'fragment';
  key?: string;
  fragment: string;
  type?: string;
  nodes: DocNode[];
}

export interface DocElement {
  object: 'block' | 'inline';
  type: string;
  key?: string;
  data?: Record<string, unknown>;
  meta?: Record<string, unknown>;
  isVoid?: boolean;
  nodes?: DocNode[];
  fragments?: DocFragment[];
}

export type DocNode = DocElement | DocText;

/**
 * The order marks nest in, outermost first: the reader lists a leaf's marks in it and the writer wraps them in it,
 * so a document written and read again has the same marks in the same order.
 */
export const MARK_ORDER = ['bold', 'italic', 'strikethrough', 'color', 'superscript', 'subscript', 'keyboard', 'code'];

/** How links and images of a body name their targets in the document, and back. */
export interface DocumentRefs {
  /** The target of a link or image as written in markdown (after normalizing, as rendered). */
  toRef(url: string, kind: 'link' | 'image'): ContentRef;
  /** The markdown URL of a target. */
  toUrl(ref: ContentRef): string;
}

/**
 * Targets without a revision to look them up in: `#x` an anchor of the page, `/pages/<id>` and `/files/<id>` a page
 * and a file by id (what imports and the API write), anything else a URL.
 */
export const plainRefs: DocumentRefs = {
  toRef(url) {
    if (url.startsWith('#') && url.length > 1) return { kind: 'anchor', anchor: safeDecode(url.slice(1)) };
    const page = /^\/pages\/([A-Za-z0-9_-]+)(?:#(.+))?$/.exec(url);
    if (page)
      return page[2]
        ? { kind: 'anchor', page: page[1]!, anchor: safeDecode(page[2]) }
        : { kind: 'page', page: page[1]! };
    const file = /^\/files\/([A-Za-z0-9_-]+)$/.exec(url);
    if (file) return { kind: 'file', file: file[1]! };
    return { kind: 'url', url };
  },
  toUrl: refUrl,
};

/** A URL-encoded text decoded, or as written when it is not valid encoding. */
export function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** The markdown URL of a target, in the forms `plainRefs` reads. */
export function refUrl(ref: ContentRef): string {
  switch (ref.kind) {
    case 'url':
      return ref.url;
    case 'page':
      return `/pages/${ref.page}`;
    case 'anchor':
      return `${ref.page ? `/pages/${ref.page}` : ''}#${encodeURIComponent(ref.anchor)}`;
    case 'file':
      return `/files/${ref.file}`;
    case 'reusable-content':
      return ref.reusableContent;
    case 'space':
      return `/spaces/${ref.space}`;
    case 'collection':
      return `/collections/${ref.collection}`;
    case 'user':
      return `/users/${ref.user}`;
    case 'openapi':
      return ref.spec;
  }
}
