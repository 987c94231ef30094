import type { ServiceContext } from '../context.js';
import { transaction, type Executor, type Tx } from '../../storage/db.js';
import { newId } from '../../lib/ids.js';
import { nowIso } from '../../lib/time.js';
import { watch } from '../notifications/events.js';
import * as crs from '../../storage/repos/change-requests.js';
import { keysetPage } from '../../storage/pagination.js';
import { loadSpace } from '../spaces/service.js';
import { isMerged, type ChangeRequestAction } from './policy.js';
import { ConflictError, ForbiddenError, InvalidError, NotFoundError } from '../errors.js';
import { findRevision, insertRevision } from '../../storage/repos/spaces.js';
import { RevisionReader, RevisionWriter, reusableKey, revisionOfSpace, type PageNode } from '../content/model.js';
import { semanticChanges, pageDiff } from '../content/changes.js';
import { blocksToMarkdown, markdownCost, splitBlocks, type SplitBlock } from '../content/blocks.js';
import { LruCache } from '../../lib/lru-cache.js';
import { workers } from '../../workers/pool.js';
import { applyChanges, type FetchedFile } from '../content/edit.js';
import * as links from '../links/hooks.js';
import { linksAhead, type LinksAhead } from '../links/documents.js';
import { PAGE_MARKDOWN_MAX, type ContentChange } from '../../../shared/contract/content.js';
import { MARKDOWN_DEPTH_MESSAGE, tooDeeplyNested } from '../../../shared/markdown-limits.js';
import type { Role } from '../../../shared/contract/common.js';
import type {
  CreateChangeRequestBody,
  UpdateChangeRequestBody,
  ChangeRequestStatus,
} from '../../../shared/contract/change-requests.js';
import type { SpaceRow } from '../../storage/repos/spaces.js';
import { storeDocumentSections } from '../search/indexer.js';
import type { Section } from '../search/extract.js';
import { fileDownloadUrl } from '../../lib/urls.js';

/** The revision of the space a change request was last brought up to date with: its merge base. */
export function changeRequestBase(cr: { revision_merged_ancestor: string | null; revision_initial: string }): string {
  return cr.revision_merged_ancestor ?? cr.revision_initial;
}

export interface ChangeRequestContext {
  space: SpaceRow;
  level: Role | null;
  cr: crs.ChangeRequestView;
}

/** Loads a change request of a space the caller can see, checking the change-request policy lets them do `may`. */
export async function loadChangeRequest(
  db: Executor,
  ctx: ServiceContext,
  spaceId: string,
  idOrNumber: string,
  may: ChangeRequestAction,
  action: string,
): Promise<ChangeRequestContext> {
  const { row: space, level } = await loadSpace(db, ctx, spaceId, may, action);
  const cr = await crs.findChangeRequest(db, spaceId, idOrNumber);
  if (!cr) throw new NotFoundError('Change request not found');
  return { space, level, cr };
}

/** `inTx`: inside the caller's transaction (an import into the space creates its change request, edits and merges it). */
export async function createChangeRequest(
  ctx: ServiceContext,
  spaceId: string,
  body: CreateChangeRequestBody,
  inTx?: Tx,
  /** A revision of the space to start from instead of its current one (a Git import: the last sync's). */
  base?: string,
) {
  const run = async (tx: Tx) => {
    const { row: space, level } = await loadSpace(tx, ctx, spaceId, 'edit', 'create change requests');
    if (space.deleted_at) throw new ConflictError('The space is in the trash: restore it first');
    await crs.lockSpace(tx, spaceId);
    const now = nowIso();
    const id = newId();
    await crs.insertChangeRequest(tx, {
      id,
      space_id: spaceId,
      number: await crs.nextNumber(tx, spaceId),
      status: 'open',
      subject: body.subject ?? '',
      created_by: ctx.actor.userId,
      created_at: now,
      updated_at: now,
      // It starts as a working copy of the space's current content: the same revision, nothing copied.
      revision_id: base ?? space.revision_id,
      revision_initial: base ?? space.revision_id,
      revision_merged_ancestor: null,
      revision_merged: null,
      merged_by: null,
      merged_at: null,
      comments: 0,
      pending_update: null,
    });
    await crs.refreshSpaceCounters(tx, spaceId);
    // Its author follows it: comments, reviews and its merge are theirs to hear of (an integration hears of
    // nothing: its account has no inbox).
    if (!ctx.actor.integration) await watch(tx, { kind: 'change-request', id }, [ctx.actor.userId], 'author');
    return { space, level, cr: (await crs.findChangeRequest(tx, spaceId, id))! };
  };
  return inTx ? run(inTx) : transaction(ctx.db, run);
}

export async function getChangeRequest(ctx: ServiceContext, spaceId: string, idOrNumber: string) {
  return loadChangeRequest(ctx.db, ctx, spaceId, idOrNumber, 'view', 'view it');
}

export async function listChangeRequests(
  ctx: ServiceContext,
  spaceId: string,
  query: { status: ChangeRequestStatus; contributor?: string; orderBy: 'updatedAt' | 'createdAt' },
  page: string | undefined,
  limit: number,
) {
  const { row: space, level } = await loadSpace(ctx.db, ctx, spaceId, 'view', 'view its change requests');
  const filter: crs.ChangeRequestFilter = { spaceId, status: query.status, contributor: query.contributor };
  const column = query.orderBy === 'createdAt' ? 'created_at' : 'updated_at';
  const result = await keysetPage({
    page,
    limit,
    arity: 2,
    rows: (after, take) => crs.listChangeRequests(ctx.db, filter, column, after, take),
    count: () => crs.countChangeRequests(ctx.db, filter),
    key: (row) => [row[column], row.id],
  });
  return { ...result, space, level };
}

/** Subject and status (draft, open, archived). Needs the edit level; a merged change request is final. */
export async function updateChangeRequest(
  ctx: ServiceContext,
  spaceId: string,
  idOrNumber: string,
  body: UpdateChangeRequestBody,
) {
  return transaction(ctx.db, async (tx) => {
    const { space, level, cr } = await loadChangeRequest(tx, ctx, spaceId, idOrNumber, 'edit', 'change it');
    if (isMerged(cr)) throw new ConflictError('The change request is merged: it can no longer change');
    const patch: Partial<crs.ChangeRequestRow> = { updated_at: nowIso() };
    if (body.subject !== undefined) patch.subject = body.subject;
    if (body.status !== undefined) patch.status = body.status;
    await crs.updateChangeRequest(tx, cr.id, patch);
    if (body.status !== undefined) await crs.refreshSpaceCounters(tx, spaceId);
    return { space, level, cr: (await crs.findChangeRequest(tx, spaceId, cr.id))! };
  });
}

/** The content of this change request can change: the space is neither locked nor in the trash, the change request open or draft. */
export function requireEditable(space: { edit_mode: string; deleted_at: string | null }, cr: { status: string }) {
  if (space.edit_mode === 'locked') throw new ForbiddenError('The space is locked: its content cannot be edited');
  if (space.deleted_at) throw new ConflictError('The space is in the trash: restore it first');
  if (cr.status === 'merged' || cr.status === 'archived') {
    throw new ConflictError(`The change request is ${cr.status}: its content can no longer change`);
  }
}

/** What an import adds to a content edit (see domain/imports/service.ts). */
export interface ContentEditOptions {
  /** Page bodies parsed ahead (in the worker pool, with the import's conversion), by markdown. */
  split?: ReadonlyMap<string, SplitBlock[]>;
  /** Ids chosen ahead for the pages and files the batch inserts, by `ref` (links to them are already written). */
  ids?: ReadonlyMap<string, string>;
  /** Searchable sections of those bodies, extracted ahead, by body (imports/read-ahead.ts). */
  sections?: ReadonlyMap<string, Section[]>;
  /** Their links, read ahead with the sections, by body. */
  links?: LinksAhead;
  /** The caller's transaction, to run in rather than in a transaction of its own. */
  tx?: Tx;
}

/**
 * Applies a batch of operations to the change request's content as one new revision. `ifMatch` (the revision
 * the client based its edit on) must still be the change request's current one, else 409 and nothing changes.
 * Concurrent batches on one change request queue on its row lock; each builds on the other's result.
 */
export async function updateContent(
  ctx: ServiceContext,
  spaceId: string,
  idOrNumber: string,
  changes: ContentChange[],
  ifMatch: string | undefined,
  fetchFile: (url: string) => Promise<FetchedFile>,
  options: ContentEditOptions = {},
) {
  // Authorized first: nothing is downloaded for a caller who may not edit this change request, or for an edit
  // that cannot be made. The transaction below checks again, under the change request's lock.
  const before = await loadChangeRequest(options.tx ?? ctx.db, ctx, spaceId, idOrNumber, 'edit', 'edit its content');
  requireEditable(before.space, before.cr);
  // Bodies given as JSON documents are written as markdown first (in the worker pool: a document is as costly to
  // read as its markdown), and checked as markdown given as such is.
  changes = await documentsAsMarkdown(changes);
  // Files given by URL are fetched before the transaction, so no lock is held while a remote server answers.
  // A fetch that fails is reported by the operation that asked for it.
  const fetched = new Map<string, Promise<FetchedFile>>();
  for (const change of changes) {
    if (change.operation !== 'insert_files') continue;
    for (const file of change.files) {
      if (file.url === undefined || fetched.has(file.url)) continue;
      const result = fetchFile(file.url);
      result.catch(() => undefined);
      fetched.set(file.url, result);
    }
  }
  await Promise.allSettled(fetched.values());
  // Page bodies are parsed before the transaction too, in the worker pool: the event loop stays free and no lock
  // is held while a big body parses. Only the ids of the blocks are assigned inside (they depend on the page's
  // current blocks).
  const split = new Map<string, SplitBlock[]>(options.split ?? []);
  const sections = new Map<string, Section[]>(options.sections ?? []);
  const known: LinksAhead = new Map(options.links ?? []);
  for (const change of changes) {
    const markdown = 'document' in change ? change.document?.markdown : undefined;
    if (markdown !== undefined && !split.has(markdown)) {
      // The searchable sections come from the same task, stored with the documents so that a merge of these pages
      // extracts nothing (search/indexer.ts).
      const parsed = await workers.run('splitBlocksForSearch', markdown, markdownCost(markdown));
      split.set(markdown, parsed.blocks);
      sections.set(parsed.body, parsed.sections);
      known.set(parsed.body, parsed.links);
    }
  }
  // So are their links (stored by document in the transaction; merging this change request then parses nothing),
  // read with the sections where they were.
  const ahead = await linksAhead(split.values(), known);
  const run = async (tx: Tx) => {
    const found = await loadChangeRequest(tx, ctx, spaceId, idOrNumber, 'edit', 'edit its content');
    await crs.updateChangeRequest(tx, found.cr.id, { id: found.cr.id });
    const cr = (await crs.findChangeRequest(tx, spaceId, found.cr.id))!;
    const { space, level } = found;
    requireEditable(space, cr);
    if (ifMatch !== undefined && ifMatch !== cr.revision_id) {
      throw new ConflictError(
        `The change request has changed since revision ${ifMatch} (it is now at ${cr.revision_id}): reload and edit again`,
      );
    }
    const head = await revisionOfSpace(tx, spaceId, cr.revision_id);
    const writer = new RevisionWriter(new RevisionReader(tx, head));
    const result = await applyChanges(
      {
        db: tx,
        writer,
        revisionReader: async (revisionId) =>
          new RevisionReader(tx, await revisionOfSpace(tx, spaceId, revisionId ?? changeRequestBase(cr))),
        fetchFile: (url) => fetched.get(url) ?? fetchFile(url),
        splitBlocks: (markdown) => split.get(markdown) ?? splitBlocks(markdown),
        idFor: (ref) => options.ids?.get(ref),
      },
      changes,
    );
    await storeDocumentSections(tx, writer.addedDocuments(), sections);
    const roots = await writer.commit();
    const now = nowIso();
    const revisionId = newId();
    await insertRevision(tx, {
      id: revisionId,
      space_id: spaceId,
      parents: JSON.stringify([head.id]),
      type: 'edits',
      created_by: ctx.actor.userId,
      created_at: now,
      pages_root: roots.pages_root,
      files_root: roots.files_root,
      variables: head.variables,
      change_request_id: cr.id,
    });
    await crs.updateChangeRequest(tx, cr.id, { revision_id: revisionId, updated_at: now });
    await links.changeRequestRevisionChanged(tx, cr, head, (await findRevision(tx, revisionId))!, ctx.urls.base, ahead);
    return { space, level, cr: (await crs.findChangeRequest(tx, spaceId, cr.id))!, ...result };
  };
  return options.tx ? run(options.tx) : transaction(ctx.db, run);
}

/** Readers of the change request's base (the space content it started from) and of its own content. */
async function baseAndHead(ctx: ServiceContext, spaceId: string, idOrNumber: string) {
  const found = await loadChangeRequest(ctx.db, ctx, spaceId, idOrNumber, 'view', 'read it');
  const [base, head] = await Promise.all([
    revisionOfSpace(ctx.db, spaceId, changeRequestBase(found.cr)),
    revisionOfSpace(ctx.db, spaceId, found.cr.revision_id),
  ]);
  return { ...found, base: new RevisionReader(ctx.db, base), head: new RevisionReader(ctx.db, head) };
}

export async function changeRequestChanges(ctx: ServiceContext, spaceId: string, idOrNumber: string) {
  const { base, head } = await baseAndHead(ctx, spaceId, idOrNumber);
  return semanticChanges(base, head, (revisionId, fileId) => fileDownloadUrl(ctx.urls, spaceId, revisionId, fileId));
}

export async function changeRequestPageDiff(ctx: ServiceContext, spaceId: string, idOrNumber: string, pageId: string) {
  const { base, head } = await baseAndHead(ctx, spaceId, idOrNumber);
  const diff = await pageDiff(base, head, pageId);
  if (!diff) throw new NotFoundError('Page not found in the change request nor in its base');
  return diff;
}

/** The block diff of one reusable content, base → change request (as changeRequestPageDiff for a page). */
export async function changeRequestReusableDiff(ctx: ServiceContext, spaceId: string, idOrNumber: string, id: string) {
  const { base, head } = await baseAndHead(ctx, spaceId, idOrNumber);
  const diff = await pageDiff(base, head, id, (reader) => reader.anyEntry(reusableKey(id)));
  if (!diff) throw new NotFoundError('Reusable content not found in the change request nor in its base');
  return diff;
}

/**
 * The PDF of a change request's content: every page, or one page with its subpages, or (`only`) that page alone.
 */
export async function changeRequestPdf(
  ctx: ServiceContext,
  spaceId: string,
  idOrNumber: string,
  options: { pageId?: string; only?: boolean },
) {
  const { cr, head, space } = await baseAndHead(ctx, spaceId, idOrNumber);
  const title = cr.subject || `Change request #${cr.number}`;
  // Revisions never change: the same export of the same revision, under the same title, is the same PDF.
  const key = JSON.stringify([head.revision.id, title, options.pageId ?? null, options.only ?? false]);
  const cached = pdfCache.get(key);
  if (cached) return cached;
  let roots = await head.tree();
  if (options.pageId) {
    const node = await head.page(options.pageId);
    if (!node) throw new InvalidError('page', 'no such page in the change request');
    roots = [options.only ? { ...node, pages: [] } : node];
  }
  const pages: Array<{ title: string; depth: number; markdown: string }> = [];
  const walk = async (nodes: PageNode[], depth: number) => {
    for (const node of nodes) {
      pages.push({ title: node.version.title, depth, markdown: blocksToMarkdown(await head.document(node.version)) });
      await walk(node.pages, depth + 1);
    }
  };
  await walk(roots, 0);
  const size = pages.reduce((sum, p) => sum + p.markdown.length, 0);
  if (size > PDF_MARKDOWN_MAX) {
    throw new InvalidError(
      'page',
      `the content is larger than ${PDF_MARKDOWN_MAX / 1_000_000} MB of markdown: export one page (or part) at a time`,
    );
  }
  const rendered = await workers.run('renderPdf', { title, pages }, size, { organization: space.organization_id });
  const pdf = Buffer.from(rendered.buffer, rendered.byteOffset, rendered.byteLength);
  pdfCache.set(key, pdf);
  return pdf;
}

/** The changes with each body given as a JSON document (`document.document`) given as its markdown instead. */
async function documentsAsMarkdown(changes: ContentChange[]): Promise<ContentChange[]> {
  if (!changes.some((c) => 'document' in c && c.document?.document)) return changes;
  const out: ContentChange[] = [];
  for (const [index, change] of changes.entries()) {
    const document = 'document' in change ? change.document?.document : undefined;
    if (!document || !('document' in change)) {
      out.push(change);
      continue;
    }
    const field = `changes.${index}.document.document`;
    const size = JSON.stringify(document).length;
    const written = await workers.run('documentToMarkdown', document, size);
    if ('error' in written) throw new InvalidError(`${field}.${written.error.path}`, written.error.message);
    if (written.markdown.length > PAGE_MARKDOWN_MAX) {
      throw new InvalidError(field, `is longer than ${PAGE_MARKDOWN_MAX} characters once written as markdown`);
    }
    if (tooDeeplyNested(written.markdown)) throw new InvalidError(field, MARKDOWN_DEPTH_MESSAGE);
    out.push({ ...change, document: { markdown: written.markdown } });
  }
  return out;
}

/** Markdown one PDF export may hold (about 2,000 pages of text). */
const PDF_MARKDOWN_MAX = 5_000_000;
/** Recent PDFs by revision, title and page, up to 64 MiB. */
const pdfCache = new LruCache<Buffer>(256, 64 * 1024 * 1024, (pdf) => pdf.length);
