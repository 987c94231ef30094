import type { ChangeRequest, ChangeRequestConflict } from '../../shared/contract/change-requests.js';
import type { Role } from '../../shared/contract/common.js';
import type { ChangeRequestView } from '../storage/repos/change-requests.js';
import type { SpaceRow } from '../storage/repos/spaces.js';
import { changeRequestPermissions, isMerged } from '../domain/change-requests/policy.js';
import { changeRequestBase } from '../domain/change-requests/service.js';
import { pendingUpdate } from '../domain/change-requests/merge.js';
import type { Conflict } from '../domain/content/merge-revisions.js';
import { presentUser } from './user.js';
import type { Urls } from '../lib/urls.js';

/** `viewerId` is the caller: an author may edit and merge their change request, not review it. */
export function presentChangeRequest(
  urls: Urls,
  cr: ChangeRequestView,
  space: SpaceRow,
  level: Role | null,
  viewerId: string,
): ChangeRequest {
  const open = !isMerged(cr);
  const conflicts = (pendingUpdate(cr)?.conflicts ?? []).filter((c) => !c.resolution);
  return {
    object: 'change-request',
    id: cr.id,
    number: cr.number,
    status: cr.status,
    subject: cr.subject,
    createdBy: presentUser(urls, {
      id: cr.created_by,
      display_name: cr.author_name,
      email: cr.author_email,
      photo_url: cr.author_photo,
    }),
    createdAt: cr.created_at,
    updatedAt: cr.updated_at,
    space: cr.space_id,
    revision: cr.revision_id,
    revisionInitial: cr.revision_initial,
    ...(cr.revision_merged_ancestor ? { revisionMergedAncestor: cr.revision_merged_ancestor } : {}),
    ...(cr.revision_merged ? { revisionMerged: cr.revision_merged } : {}),
    ...(cr.merged_by && cr.merger_name !== null
      ? {
          mergedBy: presentUser(urls, {
            id: cr.merged_by,
            display_name: cr.merger_name,
            email: cr.merger_email ?? '',
            photo_url: cr.merger_photo,
          }),
        }
      : {}),
    ...(cr.merged_at ? { mergedAt: cr.merged_at } : {}),
    comments: cr.comments,
    // Not up to date: the space has moved on since the change request's base.
    outdated: open && changeRequestBase(cr) !== space.revision_id,
    conflicts: conflicts.length,
    urls: {
      app: urls.app(`/o/${space.organization_id}/spaces/${space.id}/change-requests/${cr.number}`),
      location: urls.api(`/spaces/${space.id}/change-requests/${cr.id}`),
    },
    permissions: changeRequestPermissions(level, cr, viewerId),
  };
}

export function presentConflicts(conflicts: Conflict[]): {
  items: ChangeRequestConflict[];
  count: number;
  unresolved: number;
} {
  return {
    items: conflicts.map((c) => ({ object: 'change-request-conflict' as const, ...c })),
    count: conflicts.length,
    unresolved: conflicts.filter((c) => !c.resolution).length,
  };
}
