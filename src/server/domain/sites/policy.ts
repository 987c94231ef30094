import type { Role } from '../../../shared/contract/common.js';
import type { Site } from '../../../shared/contract/sites.js';
import { definePolicy } from '../permissions/policy.js';

/**
 * Who may do what with sites: they belong to the organization, not to a collection, so the caller's organization
 * role decides. Members with the read role or higher see sites; the create role or higher (admins included)
 * manage them (create, change, publish, customize, preview, share, delete); installing an integration on one is
 * for admins. The site's `permissions` flags and every check of the site services ask this table.
 */
export const sitePolicy = definePolicy({
  view: 'read',
  access: 'read',
  edit: 'create',
  create: 'create',
  admin: 'create',
  installIntegration: 'admin',
  viewAdaptiveSchema: 'read',
  editAdaptiveSchema: 'create',
});

export type SiteAction = keyof typeof sitePolicy.rules;

/** The `permissions` of a site as a caller with `role` in its organization sees them. */
export function sitePermissions(role: Role | null): Site['permissions'] {
  return sitePolicy.flags(role);
}
