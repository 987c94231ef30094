import type { ServiceContext } from '../context.js';
import { transaction, type Executor } from '../../storage/db.js';
import * as repo from '../../storage/repos/git-sync.js';
import { findChangeRequest } from '../../storage/repos/change-requests.js';
import { RevisionReader, revisionOfSpace, type PageNode } from '../content/model.js';
import { createChangeRequest, updateContent } from '../change-requests/service.js';
import { mergeChangeRequest, updateFromSpace } from '../change-requests/merge.js';
import { ConflictError, MERGE_CONFLICTS, NotFoundError } from '../errors.js';
import { loadSpace } from '../spaces/service.js';
import { readBodiesAhead } from '../imports/read-ahead.js';
import { plan as planFiles } from '../imports/zip.js';
import { ImportIds, fitTitle, type ImportPlan, type PlannedFile, type PlannedPage } from '../imports/plan.js';
import { ImportScope, type ProgressSink } from '../imports/scope.js';
import { matchExisting, relinkMatches, type Matches } from '../imports/reimport.js';
import { preparePages, skippedMessage, storeFile, type StoredFile } from '../imports/service.js';
import { pageFieldsOf, type PreparedPage } from '../imports/markdown.js';
import type { SplitBlock } from '../content/blocks.js';
import { pageHrefSchema, type ContentChange } from '../../../shared/contract/content.js';
import { CHANGE_REQUEST_SUBJECT_MAX } from '../../../shared/contract/change-requests.js';
import type { ImportLimits, ImportSkipped } from '../../../shared/contract/imports.js';
import { GitRepository, type GitRemote } from '../../lib/git.js';
import type { PrivateAddresses } from '../../lib/fetch-url.js';
import { nowIso } from '../../lib/time.js';
import { GitSource } from './source.js';

/**
 * Git → space: the commit at the tip of the synced branch becomes the space's content, by path.
 *
 * The planner of zip imports (imports/zip.ts) reads the commit's tree as it reads an archive: `.gitbook.yaml`,
 * `SUMMARY.md` (order, nesting, groups), folders, `.gitbook/includes/`, assets. Then, against the content the
 * last sync left (the path map, `git_sync_paths`: which file each page is and its blob id):
 * - a file whose blob did not change is not converted again, and its page is not written: edits made in the space
 *   since stay, and a one-file commit costs one page whatever the repository's size;
 * - a page keeps its id (comments, links) while its file keeps its path, or its bytes under a new path (a move);
 *   content never synced before is matched by its slug path, as a re-import is (imports/reimport.ts);
 * - pages, files and reusable contents of the content that the commit no longer has are deleted, pages placed
 *   and ordered as the commit's SUMMARY.md or folders say (moves only where the order differs).
 * The changes go into a change request based on the revision of the last sync, merged three-way into the space:
 * the space's own edits since are kept, and when both sides changed the same thing the change request stays open
 * with its conflicts (the conflict screen), never a silent overwrite.
 */
export interface GitImportSettings {
  limits: ImportLimits;
  allowPrivate: PrivateAddresses;
  /** Files under the synced folder, at most: a larger repository is refused before anything is read. */
  filesMax: number;
  cacheDir: (spaceId: string) => string;
}

export interface GitImportRequest {
  runId: string;
  remote: GitRemote;
  /** A branch name or a full ref. */
  ref: string;
  /** The folder of the repository the space mirrors. */
  root: string;
  /** Imports even when the commit is the one synced last. */
  force: boolean;
  /** The contract's `standalone`: the commit becomes a change request's revision, the space is not changed. */
  standalone?: boolean;
}

export type GitImportOutcome =
  | { status: 'skipped'; commit: string; message: string }
  | { status: 'success'; commit: string; revision: string; message: string }
  | { status: 'conflict'; commit: string; changeRequestId: string; message: string };

/** Progress is not shown for syncs (their run says queued, running, then the outcome). */
const noProgress: ProgressSink = { stage: () => undefined, total: () => undefined, imported: () => undefined };

/** Where a page sits in a tree being rearranged: its parent (null at the top) and its siblings in order. */
class Placement {
  private readonly parentOf = new Map<string, string | null>();
  private readonly children = new Map<string | null, string[]>();

  constructor(tree: PageNode[]) {
    const visit = (nodes: PageNode[], parent: string | null) => {
      this.children.set(
        parent,
        nodes.map((n) => n.id),
      );
      for (const node of nodes) {
        this.parentOf.set(node.id, parent);
        visit(node.pages, node.id);
      }
    };
    visit(tree, null);
  }

  /** Whether `id` is the `index`th child of `parent` now. */
  isAt(id: string, parent: string | null, index: number): boolean {
    return this.parentOf.get(id) === parent && (this.children.get(parent) ?? [])[index] === id;
  }

  /** Moves (or inserts) `id` to be the `index`th child of `parent`. */
  place(id: string, parent: string | null, index: number): void {
    const from = this.parentOf.get(id);
    if (from !== undefined) {
      this.children.set(
        from,
        (this.children.get(from) ?? []).filter((c) => c !== id),
      );
    }
    const list = [...(this.children.get(parent) ?? [])];
    list.splice(index, 0, id);
    this.children.set(parent, list);
    this.parentOf.set(id, parent);
  }
}

/** Runs one import of a commit into the space (see the top of this file). `ctx.actor` writes and merges. */
export async function importCommit(
  ctx: ServiceContext,
  settings: GitImportSettings,
  spaceId: string,
  request: GitImportRequest,
): Promise<GitImportOutcome> {
  const db = ctx.db;
  const { row: space } = await loadSpace(db, ctx, spaceId, 'merge', 'sync it with Git (merge its changes)');
  const sync = await repo.findGitSync(db, spaceId);
  const cache = await GitRepository.open(settings.cacheDir(spaceId), { allowPrivate: settings.allowPrivate });
  const commit = await cache.fetch(request.remote, request.ref);
  const ref = request.ref.startsWith('refs/') ? request.ref : `refs/heads/${request.ref}`;
  if (!request.force && !request.standalone && sync?.commit_oid === commit) {
    return { status: 'skipped', commit, message: 'Already up to date: this commit was synced last' };
  }
  const entries = await cache.files(commit, request.root);
  const scope = new ImportScope('url', settings.limits, noProgress, settings.allowPrivate);
  if (entries.length > settings.filesMax) {
    throw scope.invalid(
      `the repository${request.root ? `'s folder ${request.root}` : ''} has ${entries.length.toLocaleString('en')} files, ` +
        `more than the ${settings.filesMax.toLocaleString('en')} a synced space may have: sync a folder of it (root)`,
    );
  }
  const info = await cache.commitInfo(commit);
  const reader = cache.blobs();
  let plan: ImportPlan | undefined;
  try {
    // Markdown files of blobs synced last are not read: an unchanged page is neither read nor converted.
    const synced = await repo.listGitSyncPaths(db, spaceId);
    const rootOf = sync?.content_root ? `${sync.content_root}/` : '';
    const source = new GitSource(
      entries,
      cache,
      reader,
      scope,
      new Map(synced.map((r) => [rootOf + r.path, r.blob_oid])),
    );
    const ids = new ImportIds();
    plan = await planFiles(source, scope, ids, { oneFolderIsRoot: false, what: 'the repository' });
    if (!plan.pages.length) throw scope.invalid('there is nothing to import: no page was found');
    const contentRoot = plan.root ? `${plan.root}/` : '';
    const oidOf = (path: string) => source.oid(contentRoot + path);

    // What it is imported into: the change request of an earlier try of this run, one an earlier import left open
    // with conflicts (it gets this commit's changes too), or a new one on the revision of the last sync.
    const run = await repo.findGitSyncRun(db, spaceId, request.runId);
    const open = async (id: string | null | undefined) => {
      if (!id) return undefined;
      const cr = await findChangeRequest(db, spaceId, id);
      return cr?.status === 'open' ? cr : undefined;
    };
    const existingCr =
      (await open(run?.change_request_id)) ??
      (request.standalone ? undefined : await open(sync?.conflict_change_request_id));
    let baseRevision = existingCr?.revision_id ?? sync?.revision_id ?? space.revision_id;
    if (!existingCr && sync?.revision_id) {
      // The revision of the last sync, while the space still has it.
      baseRevision = await revisionOfSpace(db, spaceId, sync.revision_id).then(
        () => sync.revision_id!,
        () => space.revision_id,
      );
    }
    const reviewer = new RevisionReader(db, await revisionOfSpace(db, spaceId, baseRevision));
    const tree = await reviewer.tree();
    const pagesById = new Map<string, PageNode>();
    const walk = (nodes: PageNode[]) => {
      for (const n of nodes) {
        pagesById.set(n.id, n);
        walk(n.pages);
      }
    };
    walk(tree);
    const reusable = new Map((await reviewer.reusableContents()).map((r) => [r.id, r]));
    const fileIds = new Set((await reviewer.files()).map(([id]) => id));
    const exists = (row: repo.GitSyncPathRow) =>
      row.kind === 'page'
        ? pagesById.has(row.object_id)
        : row.kind === 'file'
          ? fileIds.has(row.object_id)
          : reusable.has(row.object_id);

    // The path map of the last sync, kept only for objects the content still has.
    const known = new Map(synced.filter((r) => exists(r)).map((r) => [r.path, r] as const));
    const inTree = new Set(entries.map((e) => e.path.slice(contentRoot.length)));
    /** Rows of paths gone from the commit, by blob: a file moved unchanged is the same page. */
    const movedByBlob = new Map<string, repo.GitSyncPathRow>();
    for (const row of known.values()) if (!inTree.has(row.path)) movedByBlob.set(`${row.kind}:${row.blob_oid}`, row);

    const byPath = new Map<string, string>(); // planned ref → id, from the path map
    const unchanged = new Set<string>(); // refs whose file did not change
    for (const page of plan.pages) {
      const path = page.body?.base;
      if (!path) continue;
      const kind = page.type === 'reusable' ? 'reusable' : 'page';
      const oid = oidOf(path);
      let row = known.get(path);
      if (!row && oid) {
        row = movedByBlob.get(`${kind}:${oid}`);
        movedByBlob.delete(`${kind}:${oid}`);
      }
      if (!row || row.kind !== kind) continue;
      byPath.set(page.ref, row.object_id);
      if (row.blob_oid === oid) unchanged.add(page.ref);
    }

    // Only changed files are converted: those not read because their blob was synced last, but whose page is gone
    // from the content (deleted in the space), are read now.
    for (const page of plan.pages) {
      const path = page.body?.base;
      if (page.body && path && !unchanged.has(page.ref) && source.skipped.has(contentRoot + path)) {
        page.body.markdown = await source.readSkipped(contentRoot + path);
      }
    }
    const skipped: ImportSkipped[] = [];
    const changedPlan: ImportPlan = { ...plan, pages: plan.pages.filter((p) => !unchanged.has(p.ref)) };
    const prepared = await preparePages(changedPlan, scope, skipped);

    // The files changed pages use: one the path map knows with the same blob is that file; others are stored.
    const used = new Set([...prepared.values()].flatMap((p) => p.used));
    const knownFiles = new Map<string, string>(); // planned file ref → id
    const stored: Array<{ file: PlannedFile; stored: StoredFile }> = [];
    for (const file of plan.files) {
      if (!used.has(file.target) || !file.path) continue;
      const row = known.get(file.path);
      if (row?.kind === 'file' && row.blob_oid === oidOf(file.path)) {
        knownFiles.set(file.ref, row.object_id);
        continue;
      }
      try {
        stored.push({ file, stored: await storeFile(db, file, scope.limits.fileBytes) });
      } catch (err) {
        if (!(err instanceof Error) || !/larger than|could not be read/.test(err.message)) throw err;
        skipped.push({ path: file.path, reason: err.message.replace(/^[^:]+: /, '') });
      }
    }
    scope.check();

    // Matches: by path first, then by slug path for what the path map does not know (a first sync).
    const bySlug = await matchExisting(db, spaceId, baseRevision, plan, prepared, stored);
    const taken = new Set(byPath.values());
    const matches: Matches = { pages: new Map(), files: new Map(knownFiles), reusable: new Map() };
    for (const page of plan.pages) {
      const target = page.type === 'reusable' ? matches.reusable : matches.pages;
      const id = byPath.get(page.ref);
      if (id) target.set(page.ref, id);
      else {
        const slugMatch = bySlug.pages.get(page.ref) ?? bySlug.reusable.get(page.ref);
        if (slugMatch && !taken.has(slugMatch)) {
          target.set(page.ref, slugMatch);
          taken.add(slugMatch);
        }
      }
    }
    for (const [ref, id] of bySlug.files) matches.files.set(ref, id);
    relinkMatches(prepared, plan, ids.ids, matches);

    const changes = mirrorChanges(plan, prepared, stored, matches, unchanged, tree, pagesById, reusable);
    let message = [info.message.split('\n')[0] || `Commit ${commit.slice(0, 7)}`, skippedMessage(skipped)]
      .filter(Boolean)
      .join(' ');

    // The path map of this commit: every page, reusable content and file the commit has, with its id.
    const finalId = (ref: string) => matches.pages.get(ref) ?? matches.reusable.get(ref) ?? ids.ids.get(ref)!;
    const pathRows: repo.GitSyncPathRow[] = [];
    for (const page of plan.pages) {
      const path = page.body?.base;
      const oid = path ? oidOf(path) : undefined;
      if (!path || !oid) continue;
      pathRows.push({
        space_id: spaceId,
        path,
        kind: page.type === 'reusable' ? 'reusable' : 'page',
        object_id: finalId(page.ref),
        blob_oid: oid,
      });
    }
    const filePaths = new Set<string>();
    for (const file of plan.files) {
      const id =
        matches.files.get(file.ref) ??
        (stored.some((s) => s.file.ref === file.ref) ? ids.ids.get(file.ref) : undefined);
      const oid = file.path ? oidOf(file.path) : undefined;
      if (!id || !file.path || !oid) continue;
      filePaths.add(file.path);
      pathRows.push({ space_id: spaceId, path: file.path, kind: 'file', object_id: id, blob_oid: oid });
    }
    // Files of unchanged pages stay as they were.
    for (const row of known.values()) {
      if (row.kind === 'file' && !filePaths.has(row.path) && oidOf(row.path) === row.blob_oid) pathRows.push(row);
    }

    // `.gitbook.yaml`'s redirects, to the pages of the files they name (a file that is no page leads nowhere).
    const pageOfPath = new Map(pathRows.filter((r) => r.kind === 'page').map((r) => [r.path, r.object_id]));
    const redirects = Object.entries(plan.redirects ?? {}).flatMap(([source, target]) => {
      const pageId = pageOfPath.get(target);
      return pageId ? [{ space_id: spaceId, source, page_id: pageId }] : [];
    });
    const lost = Object.keys(plan.redirects ?? {}).length - redirects.length;
    if (lost > 0) {
      message += `; ${lost} redirect${lost === 1 ? '' : 's'} of .gitbook.yaml name${lost === 1 ? 's' : ''} no page of the repository`;
    }
    const record = async (tx: Executor, state: Partial<repo.GitSyncRow>) => {
      await repo.replaceGitSyncPaths(tx, spaceId, pathRows);
      await repo.replaceGitSyncRedirects(tx, spaceId, redirects);
      await repo.updateGitSync(tx, spaceId, {
        commit_oid: commit,
        content_root: plan!.root ?? '',
        synced_at: nowIso(),
        ...state,
      });
    };
    const commitRow = (revision: string): repo.GitSyncCommitRow => ({
      space_id: spaceId,
      revision_id: revision,
      oid: commit,
      message: info.message,
      ref,
      url: null,
      created_by_gitbook: 0,
      created_at: nowIso(),
    });

    if (!changes.length && !existingCr && request.standalone) {
      return { status: 'skipped', commit, message: `${message}: the space has this content already` };
    }
    if (!changes.length && !existingCr) {
      await transaction(db, async (tx) => {
        await record(tx, { revision_id: baseRevision === space.revision_id ? space.revision_id : baseRevision });
      });
      return { status: 'success', commit, revision: space.revision_id, message: `${message} (no content change)` };
    }

    const split = new Map<string, SplitBlock[]>();
    for (const page of prepared.values()) split.set(page.markdown, page.blocks);
    const bytes = new Map(stored.map(({ file, stored: s }) => [`import:${file.ref}`, { stored: s }]));
    const fetchFile = async (url: string) => {
      const found = bytes.get(url);
      if (!found) throw new NotFoundError(`No file ${url} in this sync`);
      return found;
    };
    const options = { split, ids: ids.ids, ...(await readBodiesAhead(split.values())) };
    const subject = `Git Sync: ${info.message.split('\n')[0] || 'changes'} (${commit.slice(0, 7)})`.slice(
      0,
      CHANGE_REQUEST_SUBJECT_MAX,
    );
    // The change request and the run's link to it in one transaction: a retry of the run goes on with it.
    const crId = await transaction(db, async (tx) => {
      const cr = existingCr ?? (await createChangeRequest(ctx, spaceId, { subject }, tx, baseRevision)).cr;
      if (changes.length) await updateContent(ctx, spaceId, cr.id, changes, undefined, fetchFile, { ...options, tx });
      await repo.updateGitSyncRun(tx, request.runId, { change_request_id: cr.id, updated_at: nowIso() });
      return cr.id;
    });
    if (request.standalone) {
      // A revision of its own, in a change request left open: the space and the sync's state stay as they were.
      const cr = (await findChangeRequest(db, spaceId, crId))!;
      return {
        status: 'success',
        commit,
        revision: cr.revision_id,
        message: `${message}: in change request #${cr.number}, not merged (standalone import)`,
      };
    }
    try {
      const revision = await transaction(db, async (tx) => {
        const merged = await mergeChangeRequest(ctx, spaceId, crId, tx, { fromGit: true });
        await repo.upsertGitSyncCommit(tx, commitRow(merged.revision));
        await record(tx, { revision_id: merged.revision, conflict_change_request_id: null });
        return merged.revision;
      });
      return { status: 'success', commit, revision, message };
    } catch (err) {
      if (!(err instanceof ConflictError) || err.reason !== MERGE_CONFLICTS) throw err;
    }
    // Both sides changed the same thing: the change request keeps the repository's side, its conflicts shown.
    await updateFromSpace(ctx, spaceId, crId).catch((err: unknown) => {
      if (!(err instanceof ConflictError)) throw err;
    });
    await transaction(db, async (tx) => {
      const cr = (await findChangeRequest(tx, spaceId, crId))!;
      await repo.upsertGitSyncCommit(tx, commitRow(cr.revision_id));
      await record(tx, { revision_id: cr.revision_id, conflict_change_request_id: crId });
    });
    return {
      status: 'conflict',
      commit,
      changeRequestId: crId,
      message: `${message}: it conflicts with edits made in the space, resolve them in the change request`,
    };
  } finally {
    reader.close();
    scope.close();
    plan?.close?.();
  }
}

/**
 * The content operations making the content at the last sync the commit's: changed pages written, new ones
 * inserted, pages placed where the commit has them (moved only where they are not), what the commit no longer
 * has deleted.
 */
function mirrorChanges(
  plan: ImportPlan,
  prepared: Map<string, PreparedPage>,
  stored: Array<{ file: PlannedFile; stored: StoredFile }>,
  matches: Matches,
  unchanged: Set<string>,
  tree: PageNode[],
  pagesById: Map<string, PageNode>,
  reusable: Map<string, unknown>,
): ContentChange[] {
  const changes: ContentChange[] = [];
  const newFiles = stored.filter(({ file }) => !matches.files.has(file.ref));
  if (newFiles.length) {
    changes.push({
      operation: 'insert_files',
      files: newFiles.map(({ file }) => ({
        name: file.name,
        ref: file.ref,
        url: `import:${file.ref}`,
        ...(file.contentType ? { contentType: file.contentType } : {}),
      })),
    });
  }
  const placement = new Placement(tree);
  const siblings = new Map<string | null, number>();
  const kept = new Set<string>();
  const keptReusable = new Set<string>();
  const idOf = (ref: string) => matches.pages.get(ref) ?? ref;
  for (const page of plan.pages as PlannedPage[]) {
    const body = prepared.get(page.ref);
    const existing = page.type === 'reusable' ? matches.reusable.get(page.ref) : matches.pages.get(page.ref);
    const title = fitTitle(body?.title ?? page.title);
    if (page.type === 'reusable') {
      if (existing) {
        keptReusable.add(existing);
        if (!unchanged.has(page.ref)) {
          changes.push({
            operation: 'update_reusable_content',
            reusableContent: existing,
            title,
            document: { markdown: body?.markdown ?? '' },
          });
        }
      } else {
        changes.push({
          operation: 'insert_reusable_content',
          ref: page.ref,
          title,
          ...(page.slug ? { slug: page.slug } : {}),
          ...(body?.markdown ? { document: { markdown: body.markdown } } : {}),
        });
      }
      continue;
    }
    const parentKey = page.parent ? idOf(page.parent) : null;
    const index = siblings.get(parentKey) ?? 0;
    siblings.set(parentKey, index + 1);
    const isLink = page.type === 'link' && pageHrefSchema.safeParse(page.href).success;
    if (existing) {
      kept.add(existing);
      const node = pagesById.get(existing);
      const move = placement.isAt(existing, parentKey, index) ? {} : { into: parentKey, at: index };
      placement.place(existing, parentKey, index);
      const update: ContentChange = { operation: 'update_page', page: existing, ...move };
      if (page.type === 'document' && !unchanged.has(page.ref) && page.body) {
        Object.assign(update, {
          title,
          document: { markdown: body?.markdown ?? '' },
          // The file says all of it: what its front matter leaves out, the page no longer has.
          ...pageFieldsOf(body, { every: true }),
        });
      } else if (isLink && (node?.version.href !== page.href || node?.version.title !== title)) {
        Object.assign(update, { href: page.href, title });
      }
      if (Object.keys(update).length > 2) changes.push(update);
      continue;
    }
    const type = page.type === 'link' && !isLink ? 'document' : page.type;
    changes.push({
      operation: 'insert_page',
      type,
      ref: page.ref,
      title,
      ...(parentKey ? { into: parentKey } : {}),
      at: index,
      ...(page.slug ? { slug: page.slug } : {}),
      ...pageFieldsOf(body),
      ...(isLink ? { href: page.href! } : {}),
      ...(body?.markdown ? { document: { markdown: body.markdown } } : {}),
    });
    placement.place(page.ref, parentKey, index);
  }
  // What the commit no longer has: the topmost page of each removed subtree (its pages go with it; kept pages
  // under it were moved out above, before it is deleted).
  const keepsSome = (node: PageNode): boolean => kept.has(node.id) || node.pages.some(keepsSome);
  const remove = (nodes: PageNode[]) => {
    for (const node of nodes) {
      if (kept.has(node.id)) remove(node.pages);
      else {
        if (node.pages.some(keepsSome)) remove(node.pages);
        changes.push({ operation: 'delete_page', page: node.id });
      }
    }
  };
  remove(tree);
  for (const id of reusable.keys()) {
    if (!keptReusable.has(id)) changes.push({ operation: 'delete_reusable_content', reusableContent: id });
  }
  return changes;
}
