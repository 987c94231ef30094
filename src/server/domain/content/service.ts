import type { ServiceContext } from '../context.js';
import type { Executor } from '../../storage/db.js';
import { loadSpace } from '../spaces/service.js';
import { loadChangeRequest } from '../change-requests/service.js';
import { RevisionReader, revisionOfSpace, type RevisionRow } from './model.js';
import type { Role } from '../../../shared/contract/common.js';
import type { SpaceRow } from '../../storage/repos/spaces.js';
import type { ChangeRequestView } from '../../storage/repos/change-requests.js';
import { countHistoryRevisions, findRevision, listHistoryRevisions } from '../../storage/repos/spaces.js';
import { usersByIds } from '../../storage/repos/users.js';
import { findChangeRequest } from '../../storage/repos/change-requests.js';
import { openBlob } from '../../storage/repos/objects.js';
import { keysetPage } from '../../storage/pagination.js';
import { semanticChanges } from './changes.js';
import { fileDownloadUrl } from '../../lib/urls.js';

/** Where content is read from: the space's current revision, a change request's, or any revision of the space. */
export type ContentSource =
  { kind: 'space' } | { kind: 'change-request'; id: string } | { kind: 'revision'; id: string };

export interface ResolvedContent {
  space: SpaceRow;
  level: Role | null;
  revision: RevisionRow;
  changeRequest?: ChangeRequestView;
  reader: RevisionReader;
}

/** Resolves a source the caller may read (404 otherwise). */
export async function readContent(
  db: Executor,
  ctx: ServiceContext,
  spaceId: string,
  source: ContentSource,
): Promise<ResolvedContent> {
  if (source.kind === 'change-request') {
    const { space, level, cr } = await loadChangeRequest(db, ctx, spaceId, source.id, 'view', 'read it');
    const revision = await revisionOfSpace(db, spaceId, cr.revision_id);
    return { space, level, revision, changeRequest: cr, reader: new RevisionReader(db, revision) };
  }
  const { row: space, level } = await loadSpace(db, ctx, spaceId, 'view', 'read its content');
  const revision = await revisionOfSpace(db, spaceId, source.kind === 'revision' ? source.id : space.revision_id);
  return { space, level, revision, reader: new RevisionReader(db, revision) };
}

/** The change request a merge revision merged, shown with the revision; undefined for any other revision. */
export async function mergedChangeRequest(db: Executor, c: ResolvedContent) {
  return c.revision.type === 'merge' && c.revision.change_request_id
    ? await findChangeRequest(db, c.space.id, c.revision.change_request_id)
    : undefined;
}

/** A file of the content read, its bytes ready to read; undefined when there is no such file or no bytes for it. */
export async function readFileBytes(db: Executor, c: ResolvedContent, fileId: string) {
  const file = await c.reader.file(fileId);
  const blob = file && (await openBlob(db, file.blob));
  return file && blob ? { file, blob } : undefined;
}

/** The history of a space, newest first (see listHistoryRevisions), to whoever may read the space. */
export async function listRevisions(ctx: ServiceContext, spaceId: string, query: { page?: string; limit: number }) {
  const { row: space } = await loadSpace(ctx.db, ctx, spaceId, 'view', 'read its history');
  const page = await keysetPage({
    page: query.page,
    limit: query.limit,
    arity: 1,
    rows: (after, take) => listHistoryRevisions(ctx.db, spaceId, after?.[0], take),
    count: () => countHistoryRevisions(ctx.db, spaceId),
    key: (row) => [row.id],
  });
  const users = await usersByIds(
    ctx.db,
    page.items.flatMap((row) => (row.created_by ? [row.created_by] : [])),
  );
  return { ...page, space, users };
}

/**
 * What a revision of the space changed against its first parent (for a merge, the space's revision before it).
 * A revision without a parent in this space (the first one, or a duplicate's) is compared with empty content.
 */
export async function revisionChanges(ctx: ServiceContext, spaceId: string, revisionId: string, limit: number) {
  const c = await readContent(ctx.db, ctx, spaceId, { kind: 'revision', id: revisionId });
  const parentId = (JSON.parse(c.revision.parents) as string[])[0];
  const found = parentId ? await findRevision(ctx.db, parentId) : undefined;
  const parent: RevisionRow =
    found && found.space_id === spaceId
      ? found
      : { ...c.revision, id: '', parents: '[]', pages_root: null, files_root: null, variables: '{}' };
  const all = await semanticChanges(new RevisionReader(ctx.db, parent), c.reader, (rev, fileId) =>
    fileDownloadUrl(ctx.urls, spaceId, rev, fileId),
  );
  return { changes: all.slice(0, limit), ...(all.length > limit ? { more: all.length - limit } : {}) };
}
