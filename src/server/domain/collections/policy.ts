import type { Role } from '../../../shared/contract/common.js';
import type { Collection } from '../../../shared/contract/collections.js';
import { definePolicy } from '../permissions/policy.js';

/**
 * Who may do what with a collection, by their level on it (see permissions/resolver.ts). The collection's
 * `permissions` flags and the checks of the collection service (and of new items placed inside it) ask this table.
 */
export const collectionPolicy = definePolicy({
  view: 'read',
  admin: 'admin',
  viewInviteLinks: 'admin',
  create: 'create',
});

export type CollectionAction = keyof typeof collectionPolicy.rules;

/** The `permissions` of a collection as the caller sees it. */
export function collectionPermissions(level: Role | null): Collection['permissions'] {
  return collectionPolicy.flags(level);
}
