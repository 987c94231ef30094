import type { ServiceContext } from '../context.js';
import type { Executor } from '../../storage/db.js';
import { loadSpace } from '../spaces/service.js';
import { loadChangeRequest } from '../change-requests/service.js';
import { RevisionReader, revisionOfSpace, type RevisionRow } from './model.js';
import type { Role } from '../../../shared/contract/common.js';
import type { SpaceRow } from '../../storage/repos/spaces.js';
import type { ChangeRequestView } from '../../storage/repos/change-requests.js';

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
    const { space, level, cr } = await loadChangeRequest(db, ctx, spaceId, source.id, 'read', 'read it');
    const revision = await revisionOfSpace(db, spaceId, cr.revision_id);
    return { space, level, revision, changeRequest: cr, reader: new RevisionReader(db, revision) };
  }
  const { row: space, level } = await loadSpace(db, ctx, spaceId, 'read', 'read its content');
  const revision = await revisionOfSpace(db, spaceId, source.kind === 'revision' ? source.id : space.revision_id);
  return { space, level, revision, reader: new RevisionReader(db, revision) };
}
