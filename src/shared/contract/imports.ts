import { z } from 'zod';
import { ID_MAX, URL_MAX, timestampSchema } from './common.js';
import { listSchema } from '../pagination.js';

/**
 * Importing content into a space or a change request (`POST …/content/import`): from a URL (`{url, source}`), or
 * uploaded as the request body itself with `?source=` (the console's file upload). Either way one new revision.
 */
export const IMPORT_SOURCES = ['markdown', 'html', 'zip', 'website', 'docx'] as const;
export const importSourceSchema = z.enum(IMPORT_SOURCES);
export type ImportSource = z.infer<typeof importSourceSchema>;

/** Sources that can be uploaded as the request body (a website can only be crawled from its URL). */
export const UPLOAD_SOURCES = ['markdown', 'html', 'zip', 'docx'] as const;

/**
 * The limits of one import. Each one, when it stops an import, is named in the answer (400); a website crawl
 * that meets `websitePages` imports that many pages and says how many it found (`totalResources`).
 */
export interface ImportLimits {
  /** Bytes of a Word document, downloaded from a URL or uploaded (it is converted in memory). */
  downloadBytes: number;
  /**
   * Bytes of a zip, uploaded or downloaded from a URL, and of any upload: kept as it arrives (in the database, then
   * on disk) and read from there, never held in memory.
   */
  uploadBytes: number;
  /** Bytes of one page: a markdown or HTML file, or one page of a website. */
  pageBytes: number;
  /** Milliseconds an import may take, from the request to its revision. */
  totalMs: number;
  /** Entries (files and folders) of an archive. */
  zipEntries: number;
  /** Bytes of an archive once inflated, all entries together. */
  uncompressedBytes: number;
  /** Pages a website import fetches at most. */
  websitePages: number;
  /** Bytes of one file an import brings (an image, a PDF): the largest file a space holds (FILE_MAX_BYTES). */
  fileBytes: number;
}

export const IMPORT_LIMITS: ImportLimits = {
  downloadBytes: 50 * 1024 * 1024,
  uploadBytes: 1024 * 1024 * 1024,
  pageBytes: 5 * 1024 * 1024,
  totalMs: 120_000,
  zipEntries: 10_000,
  uncompressedBytes: 2 * 1024 * 1024 * 1024,
  websitePages: 200,
  fileBytes: 100 * 1024 * 1024,
};

/** How each limit is named in errors and in the README. */
export const IMPORT_LIMIT_NAMES: Record<keyof ImportLimits, string> = {
  downloadBytes: 'download size',
  uploadBytes: 'archive size',
  pageBytes: 'page size',
  totalMs: 'import time',
  zipEntries: 'archive file count',
  uncompressedBytes: 'archive uncompressed size',
  fileBytes: 'file size',
  websitePages: 'website page count',
};

export const importBodySchema = z.object({
  /** Where the content is: an http(s) URL, fetched by the server. */
  url: z.url({ protocol: /^https?$/, message: 'An http(s) URL' }).max(URL_MAX),
  source: importSourceSchema,
});
export type ImportBody = z.infer<typeof importBodySchema>;

/** A client-chosen id of the import, to follow its progress while the POST runs. */
export const importIdSchema = z
  .string()
  .min(1)
  .max(ID_MAX)
  .regex(/^[A-Za-z0-9_-]+$/, 'Letters, digits, - and _');

export const importQuerySchema = z.object({
  /** The source of content uploaded as the request body (not JSON). */
  source: z.enum(UPLOAD_SOURCES).optional(),
  /** Names this import, so that `GET /v1/spaces/{spaceId}/imports/{importId}` shows its progress meanwhile. */
  importId: importIdSchema.optional(),
});

/** A file or page an import left out, or brought in without its content, and why (too large, nested too deep…). */
export const importSkippedSchema = z.object({
  /** Its path in the archive, or its URL. */
  path: z.string(),
  reason: z.string(),
});
export type ImportSkipped = z.infer<typeof importSkippedSchema>;

export const importResultSchema = z.object({
  revision: z.string(),
  importedResources: z.number().int(),
  totalResources: z.number().int(),
  /** What was not imported, and why: every other file was (absent when nothing was left out). */
  skipped: z.array(importSkippedSchema).optional(),
});
export type ImportResult = z.infer<typeof importResultSchema>;

export const IMPORT_STATUSES = ['running', 'completed', 'failed'] as const;
/**
 * What a running import is doing: waiting for its turn (imports run a few at a time, an organization's one at a
 * time), fetching its source, reading it, converting pages, writing the revision.
 */
export const IMPORT_STAGES = ['queued', 'fetching', 'reading', 'converting', 'writing', 'done'] as const;

/** An import run, as its progress is followed (`GET /v1/spaces/{spaceId}/imports/{importId}`). */
export const importRunSchema = z.object({
  object: z.literal('import'),
  id: z.string(),
  source: importSourceSchema,
  /** The URL imported from; absent for an upload. */
  url: z.string().optional(),
  status: z.enum(IMPORT_STATUSES),
  stage: z.enum(IMPORT_STAGES),
  /** Pages and files converted so far, of those found so far (the total grows while a website is crawled). */
  importedResources: z.number().int(),
  totalResources: z.number().int(),
  /** The change request imported into; absent for an import into the space. */
  changeRequest: z.string().optional(),
  /** The new revision, once completed. */
  revision: z.string().optional(),
  /** Why it failed, or a limit it met (a website crawl that stopped at the page limit). */
  message: z.string().optional(),
  /** What a completed import left out, and why (absent when nothing was). */
  skipped: z.array(importSkippedSchema).optional(),
  createdBy: z.string(),
  createdAt: timestampSchema,
  updatedAt: timestampSchema,
  urls: z.object({ location: z.string() }),
});
export type ImportRun = z.infer<typeof importRunSchema>;
export const importRunListSchema = listSchema(importRunSchema);
