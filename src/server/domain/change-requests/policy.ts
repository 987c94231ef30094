import type { Role } from '../../../shared/contract/common.js';
import type { ChangeRequest } from '../../../shared/contract/change-requests.js';
import { spacePolicy, type SpaceAction } from '../spaces/policy.js';

/**
 * Who may do what with a change request: the caller's level on its space decides, by the space policy (viewing
 * needs `view`, editing `edit`, merging `merge`, reviewing `review`, commenting `comment`); a merged change request
 * can no longer be edited, merged or reviewed (409), and nobody reviews their own (403). The change request's
 * `permissions` flags and the checks of the change-request, review and merge services ask this module.
 */
export type ChangeRequestAction = Extract<SpaceAction, 'view' | 'edit' | 'merge' | 'review' | 'comment'>;

interface ChangeRequestLike {
  status: string;
  created_by: string;
}

/** A merged change request is final. */
export function isMerged(cr: Pick<ChangeRequestLike, 'status'>): boolean {
  return cr.status === 'merged';
}

/** The author of a change request may edit and merge it, not review it. */
export function isAuthor(cr: Pick<ChangeRequestLike, 'created_by'>, userId: string): boolean {
  return cr.created_by === userId;
}

/** The `permissions` of a change request as a caller with `level` on its space sees them. */
export function changeRequestPermissions(
  level: Role | null,
  cr: ChangeRequestLike,
  viewerId: string,
): ChangeRequest['permissions'] {
  const open = !isMerged(cr);
  return {
    edit: open && spacePolicy.can(level, 'edit'),
    merge: open && spacePolicy.can(level, 'merge'),
    review: open && spacePolicy.can(level, 'review') && !isAuthor(cr, viewerId),
    comment: spacePolicy.can(level, 'comment'),
  };
}
