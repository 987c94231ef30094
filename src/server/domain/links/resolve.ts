import { titleAnchor } from '../../../shared/heading-ids.js';
import { hashOf } from '../content/tree.js';
import { hrefTargets, type HrefTarget } from '../sites/render.js';
import { SITES_PREFIX } from '../../lib/urls.js';

/**
 * What one link of a page points at, and whether that exists. Links are read as the published site reads them
 * (`hrefTargets` in sites/render.ts, the same function its resolveHref uses): `/pages/<id or path>`, `.md` paths
 * (relative to the page), `/files/<id>`, `./<file name>`; `#anchor` is a heading of the same page.
 */
export type LinkStatus = 'ok' | 'broken' | 'in-app';
export type LinkRelation = 'reference' | 'dependsOn';

/** What a link points at (stored as JSON on its target). `ref` is what a link names that is not in the revision. */
export type TargetData =
  | { k: 'page'; id: string; a?: string }
  | { k: 'page'; ref: string; a?: string }
  | { k: 'file'; id: string }
  | { k: 'file'; ref: string }
  | { k: 'url'; url: string };

/** A link as read off its page, before the revision is looked at. */
export type Analysis =
  | { kind: 'url'; url: string }
  | { kind: 'self'; anchor?: string }
  | { kind: 'internal'; targets: HrefTarget[]; anchor?: string };

/** What a link's status depends on: a page id or path, a file id or a file name it may name. */
export interface Dep {
  key: string;
  /** The link names an anchor: the headings of the page matter too. */
  anchor: boolean;
}

/** A page id or path (a link names either, in one namespace; `link_pages.path_key` is the key of its path). */
export const pageKey = (ref: string) => hashOf(['p', ref]);
export const fileKey = (id: string) => hashOf(['f', id]);
/** A file name (`link_files.name_key` too). */
export const nameKey = (name: string) => hashOf(['n', name]);

function decodeAnchor(hash: string): string | undefined {
  const raw = hash.replace(/^#/, '');
  if (!raw) return undefined;
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}

/** Reads a link of a page at `path`. */
export function analyze(href: string, path: string): Analysis {
  if (href.startsWith('#')) return { kind: 'self', anchor: decodeAnchor(href) };
  const internal = hrefTargets(href, path);
  // Not internal (a scheme, `//host`), or a relative URL that names no page or file (`docs/setup`): the site
  // leaves it as written, and so does this report.
  if (!internal || !internal.targets.length) return { kind: 'url', url: href };
  return { kind: 'internal', targets: internal.targets, anchor: decodeAnchor(internal.hash) };
}

export function depsOf(analysis: Analysis): Dep[] {
  if (analysis.kind !== 'internal') return [];
  const deps = new Map<string, Dep>();
  for (const t of analysis.targets) {
    const key = t.kind === 'page' ? pageKey(t.ref) : t.kind === 'file' ? fileKey(t.id) : nameKey(t.name);
    deps.set(key, { key, anchor: t.kind === 'page' && analysis.anchor !== undefined });
  }
  return [...deps.values()];
}

/** A page of the revision, as links see it. */
export interface PageInfo {
  id: string;
  type: string;
  /** Hash of its document object (document pages with a body). */
  document: string | null;
  /** Its title: its anchor (titleAnchor) is the page's top. */
  title?: string;
  /** Old ids of its headings that lead to them still (content/anchors.ts). */
  aliases?: string[];
}

/** Answers about the revision a link is resolved against (see Lookup in maintain.ts). */
export interface Revisionish {
  /** The page a `/pages/<ref>` or `.md` link names (by id, else by path), if it is a document page. */
  page(ref: string): PageInfo | undefined;
  fileExists(id: string): boolean;
  /** The file with this name (the last by id when several share it, as the published site picks). */
  fileNamed(name: string): string | undefined;
  /** Heading anchors of a document. */
  anchors(document: string | null): Set<string>;
}

export interface Resolved {
  data: TargetData;
  status: LinkStatus;
  key: string;
}

/** A console (app) location of this server: not where a reader of published content should be sent. */
export function isInApp(url: string, appBase: string): boolean {
  if (!/^https?:/i.test(url)) return false;
  const base = appBase.toLowerCase();
  const lower = url.toLowerCase();
  if (lower !== base && !['/', '?', '#'].some((c) => lower.startsWith(base + c))) return false;
  const rest = lower.slice(base.length);
  return !rest.startsWith(`${SITES_PREFIX}/`) && rest !== SITES_PREFIX && !rest.startsWith('/v1/');
}

export function targetKey(data: TargetData, relation: LinkRelation, status: LinkStatus): string {
  return hashOf([data, relation, status]);
}

/** Resolves a link of page `selfId` (document `selfDocument`) against the revision. */
export function resolve(
  analysis: Analysis,
  relation: LinkRelation,
  self: PageInfo,
  revision: Revisionish,
  appBase: string,
): Resolved {
  const done = (data: TargetData, status: LinkStatus): Resolved => ({
    data,
    status,
    key: targetKey(data, relation, status),
  });
  if (analysis.kind === 'url')
    return done({ k: 'url', url: analysis.url }, isInApp(analysis.url, appBase) ? 'in-app' : 'ok');
  const anchor = analysis.anchor;
  const onPage = (page: PageInfo): Resolved => {
    const data: TargetData = anchor === undefined ? { k: 'page', id: page.id } : { k: 'page', id: page.id, a: anchor };
    // As on GitHub (and the published page's script), a link written with capitals finds the id in lower case.
    const has = (id: string) =>
      revision.anchors(page.document).has(id) ||
      (page.title !== undefined && id === titleAnchor(page.title)) ||
      (page.aliases?.includes(id) ?? false);
    const found = anchor === undefined || has(anchor) || has(anchor.toLowerCase());
    return done(data, found ? 'ok' : 'broken');
  };
  if (analysis.kind === 'self') return onPage(self);
  for (const t of analysis.targets) {
    if (t.kind === 'page') {
      const page = revision.page(t.ref);
      if (page) return onPage(page);
    } else if (t.kind === 'file') {
      if (revision.fileExists(t.id)) return done({ k: 'file', id: t.id }, 'ok');
    } else {
      const id = revision.fileNamed(t.name);
      if (id) return done({ k: 'file', id }, 'ok');
    }
  }
  // Nothing it names is here: broken, reported by the first thing it names.
  const first = analysis.targets[0]!;
  if (first.kind === 'page') {
    return done(
      anchor === undefined ? { k: 'page', ref: first.ref } : { k: 'page', ref: first.ref, a: anchor },
      'broken',
    );
  }
  return done({ k: 'file', ref: first.kind === 'file' ? first.id : first.name }, 'broken');
}
