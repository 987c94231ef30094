import type { Executor } from '../../storage/db.js';
import * as repo from '../../storage/repos/links.js';
import type { LinkScopeRow } from '../../storage/repos/links.js';
import { lockSpace } from '../../storage/repos/change-requests.js';
import { findRevision, findSpace } from '../../storage/repos/spaces.js';
import { nodeStore, getObjects } from '../../storage/repos/objects.js';
import { Trie } from '../content/tree.js';
import { ROOT, type PageEntry, type PageVersion, type RevisionRow } from '../content/model.js';
import { documentLinks, type LinksAhead } from './documents.js';
import { copyScope, syncScope } from './maintain.js';

/**
 * What the code that changes a revision calls, inside its own transaction, so that links never lag behind
 * content: a space's links follow every change of its `revision_id`, a change request's links (once someone
 * asked for them) every change of its content.
 */

/**
 * The space's content went from `previous` to `revision` (a merge). A space whose links were never built (one from
 * before links were kept, or computed for another PUBLIC_URL) is left to the start-up pass or the first read,
 * unless it was empty: building a big space from nothing is no work for a merge's transaction.
 */
export async function spaceRevisionChanged(
  tx: Executor,
  spaceId: string,
  previous: RevisionRow,
  revision: RevisionRow,
  appBase: string,
): Promise<void> {
  const scope = await repo.findScope(tx, spaceId);
  const empty = previous.pages_root === null && previous.files_root === null;
  if ((!scope || scope.app_base !== appBase) && !empty) return;
  await syncScope(tx, { id: spaceId, spaceId, changeRequestId: null, revision }, { appBase });
}

/**
 * The change request's content went from `before` to `after` (an edit, an update from the space). Its links
 * follow if it has any yet; either way the links of the bodies it wrote are stored (from `ahead`, read before
 * the transaction), so that merging it later parses nothing.
 */
export async function changeRequestRevisionChanged(
  tx: Executor,
  cr: { id: string; space_id: string },
  before: RevisionRow,
  after: RevisionRow,
  appBase: string,
  ahead?: LinksAhead,
): Promise<void> {
  if (await repo.findScope(tx, cr.id)) {
    await syncScope(
      tx,
      { id: cr.id, spaceId: cr.space_id, changeRequestId: cr.id, revision: after },
      { appBase, ahead },
    );
    return;
  }
  if (!ahead?.size) return;
  const diff = await new Trie(nodeStore(tx)).diff(before.pages_root, after.pages_root);
  const hashes = diff.flatMap((d) => (d.key !== ROOT && d.after ? [(d.after as unknown as PageEntry).v] : []));
  const versions = await getObjects<PageVersion>(tx, hashes);
  const documents = [...versions.values()].flatMap((v) => (v.document ? [v.document] : []));
  await documentLinks(tx, documents, ahead);
}

/** The change request is merged: its links are the space's now. */
export async function changeRequestClosed(tx: Executor, changeRequestId: string): Promise<void> {
  await repo.deleteScope(tx, changeRequestId);
}

/**
 * A duplicate of a space starts with the same content (a new revision with the same roots): its links are a copy
 * of the original's, when those are up to date (otherwise they are built when first read).
 */
export async function spaceDuplicated(
  tx: Executor,
  from: { spaceId: string; revisionId: string },
  to: { spaceId: string; revision: RevisionRow },
  appBase: string,
): Promise<void> {
  const scope = await repo.findScope(tx, from.spaceId);
  if (!scope || scope.revision_id !== from.revisionId || scope.app_base !== appBase) return;
  await copyScope(tx, scope, { id: to.spaceId, spaceId: to.spaceId, changeRequestId: null });
  await syncScope(
    tx,
    { id: to.spaceId, spaceId: to.spaceId, changeRequestId: null, revision: to.revision },
    { appBase },
  );
}

/**
 * Brings the space's links to its current revision (building them if there are none), holding the space's row
 * lock as merges do: for reads that find them behind, and for the start-up build. `built`: the number of targets
 * when they were built from nothing, else 0.
 */
export async function syncSpaceLinks(
  tx: Executor,
  spaceId: string,
  appBase: string,
): Promise<{ scope: LinkScopeRow; built: number }> {
  await lockSpace(tx, spaceId);
  const space = (await findSpace(tx, spaceId))!;
  const revision = (await findRevision(tx, space.revision_id))!;
  const built = await syncScope(tx, { id: spaceId, spaceId, changeRequestId: null, revision }, { appBase });
  return { scope: (await repo.findScope(tx, spaceId))!, built };
}
