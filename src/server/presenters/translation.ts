import type { TranslationSettings, TranslationLanguage } from '../../shared/contract/translations.js';
import type { Role } from '../../shared/contract/common.js';
import type { TranslationSettingsTable } from '../storage/schema.js';
import type { Urls } from '../lib/urls.js';
import { translationPermissions } from '../domain/translations/policy.js';

export function presentTranslation(urls: Urls, row: TranslationSettingsTable, role: Role | null): TranslationSettings {
  return {
    object: 'translation-settings',
    id: row.id,
    title: row.title,
    languages: JSON.parse(row.languages) as TranslationLanguage[],
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    permissions: translationPermissions(role),
    urls: { location: urls.api(`/orgs/${row.organization_id}/translations/${row.id}`) },
  };
}
