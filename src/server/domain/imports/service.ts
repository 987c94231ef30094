import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { EventEmitter } from 'node:events';
import type { ServiceContext } from '../context.js';
import { transaction } from '../../storage/db.js';
import { recordEvent } from '../notifications/events.js';
import { findSpace } from '../../storage/repos/spaces.js';
import { newId } from '../../lib/ids.js';
import { nowIso } from '../../lib/time.js';
import { yieldToEventLoop } from '../../lib/yield.js';
import type { PrivateAddresses } from '../../lib/fetch-url.js';
import { workers } from '../../workers/pool.js';
import * as runs from '../../storage/repos/imports.js';
import { keysetPage } from '../../storage/pagination.js';
import { loadSpace } from '../spaces/service.js';
import { readBodiesAhead } from './read-ahead.js';
import { createChangeRequest, loadChangeRequest, requireEditable, updateContent } from '../change-requests/service.js';
import { mergeChangeRequest } from '../change-requests/merge.js';
import { ConflictError, DomainError, ForbiddenError, InvalidError, NotFoundError } from '../errors.js';
import type { SplitBlock } from '../content/blocks.js';
import { FILE_MAX_BYTES, pageHrefSchema, type ContentChange } from '../../../shared/contract/content.js';
import type { ImportLimits, ImportSkipped, ImportSource } from '../../../shared/contract/imports.js';
import type { ErrorIssue } from '../../../shared/errors.js';
import { CHANGE_REQUEST_SUBJECT_MAX } from '../../../shared/contract/change-requests.js';
import { ImportScope, type ProgressSink } from './scope.js';
import { ImportIds, fitTitle, titleFromName, type ImportPlan, type PlannedFile } from './plan.js';
import { planArchive } from './zip.js';
import { crawlWebsite } from './website.js';
import { Archive } from './archive.js';
import { pageFieldsOf, type PreparedPage } from './markdown.js';
import { ImportLimitError, formatBytes } from './limits.js';
import { matchExisting, relinkMatches, type Matches } from './reimport.js';
import { BlobTooLargeError, deleteChunks, putBlobStream, readChunks } from '../../storage/repos/objects.js';
import { enqueueJob, jobStates } from '../../storage/repos/jobs.js';
import { wakeJobQueues, type JobHandler } from '../../jobs/queue.js';
import { contentTypeOf, imageDimensions } from '../content/edit.js';
import type { Db, Executor } from '../../storage/db.js';
import type { Actor } from '../permissions/resolver.js';
import { integrationActorOfToken } from '../integrations/tokens.js';
import type { Urls } from '../../lib/urls.js';
import type { Config } from '../../config.js';
import { importLimits } from './limits.js';

/**
 * Imports (`POST …/content/import`): content from a URL or an upload becomes one new revision, of a change request
 * or of the space.
 *
 * 1. The caller is authorized first (edit level on a change request; on a space, review, the level that merges):
 *    nothing is fetched for anyone else. An import run row records the import and its progress from then on, and
 *    the import is a job of the queue (jobs/queue.ts), stored with it: an upload is kept in the database until
 *    the import is over, so that any server process runs it, and one whose process stopped (a crash, a restart)
 *    is run again from its source by another. The request waits for the run to end and answers its outcome; the
 *    run's progress is readable meanwhile (`GET …/imports/{importId}`). Each process runs IMPORTS_IN_FLIGHT_MAX
 *    imports at once, and an organization's imports run one at a time across every process.
 * 2. The source is fetched through the one guarded fetch, read and converted (zip.ts, website.ts, docx.ts,
 *    html.ts, markdown.ts); every limit it meets stops it with a 400 naming the limit. Conversions and page bodies
 *    run in the worker pool when large, so the event loop stays free.
 * 3. The result is written as one batch of content operations through the change requests' own machinery:
 *    `updateContent` into the change request; into the space, a change request created, edited and merged in one
 *    transaction (the space's row lock queues it with other merges, and the merge is three-way if the space moved
 *    on meanwhile, so nothing is lost). The run is marked completed in the same transaction, so an import run again
 *    after a crash never writes twice. Whatever fails, nothing of the import is kept but its run row, which says
 *    why (and how the request is answered: a 400 naming the limit, the field, the file).
 */
export interface ImportRequest {
  source: ImportSource;
  /** Where to fetch it; absent for an upload. */
  url?: string;
  /**
   * The uploaded bytes, kept in the database as they arrived under `key` (putChunks). The import takes them
   * (`taken`) once it is queued, and removes them when it is over; until then, they are the caller's to remove.
   */
  upload?: ImportUpload;
  importId?: string;
}

export interface ImportUpload {
  key: string;
  size: number;
  taken?: boolean;
}

/** The queue's job kind of imports, and what its job holds: everything the import needs, in any process. */
export const IMPORT_JOB = 'import';
/**
 * Who asked, as they are now: an integration's script acts with its token as authenticating it again would give
 * (stored as JSON, its scopes are no longer a set), and not at all once the token expired or its installation went.
 */
async function actorNow(db: Executor, stored: Actor): Promise<Actor> {
  if (!stored.integration) return stored;
  const integration = await integrationActorOfToken(db, stored.integration.tokenId);
  if (!integration) {
    throw new ForbiddenError(
      "The integration's token that started this import has expired, or its installation is gone",
    );
  }
  return { ...stored, integration };
}

export interface ImportJobPayload {
  spaceId: string;
  runId: string;
  changeRequestId?: string;
  /** Who asked: the import is authorized again as this user when it runs. */
  actor: Actor;
  source: ImportSource;
  url?: string;
  upload?: { key: string; size: number };
}

export interface ImportSettings {
  limits: ImportLimits;
  allowPrivate: PrivateAddresses;
}

/** The limits and fetch rules of imports under `config`. */
export function importSettings(config: Config): ImportSettings {
  return {
    // One file of an import is as large as a space's files may be (FILE_MAX_BYTES), unless a test says otherwise.
    limits: importLimits({
      ...(config.fileMaxBytes ? { fileBytes: config.fileMaxBytes } : {}),
      ...config.importLimits,
    }),
    allowPrivate: config.allowPrivateFetch,
  };
}

/**
 * Imports one process runs at once (the queue's limit for import jobs): each may hold an archive's pages in
 * memory. The others wait in the queue.
 */
export const IMPORTS_IN_FLIGHT_MAX = 2;

/** Milliseconds between two progress writes of one import. */
const PROGRESS_EVERY_MS = 200;

/** Progress written to the import's run row, at most every PROGRESS_EVERY_MS, one write at a time. */
class RunProgress implements ProgressSink {
  private state = { stage: 'fetching', imported: 0, total: 0 };
  private started = false;
  private written = '';
  private timer: NodeJS.Timeout | undefined;
  private chain: Promise<void> = Promise.resolve();

  constructor(
    private readonly ctx: ServiceContext,
    private readonly spaceId: string,
    private readonly id: string,
  ) {}

  stage(stage: 'fetching' | 'reading' | 'converting' | 'writing'): void {
    this.state.stage = stage;
    this.schedule();
  }
  total(n: number): void {
    this.state.total = n;
    this.schedule();
  }
  imported(n: number): void {
    this.state.imported = n;
    this.schedule();
  }

  get counts() {
    return { imported: this.state.imported, total: this.state.total };
  }

  private schedule(): void {
    this.timer ??= setTimeout(() => {
      this.timer = undefined;
      void this.write();
    }, PROGRESS_EVERY_MS);
  }

  private write(): Promise<void> {
    this.chain = this.chain.then(async () => {
      const key = JSON.stringify(this.state);
      // The first write always goes: it says the import has started (out of the queue).
      if (key === this.written && this.started) return;
      this.started = true;
      this.written = key;
      await runs
        .updateImportRun(this.ctx.db, this.spaceId, this.id, {
          stage: this.state.stage,
          imported_resources: this.state.imported,
          total_resources: this.state.total,
          updated_at: nowIso(),
        })
        .catch(() => undefined); // progress is best effort: the import goes on
    });
    return this.chain;
  }

  /** Writes what is pending now, and stops the timer. */
  async flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    await this.write();
  }
}

/** Upload sources told by their content type when `?source=` is not given. */
export const UPLOAD_TYPES: Record<string, ImportSource> = {
  'application/zip': 'zip',
  'application/x-zip-compressed': 'zip',
  'text/markdown': 'markdown',
  'text/x-markdown': 'markdown',
  'text/html': 'html',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': 'docx',
};

/** A page or document name from its URL's last segment (`…/getting-started.md` → `getting-started.md`). */
function nameFromUrl(url: string | undefined): string | undefined {
  if (!url) return undefined;
  try {
    const segment = new URL(url).pathname.replace(/\/+$/, '').split('/').at(-1);
    return segment ? decodeURIComponent(segment) : undefined;
  } catch {
    return undefined;
  }
}

async function checkAccess(ctx: ServiceContext, spaceId: string, changeRequestId: string | undefined) {
  if (changeRequestId !== undefined) {
    const found = await loadChangeRequest(ctx.db, ctx, spaceId, changeRequestId, 'edit', 'import into it');
    requireEditable(found.space, found.cr);
    return { space: found.space, cr: found.cr };
  }
  const { row: space } = await loadSpace(
    ctx.db,
    ctx,
    spaceId,
    'merge',
    'import into it (an import into the space is merged at once: import into a change request with the edit level)',
  );
  if (space.edit_mode === 'locked') throw new ForbiddenError('The space is locked: its content cannot be edited');
  if (space.deleted_at) throw new ConflictError('The space is in the trash: restore it first');
  return { space, cr: undefined };
}

/**
 * An archive's plan, read from a file of its own in a new temporary folder that `write` fills (from the database
 * for an upload, from the network for a URL): the archive is never held whole. The folder goes with the plan.
 */
async function planArchiveFile(
  write: (file: string) => Promise<void>,
  scope: ImportScope,
  ids: ImportIds,
): Promise<ImportPlan> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'docspace-import-'));
  const removeDir = () => rm(dir, { recursive: true, force: true }).catch(() => undefined);
  try {
    const file = path.join(dir, 'archive.zip');
    await write(file);
    scope.progress.stage('reading');
    const plan = await planArchive({ path: file }, scope, ids);
    const close = plan.close;
    plan.close = () => {
      close?.();
      void removeDir();
    };
    return plan;
  } catch (err) {
    await removeDir();
    throw err;
  }
}

/** The source's plan: fetched (or uploaded), read, converted. */
async function planSource(
  db: Executor,
  request: Omit<ImportJobPayload, 'spaceId' | 'runId' | 'actor'>,
  scope: ImportScope,
  ids: ImportIds,
): Promise<ImportPlan> {
  const { limits } = scope;
  const name = nameFromUrl(request.url);
  const pageSized = request.source === 'markdown' || request.source === 'html';
  const maxBytes = pageSized ? limits.pageBytes : limits.downloadBytes;
  const limit = pageSized ? 'pageBytes' : 'downloadBytes';
  if (request.source === 'website') {
    return crawlWebsite(request.url!, scope, ids, async (html, pageUrl) => {
      scope.progress.stage('converting');
      return workers.run('htmlToMarkdown', { html, pageUrl, mainContent: true }, html.length);
    });
  }
  let data: Buffer;
  let contentType: string | undefined;
  /** Where relative links of a page start from: the URL it came from, after redirects. */
  let landed = request.url;
  if (request.upload) {
    // Kept in the database as it arrived: an archive is read from a file it is copied to, never held whole;
    // anything else is page-sized.
    const saved = request.upload;
    // An archive up to the upload limit (it was checked arriving); a document or page up to its own.
    if (request.source !== 'zip' && saved.size > maxBytes) {
      throw scope.limitError(
        limit,
        `the ${request.source === 'docx' ? 'document' : request.source} is larger than ${formatBytes(maxBytes)}`,
      );
    }
    if (request.source === 'zip') {
      return planArchiveFile(
        (file) => pipeline(Readable.from(readChunks(db, saved.key)), createWriteStream(file)),
        scope,
        ids,
      );
    }
    const parts: Buffer[] = [];
    for await (const chunk of readChunks(db, saved.key)) parts.push(chunk);
    data = Buffer.concat(parts);
  } else if (request.source === 'zip') {
    // Up to the archive size, to disk as it arrives.
    return planArchiveFile(
      async (file) => {
        await scope.fetch(request.url!, limits.uploadBytes, 'uploadBytes', 'the URL', file);
      },
      scope,
      ids,
    );
  } else {
    const fetched = await scope.fetch(request.url!, maxBytes, limit, 'the URL');
    data = fetched.data;
    contentType = fetched.contentType;
    landed = fetched.url;
  }
  scope.check();
  scope.progress.stage('reading');
  const page = (markdown: string, title: string, base: string, convertHtml: boolean): ImportPlan => {
    const { ref } = ids.page();
    scope.progress.total(1);
    return {
      pages: [{ ref, type: 'document', title: fitTitle(title), body: { markdown, base, convertHtml } }],
      files: [],
      targets: {},
      mode: 'web',
    };
  };
  switch (request.source) {
    case 'markdown':
      return page(data.toString('utf8'), titleFromName(name ?? 'Imported page'), landed ?? 'upload.md', true);
    case 'html': {
      const html = data.toString('utf8');
      if (contentType && !/html|xml|text\/plain/i.test(contentType)) {
        throw scope.invalid(`the URL answered ${contentType}, not an HTML page`);
      }
      scope.progress.stage('converting');
      const converted = await workers.run(
        'htmlToMarkdown',
        { html, mainContent: true, ...(landed ? { pageUrl: landed } : {}) },
        html.length,
      );
      return page(
        converted.markdown,
        converted.title ?? titleFromName(name ?? 'Imported page'),
        landed ?? 'upload.html',
        false,
      );
    }
    case 'docx': {
      // The document is a zip: its entries, their sizes and paths are checked as an archive's before the converter
      // (which inflates them itself) sees it, so a bomb in a document is stopped at the same limits.
      const archive = await Archive.open(data, scope, 'the document');
      try {
        for (const file of archive.files()) {
          await archive.read(file.path, limits.uncompressedBytes, () =>
            scope.limitError(
              'uncompressedBytes',
              `the document inflates to more than ${formatBytes(limits.uncompressedBytes)}`,
            ),
          );
        }
      } finally {
        archive.close();
      }
      scope.progress.stage('converting');
      const converted = await workers.run('docxToMarkdown', new Uint8Array(data), data.length).catch((err: unknown) => {
        if (err instanceof DomainError) throw err;
        throw scope.invalid(`the document cannot be converted (${err instanceof Error ? err.message : String(err)})`);
      });
      const plan = page(converted.markdown, titleFromName(name ?? 'Imported document'), 'document.md', false);
      plan.mode = 'archive';
      for (const image of converted.images) {
        if (image.data.byteLength > FILE_MAX_BYTES) {
          throw scope.invalid(
            `the document's image ${image.name} is larger than ${formatBytes(FILE_MAX_BYTES)}, the largest file a space holds`,
          );
        }
        const { ref, target } = ids.file();
        plan.targets[image.name] = target;
        const bytes = Buffer.from(image.data.buffer, image.data.byteOffset, image.data.byteLength);
        plan.files.push({
          ref,
          name: image.name,
          contentType: image.contentType,
          target,
          load: async function* () {
            yield bytes;
          },
        });
      }
      return plan;
    }
  }
}

/** Page bodies per worker task, at most. */
const BATCH_CHARS = 256 * 1024;
const BATCH_PAGES = 100;

/** The plan's page bodies made ready (links, titles, blocks), in batches, in the worker pool when large. */
export async function preparePages(
  plan: ImportPlan,
  scope: ImportScope,
  skipped: ImportSkipped[],
): Promise<Map<string, PreparedPage>> {
  const documents = plan.pages.filter((p) => p.body);
  const batches: Array<typeof documents> = [];
  let size = 0;
  for (const page of documents) {
    const last = batches.at(-1);
    if (!last || size + page.body!.markdown.length > BATCH_CHARS || last.length >= BATCH_PAGES) {
      batches.push([page]);
      size = 0;
    } else last.push(page);
    size += page.body!.markdown.length;
  }
  const prepared = new Map<string, PreparedPage>();
  let done = 0;
  for (const batch of batches) {
    scope.check();
    const chars = batch.reduce((n, p) => n + p.body!.markdown.length, 0);
    const pages = await workers.run(
      'prepareImportPages',
      { pages: batch.map((p) => p.body!), targets: plan.targets, mode: plan.mode },
      chars,
    );
    for (const [i, page] of pages.entries()) {
      const planned = batch[i]!;
      // A page that cannot be converted is imported with its title and no body, and said so: the rest goes on.
      if (page.error)
        skipped.push({ path: planned.body!.base, reason: `its content was not imported: it ${page.error}` });
      prepared.set(planned.ref, page.error ? { ...page, markdown: '', blocks: [] } : page);
    }
    done += batch.length;
    scope.progress.imported(done);
    // Small batches ran inline: let other requests in between them.
    if (workers.runsInline(chars)) await yieldToEventLoop();
  }
  return prepared;
}

/** A file of an import stored as a blob: its id and size, and an image's size (read from its first chunk). */
export interface StoredFile {
  id: string;
  size: number;
  width?: number;
  height?: number;
}

export async function storeFile(db: Executor, file: PlannedFile, maxBytes: number): Promise<StoredFile> {
  const { head, ...stored } = await putBlobStream(db, file.load(), maxBytes);
  const type = file.contentType ?? contentTypeOf(file.name);
  // Its size from its first bytes: the import keeps no bytes of what it stored.
  return type.startsWith('image/') ? { ...stored, ...imageDimensions(type, head) } : stored;
}

/** The content operations of an import: its files, then its pages in tree order. */
function changesOf(
  plan: ImportPlan,
  prepared: Map<string, PreparedPage>,
  files: Array<{ file: PlannedFile; stored: StoredFile }>,
  matches: Matches,
): ContentChange[] {
  const changes: ContentChange[] = [];
  if (files.length) {
    changes.push({
      operation: 'insert_files',
      files: files.map(({ file }) => ({
        name: file.name,
        ref: file.ref,
        url: `import:${file.ref}`,
        ...(file.contentType ? { contentType: file.contentType } : {}),
      })),
    });
  }
  for (const page of plan.pages) {
    const body = prepared.get(page.ref);
    const title = fitTitle(body?.title ?? page.title);
    const existing = matches.pages.get(page.ref) ?? matches.reusable.get(page.ref);
    if (existing && page.type === 'reusable') {
      changes.push({
        operation: 'update_reusable_content',
        reusableContent: existing,
        title,
        document: { markdown: body?.markdown ?? '' },
      });
      continue;
    }
    if (existing) {
      // A page of the same path: updated in place (groups keep theirs as they are).
      if (page.type === 'group') continue;
      changes.push({
        operation: 'update_page',
        page: existing,
        title,
        ...(page.type === 'link' && page.href && pageHrefSchema.safeParse(page.href).success
          ? { href: page.href }
          : {}),
        ...(page.type === 'document' ? { document: { markdown: body?.markdown ?? '' } } : {}),
        ...pageFieldsOf(body),
      });
      continue;
    }
    if (page.type === 'reusable') {
      changes.push({
        operation: 'insert_reusable_content',
        ref: page.ref,
        title: fitTitle(body?.title ?? page.title),
        ...(page.slug ? { slug: page.slug } : {}),
        ...(body?.markdown ? { document: { markdown: body.markdown } } : {}),
      });
      continue;
    }
    const isLink = page.type === 'link' && pageHrefSchema.safeParse(page.href).success;
    const type = page.type === 'link' && !isLink ? 'document' : page.type;
    changes.push({
      operation: 'insert_page',
      type,
      ref: page.ref,
      title: fitTitle(body?.title ?? page.title),
      // Under the page it belongs to: one of this import, or the page of the content it updates.
      ...(page.parent ? { into: matches.pages.get(page.parent) ?? page.parent } : {}),
      ...(page.slug ? { slug: page.slug } : {}),
      ...pageFieldsOf(body),
      ...(isLink ? { href: page.href! } : {}),
      ...(body?.markdown ? { document: { markdown: body.markdown } } : {}),
    });
  }
  return changes;
}

/** One sentence naming everything an import left out. */
export function skippedMessage(skipped: ImportSkipped[]): string | undefined {
  if (!skipped.length) return undefined;
  const names = skipped.map((s) => s.path.split('/').pop() || s.path);
  const shown = names.length > 10 ? [...names.slice(0, 10), `${names.length - 10} more`] : names;
  return `Not imported in full: ${shown.join(', ')} (see skipped).`;
}

/** The error a failed import is answered with, as its run keeps it. */
interface StoredError {
  status: number;
  message: string;
  issues?: ErrorIssue[];
  reason?: string;
}

/** Runs ended in this process: the requests waiting on them hear it at once (others look every WAIT_POLL_MS). */
const ended = new EventEmitter().setMaxListeners(0);
const WAIT_POLL_MS = 250;

/**
 * Starts an import (authorized now, queued as a job) and waits for it to end: answers its outcome, or throws the
 * error it failed with. When `until` aborts (the client went away), stops waiting: the import goes on.
 */
export async function importContent(
  ctx: ServiceContext,
  settings: ImportSettings,
  spaceId: string,
  changeRequestId: string | undefined,
  request: ImportRequest,
  until?: AbortSignal,
) {
  // Nothing is fetched, nor recorded, for a caller who may not import here.
  const { space, cr } = await checkAccess(ctx, spaceId, changeRequestId);
  const id = request.importId ?? newId();
  const now = nowIso();
  if (await runs.findImportRun(ctx.db, spaceId, id)) {
    throw new ConflictError(`importId: an import ${id} already exists in this space`);
  }
  const payload: ImportJobPayload = {
    spaceId,
    runId: id,
    ...(cr ? { changeRequestId: cr.id } : {}),
    actor: ctx.actor,
    source: request.source,
    ...(request.url ? { url: request.url } : {}),
    ...(request.upload ? { upload: { key: request.upload.key, size: request.upload.size } } : {}),
  };
  await transaction(ctx.db, async (tx) => {
    await runs.insertImportRun(tx, {
      space_id: spaceId,
      id,
      change_request_id: cr?.id ?? null,
      source: request.source,
      url: request.url ?? null,
      status: 'running',
      stage: 'queued',
      imported_resources: 0,
      total_resources: 0,
      revision_id: null,
      message: null,
      skipped: null,
      error: null,
      created_by: ctx.actor.userId,
      created_at: now,
      updated_at: now,
    });
    await enqueueJob(
      tx,
      {
        id: newId(),
        kind: IMPORT_JOB,
        key: runKey(spaceId, id),
        payload: JSON.stringify(payload),
        group_key: space.organization_id,
      },
      now,
    );
  });
  if (request.upload) request.upload.taken = true;
  wakeJobQueues();
  const run = await waitForRun(ctx.db, spaceId, id, until);
  if (run.status === 'running') return { space, run, result: undefined };
  if (run.status === 'failed') {
    const stored = run.error ? (JSON.parse(run.error) as StoredError) : undefined;
    if (stored && stored.status < 500)
      throw new DomainError(stored.status, stored.message, stored.issues, stored.reason);
    throw new Error(`import ${id} failed: ${run.message ?? 'unknown error'}`);
  }
  const skipped = run.skipped ? (JSON.parse(run.skipped) as ImportSkipped[]) : [];
  return {
    space,
    run,
    result: {
      revision: run.revision_id!,
      importedResources: run.imported_resources,
      totalResources: run.total_resources,
      ...(skipped.length ? { skipped } : {}),
    },
  };
}

/** The job key of an import run. */
function runKey(spaceId: string, id: string): string {
  return `${spaceId}/${id}`;
}

/** The run once it has ended (or as it is when `until` aborts). */
async function waitForRun(db: Executor, spaceId: string, id: string, until?: AbortSignal) {
  const key = runKey(spaceId, id);
  for (;;) {
    const run = await runs.findImportRun(db, spaceId, id);
    if (!run) throw new NotFoundError('Import not found');
    if (run.status !== 'running' || until?.aborted) return run;
    await new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        ended.off(key, done);
        until?.removeEventListener('abort', done);
        resolve();
      };
      const timer = setTimeout(done, WAIT_POLL_MS);
      ended.once(key, done);
      until?.addEventListener('abort', done, { once: true });
    });
  }
}

/** The import job (see the top of this file): runs an import of the queue, in whichever process claimed it. */
export function importJobHandler(db: Db, urls: Urls, settings: ImportSettings): JobHandler {
  /** The import is over: its upload goes, and a request of this process waiting on it hears it at once. */
  const over = async (payload: ImportJobPayload) => {
    if (payload.upload) await deleteChunks(db, payload.upload.key);
    ended.emit(runKey(payload.spaceId, payload.runId));
  };
  const fail = async (payload: ImportJobPayload, error: StoredError) => {
    await transaction(db, async (tx) => {
      await runs.updateImportRun(tx, payload.spaceId, payload.runId, {
        status: 'failed',
        message: error.message,
        error: JSON.stringify(error),
        updated_at: nowIso(),
      });
      // Whoever started it hears of it, with the change that records it.
      const run = await runs.findImportRun(tx, payload.spaceId, payload.runId);
      const space = await findSpace(tx, payload.spaceId);
      if (run && space) {
        await recordEvent(tx, {
          kind: 'import-failed',
          organizationId: space.organization_id,
          spaceId: space.id,
          data: { starter: run.created_by, error: error.message.slice(0, 300) },
        });
      }
    });
    await over(payload);
  };
  return {
    // A failure users can fix (a limit, a broken source) ends the import at once; another (the database, a worker
    // crash) is tried once more, from the source, before the import is said to have failed.
    attempts: 2,
    async run(raw) {
      const payload = raw as ImportJobPayload;
      const run = await runs.findImportRun(db, payload.spaceId, payload.runId);
      // Ended already (a run again after its process stopped between its last write and the job's end).
      if (!run || run.status !== 'running') return over(payload);
      try {
        const ctx: ServiceContext = { db, urls, actor: await actorNow(db, payload.actor) };
        await runImport(ctx, settings, payload);
        await over(payload);
      } catch (err) {
        if (!(err instanceof DomainError)) throw err;
        await fail(payload, {
          status: err.status,
          message: err.message,
          ...(err.issues ? { issues: err.issues } : {}),
          ...(err.reason ? { reason: err.reason } : {}),
        });
      }
    },
    async giveUp(raw) {
      await fail(raw as ImportJobPayload, { status: 500, message: 'The import failed on an unexpected error' });
    },
  };
}

/** One import, from its source to its revision; the run is marked completed with the revision it wrote. */
async function runImport(ctx: ServiceContext, settings: ImportSettings, payload: ImportJobPayload): Promise<void> {
  const { spaceId, runId: id } = payload;
  // Authorized again: the member may have lost the right since the import was queued.
  const { space, cr } = await checkAccess(ctx, spaceId, payload.changeRequestId);
  const progress = new RunProgress(ctx, spaceId, id);
  progress.stage('fetching');
  await progress.flush();
  const scope = new ImportScope(payload.upload ? 'body' : 'url', settings.limits, progress, settings.allowPrivate);
  let plan: ImportPlan | undefined;
  try {
    const ids = new ImportIds();
    plan = await planSource(ctx.db, payload, scope, ids);
    if (!plan.pages.length) throw scope.invalid('there is nothing to import: no page was found');
    scope.progress.stage('converting');
    const skipped: ImportSkipped[] = [];
    const prepared = await preparePages(plan, scope, skipped);
    // The files pages use, read now (an archive's are inflated only if used). One that cannot be read within the
    // limits (a file over the largest a space holds) is left out and said so; the pages linking to it keep a
    // link the links report shows broken.
    const used = new Set([...prepared.values()].flatMap((p) => p.used));
    // Each is stored as it inflates (in chunks past 1 MiB): an import holds no file whole, only what it stored.
    const files: Array<{ file: PlannedFile; stored: StoredFile }> = [];
    let filesLeft = 0;
    for (const file of plan.files) {
      if (!used.has(file.target)) continue;
      try {
        files.push({ file, stored: await storeFile(ctx.db, file, scope.limits.fileBytes) });
      } catch (err) {
        if (err instanceof BlobTooLargeError) {
          filesLeft++;
          skipped.push({
            path: file.path ?? file.name,
            reason: `it is larger than ${formatBytes(scope.limits.fileBytes)}, the largest file a space holds`,
          });
          continue;
        }
        if (!(err instanceof InvalidError) || err instanceof ImportLimitError) throw err;
        filesLeft++;
        skipped.push({ path: file.path ?? file.name, reason: err.message.replace(/^[^:]+: /, '') });
      }
    }
    const imported = plan.pages.length + files.length;
    const total = imported + filesLeft + (plan.notImported ?? 0);
    progress.total(total);
    progress.imported(imported);
    scope.check();
    progress.stage('writing');
    await progress.flush();
    // Into content that has pages already: those of the same paths are updated, not copied (reimport.ts).
    const matches = await matchExisting(ctx.db, spaceId, cr?.revision_id ?? space.revision_id, plan, prepared, files);
    relinkMatches(prepared, plan, ids.ids, matches);
    const changes = changesOf(
      plan,
      prepared,
      files.filter(({ file }) => !matches.files.has(file.ref)),
      matches,
    );
    const split = new Map<string, SplitBlock[]>();
    for (const page of prepared.values()) split.set(page.markdown, page.blocks);
    const bytes = new Map(files.map(({ file, stored }) => [`import:${file.ref}`, { stored }]));
    const fetchFile = async (url: string) => {
      const found = bytes.get(url);
      if (!found) throw new NotFoundError(`No file ${url} in this import`);
      return found;
    };
    // Their searchable text too, before the transaction that writes and merges them (search/indexer.ts).
    const options = { split, ids: ids.ids, ...(await readBodiesAhead(split.values())) };
    const message = [plan.message, skippedMessage(skipped)].filter(Boolean).join(' ') || null;
    // The revision and the run's end in one transaction: an import run again never writes twice.
    const completed = (revision: string) => ({
      status: 'completed' as const,
      stage: 'done',
      imported_resources: imported,
      total_resources: total,
      revision_id: revision,
      message,
      skipped: skipped.length ? JSON.stringify(skipped) : null,
      updated_at: nowIso(),
    });
    const subject = (payload.url ? `Import from ${payload.url}` : `Import of an uploaded ${payload.source} file`).slice(
      0,
      CHANGE_REQUEST_SUBJECT_MAX,
    );
    await transaction(ctx.db, async (tx) => {
      // Ended meanwhile (by another process that ran it after this one's lease ran out): nothing is written twice.
      const current = await runs.findImportRun(tx, spaceId, id);
      if (current?.status !== 'running') return;
      let revision: string;
      if (cr) {
        const result = await updateContent(ctx, spaceId, cr.id, changes, undefined, fetchFile, { ...options, tx });
        revision = result.cr.revision_id;
      } else {
        const created = await createChangeRequest(ctx, spaceId, { subject }, tx);
        await updateContent(ctx, spaceId, created.cr.id, changes, undefined, fetchFile, { ...options, tx });
        revision = (await mergeChangeRequest(ctx, spaceId, created.cr.id, tx)).revision;
      }
      await runs.updateImportRun(tx, spaceId, id, completed(revision));
    });
  } catch (err) {
    await progress.flush();
    throw err;
  } finally {
    scope.close();
    plan?.close?.();
  }
}

/**
 * Runs as their readers see them: one still running whose job is gone (typed in, or its job removed) or failed
 * for good is shown as failed, since no process will end it.
 */
async function withJobs(db: Executor, rows: runs.ImportRunRow[]): Promise<runs.ImportRunRow[]> {
  const open = rows.filter((r) => r.status === 'running');
  const states = await jobStates(
    db,
    IMPORT_JOB,
    open.map((r) => runKey(r.space_id, r.id)),
  );
  return rows.map((row) => {
    if (row.status !== 'running') return row;
    const state = states.get(runKey(row.space_id, row.id));
    if (state && state !== 'failed') return row;
    return { ...row, status: 'failed', message: 'The import stopped without finishing (no server process runs it)' };
  });
}

export async function getImportRun(ctx: ServiceContext, spaceId: string, id: string) {
  const { row: space, level } = await loadSpace(ctx.db, ctx, spaceId, 'view', 'view its imports');
  const run = await runs.findImportRun(ctx.db, spaceId, id);
  if (!run) throw new NotFoundError('Import not found');
  return { space, level, run: (await withJobs(ctx.db, [run]))[0]! };
}

export async function listImportRuns(ctx: ServiceContext, spaceId: string, page: string | undefined, limit: number) {
  await loadSpace(ctx.db, ctx, spaceId, 'view', 'view its imports');
  const result = await keysetPage({
    page,
    limit,
    arity: 2,
    rows: (after, take) => runs.listImportRuns(ctx.db, spaceId, after, take),
    count: () => runs.countImportRuns(ctx.db, spaceId),
    key: (row) => [row.created_at, row.id],
  });
  return { ...result, items: await withJobs(ctx.db, result.items) };
}
