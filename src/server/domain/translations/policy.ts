import type { Role } from '../../../shared/contract/common.js';
import type { TranslationSettings } from '../../../shared/contract/translations.js';
import { definePolicy } from '../permissions/policy.js';

/**
 * Who may do what with the translation settings of an organization, by organization role: members who are not
 * guests read them (guests get 403), admins change them. The settings' `permissions` flags and the translation
 * service's checks ask this table.
 */
export const translationPolicy = definePolicy({
  view: 'read',
  edit: 'admin',
});

/** The `permissions` of translation settings. `view` is true: they are only shown to whoever may see them. */
export function translationPermissions(role: Role | null): TranslationSettings['permissions'] {
  return { view: true, edit: translationPolicy.can(role, 'edit') };
}
