import type { Role } from '../../../shared/contract/common.js';
import type { Integration } from '../../../shared/contract/integrations.js';
import { organizationPolicy } from '../organizations/policy.js';

/**
 * Who may do what with an integration: the admins of the organization that owns it change it; anyone who sees it
 * may install it (on an organization they administer: `organizationPolicy`'s `installIntegration`).
 * `ownerRole` is the caller's role in the owner organization (null for guests and outsiders). The integration's
 * `permissions` flags and the integration service's checks ask this module.
 */
export function administersIntegration(ownerRole: Role | null): boolean {
  return organizationPolicy.can(ownerRole, 'admin');
}

export function integrationPermissions(admin: boolean): Integration['permissions'] {
  return { admin, install: true };
}
