import type { Role } from '../../../shared/contract/common.js';
import type { OpenApiSpec } from '../../../shared/contract/openapi.js';
import { definePolicy } from '../permissions/policy.js';

/**
 * Who may do what with the OpenAPI specifications of an organization, by organization role: members who are not
 * guests read them (guests get 403), the create role changes them. The specification's `permissions` flags and
 * the OpenAPI service's checks ask this table.
 */
export const openApiPolicy = definePolicy({
  view: 'read',
  edit: 'create',
});

/**
 * The `permissions` of a specification. `view` is true: a specification is only ever shown to whoever the
 * service let see it.
 */
export function openApiPermissions(role: Role | null): OpenApiSpec['permissions'] {
  return { view: true, edit: openApiPolicy.can(role, 'edit') };
}
