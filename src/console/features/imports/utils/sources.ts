import { IMPORT_LIMITS, type ImportSource } from '../../../../shared/contract';

export const SOURCE_OPTIONS: { value: ImportSource; label: string; hint: string }[] = [
  {
    value: 'zip',
    label: 'Folder of markdown files (.zip)',
    hint: 'A SUMMARY.md, when there is one, gives the order and nesting of pages, as in a GitBook export. Links between files become page links; images become files.',
  },
  { value: 'markdown', label: 'Markdown file', hint: 'One page.' },
  { value: 'html', label: 'HTML page', hint: 'One page, converted to markdown.' },
  { value: 'docx', label: 'Word document (.docx)', hint: 'One page, converted to markdown; images are kept.' },
  {
    value: 'website',
    label: 'Website',
    hint: `The pages of the same site under the URL (at most ${IMPORT_LIMITS.websitePages}), nested as their paths are. robots.txt is respected.`,
  },
];

/** The source a file's name or type says it is. */
export function sourceOfFile(file: File): ImportSource | undefined {
  const name = file.name.toLowerCase();
  if (name.endsWith('.zip') || file.type.includes('zip')) return 'zip';
  if (/\.(md|markdown|mdx)$/.test(name) || file.type === 'text/markdown') return 'markdown';
  if (/\.html?$/.test(name) || file.type === 'text/html') return 'html';
  if (name.endsWith('.docx')) return 'docx';
  return undefined;
}

/** The content type an upload of `source` is sent as (the server also reads `?source=`). */
export const UPLOAD_CONTENT_TYPES: Record<Exclude<ImportSource, 'website'>, string> = {
  zip: 'application/zip',
  markdown: 'text/markdown',
  html: 'text/html',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
};

/** "12.5 MB". */
export function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/** What a running import is doing, in words. */
export const STAGE_LABELS = {
  queued: 'Waiting for its turn',
  fetching: 'Fetching',
  reading: 'Reading',
  converting: 'Converting pages',
  writing: 'Writing the pages',
  done: 'Done',
} as const;
