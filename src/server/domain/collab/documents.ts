import * as Y from 'yjs';
import { getSchema, type JSONContent } from '@tiptap/core';
import { updateYFragment } from '@tiptap/y-tiptap';
import type { Db, Executor } from '../../storage/db.js';
import { isUniqueViolation, transaction } from '../../storage/db.js';
import * as repo from '../../storage/repos/collab.js';
import { findUserById } from '../../storage/repos/users.js';
import type { Urls } from '../../lib/urls.js';
import { newId } from '../../lib/ids.js';
import { nowIso } from '../../lib/time.js';
import { ConflictError, InvalidError, NotFoundError } from '../../lib/errors.js';
import { PAGE_MARKDOWN_MAX } from '../../../shared/contract/content.js';
import { MARKDOWN_DEPTH_MESSAGE, tooDeeplyNested } from '../../../shared/markdown-limits.js';
import { COLLAB_FIELD, parseCollabDocumentName } from '../../../shared/contract/collab.js';
import { EDITOR_SCHEMA_VERSION, editorExtensions } from '../../../shared/editor/markdown-blocks.js';
import { workers } from '../../workers/pool.js';
import type { Actor } from '../permissions/resolver.js';
import { loadChangeRequest, requireEditable, updateContent } from '../change-requests/service.js';
import { changeRequestPermissions } from '../change-requests/policy.js';
import { revisionOfSpace, RevisionReader } from '../content/model.js';
import { blocksToMarkdown, parseBlocks } from '../content/blocks.js';
import { mergeBlocks } from '../content/merge.js';

/**
 * The shared documents of pages edited together (the server side of live collaboration). A page's shared document
 * starts from its markdown in the change request, read into the visual editor's document (shared/editor); every
 * update an editor sends is stored before it is acknowledged; the change request's page is written from the shared
 * document (`write`), and a change of the page made elsewhere (an API edit, an update from the space) is brought into
 * it (`follow`). Several processes may hold the same document: the database is what they agree on.
 */

const schema = getSchema(editorExtensions());

/** A change request's page, as one shared document names it. */
export interface CollabTarget {
  name: string;
  spaceId: string;
  number: number;
  pageId: string;
  changeRequestId: string;
  organizationId: string;
}

export interface CollabAccess {
  target: CollabTarget;
  /** May watch, not type: a reader of the change request, or one that can no longer change. */
  readOnly: boolean;
}

/** The document page `pageId` of a revision (its body not read), with the revision's reader; undefined when none. */
async function documentPage(db: Executor, spaceId: string, revisionId: string, pageId: string) {
  const reader = new RevisionReader(db, await revisionOfSpace(db, spaceId, revisionId));
  const node = await reader.page(pageId);
  return node && node.version.type === 'document' ? { reader, node } : undefined;
}

/** The page's markdown in the change request's current revision, or undefined when it has no such document page. */
async function pageMarkdown(db: Executor, spaceId: string, revisionId: string, pageId: string) {
  const found = await documentPage(db, spaceId, revisionId, pageId);
  return found && blocksToMarkdown(await found.reader.document(found.node.version));
}

/**
 * What `actor` may do with the shared document `name`: watch it (they may view the change request) or also edit
 * it (they may edit the change request, and it is open). Throws NotFound for a name that is no document page of a
 * change request the actor may see, as for one that does not exist.
 */
export async function collabAccess(db: Db, urls: Urls, actor: Actor, name: string): Promise<CollabAccess> {
  const parts = parseCollabDocumentName(name);
  if (!parts) throw new NotFoundError('No such page of a change request');
  const ctx = { db, urls, actor };
  const { space, level, cr } = await loadChangeRequest(
    db,
    ctx,
    parts.spaceId,
    String(parts.number),
    'view',
    'watch it',
  );
  // Checked every few seconds for each connection: the page's body is not read.
  if (space.id !== parts.spaceId || !(await documentPage(db, space.id, cr.revision_id, parts.pageId))) {
    throw new NotFoundError('No such page of a change request');
  }
  let editable = changeRequestPermissions(level, cr, actor.userId).edit;
  try {
    requireEditable(space, cr);
  } catch {
    editable = false;
  }
  return {
    target: { name, ...parts, changeRequestId: cr.id, organizationId: space.organization_id },
    readOnly: !editable,
  };
}

/** Who an editor's cursor says they are: their account's id and name (its e-mail address when it has no name). */
export async function collabIdentity(db: Db, userId: string): Promise<{ id: string; name: string }> {
  const user = await findUserById(db, userId);
  if (!user) throw new NotFoundError('No such account');
  return { id: user.id, name: user.display_name || user.email };
}

/** Where `doc`'s updates come from, when they are not an editor's: the server's own changes, another process's. */
export const SERVER_ORIGIN = Symbol('collab-server');
export const REMOTE_ORIGIN = Symbol('collab-remote');

/**
 * The shared document as markdown: the blocks it did not change written as they are in `base`. Read in the worker
 * pool (convert.ts), in the organization's share of it.
 */
export function documentMarkdown(doc: Y.Doc, base: string, organization: string): Promise<string> {
  const state = Y.encodeStateAsUpdate(doc);
  return workers.run('collabMarkdown', { state, base }, state.length + base.length, { organization });
}

/** The editor's document `markdown` reads as (in the worker pool). */
function editorDocument(markdown: string, organization: string): Promise<JSONContent> {
  return workers.run('collabDocument', markdown, markdown.length, { organization });
}

/** Makes the shared document hold `json` (changing only what differs), as the server. */
function setDocument(doc: Y.Doc, json: JSONContent) {
  const node = schema.nodeFromJSON(json);
  doc.transact(() => {
    updateYFragment(doc, doc.getXmlFragment(COLLAB_FIELD), node, { mapping: new Map(), isOMark: new Map() });
  }, SERVER_ORIGIN);
}

/**
 * Both the shared document (`ours`) and the page (`theirs`) changed since `base`: merged block by block as change
 * requests merge; a block both changed keeps the shared document's version (what people are typing).
 */
function mergeMarkdown(base: string, ours: string, theirs: string): string {
  let n = 0;
  const id = () => `b${n++}`;
  const b = parseBlocks(base, [], id);
  return blocksToMarkdown(mergeBlocks(b, parseBlocks(ours, b, id), parseBlocks(theirs, b, id)).blocks);
}

export class CollabDocuments {
  constructor(
    private readonly db: Db,
    private readonly urls: Urls,
    /** Called with each update the server stored (its own changes, made here): to tell the other processes. */
    private readonly stored: (name: string, id: string) => Promise<void>,
  ) {}

  /** Stores an update of the document; answers its id. */
  async append(db: Executor, name: string, update: Uint8Array): Promise<string> {
    const id = newId();
    await repo.insertCollabUpdate(db, { id, name, data: update, created_at: nowIso() });
    return id;
  }

  /**
   * Fills `doc` (empty, just created) with the shared document: its stored updates, or, the first time the page is
   * edited together, the page's markdown; then brings in what changed on the page since (`follow`).
   */
  async load(target: CollabTarget, doc: Y.Doc): Promise<void> {
    const existing = await repo.findCollabDocument(this.db, target.name);
    const current = existing?.schema_version === EDITOR_SCHEMA_VERSION;
    if (existing && !current) {
      // Made by another version of the editor: its page holds what was typed in it (written when its last editor
      // left, or when the server stopped); it starts anew from there.
      await transaction(this.db, (tx) => repo.deleteCollabDocument(tx, target.name));
    }
    if (!current) {
      const { revision } = await this.changeRequest(target);
      const markdown = await pageMarkdown(this.db, target.spaceId, revision, target.pageId);
      if (markdown === undefined) throw new NotFoundError('No such page of a change request');
      const seed = new Y.Doc();
      setDocument(seed, await editorDocument(markdown, target.organizationId));
      const now = nowIso();
      try {
        await transaction(this.db, async (tx) => {
          const created = await repo.insertCollabDocumentIfAbsent(tx, {
            name: target.name,
            change_request_id: target.changeRequestId,
            page_id: target.pageId,
            markdown,
            schema_version: EDITOR_SCHEMA_VERSION,
            created_at: now,
            updated_at: now,
          });
          // Another process created it meanwhile: its first update is the document's start, not this one.
          if (created) await this.append(tx, target.name, Y.encodeStateAsUpdate(seed));
        });
      } catch (error) {
        if (!isUniqueViolation(error)) throw error;
      }
      seed.destroy();
    }
    const updates = await repo.collabUpdates(this.db, target.name);
    Y.applyUpdate(doc, Y.mergeUpdates(updates.map((u) => u.data)), REMOTE_ORIGIN);
    await this.follow(target, doc);
  }

  private async changeRequest(target: CollabTarget) {
    const revisions = await repo.changeRequestRevisions(this.db, [target.changeRequestId]);
    const revision = revisions.get(target.changeRequestId);
    if (!revision) throw new NotFoundError('Change request not found');
    return { revision };
  }

  /**
   * Brings into the shared document what changed on the page since the document was last in step with it (an edit
   * through the API, an update from the space). Answers whether the document now differs from the page (then
   * `write` should follow). One process does it: the one that moves the document's markdown first.
   */
  async follow(target: CollabTarget, doc: Y.Doc): Promise<boolean> {
    const row = await repo.findCollabDocument(this.db, target.name);
    if (!row) return false;
    const { revision } = await this.changeRequest(target);
    const page = await pageMarkdown(this.db, target.spaceId, revision, target.pageId);
    if (page === undefined || page === row.markdown) return false;
    // The document as it is now: what editors type while the page is read and merged is kept (see below).
    const snapshot = Y.encodeStateAsUpdate(doc);
    const ours = await documentMarkdown(doc, row.markdown, target.organizationId);
    const next = ours === row.markdown ? page : mergeMarkdown(row.markdown, ours, page);
    const json = await editorDocument(next, target.organizationId);
    if (!(await repo.moveCollabMarkdown(this.db, target.name, row.markdown, page, nowIso()))) return false;
    // The change is made on a copy of the document as it was read, and applied as an update: one more editor's
    // changes, merged with whatever the others typed meanwhile rather than writing over it.
    const copy = new Y.Doc();
    const changes: Uint8Array[] = [];
    try {
      Y.applyUpdate(copy, snapshot);
      copy.on('update', (update: Uint8Array) => changes.push(update));
      setDocument(copy, json);
    } finally {
      copy.destroy();
    }
    if (!changes.length) return next !== page;
    const update = Y.mergeUpdates(changes);
    Y.applyUpdate(doc, update, SERVER_ORIGIN);
    const id = await this.append(this.db, target.name, update);
    await this.stored(target.name, id);
    return next !== page;
  }

  /**
   * Writes the shared document to the change request's page, as `actor` (the last to edit it), when it differs
   * from what the page holds; the page changed elsewhere meanwhile is brought in first (`follow`). Compacts the
   * document's stored updates into one.
   */
  async write(target: CollabTarget, doc: Y.Doc, actor: Actor): Promise<void> {
    for (let attempt = 0; attempt < 3; attempt++) {
      await this.follow(target, doc);
      const row = await repo.findCollabDocument(this.db, target.name);
      if (!row) return;
      const markdown = await documentMarkdown(doc, row.markdown, target.organizationId);
      if (markdown === row.markdown) break;
      // The limits of every page body (the API's): a page past them is not written (what was typed stays stored).
      if (markdown.length > PAGE_MARKDOWN_MAX) {
        throw new InvalidError('markdown', `the page is longer than ${PAGE_MARKDOWN_MAX} characters of markdown`);
      }
      if (tooDeeplyNested(markdown)) throw new InvalidError('markdown', MARKDOWN_DEPTH_MESSAGE);
      const { revision } = await this.changeRequest(target);
      try {
        await transaction(this.db, async (tx) => {
          // The document's markdown moves with the page, in one transaction: another process writing the same
          // document meanwhile finds it moved, and writes nothing twice.
          if (!(await repo.moveCollabMarkdown(tx, target.name, row.markdown, markdown, nowIso()))) {
            throw new ConflictError('written meanwhile');
          }
          const ctx = { db: this.db, urls: this.urls, actor };
          const edit = { operation: 'update_page' as const, page: target.pageId, document: { markdown } };
          const result = await updateContent(ctx, target.spaceId, String(target.number), [edit], revision, noFetch, {
            tx,
          });
          // What the page reads back as (its blocks written out) is what the document is now in step with.
          const stored = await pageMarkdown(tx, target.spaceId, result.cr.revision_id, target.pageId);
          if (stored !== undefined && stored !== markdown) {
            await repo.moveCollabMarkdown(tx, target.name, markdown, stored, nowIso());
          }
        });
        break;
      } catch (error) {
        if (!(error instanceof ConflictError)) throw error;
        // The change request or the document moved meanwhile: read them again.
      }
    }
    await this.compact(target.name);
  }

  /** Merges a document's stored updates into one, once there are many (counted first: this follows every write). */
  async compact(name: string, threshold = 200): Promise<void> {
    if ((await repo.countCollabUpdates(this.db, name)) < threshold) return;
    const updates = await repo.collabUpdates(this.db, name);
    const merged = Y.mergeUpdates(updates.map((u) => u.data));
    await transaction(this.db, (tx) =>
      repo.replaceCollabUpdates(
        tx,
        name,
        updates.map((u) => u.id),
        { id: updates[updates.length - 1]!.id + '0', data: merged, created_at: nowIso() },
      ),
    );
  }

  /** The update stored under `id`, when it is one of document `name`'s. */
  async update(name: string, id: string): Promise<Uint8Array | undefined> {
    const row = await repo.collabUpdate(this.db, id);
    return row?.name === name ? row.data : undefined;
  }

  /** The current revision of these change requests. */
  revisions(ids: string[]) {
    return repo.changeRequestRevisions(this.db, ids);
  }
}

async function noFetch(): Promise<never> {
  throw new ConflictError('A page written from the shared document fetches no file');
}
