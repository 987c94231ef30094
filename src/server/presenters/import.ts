import type { ImportRun, ImportSkipped } from '../../shared/contract/imports.js';
import type { ImportRunRow } from '../storage/repos/imports.js';
import type { Urls } from '../lib/urls.js';
import { redactUrl } from '../lib/redact-url.js';

export function presentImportRun(urls: Urls, row: ImportRunRow): ImportRun {
  return {
    object: 'import',
    id: row.id,
    source: row.source as ImportRun['source'],
    // Every reader of the space follows the import: the URL without credentials or query (tokens, often).
    ...(row.url ? { url: redactUrl(row.url) } : {}),
    status: row.status,
    stage: row.stage as ImportRun['stage'],
    importedResources: row.imported_resources,
    totalResources: row.total_resources,
    ...(row.change_request_id ? { changeRequest: row.change_request_id } : {}),
    ...(row.revision_id ? { revision: row.revision_id } : {}),
    ...(row.message ? { message: row.message } : {}),
    ...(row.skipped ? { skipped: JSON.parse(row.skipped) as ImportSkipped[] } : {}),
    createdBy: row.created_by,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    urls: { location: urls.api(`/spaces/${row.space_id}/imports/${row.id}`) },
  };
}
