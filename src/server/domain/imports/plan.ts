import { newId } from '../../lib/ids.js';
import { PAGE_TITLE_MAX } from '../../../shared/contract/content.js';
import type { PageInput } from './markdown.js';

/**
 * What a source gives the import: pages in tree order (parents before their pages), the files they may link to,
 * and where links go. Ids are chosen here, before anything is written, so that links between imported pages and
 * to imported files can be written as `/pages/<id>` and `/files/<id>` while the bodies are converted.
 */
export interface PlannedPage {
  ref: string;
  /** Ref of the parent page; none at the top of what is imported. */
  parent?: string;
  /** `reusable`: reusable content (GitBook's `.gitbook/includes/*.md`), included by pages, in no page tree. */
  type: 'document' | 'group' | 'link' | 'reusable';
  /** The title unless the body gives one (front matter, leading heading). */
  title: string;
  slug?: string;
  href?: string;
  /** The body of a document page, to convert. */
  body?: PageInput;
}

export interface PlannedFile {
  ref: string;
  name: string;
  /** Where it comes from (its path in the archive), as an import's list of what it left out names it. */
  path?: string;
  contentType?: string;
  /** The target links to it are rewritten to (`/files/<id>`). */
  target: string;
  /** Its bytes (read only when some page uses it). */
  /** Its bytes, read as they are stored (an archive's entry inflates chunk by chunk, never held whole). */
  load: () => AsyncIterable<Buffer>;
}

export interface ImportPlan {
  pages: PlannedPage[];
  files: PlannedFile[];
  /** Link targets: archive paths or URLs → `/pages/<id>` or `/files/<id>`. */
  targets: Record<string, string>;
  mode: 'archive' | 'web';
  /** Resources found but not imported (a website crawl stopped at its page limit). */
  notImported?: number;
  /** Said in the import run when it completes (the limit a crawl stopped at). */
  message?: string;
  /** The content's folder in the archive or repository (`.gitbook.yaml`'s `root:`), '' at its top. */
  root?: string;
  /** `.gitbook.yaml`'s redirects: an old path of the published space → the file (from the root) of its page. */
  redirects?: Record<string, string>;
  /** Releases what the plan holds open (an archive its files are read from). */
  close?: () => void;
}

/** Refs and their ids for one import. */
export class ImportIds {
  readonly ids = new Map<string, string>();
  private pages = 0;
  private files = 0;

  page(): { ref: string; target: string } {
    const ref = `page-${++this.pages}`;
    const id = newId();
    this.ids.set(ref, id);
    return { ref, target: `/pages/${id}` };
  }

  file(): { ref: string; target: string } {
    const ref = `file-${++this.files}`;
    const id = newId();
    this.ids.set(ref, id);
    return { ref, target: `/files/${id}` };
  }
}

/** A title from a file or URL segment: `getting-started.md` → `Getting started`. */
export function titleFromName(name: string): string {
  const base = name
    .replace(/\.[a-z0-9]+$/i, '')
    .replace(/[-_]+/g, ' ')
    .trim();
  return fitTitle(base ? base[0]!.toUpperCase() + base.slice(1) : 'Untitled');
}

/** A title cut to what a page holds. */
export function fitTitle(title: string): string {
  const t = title.replace(/\s+/g, ' ').trim() || 'Untitled';
  return t.length > PAGE_TITLE_MAX ? `${t.slice(0, PAGE_TITLE_MAX - 1).trimEnd()}…` : t;
}
