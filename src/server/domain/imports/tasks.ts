import { preparePages, type PrepareInput } from './markdown.js';
import { htmlToMarkdown } from './html.js';
import { docxToMarkdown } from './docx.js';
import { parseSummary } from './summary.js';

/** The import's CPU-heavy steps, run by the worker pool (see workers/tasks.ts): conversions and page bodies. */
export const importTasks = {
  /** Imported pages made ready: links rewritten, titles read, bodies split into blocks. */
  prepareImportPages: (input: PrepareInput) => preparePages(input),
  /** An HTML page or document as markdown. */
  htmlToMarkdown: (input: { html: string; pageUrl?: string; mainContent?: boolean }) =>
    htmlToMarkdown(input.html, input),
  /** An archive's table of contents (a long SUMMARY.md takes the markdown parser a while). */
  parseSummary: (markdown: string) => parseSummary(markdown),
  /** A Word document as markdown, with its images. */
  docxToMarkdown: (data: Uint8Array) => docxToMarkdown(data),
};
