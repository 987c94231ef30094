import type { OpenApiSpec, OpenApiVersion } from '../../shared/contract/openapi.js';
import type { Role } from '../../shared/contract/common.js';
import type { OpenApiSpecRow, OpenApiVersionMeta } from '../storage/repos/openapi.js';
import { openApiPermissions } from '../domain/openapi/policy.js';
import type { Urls } from '../lib/urls.js';

const specPath = (row: Pick<OpenApiSpecRow, 'organization_id' | 'slug'>) =>
  `/orgs/${row.organization_id}/openapi/${row.slug}`;

/** Where a version's text is served (see routes/openapi.ts, `…/raw`). */
export function versionRawUrl(urls: Urls, spec: OpenApiSpecRow, versionId: string): string {
  return urls.api(`${specPath(spec)}/versions/${versionId}/raw`);
}

export function presentSpec(urls: Urls, row: OpenApiSpecRow, role: Role | null): OpenApiSpec {
  const errors = row.last_errors ? (JSON.parse(row.last_errors) as Array<{ message: string; code?: string }>) : [];
  return {
    object: 'openapi-spec',
    id: row.id,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    slug: row.slug,
    ...(row.source_url ? { sourceURL: row.source_url } : {}),
    processingState: row.processing_state as OpenApiSpec['processingState'],
    visibility: row.visibility as OpenApiSpec['visibility'],
    ...(row.last_version_id ? { lastVersion: row.last_version_id } : {}),
    ...(row.last_processed_at ? { lastProcessedAt: row.last_processed_at } : {}),
    ...(row.last_error_code
      ? { lastProcessErrorCode: row.last_error_code as OpenApiSpec['lastProcessErrorCode'] }
      : {}),
    ...(errors.length ? { lastProcessedErrors: errors } : {}),
    lastProcessedErrorCount: errors.length,
    permissions: openApiPermissions(role),
    urls: {
      location: urls.api(specPath(row)),
      app: urls.app(`/o/${row.organization_id}/openapi/${row.slug}`),
      ...(row.visibility === 'public' && row.last_version_id ? { published: versionRawUrl(urls, row, 'latest') } : {}),
    },
  };
}

export function presentVersion(urls: Urls, spec: OpenApiSpecRow, version: OpenApiVersionMeta): OpenApiVersion {
  return {
    object: 'openapi-spec-version',
    id: version.id,
    createdAt: version.created_at,
    url: versionRawUrl(urls, spec, version.id),
    urls: { location: urls.api(`${specPath(spec)}/versions/${version.id}`) },
  };
}
