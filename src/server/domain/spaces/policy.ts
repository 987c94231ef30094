import type { Role } from '../../../shared/contract/common.js';
import type { Space } from '../../../shared/contract/spaces.js';
import { definePolicy } from '../permissions/policy.js';

/**
 * Who may do what with a space, by their level on it (the resolver computes the level; see
 * permissions/resolver.ts). The space's `permissions` flags and every check of the services that act on a space
 * (spaces, change requests, comments, content, imports, grants) ask this one table.
 */
export const spacePolicy = definePolicy({
  view: 'read',
  access: 'read',
  admin: 'admin',
  viewInviteLinks: 'admin',
  edit: 'edit',
  triggerGitSync: 'edit',
  comment: 'comment',
  merge: 'review',
  review: 'review',
  installIntegration: 'admin',
});

export type SpaceAction = keyof typeof spacePolicy.rules;

/** The `permissions` of a space as the caller sees it. */
export function spacePermissions(level: Role | null): Space['permissions'] {
  return spacePolicy.flags(level);
}
