import { blocksToMarkdown, splitBlocks, type Block } from '../domain/content/blocks.js';
import { diffBlocks } from '../domain/content/merge.js';
import { renderPdf, type PdfInput } from '../domain/content/pdf.js';
import type { ContentKitOutput } from '../../shared/contentkit.js';
import { linksOf, markdownLinks, markdownUrls, renderBody, type ImageSize } from '../domain/sites/render.js';
import { markdownToDocument } from '../../shared/document/from-markdown.js';
import { plainRefs, refUrl, type ContentRef } from '../../shared/document/model.js';
import { DocumentError, documentToMarkdown } from '../../shared/document/to-markdown.js';
import { importTasks } from '../domain/imports/tasks.js';
import { extractSections, sectionsOf } from '../domain/search/extract.js';
import { parseMarkdown } from '../../shared/document/parse.js';
import { parseOpenApi } from '../domain/openapi/parse.js';
import { findOperation, referencePage } from '../domain/openapi/reference.js';
import { compareDocuments } from '../domain/openapi/compare.js';
import type { OperationView } from '../../shared/contract/openapi.js';
import { editorDocument, sharedDocumentMarkdown } from '../domain/collab/convert.js';

/**
 * The links and the searchable sections of a page body, from one parse of it (each alone is markdownLinks and
 * extractSections).
 */
function linksAndSections(body: string) {
  const parsed = parseMarkdown(body.replace(/^\uFEFF/, ''));
  return { links: linksOf(parsed, body), sections: body ? sectionsOf(parsed, body) : [] };
}

/**
 * The CPU-heavy tasks, as plain functions of cloneable input. The pool (pool.ts) runs them in a worker thread, or
 * inline when their input is small; they touch neither the database nor the network.
 */
export const tasks = {
  /** Imports: conversions of HTML and Word documents, imported page bodies (see domain/imports/tasks.ts). */
  ...importTasks,
  /** The top-level blocks of a page body (markdown parse). */
  splitBlocks: (markdown: string) => splitBlocks(markdown),
  /**
   * splitBlocks, and the searchable sections (search/indexer.ts) and links (links/documents.ts) of the body those
   * blocks make, read from one parse of it.
   */
  splitBlocksForSearch: (markdown: string) => {
    const blocks = splitBlocks(markdown);
    const body = blocksToMarkdown(blocks);
    return { blocks, body, ...linksAndSections(body) };
  },
  /** linksAndSections of many bodies (an import's pages, before the transaction that writes them). */
  pagesLinksAndSections: (markdowns: string[]) => markdowns.map((markdown) => linksAndSections(markdown)),
  /** The block and word diff of a page between two versions. */
  diffBlocks: (input: { before: Block[]; after: Block[] }) => diffBlocks(input.before, input.after),
  /** A PDF export. */
  renderPdf: async (input: PdfInput): Promise<Uint8Array> => renderPdf(input),
  /** The link and image targets a published page body will need resolved. */
  markdownUrls: (markdown: string) => markdownUrls(markdown),
  /**
   * A page body as GitBook's JSON document, its link targets already resolved (see markdownUrls) and its top-level
   * nodes keyed by the block starting on their line (`starts`: offsets and ids, in order).
   */
  markdownToDocument: (input: {
    markdown: string;
    refs: Record<string, ContentRef>;
    starts: Array<[number, string]>;
  }) =>
    markdownToDocument(input.markdown, {
      refs: { toRef: (url, kind) => input.refs[url] ?? plainRefs.toRef(url, kind), toUrl: refUrl },
      // The last block starting at or before the offset (binary search: a page has up to 10,000 blocks).
      keyAt: (offset) => {
        let low = 0;
        let high = input.starts.length;
        while (low < high) {
          const mid = (low + high) >> 1;
          if (input.starts[mid]![0] <= offset) low = mid + 1;
          else high = mid;
        }
        return low > 0 ? input.starts[low - 1]![1] : undefined;
      },
    }),
  /** A JSON document given to the API, as markdown; or where it cannot be read (the path of the node, and why). */
  documentToMarkdown: (document: {
    nodes?: unknown;
  }): { markdown: string } | { error: { path: string; message: string } } => {
    try {
      return { markdown: documentToMarkdown(document) };
    } catch (error) {
      if (error instanceof DocumentError)
        return { error: { path: error.path, message: error.message.slice(error.path.length + 2) } };
      throw error;
    }
  },
  /** The links, images and heading anchors of a page body (the space's links report). */
  pageLinks: (markdown: string) => markdownLinks(markdown),
  /** The same for many bodies at once (a space whose links are built from nothing). */
  pagesLinks: (markdowns: string[]) => markdowns.map((markdown) => markdownLinks(markdown)),
  /** A published page body as sanitized HTML, with its link targets already resolved (see markdownUrls). */
  // Code blocks are highlighted here: Shiki takes about a second to start in each thread and a few hundred
  // milliseconds per 16 KB of code, so it is loaded on first use and never on the main thread (see
  // sites/published/page.ts).
  renderBody: async (input: {
    markdown: string;
    resolved: Record<string, string>;
    siteRoot: string;
    /** Sizes of the images among the resolved URLs. */
    sizes?: Record<string, ImageSize>;
    /** The operations of the body's OpenAPI blocks. */
    operations?: Record<string, OperationView | null>;
    /** What its integration blocks rendered. */
    integrations?: Record<string, ContentKitOutput | null>;
  }) => {
    const { highlightCode } = await import('../domain/sites/highlight.js');
    return renderBody(
      input.markdown,
      (href) => input.resolved[href] ?? href,
      input.siteRoot,
      highlightCode,
      (url) => input.sizes?.[url],
      input.operations,
      input.integrations,
    );
  },
  /** Live collaboration: a shared document's markdown, and a page's markdown as the editor's document. */
  collabMarkdown: (input: { state: Uint8Array; base: string }) => sharedDocumentMarkdown(input),
  collabDocument: (markdown: string) => editorDocument(markdown),
  /** The searchable sections (headings, anchors, plain text) of page bodies, several at once. */
  extractSections: (markdowns: string[]) => markdowns.map((markdown) => extractSections(markdown)),
  /** An OpenAPI or Swagger document's text read and validated (see domain/openapi/parse.ts). */
  parseOpenApi: (text: string) => parseOpenApi(text),
  /** A page of the operations of a processed document, ready to render. */
  openApiReference: (input: {
    document: string;
    specification: string;
    query: { q?: string; offset: number; limit: number };
  }) => referencePage(input.document, input.specification, input.query),
  /** One operation of a processed document (a page's `{% openapi-operation %}` block). */
  openApiOperations: (input: { document: string; operations: Array<{ path: string; method: string }> }) =>
    input.operations.map((op) => findOperation(input.document, op.path, op.method) ?? null),
  /** The operations added, removed and changed between two processed documents. */
  compareOpenApi: (input: {
    from: { id: string; document: string; specification: string };
    to: { id: string; document: string; specification: string };
  }) => compareDocuments(input.from, input.to),
};

export type Tasks = typeof tasks;
export type TaskName = keyof Tasks;

/**
 * The tasks nobody is waiting on to read a page: they run in the pool's background lane (pool.ts), so they never
 * hold the threads that render pages and diffs for readers.
 */
export const BACKGROUND_TASKS: ReadonlySet<TaskName> = new Set<TaskName>([
  'parseOpenApi',
  'renderPdf',
  'prepareImportPages',
  'htmlToMarkdown',
  'parseSummary',
  'docxToMarkdown',
  'extractSections',
  'pagesLinks',
  'pagesLinksAndSections',
  'collabMarkdown',
  'collabDocument',
]);

/** What a worker receives for one task. */
export interface TaskMessage {
  task: TaskName;
  input: unknown;
}

export function runTask({ task, input }: TaskMessage): unknown {
  return (tasks[task] as (input: unknown) => unknown)(input);
}
